// Domain errors: the shop says what went wrong in a sentence a person can act on;
// the HTTP layer (server/http/errors.ts) and the bot decide how to show it.
export class ShopError extends Error {
  constructor(
    readonly kind: "invalid" | "not_found" | "conflict" | "unavailable",
    message: string,
  ) {
    super(message);
    this.name = "ShopError";
  }
}

export const invalid = (message: string) => new ShopError("invalid", message);
export const notFound = (message: string) => new ShopError("not_found", message);
export const conflict = (message: string) => new ShopError("conflict", message);
/** An outside service (Telegram, the payment gateway) refused or could not be reached. */
export const unavailable = (message: string) => new ShopError("unavailable", message);
