import crypto from "node:crypto";
import { eq, isNotNull } from "drizzle-orm";
import { createSecretBox, isEncryptedSecret, SecretUnreadableError } from "../../crypto";
import type { Db, DbOrTx } from "../../db/client";
import { dataKeys, keyCheck } from "../../db/schema";
import { ENCRYPTED_SECRETS, storedValuesOf } from "./encrypted-secrets";
import { unwrapDataKey } from "../vaults";

// Which master key (SECRET_KEY or DATA_DIR/secret.key) this shop's data is under (docs/SECURITY.md
// "The secret key"). A well-formed but different key used to start the shop with every secret read as
// "not set" (the bot and payments off, "no bot token") and every data key failing on first use. Now
// the start compares the key with a check stored with the data and refuses a key that does not match
// before anything starts (main.ts); `npm run secrets:forget` (scripts/secrets-forget.ts) is the way
// out when the right key is lost.

const KEY_CHECK_ID = "master";
/** The constant the check is an HMAC of; "v1" so a later kind of check can tell itself apart. */
const KEY_CHECK_CONSTANT = "shop master key check v1";
const PROOF_PREFIX = "kc1:";

/** The master key is not the one this shop's data was encrypted with: the start stops. */
export class WrongSecretKeyError extends Error {}

/** What a start with a wrong key prints: what happened and the two ways out. */
export const WRONG_KEY_MESSAGE = [
  "The secret key does not open this shop's data: SECRET_KEY (or, when it is not set, DATA_DIR/secret.key)",
  "is not the key the bot token, the payment keys, the two-factor secrets and the customers' data were encrypted with.",
  "Nothing was started. Start again with the right key: set SECRET_KEY as it was, or copy the old secret.key into DATA_DIR.",
  "If that key is lost for good, `npm run secrets:forget` explains what it forgets (the bot token and payment keys,",
  "to be typed again in Bot Settings; two-factor sign-in, turned off for whoever had it; customers' addresses and",
  "messages stay unreadable) and, with --yes, does it.",
].join("\n");

export function keyProof(master: Buffer): string {
  return PROOF_PREFIX + crypto.createHmac("sha256", master).update(KEY_CHECK_CONSTANT).digest("base64url");
}

function proofMatches(stored: string, master: Buffer): boolean {
  const expected = Buffer.from(keyProof(master));
  const actual = Buffer.from(stored);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/**
 * Whether `master` opens what is already encrypted (a database from before the key check, or one
 * restored from such a backup): true when one encrypted secret (any of ENCRYPTED_SECRETS: the bot's,
 * the payment gateways', an account's two-factor secret) or data key opens, false when some
 * exist and none does, null when nothing is encrypted yet. One that opens is enough: a wrong key
 * opens none, so the others failing would be damage, which the reads report (crypto.ts).
 */
export async function keyOpensStoredData(db: DbOrTx, master: Buffer): Promise<boolean | null> {
  let found = false;
  const box = createSecretBox(master);
  for (const secret of ENCRYPTED_SECRETS) {
    for (const { stored } of await storedValuesOf(db, secret)) {
      // A value from before encryption existed is in clear (crypto.ts): it tells nothing of the key.
      if (!isEncryptedSecret(stored)) continue;
      found = true;
      try {
        box.decrypt(stored);
        return true;
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
      }
    }
  }
  for (const row of await db.select({ id: dataKeys.id, wrapped: dataKeys.wrapped }).from(dataKeys).where(isNotNull(dataKeys.wrapped))) {
    found = true;
    try {
      unwrapDataKey(master, row.id, row.wrapped!);
      return true;
    } catch {
      // Does not unwrap: judged with the others.
    }
  }
  return found ? false : null;
}

/**
 * Refuses a master key that is not the one of this shop's data (WrongSecretKeyError); on the first
 * start (of a new shop, or of one from before the check) it stores the check, after making sure the
 * key opens what is already encrypted. Several instances starting together: one row is written (the
 * primary key keeps a second out) and each compares its key with that one.
 */
export async function requireMatchingKey(db: Db, master: Buffer): Promise<{ written: boolean }> {
  const [row] = await db.select().from(keyCheck).where(eq(keyCheck.id, KEY_CHECK_ID));
  if (row) {
    if (!proofMatches(row.proof, master)) throw new WrongSecretKeyError(WRONG_KEY_MESSAGE);
    return { written: false };
  }
  if ((await keyOpensStoredData(db, master)) === false) throw new WrongSecretKeyError(WRONG_KEY_MESSAGE);
  const inserted = await db
    .insert(keyCheck)
    .values({ id: KEY_CHECK_ID, proof: keyProof(master) })
    .onConflictDoNothing()
    .returning({ id: keyCheck.id });
  if (inserted.length > 0) return { written: true };
  return requireMatchingKey(db, master);
}

/** Whether `master` is the key of this shop's data, without writing anything (secrets:forget asks first). */
export async function keyMatches(db: DbOrTx, master: Buffer): Promise<boolean> {
  const [row] = await db.select().from(keyCheck).where(eq(keyCheck.id, KEY_CHECK_ID));
  if (row) return proofMatches(row.proof, master);
  return (await keyOpensStoredData(db, master)) !== false;
}

/** Stores the check for `master`, replacing the one before (secrets:forget, keys:rotate --new-secret-key). */
export async function sealKeyCheck(db: DbOrTx, master: Buffer): Promise<void> {
  await db
    .insert(keyCheck)
    .values({ id: KEY_CHECK_ID, proof: keyProof(master) })
    .onConflictDoUpdate({ target: keyCheck.id, set: { proof: keyProof(master), createdAt: new Date() } });
}
