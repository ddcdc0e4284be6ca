// Domain errors: the shop says what went wrong in a sentence a person can act on;
// the HTTP layer (server/http/errors.ts) and the bot decide how to show it.

/** A value in a customer's sentence that each language writes its own way: a price, a day. */
export type CustomerTextValue = string | number | { pence: number } | { day: Date };

/**
 * A sentence for a customer by its key in the bot's locale files (server/telegram/locales), with
 * its values: the bot says it in the customer's language (shop/languages, Translator.say), while
 * the dashboard and the API keep the English message as it is.
 */
export type CustomerText = { key: string; values?: Record<string, CustomerTextValue> };

export class ShopError extends Error {
  constructor(
    readonly kind: "invalid" | "not_found" | "conflict" | "unavailable",
    message: string,
    /** The same sentence for a customer in the bot, when one can reach them. */
    readonly customerText?: CustomerText,
  ) {
    super(message);
    this.name = "ShopError";
  }
}

export const invalid = (message: string, customerText?: CustomerText) => new ShopError("invalid", message, customerText);
export const notFound = (message: string, customerText?: CustomerText) => new ShopError("not_found", message, customerText);
export const conflict = (message: string, customerText?: CustomerText) => new ShopError("conflict", message, customerText);
/** An outside service (Telegram, the payment gateway) refused or could not be reached. */
export const unavailable = (message: string, customerText?: CustomerText) => new ShopError("unavailable", message, customerText);
