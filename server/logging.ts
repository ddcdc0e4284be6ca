import { createRequire } from "node:module";
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";
import pino, { type DestinationStream, type Logger } from "pino";
import type { Config } from "./config";

// Logs never carry secrets (docs/product.md rule 9), nor what customers told the shop. Two layers:
// - redact: the places where we know secrets or personal data sit (cookies, signatures, the
//   settings' secret fields, shipping addresses, usernames, Telegram updates, request bodies);
// - a scrubbing destination: every finished line loses any Telegram bot token, wherever a library
//   put it (grammY's HttpError and fetch errors carry the request URL https://…/bot<token>/getMe).

/** A Telegram bot token as it appears in Bot API URLs and messages: <bot id>:<secret>. */
const BOT_TOKEN = /(bot)?\d{5,}:[A-Za-z0-9_-]{10,}/g;

export function scrubSecrets(text: string): string {
  return text.replace(BOT_TOKEN, (_match, prefix: string | undefined) => `${prefix ?? ""}<redacted-token>`);
}

export const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["x-nowpayments-sig"]',
  'req.headers["btcpay-sig"]',
  'req.headers["x-telegram-bot-api-secret-token"]',
  'res.headers["set-cookie"]',
  "password",
  "*.password",
  "botToken",
  "*.botToken",
  "nowpaymentsApiKey",
  "*.nowpaymentsApiKey",
  "nowpaymentsIpnSecret",
  "*.nowpaymentsIpnSecret",
  "secretKey",
  "*.secretKey",
  // BTCPay Server's API key and webhook secret (issue 24), under the names the settings give them.
  "apiKey",
  "*.apiKey",
  "webhookSecret",
  "*.webhookSecret",
  // What customers told the shop (issue 15): nothing logs these today (server/private-logs.test.ts
  // checks a whole purchase); should a log call ever carry one, it still does not reach the log.
  "shippingAddress",
  "*.shippingAddress",
  "telegramUsername",
  "*.telegramUsername",
  "update",
  "*.update",
  "req.body",
  "body",
];

type LineSink = { write(line: string): unknown };

/** A stream that scrubs each finished line before it reaches `out`. */
function scrubbing(out: LineSink): DestinationStream {
  return { write: (line: string) => void out.write(scrubSecrets(line)) };
}

/** Fields of the one request line that the pretty form already shows in its message. */
const REQUEST_FIELDS = ["method", "path", "status", "ms"];

/**
 * Turns each (already scrubbed) JSON line into a readable one for a person at a terminal.
 * pino-pretty is loaded only here: a server whose output goes to a file or a collector never loads it.
 * Its synchronous formatter is used rather than its stream, so lines stay in order and nothing is
 * lost when the process exits right after a log call.
 */
function prettifying(out: LineSink, colorize: boolean): LineSink {
  const requireCjs = createRequire(import.meta.url);
  const { prettyFactory } = requireCjs("pino-pretty") as typeof import("pino-pretty");
  const pretty = prettyFactory({
    colorize,
    translateTime: "SYS:HH:MM:ss",
    // The request id only matters to correlate JSON lines in a collector.
    ignore: ["pid", "hostname", "reqId", ...REQUEST_FIELDS].join(","),
  });
  return { write: (line: string) => out.write(pretty(line)) };
}

export function createLogger(options: {
  level: Config["logLevel"];
  destination?: LineSink;
  /** Readable lines instead of JSON; by default when the output is stdout and stdout is a terminal. */
  pretty?: boolean;
}): Logger {
  const out = options.destination ?? process.stdout;
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  // Scrubbed before prettifying: the pretty form is made from a line that no longer holds a token.
  const sink = pretty ? prettifying(out, options.destination === undefined) : out;
  return pino({ level: options.level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, scrubbing(sink));
}

/** The path of a request as logged: without its query string, which may carry anything a client put there. */
function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * One log line per request, "GET /api/orders 200 4.2ms", with the same facts as fields for a log
 * collector, instead of Fastify's two ("incoming request", "request completed") and its extra
 * "Route ... not found" for a 404. Given to Fastify as its `logController` (the supported way
 * since Fastify 5.x deprecated `disableRequestLogging`); errors keep Fastify's own lines.
 */
export class RequestLineLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const fields = { method: request.method, path: pathOf(request), status: reply.statusCode, ms };
    const message = `${fields.method} ${fields.path} ${fields.status} ${ms}ms`;
    if (error) reply.log.error({ ...fields, err: error }, message);
    else reply.log.info(fields, message);
  }
}

/**
 * The address a person can open in a browser for a server listening on `host`:`port`: PUBLIC_URL
 * when set (the server is behind a proxy or a domain), localhost for "every interface" and loopback
 * hosts (0.0.0.0 is not an address a browser can open), else the host itself.
 */
export function addressToOpen(host: string, port: number, publicUrl?: string): string {
  if (publicUrl) return publicUrl;
  const local = ["0.0.0.0", "::", "127.0.0.1", "::1", "localhost", ""].includes(host);
  const name = local ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
