import type { Transformer } from "grammy";
import type { BotStatusAnswer, BotWebhookInfo, TokenCheck } from "../../contract";
import { TOKEN_REFUSED_MESSAGE } from "../../contract";

// Whether the bot is really up (issue 14, item 2). Before, the dashboard said "Active" whatever
// happened: a made-up token with Telegram unreachable looked the same as a working bot. Here:
// - the token is checked with getMe when Bot Settings are saved (checkBotToken);
// - the runner remembers when Telegram last answered, its last failed call and the last update it
//   handled (createTelegramActivity, recordTelegramCalls);
// - GET /api/bot/status asks Telegram (getWebhookInfo) and decides from both (decideBotStatus).

/** How long a check waits for Telegram: the admin is waiting on the answer. */
export const TELEGRAM_CHECK_TIMEOUT_MS = 5_000;
/** "Running" needs an answer from Telegram at most this old (the status check itself asks it). */
export const ANSWERED_LATELY_MS = 2 * 60_000;

export { TOKEN_REFUSED_MESSAGE };

/** What the runner remembers of its calls to Telegram and of the updates it handled. */
export type TelegramActivity = {
  telegramAnsweredAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastUpdateAt: Date | null;
};

export type TelegramActivityLog = {
  answered(): void;
  failed(message: string): void;
  updateHandled(): void;
  snapshot(): TelegramActivity;
};

export function createTelegramActivity(now: () => Date): TelegramActivityLog {
  const activity: TelegramActivity = { telegramAnsweredAt: null, lastError: null, lastErrorAt: null, lastUpdateAt: null };
  return {
    answered: () => void (activity.telegramAnsweredAt = now()),
    failed(message) {
      activity.lastError = message;
      activity.lastErrorAt = now();
    },
    updateHandled: () => void (activity.lastUpdateAt = now()),
    snapshot: () => ({ ...activity }),
  };
}

/**
 * Telegram answers that mean the bot cannot work: the token revoked (401) or unknown (404), another
 * process polling the same bot (409), Telegram itself failing (5xx). Others (400 a message to edit
 * is gone, 403 a customer blocked the bot, 429 slow down) are about one request: Telegram is up.
 */
export function isTelegramTrouble(errorCode: number): boolean {
  return errorCode === 401 || errorCode === 404 || errorCode === 409 || errorCode >= 500;
}

/** A URL in an error names the bot's token (…/bot<token>/getMe): never shown or kept. */
export function withoutToken(text: string): string {
  return text.replace(/\/bot[^/\s'"]+/g, "/bot<token>");
}

/** A failed call in a sentence: grammY's message plus the network error under it, when there is one. */
export function describeCallError(error: unknown): string {
  if (!(error instanceof Error)) return withoutToken(String(error));
  const inner = (error as { error?: unknown }).error ?? error.cause;
  const detail = inner instanceof Error ? (inner.name === "AbortError" || inner.name === "TimeoutError" ? "no answer in time" : inner.message) : null;
  return withoutToken(detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message);
}

/**
 * A grammY transformer that notes, for every call the bot makes, whether Telegram answered.
 * `stopping` tells a call cut short because the bot is being stopped, which is no failure.
 */
export function recordTelegramCalls(activity: TelegramActivityLog, stopping: () => boolean): Transformer {
  return async (previous, method, payload, signal) => {
    try {
      const result = await previous(method, payload, signal);
      if (result.ok || !isTelegramTrouble(result.error_code)) activity.answered();
      else activity.failed(withoutToken(`Call to '${method}' failed! (${result.error_code}: ${result.description})`));
      return result;
    } catch (error) {
      if (!stopping()) activity.failed(describeCallError(error));
      throw error;
    }
  };
}

type TelegramAnswer = { ok: true; result: unknown } | { ok: false; error_code: number; description: string };

/** Telegram's answer to one call, or why it could not be had (network, timeout, not JSON). */
export type TelegramCallResult =
  | { kind: "answered"; status: number; answer: TelegramAnswer }
  | { kind: "unreachable"; message: string };

/**
 * One plain call to the Bot API, with a time limit and no retries: the checks below want to know
 * how Telegram is now, not to wait until it is back (grammY's own calls retry).
 */
export async function callTelegram(
  apiRoot: string,
  token: string,
  method: string,
  options: { timeoutMs?: number } = {},
): Promise<TelegramCallResult> {
  try {
    const response = await fetch(`${apiRoot}/bot${token}/${method}`, {
      method: "POST",
      signal: AbortSignal.timeout(options.timeoutMs ?? TELEGRAM_CHECK_TIMEOUT_MS),
    });
    const text = await response.text();
    let answer: TelegramAnswer;
    try {
      answer = JSON.parse(text) as TelegramAnswer;
    } catch {
      return { kind: "unreachable", message: `Telegram answered ${response.status} without a Bot API answer` };
    }
    if (typeof answer !== "object" || answer === null || typeof answer.ok !== "boolean") {
      return { kind: "unreachable", message: `Telegram answered ${response.status} without a Bot API answer` };
    }
    return { kind: "answered", status: response.status, answer };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      return { kind: "unreachable", message: `Telegram did not answer within ${(options.timeoutMs ?? TELEGRAM_CHECK_TIMEOUT_MS) / 1000} s` };
    }
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
    return { kind: "unreachable", message: withoutToken(`Telegram could not be reached (${cause ?? describeCallError(error)})`) };
  }
}

export type TokenCheckResult = TokenCheck | { outcome: "refused"; description: string };

/**
 * Asks Telegram who the token belongs to (getMe). Refused (401/404): the token is wrong and must
 * not be saved. No answer, 5xx or anything else: Telegram cannot say now, so the settings are saved
 * with a warning (an owner must be able to save while Telegram is down; the bot retries).
 */
export async function checkBotToken(apiRoot: string, token: string, options: { timeoutMs?: number } = {}): Promise<TokenCheckResult> {
  const call = await callTelegram(apiRoot, token, "getMe", options);
  if (call.kind === "answered" && call.answer.ok) {
    const me = call.answer.result as { username?: string };
    return { outcome: "accepted", botUsername: me.username ?? null, warning: null };
  }
  if (call.kind === "answered" && !call.answer.ok && (call.answer.error_code === 401 || call.answer.error_code === 404)) {
    return { outcome: "refused", description: call.answer.description };
  }
  const why = call.kind === "unreachable" ? call.message : `Telegram answered ${call.answer.ok ? call.status : `${call.answer.error_code}: ${call.answer.description}`}`;
  return {
    outcome: "unreachable",
    botUsername: null,
    warning: `The token could not be checked: ${why}. The settings are saved; the bot starts once Telegram answers.`,
  };
}

type RawWebhookInfo = { url?: string; pending_update_count?: number; last_error_date?: number; last_error_message?: string };

export function webhookInfoOf(raw: unknown): BotWebhookInfo {
  const info = (raw ?? {}) as RawWebhookInfo;
  return {
    url: info.url ?? "",
    pendingUpdateCount: info.pending_update_count ?? 0,
    lastErrorDate: info.last_error_date ? new Date(info.last_error_date * 1000).toISOString() : null,
    lastErrorMessage: info.last_error_message ?? null,
  };
}

/** What the runner tells of itself (runner.ts BotStatus, without importing the runner). */
export type RunnerState =
  | { mode: "off"; reason: string }
  | ({ mode: "webhook" | "polling"; botUsername: string | null; error: string | null } & TelegramActivity);

export type StatusInput = {
  runner: RunnerState;
  /** The mode the server would run the bot in (for a bot that is off). */
  configuredMode: "webhook" | "polling";
  /** Telegram's getWebhookInfo, asked just now; null when not asked or not answered. */
  webhook: BotWebhookInfo | null;
  /** The webhook URL this server registers (https PUBLIC_URL), else null. */
  webhookUrl: string | null;
  now: Date;
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * The status the dashboard shows. "running" only when nothing is wrong and Telegram answered
 * lately; the first problem found is the one told (lastError).
 */
export function decideBotStatus(input: StatusInput): BotStatusAnswer {
  const { runner, webhook, webhookUrl, now } = input;
  if (runner.mode === "off") {
    return {
      state: "stopped",
      mode: input.configuredMode,
      username: null,
      webhook,
      lastUpdateAt: null,
      lastError: null,
      lastErrorAt: null,
      telegramAnsweredAt: null,
      reason: runner.reason,
      webhookUrlToRegister: webhookUrl,
    };
  }
  const answeredAt = runner.telegramAnsweredAt;
  const failedLast = runner.lastErrorAt !== null && (answeredAt === null || runner.lastErrorAt >= answeredAt);
  let problem: string | null = null;
  if (runner.error) problem = `The bot could not start: ${runner.error}`;
  else if (failedLast) problem = runner.lastError;
  else if (!answeredAt || now.getTime() - answeredAt.getTime() > ANSWERED_LATELY_MS) problem = "Telegram has not answered lately.";
  else if (runner.mode === "webhook" && webhook && webhook.url !== webhookUrl) {
    // Someone (another deployment, a BotFather-minded script) moved the webhook: updates go elsewhere.
    problem = webhook.url
      ? `Telegram delivers this bot's updates to ${webhook.url}, not to this server. Register the webhook again.`
      : "Telegram has no webhook for this bot, so no updates arrive. Register the webhook again.";
  } else if (webhook && deliveryFailing(webhook, runner.lastUpdateAt)) {
    problem = `Telegram cannot deliver updates to the webhook: ${webhook.lastErrorMessage ?? "no reason given"}`;
  }
  const problemIsLastError = problem !== null && problem === runner.lastError;
  return {
    state: problem ? "error" : "running",
    mode: runner.mode,
    username: runner.botUsername,
    webhook,
    lastUpdateAt: iso(runner.lastUpdateAt),
    lastError: problem ?? runner.lastError,
    lastErrorAt: problem && !problemIsLastError ? now.toISOString() : iso(runner.lastErrorAt),
    telegramAnsweredAt: iso(answeredAt),
    reason: null,
    webhookUrlToRegister: webhookUrl,
  };
}

/**
 * Telegram keeps its last delivery error after deliveries work again; it counts while updates are
 * waiting and none arrived since.
 */
function deliveryFailing(webhook: BotWebhookInfo, lastUpdateAt: Date | null): boolean {
  if (!webhook.url || !webhook.lastErrorDate || webhook.pendingUpdateCount === 0) return false;
  return lastUpdateAt === null || Date.parse(webhook.lastErrorDate) > lastUpdateAt.getTime();
}
