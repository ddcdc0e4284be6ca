import crypto from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { dataKeys } from "../../db/schema";

// What customers typed, encrypted at rest (issue 15, item 1; docs/decisions/0024-encryption-at-rest.md).
//
// Envelope encryption: the master key (SECRET_KEY, or DATA_DIR/secret.key: the one that already
// encrypts the bot's secrets) never touches customer data. It wraps data keys (random 256 bits each,
// table data_keys, one "current"), and a data key encrypts values with AES-256-GCM. Each value is one
// self-describing text:
//
//   sk1:<key id>:<nonce>:<ciphertext and tag>       (base64url; "sk1" = server key, version 1)
//
// and is bound to where it lives by the additional data (e.g. "orders.address:<order id>"), so a
// ciphertext copied onto another row, or into another column, is refused. A stolen database or backup
// holds only wrapped keys; the master key is not in it.

/** The prefix of a value encrypted under a data key of this server. */
export const SERVER_KEY_PREFIX = "sk1:";

let masterKey: Buffer | (() => Buffer) | null = null;

/**
 * The master key this process wraps data keys with. Set once at start (services.ts, the scripts, the
 * tests' database); one per process, like the data directory it comes from. A function is called when
 * the key is first needed (a script that never encrypts does not create DATA_DIR/secret.key).
 */
export function useMasterKey(key: Buffer | (() => Buffer)): void {
  if (Buffer.isBuffer(key) && key.length !== 32) throw new Error("The master key must be 32 bytes");
  masterKey = key;
}

function currentMasterKey(): Buffer {
  if (!masterKey) throw new Error("The data vault has no master key: useMasterKey() must run at start");
  if (typeof masterKey === "function") masterKey = masterKey();
  if (masterKey.length !== 32) throw new Error("The master key must be 32 bytes");
  return masterKey;
}

type DataKey = { id: string; encryption: Buffer; index: Buffer };

/**
 * Data keys unwrapped so far, by id. Ids are random, so one map serves every database of the process;
 * a key id this process has not seen (another instance made it, or a rotation) is loaded from the table.
 */
const unwrapped = new Map<string, DataKey>();

const b64 = (bytes: Buffer) => bytes.toString("base64url");
const unb64 = (text: string) => Buffer.from(text, "base64url");

function deriveKeys(id: string, material: Buffer): DataKey {
  const derive = (purpose: string) => Buffer.from(crypto.hkdfSync("sha256", material, Buffer.alloc(0), purpose, 32));
  return { id, encryption: derive("shop vault v1 aes-256-gcm"), index: derive("shop vault v1 blind index") };
}

function gcmSeal(key: Buffer, plain: Buffer, binding: string): { nonce: Buffer; sealed: Buffer } {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(binding, "utf8"));
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { nonce, sealed: Buffer.concat([data, cipher.getAuthTag()]) };
}

function gcmOpen(key: Buffer, nonce: Buffer, sealed: Buffer, binding: string): Buffer {
  if (nonce.length !== 12 || sealed.length < 16) throw new VaultError("malformed");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(Buffer.from(binding, "utf8"));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  } catch {
    throw new VaultError("refused");
  }
}

/** A value that does not decrypt: malformed, tampered with, moved from another row, or its key is gone. */
export class VaultError extends Error {
  constructor(readonly reason: "malformed" | "refused" | "unknown-key") {
    super(`An encrypted value could not be read (${reason})`);
  }
}

/** A data key wrapped by a master key: "mk1:<nonce>:<ciphertext and tag>", bound to its key id. */
export function wrapDataKey(master: Buffer, id: string, material: Buffer): string {
  const { nonce, sealed } = gcmSeal(master, material, `data_keys:${id}`);
  return `mk1:${b64(nonce)}:${b64(sealed)}`;
}

export function unwrapDataKey(master: Buffer, id: string, wrapped: string): Buffer {
  const [prefix, nonce, sealed, extra] = wrapped.split(":");
  if (prefix !== "mk1" || nonce === undefined || sealed === undefined || extra !== undefined) throw new VaultError("malformed");
  try {
    return gcmOpen(master, unb64(nonce), unb64(sealed), `data_keys:${id}`);
  } catch {
    throw new Error(`Data key ${id} does not unwrap with this master key: is SECRET_KEY (or DATA_DIR/secret.key) the one this database was encrypted with?`);
  }
}

/** Unwraps the keys these values need that this process has not yet: one query, none when all are known. */
export async function preloadKeysOf(db: DbOrTx, stored: (string | null)[]): Promise<void> {
  await loadKeys(
    db,
    stored.map((value) => (value ? sealedKeyId(value) : null)).filter((id): id is string => id !== null),
  );
}

/**
 * Key ids looked up and not found (retired, or a forged value), until when: a page of such values costs
 * one query, not one per value. Short, so a key another instance is making right now is found soon.
 */
const notFoundUntil = new Map<string, number>();
const NOT_FOUND_MEMORY_MS = 5_000;

async function loadKeys(db: DbOrTx, ids: string[]): Promise<void> {
  const now = Date.now();
  const missing = [...new Set(ids)].filter((id) => !unwrapped.has(id) && (notFoundUntil.get(id) ?? 0) < now);
  if (missing.length === 0) return;
  const rows = await db.select({ id: dataKeys.id, wrapped: dataKeys.wrapped }).from(dataKeys).where(inArray(dataKeys.id, missing));
  for (const row of rows) {
    if (row.wrapped) unwrapped.set(row.id, deriveKeys(row.id, unwrapDataKey(currentMasterKey(), row.id, row.wrapped)));
  }
  for (const id of missing) if (!unwrapped.has(id)) notFoundUntil.set(id, now + NOT_FOUND_MEMORY_MS);
  if (notFoundUntil.size > 1000) notFoundUntil.clear();
}

async function keyById(db: DbOrTx, id: string): Promise<DataKey> {
  await loadKeys(db, [id]);
  const key = unwrapped.get(id);
  if (!key) throw new VaultError("unknown-key");
  return key;
}

/**
 * The key new values are encrypted under. Read from the table on every call (one indexed row): after
 * a rotation on any instance, every instance encrypts under the new key at once. Made on first use;
 * a unique index lets only one of several instances starting together make it.
 */
export async function currentKey(db: DbOrTx): Promise<DataKey> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [row] = await db.select({ id: dataKeys.id }).from(dataKeys).where(eq(dataKeys.state, "current"));
    if (row) return keyById(db, row.id);
    await createDataKey(db);
  }
  throw new Error("No current data key could be made");
}

/** A new current data key, unless one is (the unique index refuses a second): answers its id, or null. */
export async function createDataKey(db: DbOrTx): Promise<string | null> {
  const id = crypto.randomBytes(6).toString("hex");
  const material = crypto.randomBytes(32);
  const inserted = await db
    .insert(dataKeys)
    .values({ id, wrapped: wrapDataKey(currentMasterKey(), id, material), state: "current" })
    .onConflictDoNothing()
    .returning({ id: dataKeys.id });
  return inserted[0]?.id ?? null;
}

/** Ids of the keys whose values may still be stored (current and being retired): searches look under each. */
export async function liveKeys(db: DbOrTx): Promise<DataKey[]> {
  const rows = await db
    .select({ id: dataKeys.id })
    .from(dataKeys)
    .where(and(inArray(dataKeys.state, ["current", "retiring"]), sql`${dataKeys.wrapped} is not null`));
  await loadKeys(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => unwrapped.get(row.id)).filter((key): key is DataKey => key !== undefined);
}

/** Encrypts `plain` under the current key, bound to `binding` ("table.column:row id"). */
export async function seal(db: DbOrTx, plain: string, binding: string, key?: DataKey): Promise<string> {
  const dataKey = key ?? (await currentKey(db));
  const { nonce, sealed } = gcmSeal(dataKey.encryption, Buffer.from(plain, "utf8"), binding);
  return `${SERVER_KEY_PREFIX}${dataKey.id}:${b64(nonce)}:${b64(sealed)}`;
}

/** The key id a server-key value was encrypted under; null for anything else. */
export function sealedKeyId(stored: string): string | null {
  if (!stored.startsWith(SERVER_KEY_PREFIX)) return null;
  return stored.slice(SERVER_KEY_PREFIX.length).split(":")[0] || null;
}

export function isServerSealed(stored: string): boolean {
  return stored.startsWith(SERVER_KEY_PREFIX);
}

function parseSealed(stored: string): { keyId: string; nonce: Buffer; sealed: Buffer } {
  if (!stored.startsWith(SERVER_KEY_PREFIX)) throw new VaultError("malformed");
  const [keyId, nonce, sealed, extra] = stored.slice(SERVER_KEY_PREFIX.length).split(":");
  if (!keyId || nonce === undefined || sealed === undefined || extra !== undefined) throw new VaultError("malformed");
  return { keyId, nonce: unb64(nonce), sealed: unb64(sealed) };
}

/** Decrypts a value `seal` made for the same binding; throws VaultError otherwise. */
export async function open(db: DbOrTx, stored: string, binding: string): Promise<string> {
  const parsed = parseSealed(stored);
  const key = await keyById(db, parsed.keyId);
  return gcmOpen(key.encryption, parsed.nonce, parsed.sealed, binding).toString("utf8");
}

/** Decrypts many values at once: the keys they need are loaded in one query. */
export async function openMany(db: DbOrTx, values: { stored: string; binding: string }[]): Promise<string[]> {
  await preloadKeysOf(
    db,
    values.map((value) => value.stored),
  );
  return Promise.all(values.map((value) => open(db, value.stored, value.binding)));
}

/**
 * Blind index tokens: a keyed HMAC of each normalized term (e.g. "postcode:SW1A1AA"), cut to 128 bits.
 * Equal terms under one key give equal tokens, so an indexed array column answers an exact search
 * without the clear text; without the key, a token says nothing (not even across two shops).
 */
export function blindTokens(key: DataKey, terms: string[]): string[] {
  return [...new Set(terms)].map((term) => b64(crypto.createHmac("sha256", key.index).update(term, "utf8").digest().subarray(0, 16)));
}

export type { DataKey };

/** For the tests: forget the unwrapped keys, as a fresh process would. */
export function forgetUnwrappedKeys(): void {
  unwrapped.clear();
  notFoundUntil.clear();
}
