// `npm run bench:start [-- --runs 5 --idle 5]`: how fast the built server starts and how much memory
// it holds when idle, as an operator runs it (`node dist/server/main.js`), on a temporary DATA_DIR.
// On PGlite always; on PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL is set (that database
// gets the shop's tables: use a scratch one). Figures go to docs/PERFORMANCE.md by hand. Not a test:
// nothing here passes or fails on time.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { treeRssMb } from "./bench/processes.mjs";

const root = path.resolve(import.meta.dirname, "..");
const SERVER_BUNDLE = path.join(root, "dist/server/main.js");
const { values: args } = parseArgs({
  options: { runs: { type: "string", default: "5" }, idle: { type: "string", default: "5" } },
});
const RUNS = Number(args.runs);
const IDLE_MS = Number(args.idle) * 1000;

/**
 * CPU time (ms) the process has used so far, user + system (fields 14 and 15 of /proc/<pid>/stat,
 * in clock ticks of 10 ms). Unlike the wall-clock start time it does not grow when other work
 * shares the machine; it does add up both cores when the server uses them at once.
 */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts the server; resolves once /api/health answers 200, with the time that took. */
async function startOnce(env) {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: root,
    env: { ...env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("close", resolve));
  let ended = false;
  void exited.then(() => (ended = true));

  let port;
  while (!port) {
    if (ended) throw new Error(`the server exited before listening:\n${output}`);
    port = output.match(/Open http:\/\/localhost:(\d+)/)?.[1];
    if (!port) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (;;) {
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (healthy) break;
    if (ended) throw new Error(`the server exited before it was healthy:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startMs = performance.now() - started;
  const startCpuMs = cpuMs(child.pid);

  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rssMb = treeRssMb(child.pid);
  child.kill("SIGTERM");
  const code = await exited;
  if (code !== 0) throw new Error(`the server did not stop cleanly (exit ${code}):\n${output}`);
  return { startMs, startCpuMs, rssMb };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function bench(label, env) {
  // The first start creates the database (initdb on PGlite, the tables on both): reported apart.
  const first = await startOnce(env);
  const warm = [];
  for (let run = 0; run < RUNS; run++) warm.push(await startOnce(env));
  const starts = warm.map((r) => r.startMs);
  const rss = warm.map((r) => r.rssMb);
  const cpu = warm.map((r) => r.startCpuMs);
  console.log(
    `${label}: first start ${first.startMs.toFixed(0)} ms, ${first.rssMb.toFixed(0)} MB; ` +
      `warm start median ${median(starts).toFixed(0)} ms (min ${Math.min(...starts).toFixed(0)}, max ${Math.max(...starts).toFixed(0)}; ` +
      `CPU time to healthy median ${median(cpu).toFixed(0)} ms); ` +
      `idle RSS of the process tree median ${median(rss).toFixed(0)} MB (max ${Math.max(...rss).toFixed(0)})`,
  );
}

if (!fs.existsSync(SERVER_BUNDLE)) {
  console.log("No dist/server/main.js yet: running `npm run build` first.");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

console.log(
  `${RUNS} warm starts each, ${IDLE_MS / 1000} s idle before reading memory; ${os.cpus().length} CPUs, ` +
    `load average ${os.loadavg()[0].toFixed(1)}, Node ${process.version}.`,
);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
// Outside services point at a closed local port: nothing is called out during the benchmark.
// No ADMIN_PASSWORD, as on a default install: the first start generates one, and later starts do
// not check a given one against the stored hash (scrypt, ~100 ms of every start that sets it).
const baseEnv = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? os.tmpdir(),
  DATA_DIR: dataDir,
  // One key for every run: the PostgreSQL scratch database outlives this DATA_DIR, and a start with a
  // key other than the one it stored is refused (server/shop/privacy/key-check.ts).
  SECRET_KEY: "bench:start key of its scratch shops",
  TELEGRAM_API_ROOT: "http://127.0.0.1:9",
  NOWPAYMENTS_API_URL: "http://127.0.0.1:9",
};
try {
  await bench("PGlite", baseEnv);
  const databaseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl) await bench("PostgreSQL", { ...baseEnv, DATABASE_URL: databaseUrl });
  else console.log("PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL to a scratch database).");
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
