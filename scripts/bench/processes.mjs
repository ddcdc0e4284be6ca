// The processes of a benchmark run: started, watched and always stopped, each by its own pid.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

const running = new Set();

/**
 * Starts `node <args>` (with an IPC channel when `ipc`). Output goes to `logFile` when given (a server's one-line-per-request log
 * would otherwise cost the load generator, this process, the time to read it), else is kept.
 */
export function startNode(name, args, { env, cwd, logFile, ipc = false } = {}) {
  let output = "";
  let stdio = ["ignore", "pipe", "pipe", ...(ipc ? ["ipc"] : [])];
  let fd;
  if (logFile) {
    fd = fs.openSync(logFile, "a");
    stdio = ["ignore", fd, fd];
  }
  const child = spawn(process.execPath, args, { cwd, env, stdio });
  if (fd !== undefined) fs.closeSync(fd);
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const proc = {
    name,
    child,
    pid: child.pid,
    ended: false,
    code: null,
    output: () => (logFile ? safeRead(logFile) : output),
  };
  proc.exited = new Promise((resolve) =>
    child.on("close", (code, signal) => {
      proc.ended = true;
      proc.code = code ?? signal;
      running.delete(proc);
      resolve(proc.code);
    }),
  );
  running.add(proc);
  return proc;
}

function safeRead(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** The last lines of a process's output, for an error message. */
export const tail = (proc, lines = 30) => proc.output().trim().split("\n").slice(-lines).join("\n");

/** Resolves with the port a helper printed as "LISTENING <port>". */
export async function listeningPort(proc, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const port = /LISTENING (\d+)/.exec(proc.output())?.[1];
    if (port) return Number(port);
    if (proc.ended) throw new Error(`${proc.name} exited before listening:\n${tail(proc)}`);
    if (Date.now() > deadline) throw new Error(`${proc.name} did not listen within ${timeoutMs / 1000} s:\n${tail(proc)}`);
    await sleep(20);
  }
}

/** SIGTERM, then SIGKILL if it has not ended within `graceMs`. */
export async function stopProcess(proc, graceMs = 15_000) {
  if (proc.ended) return proc.code;
  proc.child.kill("SIGTERM");
  const timer = setTimeout(() => {
    if (!proc.ended) proc.child.kill("SIGKILL");
  }, graceMs);
  const code = await proc.exited;
  clearTimeout(timer);
  return code;
}

/** Stops every process still running, at once; for the cleanup after a failure or Ctrl-C. */
export async function stopAll() {
  await Promise.all([...running].map((proc) => stopProcess(proc, 5_000)));
}

/** Last resort when this process exits without cleaning up: no child may outlive it. */
export function killAllNow() {
  for (const proc of running) {
    try {
      proc.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A port nothing listens on now (the server is given it; PORT=0 would leave us no way to learn it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `origin`/api/health answers 200; rejects when `proc` ends first or after `timeoutMs`. */
export async function waitForHealthy(proc, origin, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.ended) throw new Error(`${proc.name} exited while starting:\n${tail(proc)}`);
    const healthy = await fetch(`${origin}/api/health`).then((r) => r.ok, () => false);
    if (healthy) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} was not healthy within ${timeoutMs / 1000} s:\n${tail(proc)}`);
    await sleep(50);
  }
}

/** Resident memory (MB) of a process and all its descendants, from /proc (as scripts/bench-start.mjs). */
export function treeRssMb(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // Field 4 (ppid), counted after the command name, which may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  let kb = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop();
    try {
      kb += Number(fs.readFileSync(`/proc/${current}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
    } catch {
      // ended
    }
    pending.push(...(children.get(current) ?? []));
  }
  return kb / 1024;
}
