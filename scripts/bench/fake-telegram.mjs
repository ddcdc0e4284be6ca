// A fake Telegram Bot API for the benchmark, run as its own process so that answering the bots
// costs the load generator nothing. test-support/fake-telegram.ts keeps every call and message for
// tests to inspect, which would grow without bound under load: this one keeps only what the
// benchmark reads back, the time each reply arrived, and can answer late (`delay`).
//
// Control (on the same port, outside any /bot<token>/ path):
//   POST /__bench/delay {"ms": 300}   every later Bot API call is answered that much later
//   POST /__bench/reset               forgets the replies logged so far
//   GET  /__bench/stats               {"s": n, "e": n, "a": n, "setWebhook": n}: counts so far
//   GET  /__bench/log                 {"events": [[kind, key, t], ...]}
//   POST /__bench/live {"on": true}   also sends each reply's [kind, key, t] to the parent process
//                                     (IPC) as it happens, for the closed-loop measurement
// kind is "s" (sendMessage, key = chat_id), "e" (editMessageText, key = chat_id) or "a"
// (answerCallbackQuery, key = callback_query_id); t is when the answer left, in ms of the system's
// monotonic clock (process.hrtime), which every process on the machine shares.
import http from "node:http";

let delayMs = 0;
let events = [];
let counts = { s: 0, e: 0, a: 0 };
let setWebhookCalls = 0;
let live = false;
let messageId = 1000;

const nowMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;

/** A user id from the token's prefix, so each bot gets its own identity as with the real API. */
function botInfo(token) {
  const id = Number(token.split(":")[0]) || 1;
  return {
    id,
    is_bot: true,
    first_name: "Bench Bot",
    username: `bench_${id}_bot`,
    can_join_groups: false,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
  };
}

function message(payload) {
  return {
    message_id: ++messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: Number(payload.chat_id), type: "private" },
    text: typeof payload.text === "string" ? payload.text : undefined,
    reply_markup: payload.reply_markup,
  };
}

/** The result of a Bot API method; anything not listed answers `true`, as most setters do. */
function result(method, token, payload) {
  switch (method) {
    case "getMe":
      return botInfo(token);
    case "sendMessage":
    case "sendPhoto":
      return message(payload);
    case "editMessageText":
    case "editMessageCaption":
    case "editMessageReplyMarkup":
      return { ...message(payload), message_id: Number(payload.message_id) || ++messageId };
    case "getUpdates":
      return [];
    case "getWebhookInfo":
      return { url: "", has_custom_certificate: false, pending_update_count: 0 };
    default:
      return true;
  }
}

const KINDS = { sendMessage: ["s", "chat_id"], editMessageText: ["e", "chat_id"], answerCallbackQuery: ["a", "callback_query_id"] };

function logReply(method, payload) {
  if (method === "setWebhook") setWebhookCalls += 1;
  const kind = KINDS[method];
  if (!kind) return;
  const event = [kind[0], String(payload[kind[1]]), nowMs()];
  events.push(event);
  counts[kind[0]] += 1;
  if (live && process.send) process.send(event);
}

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  // grammY sends JSON; a multipart upload (sendPhoto with a file) is not part of any workload.
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

const server = http.createServer((request, response) => {
  void (async () => {
    const send = (status, body) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const url = request.url ?? "";
    if (url === "/__bench/stats") return send(200, { ...counts, setWebhook: setWebhookCalls });
    if (url === "/__bench/log") return send(200, { events });
    if (url === "/__bench/reset") {
      events = [];
      counts = { s: 0, e: 0, a: 0 };
      return send(200, { ok: true });
    }
    if (url === "/__bench/live") {
      live = Boolean((await readJson(request)).on);
      return send(200, { ok: true, live });
    }
    if (url === "/__bench/delay") {
      delayMs = Number((await readJson(request)).ms) || 0;
      return send(200, { ok: true, delayMs });
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.split("?")[0]);
    if (!match) return send(404, { ok: false, error_code: 404, description: "Not Found" });
    const [, token, method] = match;
    const payload = await readJson(request);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    logReply(method, payload);
    send(200, { ok: true, result: result(method, token, payload) });
  })().catch((error) => {
    response.writeHead(500);
    response.end(String(error));
  });
});
// Every bot keeps its connections open (keep-alive); the default limits would cut them.
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`LISTENING ${server.address().port}`);
});
process.on("SIGTERM", () => process.exit(0));
// Started with an IPC channel by the benchmark: never outlive it.
process.on("disconnect", () => process.exit(0));
