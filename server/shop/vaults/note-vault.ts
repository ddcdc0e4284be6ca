import type { DbOrTx } from "../../db/client";
import { type DataKey, open, seal, VaultError } from "./vault";

// The owner's note about a customer (issue 22 item 9) is personal data, encrypted at rest as messages are
// (docs/decisions/0024-encryption-at-rest.md, 0029-customer-notes.md): customer_notes.note holds one
// envelope bound to the customer's Telegram user id, so a note copied onto another customer's row does
// not decrypt. No blind index: nothing searches notes.

/** The additional data a customer's note is bound to. */
export const noteBinding = (telegramUserId: string) => `customer_notes.note:${telegramUserId}`;

/** The stored form of a note: encrypted under the current data key (or `key`, for a rotation). */
export function protectNote(db: DbOrTx, telegramUserId: string, text: string, key?: DataKey): Promise<string> {
  return seal(db, text, noteBinding(telegramUserId), key);
}

/** A note decrypted; null when it does not decrypt (tampered with, moved, or its key is gone). */
export async function revealNote(db: DbOrTx, row: { telegramUserId: string; note: string }): Promise<string | null> {
  try {
    return await open(db, row.note, noteBinding(row.telegramUserId));
  } catch (error) {
    if (error instanceof VaultError) return null;
    throw error;
  }
}
