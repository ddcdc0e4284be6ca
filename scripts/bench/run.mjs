// `npm run bench [-- --rounds 3 --duration 5 --orders 100000 --out docs/PERFORMANCE.md]`: throughput
// and latency of the built server under load, beside peers doing the same work with less, in one
// run (issue 12). It starts the shop twice (a fresh DATA_DIR on PGlite; a fresh database on the
// PostgreSQL at 127.0.0.1:5432), a fake Telegram, and three peers: a bare node:http server, a bare
// grammY webhook bot and an Express + node-postgres server. It seeds both databases with SQL, runs
// each workload on each server in interleaved rounds with autocannon, and writes the tables into
// the "Throughput and latency" section of docs/PERFORMANCE.md (or --out). The shop is driven only
// through HTTP (and seeded through SQL), never through its modules: those change under it.
// Not a test: nothing here passes or fails on speed. Every process and database it made is gone
// when it ends, also after a failure or Ctrl-C.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { freePort, killAllNow, listeningPort, sleep, startNode, stopAll, stopProcess, tail, treeRssMb, waitForHealthy } from "./processes.mjs";
import { percentile, renderSection, replaceSection, summarize } from "./report.mjs";
import { buildIsStale, SERVER_BUNDLE } from "../build-freshness.mjs";
import { PRODUCTS, mainCategoryNames, scaleFor } from "./seed.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const here = import.meta.dirname;

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    orders: { type: "string", default: "100000" },
    out: { type: "string", default: path.join(root, "docs/PERFORMANCE.md") },
    // A server bundle to run instead of dist/server/main.js (the smoke test runs the tests' own).
    server: { type: "string" },
    // Caps every workload's connections (the smoke test keeps the machine usable).
    connections: { type: "string" },
    // A migrated DATA_DIR whose database the PGlite shop starts from instead of creating one (initdb):
    // the smoke test passes the tests' template (test-support/data-dir-template.ts).
    "pglite-template": { type: "string" },
    "postgres-admin": { type: "string", default: process.env.BENCH_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    "no-postgres": { type: "boolean", default: false },
    "late-ms": { type: "string", default: "300" },
    // Updates per webhook run (autocannon): a webhook that queues them must then handle them all.
    "max-updates": { type: "string", default: "600" },
    // Only these workloads (comma-separated keys, e.g. "start,browse"), for a quick look at one thing.
    only: { type: "string" },
    // Writes a V8 CPU profile of each shop into this folder (node --cpu-prof), to see where its time goes.
    profile: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const ORDERS = Number(args.orders);
const LATE_MS = Number(args["late-ms"]);
const MAX_CONNECTIONS = args.connections ? Number(args.connections) : Infinity;
const MAX_UPDATES = Number(args["max-updates"]);
const DRAIN_LIMIT_MS = 180_000;
const OUT = path.resolve(args.out);
for (const [name, value] of Object.entries({ rounds: ROUNDS, duration: DURATION, warmup: WARMUP, orders: ORDERS, "max-updates": MAX_UPDATES })) {
  const whole = ["rounds", "orders", "max-updates"].includes(name);
  if (!Number.isFinite(value) || value < 0 || (name !== "warmup" && value === 0) || (whole && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a positive ${whole ? "whole " : ""}number`);
  }
}

const startedAt = Date.now();
const log = (message) => console.log(`[bench ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);

// --- Cleanup: whatever happens, every process stopped, every database and folder removed ---

const cleanups = [];
let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    await stopAll();
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    interrupted = true;
    log(`${signal}: stopping everything and removing the temporary databases`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", killAllNow);

// --- The build (as scripts/start.mjs decides it: dist/ missing or older than its sources) ---

function ensureBuilt() {
  const bundle = SERVER_BUNDLE;
  if (buildIsStale()) {
    log("dist/ is missing or older than its sources: npm run build");
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed (see above)");
  }
  return bundle;
}

// --- Helpers over HTTP ---

async function getJson(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

const nowMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;

// --- Main ---

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
const notes = [];
const note = (text) => {
  if (!notes.includes(text)) notes.push(text);
  log(`note: ${text}`);
};

const PASSWORD = crypto.randomBytes(12).toString("hex");
const WELCOME = "Welcome to the bench shop! Choose from the menu below.";
const baseEnv = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? os.tmpdir(),
  ADMIN_PASSWORD: PASSWORD,
  HOST: "127.0.0.1",
  // https: the bot runs by webhook, as in production.
  PUBLIC_URL: "https://bench.example",
  // No payment gateway is configured; anything that would call it goes to a closed port.
  NOWPAYMENTS_API_URL: "http://127.0.0.1:9",
  LOG_LEVEL: "info",
};

async function main() {
  const bundle = args.server ? path.resolve(args.server) : ensureBuilt();
  const loadBefore = os.loadavg()[0].toFixed(1);
  const scale = { ...scaleFor(ORDERS), products: PRODUCTS };
  log(
    `${os.cpus().length} cores, load average ${loadBefore}, Node ${process.version}; ` +
      `${ROUNDS} rounds x ${DURATION} s per workload and server; ${ORDERS} orders`,
  );

  // The fake Telegram, shared by every bot.
  const telegram = startNode("fake Telegram", [path.join(here, "fake-telegram.mjs")], { ipc: true });
  const telegramRoot = `http://127.0.0.1:${await listeningPort(telegram)}`;
  const control = (what, body) =>
    getJson(`${telegramRoot}/__bench/${what}`, body ? { method: "POST", body: JSON.stringify(body) } : undefined);

  // PostgreSQL: a database of our own, dropped at the end.
  let postgresUrl = null;
  let postgresVersion = null;
  if (!args["no-postgres"]) {
    const admin = new pg.Client({ connectionString: args["postgres-admin"], connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
      const name = `shop_bench_${Date.now()}_${process.pid}`;
      await admin.query(`create database ${name}`);
      postgresVersion = (await admin.query("show server_version")).rows[0].server_version;
      cleanups.push(async () => {
        const dropper = new pg.Client({ connectionString: args["postgres-admin"] });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
        log(`dropped database ${name}`);
      });
      const url = new URL(args["postgres-admin"]);
      url.pathname = `/${name}`;
      postgresUrl = url.toString();
      log(`created database ${name} (PostgreSQL ${postgresVersion})`);
    } catch (error) {
      note(`PostgreSQL at ${args["postgres-admin"]} not reachable (${error.message}): PGlite only.`);
    } finally {
      await admin.end().catch(() => {});
    }
  }

  const shops = [];
  if (postgresUrl) shops.push({ key: "shop-pg", token: "700000001:BENCH-postgres-token-aaaaaaaaaaaaaaaaaaaa", env: { DATABASE_URL: postgresUrl } });
  shops.push({ key: "shop-pglite", token: "700000002:BENCH-pglite-token-bbbbbbbbbbbbbbbbbbbbbb", env: {} });
  for (const shop of shops) {
    shop.dataDir = path.join(tmp, shop.key);
    fs.mkdirSync(shop.dataDir);
    if (!shop.env.DATABASE_URL && args["pglite-template"]) {
      fs.cpSync(path.join(args["pglite-template"], "pglite"), path.join(shop.dataDir, "pglite"), { recursive: true });
    }
  }

  async function startShop(shop) {
    const port = await freePort();
    const env = { ...baseEnv, ...shop.env, DATA_DIR: shop.dataDir, PORT: String(port), TELEGRAM_API_ROOT: telegramRoot };
    // The working folder is the run's own: a .env in the project must not change the settings.
    const profiling = args.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args.profile)}`, `--cpu-prof-name=${shop.key}-${Date.now()}.cpuprofile`] : [];
    shop.proc = startNode(shop.key, [...profiling, bundle], { env, cwd: tmp, logFile: path.join(tmp, `${shop.key}.log`) });
    shop.port = port;
    shop.base = `http://127.0.0.1:${port}`;
    await waitForHealthy(shop.proc, shop.base, 180_000);
  }

  // 1. First start (creates the database and its tables), stop, seed with SQL, start again.
  log("starting each shop once to create its database");
  await Promise.all(shops.map(startShop));
  await Promise.all(shops.map((shop) => stopProcess(shop.proc)));
  log(`seeding ${ORDERS} orders, ${scale.items} items, ${scale.messages} messages, ${PRODUCTS} products into each database`);
  await Promise.all(
    shops.map(async (shop) => {
      const target = shop.env.DATABASE_URL ? ["--postgres", shop.env.DATABASE_URL] : ["--pglite", path.join(shop.dataDir, "pglite")];
      const seeder = startNode(`seed ${shop.key}`, [path.join(here, "seed.mjs"), ...target, "--secret-key-file", path.join(shop.dataDir, "secret.key"), "--orders", String(ORDERS)], { cwd: root });
      const code = await seeder.exited;
      if (code !== 0) throw new Error(`seeding ${shop.key} failed:\n${tail(seeder)}`);
      log(`${shop.key}: ${seeder.output().trim()}`);
    }),
  );
  await Promise.all(shops.map(startShop));

  // 2. Log in and configure the bot through the API, as the owner does; wait for its webhook.
  for (const shop of shops) {
    const login = await fetch(`${shop.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`${shop.key}: login failed: ${login.status} ${await login.text()}`);
    shop.cookie = login.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const before = (await control("stats")).setWebhook;
    await getJson(`${shop.base}/api/bot-settings`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: shop.cookie },
      body: JSON.stringify({
        botName: "Bench Shop",
        botToken: shop.token,
        acceptedCurrencies: ["BTC", "LTC", "XMR"],
        welcomeMessage: WELCOME,
        faqContent: "Orders ship within two working days.",
      }),
    });
    const deadline = Date.now() + 30_000;
    while ((await control("stats")).setWebhook === before) {
      if (Date.now() > deadline) throw new Error(`${shop.key}: the bot never called setWebhook:\n${tail(shop.proc)}`);
      await sleep(50);
    }
    shop.secret = crypto.createHmac("sha256", "telegram-webhook-secret").update(shop.token).digest("hex");
    log(`${shop.key}: listening on ${shop.port}, logged in, bot running by webhook`);
  }

  // 3. The peers.
  const peers = [];
  const httpPeer = startNode("peer node:http", [path.join(here, "peer-http.mjs")]);
  peers.push({ key: "peer-http", proc: httpPeer, port: await listeningPort(httpPeer) });
  const grammyToken = "700000003:BENCH-grammy-token-cccccccccccccccccccccc";
  const grammyPeer = startNode("peer grammY", [path.join(here, "peer-grammy.mjs")], {
    cwd: root,
    env: {
      ...baseEnv,
      BOT_TOKEN: grammyToken,
      TELEGRAM_API_ROOT: telegramRoot,
      WEBHOOK_SECRET: "bench-peer-secret",
      WELCOME_MESSAGE: WELCOME,
      CATEGORY_NAMES: mainCategoryNames().join("|"),
    },
  });
  peers.push({ key: "peer-grammy", proc: grammyPeer, port: await listeningPort(grammyPeer), secret: "bench-peer-secret", token: grammyToken });
  if (postgresUrl) {
    const expressPeer = startNode("peer Express", [path.join(here, "peer-express.mjs")], {
      cwd: root,
      env: { ...baseEnv, DATABASE_URL: postgresUrl },
    });
    peers.push({ key: "peer-express", proc: expressPeer, port: await listeningPort(expressPeer) });
  }
  log(`peers listening: ${peers.map((p) => `${p.key} on ${p.port}`).join(", ")}`);

  const servers = new Map([...shops, ...peers].map((server) => [server.key, server]));
  const targetNames = {
    "shop-pg": "shop, PostgreSQL",
    "shop-pglite": "shop, PGlite",
    "peer-http": "peer: bare node:http",
    "peer-grammy": "peer: bare grammY bot, no database",
    "peer-express": "peer: Express 5 + node-postgres",
  };

  // --- Updates as Telegram sends them; every update_id unique in the run ---
  let nextUpdateId = 1;
  const USERS = 1000;
  const FIRST_BENCH_USER = 800_000_000;
  const botInfo = (token) => ({ id: Number(token.split(":")[0]), is_bot: true, first_name: "Bench Bot", username: `bench_${token.split(":")[0]}_bot` });
  const customer = (id) => ({ id, is_bot: false, first_name: `Customer ${id}`, username: `bench${id}` });
  const startUpdate = (updateId, userId) => ({
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: userId, type: "private", first_name: `Customer ${userId}` },
      from: customer(userId),
      text: "/start",
      entities: [{ type: "bot_command", offset: 0, length: 6 }],
    },
  });
  // A press of "Browse Products" on the welcome message the bot sent earlier (edited in place).
  const browseUpdate = (updateId, userId, token) => ({
    update_id: updateId,
    callback_query: {
      id: `cb${updateId}`,
      from: customer(userId),
      chat_instance: `ci${userId}`,
      data: "cats:0",
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000) - 60,
        chat: { id: userId, type: "private", first_name: `Customer ${userId}` },
        from: botInfo(token),
        text: WELCOME,
        reply_markup: { inline_keyboard: [[{ text: "Browse Products", callback_data: "cats:0" }]] },
      },
    },
  });

  // --- Workloads ---
  // The lists and the stats run on one connection: their targets (issue 12) are the time one request
  // takes, which more connections on 2 cores would turn into time spent waiting for the others.
  const shopKeys = shops.map((s) => s.key);
  const withPeer = (peer) => (servers.has(peer) ? [shopKeys[0], peer, ...shopKeys.slice(1)] : shopKeys);
  const workloads = [
    { key: "health", title: "`GET /api/health` (a `select 1`)", connections: 50, peer: "peer-http", path: "/api/health" },
    { key: "start", title: "Bot `/start` from 1,000 users", connections: 50, peer: "peer-grammy", bot: "start" },
    { key: "browse", title: 'Bot "Browse Products" callback', connections: 50, peer: "peer-grammy", bot: "browse" },
    { key: "products", title: `\`GET /api/products\` (${PRODUCTS} products)`, connections: 20, peer: "peer-express", path: "/api/products", admin: true },
    { key: "orders", title: `\`GET /api/orders?limit=50\` at ${ORDERS.toLocaleString("en-GB")} orders`, connections: 1, path: "/api/orders?limit=50", admin: true, check: "page" },
    { key: "orders-status", title: "`GET /api/orders?limit=50&status=processing`", connections: 1, path: "/api/orders?limit=50&status=processing", admin: true, check: "status" },
    { key: "orders-q", title: "`GET /api/orders?limit=50&q=@cust12` (username search)", connections: 1, path: "/api/orders?limit=50&q=%40cust12", admin: true, check: "q" },
    { key: "stats", title: "`GET /api/dashboard/stats`", connections: 1, path: "/api/dashboard/stats", admin: true },
    { key: "late", title: `Bot \`/start\` with Telegram answering ${LATE_MS} ms late`, connections: 50, peer: "peer-grammy", bot: "start", lateMs: LATE_MS },
  ]
    .filter((w) => !args.only || args.only.split(",").includes(w.key))
    .map((w) => ({ ...w, connections: Math.min(w.connections, MAX_CONNECTIONS), targets: w.peer ? withPeer(w.peer) : shopKeys }));
  if (workloads.length === 0) throw new Error(`--only ${args.only}: no such workload`);

  // --- Probes: each API answer checked once; what the server does not support yet is noted ---
  for (const workload of workloads.filter((w) => w.path)) {
    for (const key of workload.targets.filter((k) => k.startsWith("shop"))) {
      const shop = servers.get(key);
      const response = await fetch(shop.base + workload.path, { headers: { cookie: shop.cookie } });
      const text = await response.text();
      if (!response.ok) throw new Error(`${key} ${workload.path}: ${response.status} ${text.slice(0, 300)}`);
      if (!workload.check) continue;
      const rows = JSON.parse(text);
      const paged = response.headers.has("x-total-count");
      if (!paged || rows.length > 50) {
        note(
          `${targetNames[key]}: \`${workload.path}\` answered ${rows.length} orders without X-Total-Count ` +
            `(${(text.length / 1024 / 1024).toFixed(1)} MB): \`limit\` not supported yet, the full list was measured.`,
        );
        // Tens of MB per answer: fewer connections, or the server runs out of memory.
        if (text.length > 5 * 1024 * 1024) workload.connections = 1;
      }
      if (workload.check === "status" && rows.some((order) => order.status !== "processing")) {
        note(`${targetNames[key]}: \`status=processing\` not supported yet (other statuses answered); measured as answered.`);
      }
      if (workload.check === "q" && rows.some((order) => !String(order.telegramUsername ?? "").startsWith("cust12"))) {
        note(`${targetNames[key]}: \`q=@cust12\` not supported yet (other customers answered); measured as answered.`);
      }
    }
  }
  // A bot probe per server: one /start must come back as a reply.
  for (const key of new Set(workloads.filter((w) => w.bot).flatMap((w) => w.targets))) {
    const server = servers.get(key);
    await control("reset", {});
    const response = await fetch(`http://127.0.0.1:${server.port}/api/telegram/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": server.secret },
      body: JSON.stringify(startUpdate(nextUpdateId++, FIRST_BENCH_USER + USERS + 1)),
    });
    if (!response.ok) throw new Error(`${key}: the webhook answered ${response.status} ${await response.text()}`);
    const deadline = Date.now() + 20_000;
    while ((await control("stats")).s === 0) {
      if (Date.now() > deadline) throw new Error(`${key}: the bot did not answer /start within 20 s`);
      await sleep(20);
    }
  }
  log("every server answers every workload");

  // --- One measurement: one workload on one server for `seconds` ---
  async function measure(workload, key, seconds) {
    const server = servers.get(key);
    const request = { method: "GET", path: workload.path, headers: workload.admin ? { cookie: server.cookie } : {} };
    const options = {
      url: `http://127.0.0.1:${server.port}`,
      connections: workload.connections,
      duration: seconds,
      requests: [request],
      // autocannon looks at its stop condition once per sample: every 100 ms, so a run ends on time.
      sampleInt: 100,
    };
    if (workload.bot) {
      await control("reset", {});
      await control("delay", { ms: workload.lateMs ?? 0 });
      request.method = "POST";
      request.path = "/api/telegram/webhook";
      request.headers = { "content-type": "application/json", "x-telegram-bot-api-secret-token": server.secret };
      request.setupRequest = (req) => {
        const updateId = nextUpdateId++;
        const userId = FIRST_BENCH_USER + (updateId % USERS);
        const update = workload.bot === "start" ? startUpdate(updateId, userId) : browseUpdate(updateId, userId, server.token);
        return { ...req, body: JSON.stringify(update) };
      };
      // A webhook that stores updates and answers at once takes them faster than it handles them:
      // at most MAX_UPDATES per run, so the queue it builds drains in bounded time.
      options.amount = Math.max(workload.connections, MAX_UPDATES);
    }
    const latencies = [];
    const started = nowMs();
    let lastAnswer = started;
    const instance = autocannon(options);
    const timer = options.amount ? setTimeout(() => instance.stop(), seconds * 1000) : undefined;
    instance.on("response", (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
      lastAnswer = nowMs();
    });
    const result = await instance;
    clearTimeout(timer);
    latencies.sort((a, b) => a - b);
    const ok = result["2xx"];
    const run = {
      ok,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      // Over the time answers came (autocannon's own duration is rounded to its samples).
      rps: ok / Math.max(0.001, (lastAnswer - started) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      bytesPerAnswer: ok > 0 ? result.throughput.total / ok : Number.NaN,
      e2e: null,
    };
    if (workload.bot) {
      run.drainSeconds = await drain(workload, ok);
      run.e2e = await closedLoop(workload, server, seconds);
      await control("delay", { ms: 0 });
    }
    run.rssMb = treeRssMb(server.proc.pid);
    return run;
  }

  const replyKind = (workload) => (workload.bot === "start" ? "s" : "a");

  /** Waits until the bot has answered what the webhook took (or replies stop coming); the seconds it took. */
  async function drain(workload, accepted) {
    const kind = replyKind(workload);
    const started = Date.now();
    let last = -1;
    let stableSince = Date.now();
    for (;;) {
      const count = (await control("stats"))[kind];
      if (count !== last) {
        last = count;
        stableSince = Date.now();
      }
      const quiet = Date.now() - stableSince;
      if ((count >= accepted && quiet >= 100) || quiet >= 3_000) break;
      if (Date.now() - started > DRAIN_LIMIT_MS) {
        note(`${workload.key}: the bot was still answering ${DRAIN_LIMIT_MS / 1000} s after the load ended; went on regardless.`);
        break;
      }
      await sleep(50);
    }
    return (Date.now() - started) / 1000;
  }

  /**
   * End to end, closed loop: `users` customers, each sending an update and waiting for the bot's
   * reply to reach Telegram before sending the next, for `seconds`. Unlike the webhook's answer this
   * counts the handling, whether the webhook waits for it or queues the update; and one update per
   * customer at a time is how customers use a bot.
   */
  async function closedLoop(workload, server, seconds) {
    const kind = replyKind(workload);
    const waiting = new Map();
    const onReply = ([eventKind, key, t]) => {
      if (eventKind === kind) waiting.get(key)?.(t);
    };
    telegram.child.on("message", onReply);
    await control("live", { on: true });
    const latencies = [];
    let missing = 0;
    const started = nowMs();
    const end = started + seconds * 1000;
    const users = workload.connections;
    const webhook = `http://127.0.0.1:${server.port}/api/telegram/webhook`;
    const headers = { "content-type": "application/json", "x-telegram-bot-api-secret-token": server.secret };
    await Promise.all(
      Array.from({ length: users }, async (_, index) => {
        // A customer of its own per loop, apart from the 1,000 of the webhook runs: a reply to this chat is to this loop.
        const userId = FIRST_BENCH_USER + USERS + 10 + index;
        while (nowMs() < end) {
          const updateId = nextUpdateId++;
          const update = workload.bot === "start" ? startUpdate(updateId, userId) : browseUpdate(updateId, userId, server.token);
          const key = workload.bot === "start" ? String(userId) : `cb${updateId}`;
          let timer;
          const replied = new Promise((resolve) => {
            waiting.set(key, resolve);
            timer = setTimeout(() => resolve(null), 30_000);
          });
          const sent = nowMs();
          const response = await fetch(webhook, { method: "POST", headers, body: JSON.stringify(update) }).catch(() => null);
          await response?.arrayBuffer();
          const repliedAt = response?.ok ? await replied : null;
          clearTimeout(timer);
          waiting.delete(key);
          if (repliedAt === null) missing += 1;
          else latencies.push(repliedAt - sent);
        }
      }),
    );
    const elapsed = (nowMs() - started) / 1000;
    await control("live", { on: false });
    telegram.child.off("message", onReply);
    latencies.sort((a, b) => a - b);
    return {
      replies: latencies.length,
      unanswered: missing,
      handledPerSec: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  }

  /**
   * A shop found stopped (another session on this machine may end servers by name) is started again
   * on the same data: its settings, session and bot survive a restart.
   */
  async function ensureRunning(server) {
    if (!server.proc.ended) return;
    const why = `${server.key} stopped (exit ${server.proc.code}); the end of its log:\n${tail(server.proc, 12)}`;
    if (!shops.includes(server)) throw new Error(why);
    log(`${why}\nstarting it again`);
    note(`${targetNames[server.key]} stopped during the run (exit ${server.proc.code}) and was started again; the measurement it was in was taken again.`);
    await startShop(server);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await fetch(`${server.base}/api/telegram/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": server.secret },
        body: JSON.stringify(startUpdate(nextUpdateId++, FIRST_BENCH_USER + USERS + 1)),
      }).catch(() => null);
      if (response?.ok) break;
      if (Date.now() > deadline) throw new Error(`${server.key}: its bot did not come back within 60 s after a restart`);
      await sleep(200);
    }
    await sleep(1000); // the probe's reply, and the bot's start-up calls, out of the way
  }

  /** measure(), taken again (twice at most) when the server stopped in the middle of it. */
  async function measureRunning(workload, key, seconds) {
    for (let attempt = 0; ; attempt++) {
      const server = servers.get(key);
      await ensureRunning(server);
      const run = await measure(workload, key, seconds);
      if (!server.proc.ended) return run;
      if (attempt >= 2) throw new Error(`${key} keeps stopping:\n${tail(server.proc, 12)}`);
    }
  }

  // --- Warm-up, then the rounds, interleaved: each round runs every workload on every server,
  // starting with a different server each round, so a burst of outside load hits all alike ---
  if (WARMUP > 0) {
    log(`warm-up: ${WARMUP} s of each workload on each server`);
    for (const workload of workloads) for (const key of workload.targets) await measureRunning(workload, key, WARMUP);
  }
  const results = new Map();
  const rss = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const workload of workloads) {
      const order = workload.targets.map((_, i) => workload.targets[(i + round) % workload.targets.length]);
      for (const key of order) {
        const run = await measureRunning(workload, key, DURATION);
        const id = `${workload.key}|${key}`;
        if (!results.has(id)) results.set(id, []);
        results.get(id).push(run);
        rss[key] = Math.max(rss[key] ?? 0, run.rssMb);
        const e2e = run.e2e
          ? `; drained in ${run.drainSeconds.toFixed(1)} s; end to end ${run.e2e.handledPerSec.toFixed(0)} updates/s, ` +
            `reply p50 ${run.e2e.p50?.toFixed(1)} ms, p99 ${run.e2e.p99?.toFixed(1)} ms, ${run.e2e.unanswered} unanswered`
          : "";
        log(
          `round ${round + 1}/${ROUNDS} ${workload.key} on ${key}: ${run.rps.toFixed(0)} req/s, ` +
            `p50 ${run.p50?.toFixed(1)} ms, p99 ${run.p99?.toFixed(1)} ms, ${run.ok} answers, ` +
            `${run.non2xx} non-2xx, ${run.errors} errors${e2e}`,
        );
      }
    }
  }

  // --- The Orders screen in a browser at this many orders: time to its first rows (issue 12) ---
  const ordersScreen = await timeOrdersScreen(shops, note);

  // --- Report ---
  const summaries = new Map([...results].map(([id, runs]) => [id, summarize(runs)]));
  for (const [id, s] of summaries) {
    if (s.failed > 0) note(`${id.replace("|", " on ")}: ${s.failed} requests failed (non-2xx, errors or timeouts).`);
  }
  const cpu = os.cpus()[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  const section = renderSection({
    date: new Date().toISOString().replace(/:\d\d\.\d+Z$/, " UTC").replace("T", " "),
    machine: {
      cores: os.cpus().length,
      cpuModel: cpu,
      memoryGb: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      postgres: postgresVersion ? `PostgreSQL ${postgresVersion} on 127.0.0.1` : null,
      loadBefore,
      loadAfter: os.loadavg()[0].toFixed(1),
    },
    settings: { ...scale, rounds: ROUNDS, duration: DURATION, warmup: WARMUP, maxUpdates: MAX_UPDATES },
    workloads,
    targetNames,
    summaries,
    notes,
    rss,
    ordersScreen,
  });
  const existing = fs.existsSync(OUT) ? fs.readFileSync(OUT, "utf8") : "";
  fs.writeFileSync(OUT, replaceSection(existing, section));
  console.log(`\n${section}`);
  log(`wrote the section "Throughput and latency" to ${path.relative(process.cwd(), OUT) || OUT}`);
}

/**
 * Opens the Orders screen as the logged-in owner would, in a fresh browser context each time (its
 * cookie and localStorage as signing in left them, nothing in its HTTP cache), and times it from the navigation to the first order row on screen: the median of 5 tries
 * per shop, in ms. Skipped, with a note, when the web app is not built or Chromium is not found.
 */
async function timeOrdersScreen(shops, note) {
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(path.join(root, "dist/web/index.html")) || !fs.existsSync(chromiumPath)) {
    note(`The Orders screen was not timed: it needs the built web app (dist/web) and Chromium (${chromiumPath}).`);
    return {};
  }
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const times = {};
  try {
    for (const shop of shops) {
      // The owner's browser as the app left it when they signed in (its cookie and what the app keeps
      // in localStorage), then reopened with an empty HTTP cache for each try.
      const signingIn = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const [name, value] = shop.cookie.split(";")[0].split("=");
      await signingIn.addCookies([{ name, value, url: shop.base }]);
      const firstPage = await signingIn.newPage();
      await firstPage.goto(`${shop.base}/`);
      await firstPage.getByRole("heading", { name: "Dashboard", exact: true }).first().waitFor({ state: "visible", timeout: 30_000 });
      const storageState = await signingIn.storageState();
      await signingIn.close();
      const tries = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
        // Timed by the page's own clock, from the start of the navigation to the first row in the
        // document, so the time the test driver takes to notice it is not counted.
        await context.addInitScript(() => {
          const seen = () => {
            if (!document.querySelector('[data-testid="order-row"]')) return false;
            window.__firstOrderRowAt = performance.now();
            return true;
          };
          new MutationObserver((_changes, observer) => seen() && observer.disconnect()).observe(document, { childList: true, subtree: true });
        });
        const page = await context.newPage();
        await page.goto(`${shop.base}/orders`, { waitUntil: "commit" });
        await page.getByTestId("order-row").first().waitFor({ state: "visible", timeout: 30_000 });
        tries.push(await page.evaluate(() => window.__firstOrderRowAt));
        await context.close();
      }
      tries.sort((a, b) => a - b);
      times[shop.key] = { median: percentile(tries, 50), min: tries[0], max: tries.at(-1) };
      log(`Orders screen on ${shop.key}: first rows after ${times[shop.key].median.toFixed(0)} ms (median of ${tries.length})`);
    }
  } finally {
    await browser.close();
  }
  return times;
}

try {
  await main();
} catch (error) {
  // After Ctrl-C what was in progress fails as its processes go: not worth a stack trace.
  if (!interrupted) console.error(`The benchmark failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
