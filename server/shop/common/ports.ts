// What the shop needs from the world outside it, declared here so the shop depends on nothing but
// these shapes (docs/decisions/0011-layers.md). Telegram, the payment gateway and pino implement
// them; tests pass recording fakes.

/** Sends a text to a customer's chat. Throws a ShopError("unavailable") when it cannot. */
export type CustomerNotifier = { sendMessage(chatId: string, text: string): Promise<void> };

/** Where the shop reports what the owner may want to read later; pino's logger fits. */
export type ShopLogger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/** Where a customer message that could not be delivered is reported. */
export type WarningLogger = Pick<ShopLogger, "warn">;

/** For callers that pass no logger (scripts, some tests): warnings and errors still reach stderr. */
export const consoleLogger: ShopLogger = {
  info: () => {},
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

/** An error's message for the log: the reason alone, without the error object's stack or driver fields. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
