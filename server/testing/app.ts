import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setAdminPassword } from "../auth/admin";
import { loadConfig, type Config } from "../config";
import { createSecretBox } from "../crypto";
import type { Database } from "../db/client";
import { buildApp, type App, type BuildAppOptions } from "../http/app";
import type { AppDeps } from "../http/deps";
import { createDiskStorage } from "../storage";
import type { Notifier } from "../telegram/notifier";
import { createTestDatabase } from "./database";

export const TEST_PASSWORD = "correct horse battery staple";
/** A well-formed id that names nothing, for the 404 cases. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

export type SentTelegramMessage = { chatId: string; text: string };

/** A notifier that records what would have gone to Telegram; `fail` makes the next sends throw. */
export function createRecordingNotifier() {
  const sent: SentTelegramMessage[] = [];
  let failure: Error | null = null;
  const notifier: Notifier & { sent: SentTelegramMessage[]; failWith(error: Error | null): void } = {
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

export type TestServer = {
  baseUrl: string;
  /** The Fastify app itself (its route table, its logger). */
  app: App;
  database: Database;
  deps: AppDeps;
  dataDir: string;
  /** Logs in and answers the session cookie ("sid=..."). */
  login(): Promise<string>;
  /** fetch against the server; JSON bodies are encoded; `cookie` sends a session. */
  request(method: string, url: string, options?: { body?: unknown; cookie?: string; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
};

/**
 * The real HTTP server on 127.0.0.1 with a fresh database. `deps` overrides any dependency;
 * by default Telegram sends are recorded (pass a real notifier to test the wire).
 */
export async function startTestServer(
  options: { deps?: Partial<AppDeps>; config?: Partial<Config>; app?: BuildAppOptions; database?: Database } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  const database = options.database ?? (await createTestDatabase());
  const config: Config = { ...loadConfig({ DATA_DIR: dataDir }), ...options.config };
  await setAdminPassword(database.db, TEST_PASSWORD);
  const deps: AppDeps = {
    db: database.db,
    config,
    secrets: createSecretBox(Buffer.alloc(32, 7)),
    storage: createDiskStorage(path.join(dataDir, "objects")),
    notifier: createRecordingNotifier(),
    now: () => new Date(),
    ...options.deps,
  };
  const app = await buildApp(deps, options.app);
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
    async close() {
      await app.close();
      if (!options.database) await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
