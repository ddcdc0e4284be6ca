/** A uuid's pattern as text, for larger patterns such as the bot's callback data. */
export const UUID_SOURCE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, "i");

/** An id that is not a uuid cannot exist; checking first keeps the database from answering a type error. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** How the admin and the customer see an order: its first 8 characters (docs/product.md §1). */
export function shortOrderId(id: string): string {
  return id.slice(0, 8);
}
