import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { maskSecret } from "../contract";
import { buildServer } from "../scripts/build-server";
import { bundled, type BundledEntry } from "../test-support/bundles";
import { copyTemplateInto } from "../test-support/data-dir-template";
import { createSecretBox, loadSecretKey } from "./crypto";
import { openPglite } from "./db/client";
import { botSettings } from "./db/schema";
import { createBotSettings } from "./shop/settings";

// The server and the maintenance scripts as an operator runs them: real processes, a real folder.

const ROOT = path.resolve(import.meta.dirname, "..");
const PASSWORD = "operator password 1";

type Run = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends first. */
  waitForOutput(pattern: RegExp): Promise<RegExpMatchArray>;
};

const running: Run[] = [];
const tempDirs: string[] = [];

/**
 * An empty DATA_DIR, as a new owner's first start finds it (the server makes and migrates the
 * database); `migrated`: holding a copy of the run's migrated database instead, for the tests about
 * something else (test-support/data-dir-template.ts), which then skip initdb and the migrations.
 */
function tempDataDir({ migrated = false } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-main-test-"));
  tempDirs.push(dir);
  if (migrated) copyTemplateInto(dir);
  return dir;
}

/**
 * Runs the server or a script from its bundle of this run (test-support/bundles.ts), or a built .js
 * file, with plain node as `npm start` does; `{ tsx: true }`: from its TypeScript through tsx's
 * wrapper, as its `npm run` line does (one test keeps that path covered). No wrapper for the server:
 * tsx's kills a child that has not acknowledged a relayed SIGTERM within 30 ms and exits 143, which a
 * busy machine makes happen to a clean shutdown.
 */
function run(script: BundledEntry | `${string}.js`, args: string[], env: Record<string, string>, { tsx = false } = {}): Run {
  const command = script.endsWith(".js")
    ? [process.execPath, script]
    : tsx
      ? [path.join(ROOT, "node_modules/.bin/tsx"), script]
      : [process.execPath, bundled(script as BundledEntry)];
  const child = spawn(command[0]!, [...command.slice(1), ...args], {
    cwd: ROOT,
    // A clean environment: only what is given, and outside services pointed at a closed local port.
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? os.tmpdir(),
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "info",
      TELEGRAM_API_ROOT: "http://127.0.0.1:9",
      NOWPAYMENTS_API_URL: "http://127.0.0.1:9",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const result: Run = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForOutput(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (match) {
            listeners.delete(check);
            resolve(match);
          }
        };
        listeners.add(check);
        check();
        void exited.then((code) => {
          listeners.delete(check);
          reject(new Error(`exited with ${code} before printing ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
        });
      });
    },
  };
  running.push(result);
  return result;
}

async function startServer(env: Record<string, string>, script: BundledEntry | `${string}.js` = "server/main.ts") {
  const server = run(script, [], env);
  // HOST is 127.0.0.1 here: the start-up line names the address a person opens, with the real port.
  const [, port] = await server.waitForOutput(/Open http:\/\/localhost:(\d+)/);
  return { ...server, baseUrl: `http://127.0.0.1:${port}` };
}

async function stop(server: Run): Promise<number | null> {
  server.child.kill("SIGTERM");
  return server.exited;
}

const login = (baseUrl: string, password: string) =>
  fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password }),
  });

afterEach(async () => {
  for (const leftover of running.splice(0)) {
    if (leftover.child.exitCode === null && leftover.child.signalCode === null) {
      leftover.child.kill("SIGKILL");
      await leftover.exited;
    }
  }
});
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("server process", () => {
  it("serves, refuses a second server on the same data folder, and stops cleanly on SIGTERM", { timeout: 90_000 }, async () => {
    const dataDir = tempDataDir({ migrated: true });
    const first = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD });
    expect(first.stdout()).not.toMatch(/Admin password:/);

    const health = await fetch(`${first.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect((await login(first.baseUrl, PASSWORD)).status).toBe(200);

    const second = run("server/main.ts", [], { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD });
    expect(await second.exited).not.toBe(0);
    const message = second.stderr().trim();
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toMatch(/^The database in .+ is already in use by another server process \(pid \d+\)\./);

    // The maintenance script is refused in the same way while the server runs.
    const script = run("scripts/admin-password.ts", ["another password"], { DATA_DIR: dataDir });
    expect(await script.exited).toBe(1);
    expect(script.stderr()).toMatch(/already in use by another server process/);

    // The first server is unharmed.
    const stillThere = await fetch(`${first.baseUrl}/api/health`);
    expect(await stillThere.json()).toEqual({ status: "ok" });
    expect((await login(first.baseUrl, PASSWORD)).status).toBe(200);

    expect(await stop(first)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  });

  it("exits with a one-line message on an invalid configuration", async () => {
    const server = run("server/main.ts", [], { DATA_DIR: tempDataDir(), PORT: "abc" });
    expect(await server.exited).not.toBe(0);
    const message = server.stderr().trim();
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toMatch(/^Invalid configuration: PORT /);
  });

  it("prints a generated password on the first start only; admin:password replaces it", { timeout: 120_000 }, async () => {
    // The migrated copy holds no password yet: its first start is a new owner's, without initdb and
    // the migrations (the built server's test below starts on an empty folder).
    const dataDir = tempDataDir({ migrated: true });
    const first = await startServer({ DATA_DIR: dataDir });
    const [, generated] = await first.waitForOutput(/Admin password: (\S+)/);
    expect((await login(first.baseUrl, generated!)).status).toBe(200);
    expect((await login(first.baseUrl, "not the password")).status).toBe(401);
    expect(await stop(first)).toBe(0);

    const change = run("scripts/admin-password.ts", ["brand new password"], { DATA_DIR: dataDir });
    expect(await change.exited).toBe(0);
    expect(change.stdout()).toMatch(/The admin password was changed/);

    const again = await startServer({ DATA_DIR: dataDir });
    expect(again.stdout()).not.toMatch(/Admin password:/);
    expect((await login(again.baseUrl, "brand new password")).status).toBe(200);
    expect((await login(again.baseUrl, generated!)).status).toBe(401);
    expect(await stop(again)).toBe(0);
  });
});

describe("the secret key (docs/SECURITY.md)", () => {
  const RIGHT = "the secret key this shop was made with";
  const OTHER = "a well-formed key of another shop";
  const settingsOf = async (baseUrl: string) => {
    const cookie = (await login(baseUrl, PASSWORD)).headers.get("set-cookie")!.split(";")[0]!;
    return (await (await fetch(`${baseUrl}/api/bot-settings`, { headers: { cookie } })).json()) as Record<string, unknown>;
  };
  const refusal = /^The secret key does not open this shop's data[\s\S]*Nothing was started\.[\s\S]*npm run secrets:forget/;

  it("refuses a key that does not open the data before anything starts; secrets:forget lets the key in use start", { timeout: 240_000 }, async () => {
    const dataDir = tempDataDir({ migrated: true });
    // A shop from before the key check: customers' data under data keys, bot secrets under RIGHT.
    expect(await run("scripts/seed-demo.ts", [], { DATA_DIR: dataDir, SECRET_KEY: RIGHT }).exited).toBe(0);
    const database = await openPglite(dataDir);
    await createBotSettings(database.db, createSecretBox(loadSecretKey(RIGHT, dataDir)), {
      botName: "Lamp shop",
      botToken: "123456789:AAE-token-of-the-shop",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Hello",
      faqContent: "FAQ",
      nowpaymentsApiKey: "NP-KEY-OF-THE-SHOP",
      nowpaymentsIpnSecret: "ipn secret of the shop",
      webhookUrl: null,
    });
    // The IPN secret damaged (cut short): a damaged value, not a wrong key.
    const [row] = await database.db.select().from(botSettings);
    const damaged = row!.nowpaymentsIpnSecret!.split(":").slice(0, 4).join(":");
    await database.db.update(botSettings).set({ nowpaymentsIpnSecret: damaged });
    await database.close();

    // No SECRET_KEY: the key generated into DATA_DIR now is not this shop's. Refused, and not left there.
    const generated = run("server/main.ts", [], { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD });
    expect(await generated.exited).toBe(1);
    expect(generated.stderr()).toMatch(refusal);
    expect(generated.stdout()).toBe("");
    expect(fs.existsSync(path.join(dataDir, "secret.key"))).toBe(false);

    // The right key starts; the damaged secret is logged with its field and reason, and reads as not set.
    const right = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, SECRET_KEY: RIGHT });
    await right.waitForOutput(/"field":"nowpaymentsIpnSecret"/);
    const reported = right.stdout().split("\n").find((line) => line.includes('"field":"nowpaymentsIpnSecret"'))!;
    expect(JSON.parse(reported)).toMatchObject({ level: 50, field: "nowpaymentsIpnSecret", reason: "malformed" });
    expect(await settingsOf(right.baseUrl)).toMatchObject({
      // Answered masked (docs/SECURITY.md): the right key opened them, so their last characters show.
      botToken: maskSecret("123456789:AAE-token-of-the-shop"),
      nowpaymentsApiKey: maskSecret("NP-KEY-OF-THE-SHOP"),
      nowpaymentsIpnSecret: null,
    });
    expect(right.stdout()).not.toContain(damaged);
    expect(await stop(right)).toBe(0);

    // Another well-formed key: refused by the check stored at that start; nothing listened, nothing ran.
    const other = run("server/main.ts", [], { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, SECRET_KEY: OTHER });
    expect(await other.exited).toBe(1);
    expect(other.stderr()).toMatch(refusal);
    expect(other.stdout()).toBe("");

    // secrets:forget says what the key in use would lose, and changes nothing without --yes.
    const asked = run("scripts/secrets-forget.ts", [], { DATA_DIR: dataDir, SECRET_KEY: OTHER });
    expect(await asked.exited).toBe(1);
    expect(asked.stderr()).toMatch(
      /3 stored secrets it cannot decrypt:\n {4}- the bot token: type it again in Bot Settings[^\n]*\n {4}- the NOWPayments API key: [^\n]*\n {4}- the NOWPayments IPN secret: [^\n]*\n {2}- 1 data key, and with them what customers typed: \d+ addresses, 8 support messages/,
    );
    expect(asked.stderr()).toMatch(/Nothing was changed\.\n$/);
    const stillRefused = run("server/main.ts", [], { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, SECRET_KEY: OTHER });
    expect(await stillRefused.exited).toBe(1);

    const forgot = run("scripts/secrets-forget.ts", ["--yes"], { DATA_DIR: dataDir, SECRET_KEY: OTHER });
    expect(await forgot.exited).toBe(0);
    expect(forgot.stdout()).toMatch(/^Forgotten:\n {2}- 3 stored secrets/);

    // The key in use starts now, with the secrets to be typed again in Bot Settings.
    const after = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, SECRET_KEY: OTHER });
    await after.waitForOutput(/Telegram bot is off: no bot token/);
    expect(await settingsOf(after.baseUrl)).toMatchObject({ botName: "Lamp shop", botToken: "", nowpaymentsApiKey: null, nowpaymentsIpnSecret: null });
    expect(await stop(after)).toBe(0);
  });
});

describe("admin:password", () => {
  it("refuses a password shorter than 8 characters and changes nothing", async () => {
    const dataDir = tempDataDir();
    const script = run("scripts/admin-password.ts", ["short"], { DATA_DIR: dataDir });
    expect(await script.exited).toBe(1);
    expect(script.stderr().trim()).toBe("The password must be at least 8 characters long; nothing was changed.");
    expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("explains how to give the password when there is no terminal to ask (run as `npm run admin:password` runs it)", async () => {
    // From the TypeScript through tsx, as package.json's line for it does: the other tests run the bundles.
    const script = run("scripts/admin-password.ts", [], { DATA_DIR: tempDataDir() }, { tsx: true });
    expect(await script.exited).toBe(1);
    expect(script.stderr()).toMatch(/^No password given and no terminal to ask one from\.\nUsage: npm run admin:password/);
  });
});

describe("seed:demo", () => {
  it("fills an empty database once and refuses the second time", { timeout: 60_000 }, async () => {
    const dataDir = tempDataDir({ migrated: true });
    const seed = run("scripts/seed-demo.ts", [], { DATA_DIR: dataDir });
    expect(await seed.exited).toBe(0);
    expect(seed.stdout()).toMatch(/^Demo shop added: 8 categories, 12 products, 3 postage options, 10 orders and 8 messages\./);

    const again = run("scripts/seed-demo.ts", [], { DATA_DIR: dataDir });
    expect(await again.exited).toBe(1);
    expect(again.stderr().trim()).toBe(
      "The database already has 12 products and 10 orders. Demo data goes only into an empty shop; nothing was added.",
    );
  });
});

describe("the built server (npm start)", () => {
  // Built once for this file into a folder of its own inside the project (its imports of packages
  // must resolve to node_modules), so a dist/ someone is using is left alone.
  const outDir = path.join(ROOT, `dist/test-${process.pid}`);
  const bundle = path.join(outDir, "server/main.js") as `${string}.js`;
  beforeAll(() => buildServer({ outfile: bundle }), 60_000);
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it("is one file that loads no build tool", () => {
    const code = fs.readFileSync(bundle, "utf8");
    const imported = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]!);
    expect(imported).toContain("fastify");
    const buildTools = imported.filter((name) => /^(vite|@vitejs\/|tailwindcss|@tailwindcss\/|tsx|esbuild)(\/|$)/.test(name));
    expect(buildTools).toEqual([]);
    // Our own modules are inside the bundle, not imported from the TypeScript sources.
    expect(imported.filter((name) => name.startsWith("."))).toEqual([]);
  });

  it("starts with plain node, says where to open it, logs one JSON line per request, stops on SIGTERM", { timeout: 90_000 }, async () => {
    const dataDir = tempDataDir();
    const server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD }, bundle);
    expect(server.stdout()).not.toMatch(/Server listening/);

    const health = await fetch(`${server.baseUrl}/api/health?from=test`);
    expect(await health.json()).toEqual({ status: "ok" });
    expect((await login(server.baseUrl, PASSWORD)).status).toBe(200);
    // The migrations (drizzle/) were found from dist/: logging in used the tables they make.
    await server.waitForOutput(/"path":"\/api\/auth\/login"/);

    // stdout is not a terminal here: every line is JSON, and each request is one line.
    const entries = server.stdout().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => "path" in entry);
    expect(requests).toEqual([
      expect.objectContaining({ method: "GET", path: "/api/health", status: 200, ms: expect.any(Number) }),
      expect.objectContaining({ method: "POST", path: "/api/auth/login", status: 200, ms: expect.any(Number) }),
    ]);
    expect(requests[0]!.msg).toMatch(/^GET \/api\/health 200 [\d.]+ms$/);
    expect(server.stdout()).not.toMatch(/incoming request|request completed/);

    expect(await stop(server)).toBe(0);
    expect(server.stdout()).toMatch(/"signal":"SIGTERM"/);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  });
});
