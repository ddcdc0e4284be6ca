// Figures of a benchmark run -> the Markdown section of docs/PERFORMANCE.md. No I/O here except
// through the caller, so the smoke test and the run read the same tables.

export const SECTION_HEADING = "## Throughput and latency (npm run bench)";

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function spread(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/** The rounds of one workload on one server, summed up: medians and min-max across rounds. */
export function summarize(runs) {
  const bot = runs.filter((run) => run.e2e);
  return {
    rounds: runs.length,
    rps: spread(runs.map((r) => r.rps)),
    p50: spread(runs.map((r) => r.p50)),
    p99: spread(runs.map((r) => r.p99)),
    answered: runs.reduce((sum, r) => sum + r.ok, 0),
    failed: runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
    bytesPerAnswer: median(runs.map((r) => r.bytesPerAnswer)),
    e2e:
      bot.length === 0
        ? null
        : {
            handled: spread(bot.map((r) => r.e2e.handledPerSec)),
            p50: spread(bot.map((r) => r.e2e.p50)),
            p99: spread(bot.map((r) => r.e2e.p99)),
            replies: bot.reduce((sum, r) => sum + r.e2e.replies, 0),
            drain: spread(bot.map((r) => r.drainSeconds)),
            unanswered: bot.reduce((sum, r) => sum + r.e2e.unanswered, 0),
          },
  };
}

// --- Formatting ---

const thousands = (n) => Math.round(n).toLocaleString("en-GB");

export function formatRate(n) {
  if (!Number.isFinite(n)) return "-";
  return n >= 100 ? thousands(n) : n.toFixed(1);
}

export function formatMs(n) {
  if (!Number.isFinite(n)) return "-";
  if (n < 1) return n.toFixed(2);
  return n < 100 ? n.toFixed(1) : thousands(n);
}

function formatBytes(n) {
  if (!Number.isFinite(n)) return "-";
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** "720 (690-750)"; just the value when there was one round. */
function withRange(s, format) {
  if (!s || s.n === 0) return "-";
  if (s.n === 1 || s.min === s.max) return format(s.median);
  return `${format(s.median)} (${format(s.min)}-${format(s.max)})`;
}

const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : Number.NaN);
const formatRatio = (n) => (Number.isFinite(n) ? (n >= 10 ? n.toFixed(0) : n.toFixed(2)) : "-");

/** What a shop row is compared with: the workload's peer, else (PGlite) the shop on PostgreSQL. */
function reference(workload, targetKey) {
  if (!targetKey.startsWith("shop")) return null;
  if (workload.peer && workload.targets.includes(workload.peer)) return { key: workload.peer, name: "peer" };
  if (targetKey === "shop-pglite" && workload.targets.includes("shop-pg")) return { key: "shop-pg", name: "PostgreSQL" };
  return null;
}

function comparison(mine, theirs, name, pick) {
  if (!mine || !theirs) return "";
  const speed = ratio(pick(mine).rate.median, pick(theirs).rate.median);
  const p99 = ratio(pick(mine).p99.median, pick(theirs).p99.median);
  return `${formatRatio(speed)} of ${name}, p99 ${formatRatio(p99)}x`;
}

const http = (s) => ({ rate: s.rps, p50: s.p50, p99: s.p99 });
const endToEnd = (s) => ({ rate: s.e2e.handled, p50: s.e2e.p50, p99: s.e2e.p99 });

/**
 * Checks of issue 12's item 4 against this run's medians. Each: what, the measured value, and
 * met / not met (null: not measured in this run).
 */
export function targetChecks(summaries) {
  const get = (workload, target) => summaries.get(`${workload}|${target}`);
  const checks = [];
  const add = (what, value, met) => checks.push({ what, value, met });
  const botRatio = (workload, target, field) => {
    const mine = get(workload, target)?.e2e;
    const peer = get(workload, "peer-grammy")?.e2e;
    return mine && peer ? ratio(mine[field].median, peer[field].median) : Number.NaN;
  };
  for (const [workload, label] of [
    ["start", "Bot `/start`"],
    ["browse", "Bot browse"],
  ]) {
    const pg = botRatio(workload, "shop-pg", "handled");
    add(`${label} on PostgreSQL: updates handled/s at least 0.5 of the grammY peer's`, formatRatio(pg), Number.isFinite(pg) ? pg >= 0.5 : null);
    const p99 = botRatio(workload, "shop-pg", "p99");
    add(`${label} on PostgreSQL: reply p99 at most 2x the peer's`, `${formatRatio(p99)}x`, Number.isFinite(p99) ? p99 <= 2 : null);
    const lite = botRatio(workload, "shop-pglite", "handled");
    add(`${label} on PGlite: updates handled/s at least 0.3 of the peer's`, formatRatio(lite), Number.isFinite(lite) ? lite >= 0.3 : null);
  }
  const products = ratio(get("products", "shop-pg")?.rps.median, get("products", "peer-express")?.rps.median);
  add("`GET /api/products` on PostgreSQL: at least 2x the Express + node-postgres peer", formatRatio(products), Number.isFinite(products) ? products >= 2 : null);
  for (const [target, factor, db] of [
    ["shop-pg", 1, "PostgreSQL"],
    ["shop-pglite", 3, "PGlite"],
  ]) {
    const pages = ["orders", "orders-status", "orders-q"].map((w) => get(w, target)?.p50.median);
    const worst = Math.max(...pages.filter(Number.isFinite));
    const limit = 30 * factor;
    add(
      `A page of 50 orders (each filter) on ${db}: p50 under ${limit} ms`,
      pages.some(Number.isFinite) ? pages.map((p) => `${formatMs(p)} ms`).join(", ") : "-",
      Number.isFinite(worst) && pages.every(Number.isFinite) ? worst < limit : null,
    );
    const stats = get("stats", target)?.p50.median;
    add(`\`GET /api/dashboard/stats\` on ${db}: p50 under ${20 * factor} ms`, `${formatMs(stats)} ms`, Number.isFinite(stats) ? stats < 20 * factor : null);
  }
  for (const [target, db] of [
    ["shop-pg", "PostgreSQL"],
    ["shop-pglite", "PGlite"],
  ]) {
    const late = get("late", target)?.p50.median;
    add(`Telegram 300 ms late, on ${db}: the webhook's p50 under 20 ms`, `${formatMs(late)} ms`, Number.isFinite(late) ? late < 20 : null);
  }
  return checks;
}

/**
 * The whole section. `run`: { date, machine, settings, workloads, targetNames, summaries, notes, rss }.
 */
export function renderSection(run) {
  const { machine, settings, workloads, targetNames, summaries } = run;
  const lines = [];
  const out = (line = "") => lines.push(line);
  out(SECTION_HEADING);
  out();
  out(
    `Written by \`npm run bench\` (scripts/bench/run.mjs), which replaces this section on each run. ` +
      `${run.date}; ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGb} GB, Node ${machine.node}, ` +
      `${machine.postgres ?? "no PostgreSQL"}; **load average ${machine.loadBefore} before the run, ${machine.loadAfter} after** ` +
      `(the machine is shared: other work slows every server alike, as the rounds are interleaved).`,
  );
  out();
  out(
    `Each server runs as an operator runs it (\`node dist/server/main.js\`, webhook mode, one JSON log line per request ` +
      `to a file). Data: ${thousands(settings.products)} products, ${thousands(settings.orders)} orders with ` +
      `${thousands(settings.items)} items, ${thousands(settings.messages)} customer messages, seeded with SQL into both databases. ` +
      `autocannon on 127.0.0.1 (in the benchmark's own process), ${settings.rounds} interleaved ` +
      `round${settings.rounds === 1 ? "" : "s"} of ${settings.duration} s per workload and server` +
      `${settings.warmup > 0 ? ` after ${settings.warmup} s of warm-up each` : ""}; the figures are the median of the rounds, ` +
      `min-max in brackets. Latency is of answers with a 2xx status; a ratio is of medians (req/s: higher is better; p99: lower). ` +
      `Answer sizes include the headers; no client asks for compression.`,
  );
  out();
  out("| workload | server | req/s | p50 ms | p99 ms | compared | answers (failed) |");
  out("|---|---|---|---|---|---|---|");
  for (const workload of workloads) {
    let first = true;
    for (const target of workload.targets) {
      const s = summaries.get(`${workload.key}|${target}`);
      if (!s) continue;
      const ref = reference(workload, target);
      const cells = [
        first ? `${workload.title}, ${workload.connections} connection${workload.connections === 1 ? "" : "s"}${Number.isFinite(s.bytesPerAnswer) ? `, ${formatBytes(s.bytesPerAnswer)}/answer` : ""}` : "",
        targetNames[target],
        withRange(s.rps, formatRate),
        withRange(s.p50, formatMs),
        withRange(s.p99, formatMs),
        ref ? comparison(s, summaries.get(`${workload.key}|${ref.key}`), ref.name, http) : "",
        `${thousands(s.answered)} (${thousands(s.failed)})`,
      ];
      out(`| ${cells.join(" | ")} |`);
      first = false;
    }
  }
  out();
  out(
    "The bot end to end, closed loop: as many customers as the workload has connections, each sending an update and " +
      "waiting for the bot's last call for it (`sendMessage` for `/start`, `answerCallbackQuery` for browse) to reach " +
      "the fake Telegram before sending the next. This counts the handling whether the webhook waits for it or queues " +
      `the update, and is what a customer sees. The webhook runs above send at most ${thousands(run.settings.maxUpdates)} ` +
      "updates each; the last column is how long the bot took after such a run to answer all it had taken.",
  );
  out();
  out("| workload | server | updates handled/s | reply p50 ms | reply p99 ms | compared | replies (missing) | webhook run drained in s |");
  out("|---|---|---|---|---|---|---|---|");
  for (const workload of workloads.filter((w) => w.bot)) {
    let first = true;
    for (const target of workload.targets) {
      const s = summaries.get(`${workload.key}|${target}`);
      if (!s?.e2e) continue;
      const ref = reference(workload, target);
      const theirs = ref && summaries.get(`${workload.key}|${ref.key}`);
      const cells = [
        first ? `${workload.title}, ${workload.connections} customers` : "",
        targetNames[target],
        withRange(s.e2e.handled, formatRate),
        withRange(s.e2e.p50, formatMs),
        withRange(s.e2e.p99, formatMs),
        theirs?.e2e ? comparison(s, theirs, ref.name, endToEnd) : "",
        `${thousands(s.e2e.replies)} (${thousands(s.e2e.unanswered)})`,
        withRange(s.e2e.drain, (n) => n.toFixed(1)),
      ];
      out(`| ${cells.join(" | ")} |`);
      first = false;
    }
  }
  out();
  out("Issue 12's targets (item 4) in this run:");
  out();
  out("| target | measured | |");
  out("|---|---|---|");
  for (const check of targetChecks(summaries)) {
    out(`| ${check.what} | ${check.value} | ${check.met === null ? "not measured" : check.met ? "met" : "**not met**"} |`);
  }
  out("| Lighthouse on the Dashboard at least 95, the login page 99 | in the Lighthouse section (`npm run bench:lighthouse`) | |");
  for (const [target, factor, db] of [
    ["shop-pg", 1, "PostgreSQL"],
    ["shop-pglite", 3, "PGlite"],
  ]) {
    const screen = run.ordersScreen?.[target];
    const limit = 1000 * factor;
    out(
      `| The Orders screen shows its first rows (a signed-in browser, empty cache) on ${db}: under ${limit / 1000} s | ` +
        `${screen ? `${Math.round(screen.median)} ms (${Math.round(screen.min)}-${Math.round(screen.max)})` : "-"} | ` +
        `${screen ? (screen.median < limit ? "met" : "**not met**") : "not measured"} |`,
    );
  }
  out();
  if (run.rss && Object.keys(run.rss).length > 0) {
    out(
      "Resident memory of each server's process tree, the most seen after any workload: " +
        Object.entries(run.rss)
          .map(([target, mb]) => `${targetNames[target]} ${Math.round(mb)} MB`)
          .join(", ") +
        ".",
    );
    out();
  }
  if (run.notes.length > 0) {
    out("Notes from this run:");
    out();
    for (const note of run.notes) out(`- ${note}`);
    out();
  }
  return lines.join("\n");
}

/** `text` with its section under `heading` replaced by `section` (appended when it has none); the rest untouched. */
export function replaceSection(text, section, heading = SECTION_HEADING) {
  const start = text.indexOf(`\n${heading}\n`);
  const body = section.endsWith("\n") ? section : `${section}\n`;
  if (start < 0 && !text.startsWith(`${heading}\n`)) {
    return text.length === 0 ? body : `${text.replace(/\n*$/, "\n\n")}${body}`;
  }
  const from = start < 0 ? 0 : start + 1;
  const next = text.indexOf("\n## ", from + heading.length);
  const rest = next < 0 ? "" : text.slice(next + 1);
  return `${text.slice(0, from)}${body}${rest ? `\n${rest}` : ""}`;
}
