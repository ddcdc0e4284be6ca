import { inArray, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { customerMessages } from "../../db/schema";
import { tokenArray } from "./address-vault";
import { blindTokens, currentKey, type DataKey, liveKeys, open, preloadKeysOf, seal, VaultError } from "./vault";

// Customer messages (and the owner's replies, which quote them) encrypted at rest (issue 15;
// docs/decisions/0024-encryption-at-rest.md): customer_messages.message holds one envelope bound to the
// message's id; search_tokens holds a blind index token per word, so the Messages search still finds
// a message by a word of it (whole words, not any part of the text).

/** What a message that does not decrypt shows instead (tampered with, or its key is gone). */
export const UNREADABLE_MESSAGE = "(this message could not be decrypted)";

/** The additional data a message's text is bound to. */
export const messageBinding = (messageId: string) => `customer_messages.message:${messageId}`;

/** At most this many distinct words of a message are indexed: a long message is still found by its first ones. */
const MAX_INDEXED_WORDS = 100;

/** The words of a text as the search compares them: lower case, letters and digits only. */
export function messageWords(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_INDEXED_WORDS);
}

export type StoredMessage = { message: string; searchTokens: string[] };

/** The stored columns of a message's text: encrypted under the current data key, with its words' tokens. */
export async function protectMessage(db: DbOrTx, messageId: string, text: string, key?: DataKey): Promise<StoredMessage> {
  const dataKey = key ?? (await currentKey(db));
  return {
    message: await seal(db, text, messageBinding(messageId), dataKey),
    searchTokens: blindTokens(
      dataKey,
      messageWords(text).map((word) => `word:${word}`),
    ),
  };
}

/** Message texts decrypted (only the ones an answer shows): their keys are loaded once. */
export async function revealMessages(db: DbOrTx, rows: { id: string; message: string }[]): Promise<string[]> {
  await preloadKeysOf(
    db,
    rows.map((row) => row.message),
  );
  return Promise.all(
    rows.map((row) =>
      open(db, row.message, messageBinding(row.id)).catch((error: unknown) => {
        if (error instanceof VaultError) return UNREADABLE_MESSAGE;
        throw error;
      }),
    ),
  );
}

/** The blind index condition for `q` itself (the GIN index answers it); null when `q` has no word to look for. */
export async function messageTokenMatch(db: DbOrTx, q: string): Promise<SQL | null> {
  const terms = messageWords(q).map((word) => `word:${word}`);
  if (terms.length === 0) return null;
  const keys = await liveKeys(db);
  if (keys.length === 0) return null;
  const underEach = keys.map((key) => sql`${customerMessages.searchTokens} @> ${tokenArray(blindTokens(key, terms))}`);
  return sql`(${sql.join(underEach, sql` or `)})`;
}

/** Above this many matches, a search hands the token condition to the list's query as it is. */
const SEARCH_IDS_MAX = 2_000;

/**
 * Messages holding every word of `q` (through the blind index, under each key whose values may be
 * stored). Null when none does, or `q` has no word to look for. Looked up first, by themselves, as
 * address-vault.ts's addressSearchCondition explains.
 */
export async function messageSearchCondition(db: DbOrTx, q: string): Promise<SQL | null> {
  const matching = await messageTokenMatch(db, q);
  if (!matching) return null;
  const found = await db.select({ id: customerMessages.id }).from(customerMessages).where(matching).limit(SEARCH_IDS_MAX + 1);
  if (found.length > SEARCH_IDS_MAX) return matching;
  if (found.length === 0) return null;
  return inArray(
    customerMessages.id,
    found.map((row) => row.id),
  );
}
