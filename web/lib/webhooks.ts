// The two webhook addresses the dashboard shows for copying (docs/product.md §2, §7).
export const TELEGRAM_WEBHOOK_PATH = "/api/telegram/webhook";
export const PAYMENTS_WEBHOOK_PATH = "/api/payments/webhook";

/** A placeholder hosting domain the Bot Settings screen can swap in (docs/product.md §2 'Use .replit.app domain'). */
export const REPLIT_PLACEHOLDER_ORIGIN = "https://your-app-name.replit.app";

export function currentOrigin(): string {
  return window.location.origin;
}

export function telegramWebhookUrl(origin = currentOrigin()): string {
  return origin + TELEGRAM_WEBHOOK_PATH;
}

export function paymentsWebhookUrl(origin = currentOrigin()): string {
  return origin + PAYMENTS_WEBHOOK_PATH;
}

/** The same URL on the placeholder host; keeps the path (and query) the admin typed. */
export function withReplitHost(url: string): string {
  try {
    const parsed = new URL(url);
    return REPLIT_PLACEHOLDER_ORIGIN + parsed.pathname + parsed.search;
  } catch {
    return telegramWebhookUrl(REPLIT_PLACEHOLDER_ORIGIN);
  }
}
