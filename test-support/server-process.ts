import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { bundled } from "./bundles";
import { migratedDataDir } from "./data-dir-template";

// A real server process (server/main.ts, bundled once per run: test-support/bundles.ts; plain node,
// no wrapper process, so a signal reaches the server itself), for the tests of what only processes
// show: several instances on one database, a kill -9 in the middle of work.

const ROOT = path.resolve(import.meta.dirname, "..");

export type ServerProcess = {
  name: string;
  dataDir: string;
  child: ChildProcess;
  baseUrl: string;
  /** stdout and stderr in one capture: what its log says, to tell instances apart. */
  output: () => string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<unknown>;
};

/** A port nobody listens on now (the system's pick), so the test knows the server's address in advance. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts the server on a free port and resolves once it says where to open it (with PUBLIC_URL set,
 * that line names the public address, not the port: the port is chosen here). `dataDir` reuses a
 * folder (a restart); otherwise a new temporary one is made, holding a copy of the run's migrated
 * database (test-support/data-dir-template.ts), or empty when DATABASE_URL names PostgreSQL.
 */
export async function startServerProcess(name: string, env: Record<string, string>, dataDir?: string): Promise<ServerProcess> {
  const prefix = `shop-${name}-`;
  const folder = dataDir ?? (env.DATABASE_URL ? fs.mkdtempSync(path.join(os.tmpdir(), prefix)) : migratedDataDir(prefix));
  const port = await freePort();
  const child = spawn(process.execPath, [bundled("server/main.ts")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", DATA_DIR: folder, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of [...listeners]) listener();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise((resolve) => child.on("close", resolve));
  const waitForOutput = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${name}: no ${pattern} within ${timeoutMs} ms. Output:\n${output}`)), timeoutMs);
      const check = () => pattern.test(output) && finish();
      function finish(error?: Error) {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve();
      }
      listeners.add(check);
      void exited.then(() => finish(new Error(`${name} exited before printing ${pattern}. Output:\n${output}`)));
      check();
    });
  const server: ServerProcess = { name, dataDir: folder, child, baseUrl: "", output: () => output, waitForOutput, exited };
  try {
    await waitForOutput(/"Open https?:\/\//, 60_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  server.baseUrl = `http://127.0.0.1:${port}`;
  return server;
}

/** Stops a server process: SIGTERM (a clean shutdown) or SIGKILL (a crash); resolves once it is gone. */
export async function stopServerProcess(server: ServerProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

/** A call to a server process; `json` is sent as JSON. */
export function callServer(
  server: Pick<ServerProcess, "baseUrl">,
  method: string,
  url: string,
  options: { cookie?: string; json?: unknown; body?: Buffer; type?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  if (options.type) headers["content-type"] = options.type;
  return fetch(server.baseUrl + url, {
    method,
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : options.body && new Uint8Array(options.body),
  });
}
