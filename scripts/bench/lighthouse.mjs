// `npm run bench:lighthouse [-- --runs 3 --out FILE]`: Lighthouse's performance score (mobile preset, Debian's
// Chromium) of the login page and of the logged-in Dashboard of a demo shop, served by the built server on a
// temporary DATA_DIR. Medians of a few runs go into their section of docs/PERFORMANCE.md. Not a test: nothing
// here passes or fails on a score (issue 12's targets: Dashboard at least 95, login page 99).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, killAllNow, startNode, stopAll, waitForHealthy } from "./processes.mjs";
import { median, replaceSection } from "./report.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const HEADING = "## Lighthouse (npm run bench:lighthouse)";
const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    out: { type: "string", default: path.join(root, "docs/PERFORMANCE.md") },
  },
});
const RUNS = Number(args.runs);
const PASSWORD = "lighthouse bench password";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const log = (line) => console.log(`[lighthouse] ${line}`);

if (!fs.existsSync(CHROMIUM)) {
  console.error(`Chromium was not found at ${CHROMIUM}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  process.exit(1);
}
process.on("exit", killAllNow);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lighthouse-"));
let chrome;
try {
  // The app as an operator runs it, built from the sources as they are now (a few seconds).
  log("building the app");
  if (spawnSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" }).status !== 0) throw new Error("the build failed (run npm run build to see why)");
  const env = { ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: "warn" };
  log("seeding a demo shop");
  if (spawnSync("npx", ["tsx", "scripts/seed-demo.ts"], { cwd: root, env, stdio: "ignore" }).status !== 0) throw new Error("seeding failed");
  const port = await freePort();
  const server = startNode("server", ["dist/server/main.js"], { cwd: root, env: { ...env, PORT: String(port), HOST: "127.0.0.1" } });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealthy(server, origin, 60_000);
  const login = await fetch(`${origin}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers.get("set-cookie").split(";")[0];

  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const pages = [
    { name: "Login page", headers: {} },
    { name: "Dashboard (logged in)", headers: { Cookie: cookie } },
  ];
  const results = [];
  for (const page of pages) {
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      // Lighthouse's own defaults: the mobile preset with simulated slow 4G and a 4x slower CPU.
      const { lhr } = await lighthouse(`${origin}/`, { port: chrome.port, onlyCategories: ["performance"], extraHeaders: page.headers, logLevel: "error" });
      const value = (id) => lhr.audits[id].numericValue;
      runs.push({
        score: Math.round(lhr.categories.performance.score * 100),
        fcp: value("first-contentful-paint"),
        lcp: value("largest-contentful-paint"),
        tbt: value("total-blocking-time"),
        cls: value("cumulative-layout-shift"),
      });
      log(`${page.name}, run ${run + 1}: ${runs.at(-1).score}`);
    }
    const scores = runs.map((r) => r.score);
    results.push({
      name: page.name,
      score: median(scores),
      min: Math.min(...scores),
      max: Math.max(...scores),
      fcp: median(runs.map((r) => r.fcp)),
      lcp: median(runs.map((r) => r.lcp)),
      tbt: median(runs.map((r) => r.tbt)),
      cls: median(runs.map((r) => r.cls)),
    });
  }

  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const section = [
    HEADING,
    "",
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, Node ${process.version}, ` +
      `Lighthouse ${lighthouseVersion()} (mobile preset: simulated slow 4G, 4x CPU slowdown), Debian's Chromium, ${RUNS} runs each, a demo shop ` +
      "(`npm run seed:demo`) served by the built server on PGlite. Targets (issue 12): Dashboard at least 95, login page 99.",
    "",
    "| page | performance score, median (min-max) | First Contentful Paint | Largest Contentful Paint | Total Blocking Time | Cumulative Layout Shift |",
    "|---|---|---|---|---|---|",
    ...results.map(
      (r) => `| ${r.name} | **${r.score}** (${r.min}-${r.max}) | ${seconds(r.fcp)} | ${seconds(r.lcp)} | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} |`,
    ),
    "",
  ].join("\n");
  const current = fs.existsSync(args.out) ? fs.readFileSync(args.out, "utf8") : "";
  fs.writeFileSync(args.out, replaceSection(current, section, HEADING));
  log(`written to ${args.out}`);
  for (const r of results) log(`${r.name}: ${r.score} (${r.min}-${r.max}), LCP ${seconds(r.lcp)}`);
} finally {
  await chrome?.kill();
  await stopAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function lighthouseVersion() {
  return JSON.parse(fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")).version;
}
