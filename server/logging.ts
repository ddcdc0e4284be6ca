import pino, { type DestinationStream, type Logger } from "pino";
import type { Config } from "./config";

// Logs never carry secrets (DESIGN decision 9). Two layers:
// - redact: the places where we know secrets sit (cookies, signatures, the settings' secret fields);
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
];

/** A stream that scrubs each finished line before it reaches `out`. */
function scrubbing(out: { write(line: string): unknown }): DestinationStream {
  return { write: (line: string) => void out.write(scrubSecrets(line)) };
}

export function createLogger(
  options: { level: Config["logLevel"]; destination?: { write(line: string): unknown } },
): Logger {
  return pino(
    { level: options.level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } },
    scrubbing(options.destination ?? process.stdout),
  );
}
