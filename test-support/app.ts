import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "../server/config";
import { createSecretBox } from "../server/crypto";
import type { Database } from "../server/db/client";
import { buildApp, type App, type BuildAppOptions } from "../server/http/app";
import type { AppDeps } from "../server/http/deps";
import { createDiskStorage } from "../server/storage";
import { createNowPaymentsGatewayFromSettings } from "../server/gateways/nowpayments/client";
import { createBtcpayGatewayFromSettings } from "../server/gateways/btcpay/client";
import { createCoinRouterFromSettings } from "../server/gateways/coin-router";
import { createJobRunner, senderJobs } from "../server/jobs";
import { afterAll, beforeAll } from "vitest";
import type { CustomerNotifier } from "../server/shop/common";
import { createReadCache } from "../server/shop/catalogue";
import { addTestAccount, setTestAdminPassword, TEST_STAFF_PASSWORD } from "./admin-password";
import type { StaffRole } from "../contract/team";
import { createTestDatabase } from "./database";

export const TEST_PASSWORD = "correct horse battery staple";
/** A well-formed id that names nothing, for the 404 cases. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

export type SentTelegramMessage = { chatId: string; text: string };

/** A notifier that records what would have gone to Telegram; `fail` makes the next sends throw. */
export function createRecordingNotifier() {
  const sent: SentTelegramMessage[] = [];
  let failure: Error | null = null;
  const notifier: CustomerNotifier & { sent: SentTelegramMessage[]; failWith(error: Error | null): void } = {
    sent,
    failWith(error) {
      failure = error;
    },
    async sendMessage(chatId, text) {
      if (failure) throw failure;
      sent.push({ chatId, text });
    },
  };
  return notifier;
}

/** A bot that runs nothing: webhook updates are refused. Tests override what they watch (settingsSaved). */
export function idleBot(overrides: Partial<NonNullable<AppDeps["bot"]>> = {}): NonNullable<AppDeps["bot"]> {
  return {
    webhookSecret: () => null,
    handleUpdate: async () => false,
    botInfo: () => null,
    settingsSaved: async () => {},
    ...overrides,
  };
}

export type TestServer = {
  baseUrl: string;
  /** The Fastify app itself (its route table, its logger). */
  app: App;
  database: Database;
  deps: AppDeps;
  dataDir: string;
  /** Logs in as the owner and answers the session cookie ("sid=..."). */
  login(): Promise<string>;
  /**
   * Makes a staff account with `role` (username: the role's name unless given, password
   * TEST_STAFF_PASSWORD), signs it in, and answers its session cookie and id (issue 25).
   */
  loginAs(role: StaffRole, username?: string): Promise<{ cookie: string; accountId: string }>;
  /** fetch against the server; JSON bodies are encoded; `cookie` sends a session. */
  request(method: string, url: string, options?: { body?: unknown; cookie?: string; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
};

/**
 * The real HTTP server on 127.0.0.1 with a fresh database. `deps` overrides any dependency;
 * by default Telegram sends are recorded (pass a real notifier to test the wire). A broadcast or
 * owner-alert sender given in `deps` is started and stopped with the server, through the same
 * jobs list as main.ts (jobs.ts senderJobs).
 */
export async function startTestServer(
  options: { deps?: Partial<AppDeps>; config?: Partial<Config>; app?: BuildAppOptions; database?: Database } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  const database = options.database ?? (await createTestDatabase());
  // No undo window by default: notify-dispatch sends at once, as the tests written before it expect;
  // the tests of the window (shop/orders/dispatch-notices.test.ts, routes/orders.test.ts) set one.
  const config: Config = { ...loadConfig({ DATA_DIR: dataDir }), dispatchUndoMs: 0, ...options.config };
  await setTestAdminPassword(database.db, TEST_PASSWORD);
  const secrets = options.deps?.secrets ?? createSecretBox(Buffer.alloc(32, 7));
  // As in production: the bot's reads are cached until the database notices a change.
  const cache = createReadCache(database);
  const deps: AppDeps = {
    db: database.db,
    config,
    secrets,
    storage: createDiskStorage(path.join(dataDir, "objects")),
    // As in production: NOWPayments at config.nowpaymentsApiUrl (a test's fake), key from Bot Settings,
    // and BTCPay at the server saved in the payment gateway settings (a test's fake), chosen per coin.
    gateway: createCoinRouterFromSettings({
      db: database.db,
      secrets,
      gateways: {
        nowpayments: createNowPaymentsGatewayFromSettings({ db: database.db, secrets, config }),
        btcpay: createBtcpayGatewayFromSettings({ db: database.db, secrets }),
      },
    }),
    notifier: createRecordingNotifier(),
    cache,
    changes: database,
    now: () => new Date(),
    ...options.deps,
  };
  const app = await buildApp(deps, options.app);
  const jobs = createJobRunner(senderJobs(deps));
  await jobs.start("beforeListen");
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("server did not listen on a port");
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const request: TestServer["request"] = (method, url, { body, cookie, headers = {} } = {}) =>
    fetch(baseUrl + url, {
      method,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });

  return {
    baseUrl,
    app,
    database,
    deps,
    dataDir,
    request,
    async login() {
      const response = await request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
      if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
      const setCookie = response.headers.get("set-cookie") ?? "";
      return setCookie.split(";")[0]!;
    },
    async loginAs(role, username = role) {
      const accountId = await addTestAccount(database.db, { username, role, password: TEST_STAFF_PASSWORD });
      const response = await request("POST", "/api/auth/login", { body: { username, password: TEST_STAFF_PASSWORD } });
      if (!response.ok) throw new Error(`login as ${username} failed: ${response.status} ${await response.text()}`);
      return { cookie: (response.headers.get("set-cookie") ?? "").split(";")[0]!, accountId };
    },
    async close() {
      await jobs.stop();
      // A test that read only an answer's headers leaves its connection open; closing must not wait on it.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      cache.stop();
      if (!options.database) await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test server with the admin logged in, for one describe block: started before its tests and
 * closed after them. Read `server` and `cookie` inside tests (they are set once the block starts).
 */
export function useAdminServer(options: Parameters<typeof startTestServer>[0] = {}) {
  let server: TestServer | undefined;
  let cookie = "";
  beforeAll(async () => {
    server = await startTestServer(options);
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });
  const started = () => {
    if (!server) throw new Error("the test server is used before its describe block started it");
    return server;
  };
  return {
    get server() {
      return started();
    },
    get cookie() {
      return cookie;
    },
    db: () => started().database.db,
    /** GET as the admin. */
    get: (url: string) => started().request("GET", url, { cookie }),
  };
}
