import { z } from "zod";

// The bot's health as the dashboard shows it (issue 14, item 2): GET /api/bot/status, POST
// /api/bot/webhook, and what saving Bot Settings learnt from Telegram about the token.
// Depends on zod only (contract/index.ts re-exports this file).

const moment = z.iso.datetime();

export const BOT_STATES = ["running", "stopped", "error"] as const;
export type BotState = (typeof BOT_STATES)[number];

/** The sentence a token Telegram refuses (getMe 401/404) gets, on the Bot Token field. */
export const TOKEN_REFUSED_MESSAGE = "Telegram did not accept this token";

/**
 * Why the bot is stopped before a token is saved. It says nothing of where to add it: the card
 * showing it says that, as it knows where it is (on Bot Settings the field is right above).
 */
export const NO_BOT_TOKEN_REASON = "No bot token is configured.";

/** Telegram's own view of the bot's webhook (getWebhookInfo). */
export const BotWebhookInfoSchema = z.object({
  /** The URL Telegram delivers updates to; "" when no webhook is set (long polling). */
  url: z.string(),
  pendingUpdateCount: z.int(),
  /** When Telegram last failed to deliver an update to the webhook, and why. */
  lastErrorDate: moment.nullable(),
  lastErrorMessage: z.string().nullable(),
});
export type BotWebhookInfo = z.infer<typeof BotWebhookInfoSchema>;

/** GET /api/bot/status. */
export const BotStatusSchema = z
  .object({
    /**
     * running: the bot runs and Telegram answered just now; stopped: no bot runs here (no token, or
     * this server runs none); error: it should run but Telegram refuses or cannot be reached.
     */
    state: z.enum(BOT_STATES),
    /** How the bot gets its updates: webhook when PUBLIC_URL is https, else long polling. */
    mode: z.enum(["webhook", "polling"]),
    /** The bot's @username (without @), once Telegram told it. */
    username: z.string().nullable(),
    /** Telegram's getWebhookInfo; null when it could not be asked (no bot, or Telegram did not answer). */
    webhook: BotWebhookInfoSchema.nullable(),
    /** When the bot last handled an update from a customer. */
    lastUpdateAt: moment.nullable(),
    /** The last failed call to Telegram (or why the bot could not start), and when. */
    lastError: z.string().nullable(),
    lastErrorAt: moment.nullable(),
    /** When Telegram last answered one of the bot's calls. */
    telegramAnsweredAt: moment.nullable(),
    /** Why the bot is stopped, in a sentence; null otherwise. */
    reason: z.string().nullable(),
    /** The URL the server registers as the webhook (PUBLIC_URL); null without PUBLIC_URL. */
    webhookUrlToRegister: z.string().nullable(),
  })
  .meta({ id: "BotStatus" });
export type BotStatusAnswer = z.infer<typeof BotStatusSchema>;

/** POST /api/bot/webhook: the webhook Telegram now has. */
export const WebhookRegisteredSchema = z.object({ ok: z.literal(true), url: z.string() }).meta({ id: "WebhookRegistered" });
export type WebhookRegistered = z.infer<typeof WebhookRegisteredSchema>;

/**
 * What Telegram said of the token when Bot Settings were saved (POST and PUT /api/bot-settings add
 * it to the settings they answer as `tokenCheck`). A refused token is not saved at all (400).
 * - accepted: getMe answered; botUsername is the bot's.
 * - unreachable: Telegram did not answer (network, timeout, 5xx): saved anyway, `warning` says so.
 * - not-checked: this server runs no bot, so it does not call Telegram; or the save kept the stored
 *   token (its mask sent back, contract/secret-mask.ts): only a new token is checked.
 */
export const TokenCheckSchema = z
  .object({
    outcome: z.enum(["accepted", "unreachable", "not-checked"]),
    botUsername: z.string().nullable(),
    warning: z.string().nullable(),
  })
  .meta({ id: "TokenCheck" });
export type TokenCheck = z.infer<typeof TokenCheckSchema>;
