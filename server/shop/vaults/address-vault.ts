import { inArray, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { orders, type ShippingAddress } from "../../db/schema";
import { parseSealed, sealAddress } from "../../../contract/owner-seal";
import { invalid } from "../common";
import { activeOwnerPublicKey } from "./private-addresses";
import { blindTokens, currentKey, type DataKey, isServerSealed, liveKeys, open, preloadKeysOf, seal, VaultError } from "./vault";

// The one place shipping addresses are stored and read (issue 15; docs/decisions/0024-encryption-at-rest.md).
// Every path that writes an order's address calls protectAddress, every path that shows one calls
// revealAddress(es): the stored form may change (owner-only mode adds an envelope the server cannot
// open) without any of them changing.
//
// orders.address holds one tagged envelope:
//   "sk1:..."  encrypted under a server data key (shop/vaults/vault.ts): the server can show it.
//   "owner-seal:v1:..."  sealed to the owner's public key (private addresses, contract/owner-seal.ts):
//              only the owner's browser opens it; the server passes it on as it is.
// orders.address_search holds the blind index tokens the owner's search matches (order-list.ts).

/** The columns of an order that hold its address, as stored. */
export type StoredAddress = { address: string | null; addressSearch: string[] | null };

/** An order's address as the server can give it. */
export type RevealedAddress =
  | { kind: "clear"; address: ShippingAddress & { contact: string | null } }
  /** Stored in a form only someone else can open (owner-only mode): the envelope as stored. */
  | { kind: "sealed"; sealed: string }
  /** Erased (retention, /forgetme) or never given. */
  | { kind: "erased" }
  /** Present but it does not decrypt (tampered with, moved from another order, or its key is gone). */
  | { kind: "unreadable" };

/** The additional data an order's address is bound to: the envelope decrypts on this order only. */
export const addressBinding = (orderId: string) => `orders.address:${orderId}`;

// --- Blind index terms (the same normalization for what is stored and what is searched) ---

/** A postcode as compared: capitals, no spaces ("sw1a 1aa" and "SW1A1AA" are one postcode). */
export const normalizePostcode = (postcode: string) => postcode.normalize("NFKC").toUpperCase().replace(/\s+/g, "");
/** A name as compared: lower case, single spaces. */
export const normalizeName = (name: string) => name.normalize("NFKC").toLowerCase().trim().replace(/\s+/g, " ");

/** What an address is found by: its postcode, the postcode's outward code (all but the last 3 characters), its name and each word of it. */
export function addressTerms(address: Pick<ShippingAddress, "name" | "postcode">): string[] {
  const terms: string[] = [];
  const postcode = normalizePostcode(address.postcode);
  if (postcode) terms.push(`postcode:${postcode}`);
  if (postcode.length >= 5) terms.push(`outward:${postcode.slice(0, -3)}`);
  const name = normalizeName(address.name);
  if (name) terms.push(`name:${name}`, ...name.split(" ").map((word) => `word:${word}`));
  return terms;
}

/** What a search for `q` looks for: `q` as a whole postcode, an outward code, a whole name or one word of a name. */
export function searchTerms(q: string): string[] {
  const terms: string[] = [];
  const postcode = normalizePostcode(q);
  if (postcode) terms.push(`postcode:${postcode}`, `outward:${postcode}`);
  const name = normalizeName(q);
  if (name) terms.push(`name:${name}`, `word:${name}`);
  return terms;
}

/** The stored columns of an order's address: encrypted under the current data key, with its blind index. */
export async function protectAddress(db: DbOrTx, orderId: string, address: ShippingAddress, key?: DataKey): Promise<StoredAddress> {
  const dataKey = key ?? (await currentKey(db));
  const clear = { name: address.name, streetAddress: address.streetAddress, postcode: address.postcode, contact: address.contact ?? null };
  return {
    address: await seal(db, JSON.stringify(clear), addressBinding(orderId), dataKey),
    addressSearch: blindTokens(dataKey, addressTerms(clear)),
  };
}

/** What an erased address is stored as. */
export const ERASED_ADDRESS: StoredAddress = { address: null, addressSearch: null };

/** An order's address as the server can give it (decrypted only when asked: call it for what an answer shows). */
export async function revealAddress(db: DbOrTx, row: { id: string; address: string | null }): Promise<RevealedAddress> {
  if (row.address === null) return { kind: "erased" };
  if (!isServerSealed(row.address)) return { kind: "sealed", sealed: row.address };
  try {
    const parsed = JSON.parse(await open(db, row.address, addressBinding(row.id))) as ShippingAddress;
    return { kind: "clear", address: { ...parsed, contact: parsed.contact ?? null } };
  } catch (error) {
    if (error instanceof VaultError || error instanceof SyntaxError) return { kind: "unreadable" };
    throw error;
  }
}

/** revealAddress for many orders (a page of a list): their keys are loaded once. */
export async function revealAddresses(db: DbOrTx, rows: { id: string; address: string | null }[]): Promise<RevealedAddress[]> {
  // One query loads the keys a page needs that this process has not unwrapped yet (usually none).
  await preloadKeysOf(
    db,
    rows.map((row) => row.address),
  );
  return Promise.all(rows.map((row) => revealAddress(db, row)));
}

/** The address when the server can read it, else null: for what shows only a clear address (the bot, alerts). */
export async function readableAddress(db: DbOrTx, row: { id: string; address: string | null }): Promise<RevealedAddress & { kind: "clear" } | null> {
  const revealed = await revealAddress(db, row);
  return revealed.kind === "clear" ? revealed : null;
}

/** Above this many matches, a search hands the token condition to the list's query as it is. */
const SEARCH_IDS_MAX = 2_000;

/**
 * Orders whose address matches `q` through the blind index: `q` is hashed under every key whose values
 * may be stored (two during a rotation), and the GIN index on address_search finds the matches.
 * Exact terms only: a prefix of a name or a postcode finds nothing (the index holds no clear text to
 * compare a prefix with). Null when nothing matches.
 *
 * The matches are looked up first, by themselves: PostgreSQL cannot tell how rare a token is, and
 * asked for a page of the newest orders matching "token OR ...", it would rather walk the whole
 * newest-first index than read the GIN index. A list of ids it estimates right.
 */
export async function addressSearchCondition(db: DbOrTx, q: string): Promise<SQL | null> {
  const matching = await addressTokenMatch(db, q);
  if (!matching) return null;
  const found = await db.select({ id: orders.id }).from(orders).where(matching).limit(SEARCH_IDS_MAX + 1);
  if (found.length > SEARCH_IDS_MAX) return matching;
  if (found.length === 0) return null;
  return inArray(
    orders.id,
    found.map((row) => row.id),
  );
}

/** The blind index condition for `q` itself (the GIN index answers it); null when `q` holds nothing to look for. */
export async function addressTokenMatch(db: DbOrTx, q: string): Promise<SQL | null> {
  const terms = searchTerms(q);
  if (terms.length === 0) return null;
  const tokens = (await liveKeys(db)).flatMap((key) => blindTokens(key, terms));
  if (tokens.length === 0) return null;
  return sql`${orders.addressSearch} && ${tokenArray(tokens)}`;
}

/** A text[] literal of tokens for SQL. */
export function tokenArray(tokens: string[]): SQL {
  if (tokens.length === 0) return sql`array[]::text[]`;
  return sql`array[${sql.join(
    tokens.map((token) => sql`${token}`),
    sql`, `,
  )}]::text[]`;
}

/**
 * The stored columns of a new order's address (checkout). With private addresses on (owner-only mode,
 * docs/decisions/0025-owner-only-addresses.md) it is sealed to the owner's public key, which no key of
 * the server opens; otherwise it is encrypted as protectAddress does. The blind index is made from the
 * clear text in both cases, while the server still holds it, so the owner's search keeps working.
 */
export async function protectNewAddress(db: DbOrTx, orderId: string, address: ShippingAddress): Promise<StoredAddress> {
  const owner = await activeOwnerPublicKey(db);
  if (!owner) return protectAddress(db, orderId, address);
  const clear = { name: address.name, streetAddress: address.streetAddress, postcode: address.postcode, contact: address.contact ?? null };
  return {
    address: await sealAddress(owner, clear, orderId),
    addressSearch: blindTokens(await currentKey(db), addressTerms(clear)),
  };
}

/**
 * The stored columns of a new order's address sealed in the customer's own browser (the storefront,
 * issue 27): while private addresses are on, the Mini App seals it to the owner's key and binds it to
 * the order's id, so this server never holds it in clear. Stored as it came, once its form and key
 * are the current key's (the binding to the order only the owner's browser can check, on opening).
 * It gets no blind index tokens: they are made from the clear text, which the server never sees, so
 * the owner's address search does not find such an order (its id and username still do).
 */
export async function acceptSealedAddress(db: DbOrTx, sealed: string): Promise<StoredAddress> {
  const owner = await activeOwnerPublicKey(db);
  if (!owner) throw invalid("Private addresses are off, so the address must be sent as it is (address), not sealed.");
  const parts = parseSealed(sealed);
  if (!parts) throw invalid("The sealed address is not a sealed value. Reload the shop and try again.");
  if (parts.keyId !== owner.keyId) throw invalid("The address was sealed to a key the shop no longer uses. Reload the shop and try again.");
  return { address: sealed, addressSearch: null };
}
