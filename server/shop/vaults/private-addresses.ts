import { desc, eq, isNull } from "drizzle-orm";
import type { OwnerPassphraseChange, PrivateAddresses, PrivateAddressesEnable } from "../../../contract";
import { OwnerSealError, readOwnerPublicKey } from "../../../contract/owner-seal";
import type { DbOrTx } from "../../db/client";
import { ownerSealKeys } from "../../db/schema";
import { pgErrorCode, UNIQUE_VIOLATION, conflict, invalid, notFound } from "../common";

// Private addresses, the owner-only mode (issue 15, item 2; docs/decisions/0025): the server keeps
// the owner's public key, and the private key only as the owner's browser wrapped it with their
// passphrase. Nothing here can open a sealed address: no function of the server has the passphrase.

type KeyRow = typeof ownerSealKeys.$inferSelect;

const toKey = (row: KeyRow) => ({
  keyId: row.keyId,
  publicKey: row.publicKey,
  wrappedPrivateKey: row.wrappedPrivateKey,
  salt: row.salt,
  iterations: row.iterations,
  createdAt: row.createdAt.toISOString(),
  passphraseChangedAt: row.passphraseChangedAt.toISOString(),
  retiredAt: row.retiredAt?.toISOString() ?? null,
});

export async function getPrivateAddresses(db: DbOrTx): Promise<PrivateAddresses> {
  const rows = await db.select().from(ownerSealKeys).orderBy(desc(ownerSealKeys.createdAt), ownerSealKeys.keyId);
  const active = rows.find((row) => row.retiredAt === null) ?? null;
  return { enabled: active !== null, activeKeyId: active?.keyId ?? null, keys: rows.map(toKey) };
}

/** The key new addresses are sealed to, or null: the server encrypts them with its own key. */
export async function activeOwnerPublicKey(db: DbOrTx): Promise<{ keyId: string; publicKey: string } | null> {
  const [row] = await db
    .select({ keyId: ownerSealKeys.keyId, publicKey: ownerSealKeys.publicKey })
    .from(ownerSealKeys)
    .where(isNull(ownerSealKeys.retiredAt));
  return row ?? null;
}

const ALREADY_ON = "Private addresses are already on. Change the passphrase, or turn them off first.";

/** Turns the mode on with a key pair made in the owner's browser; the public key must be a P-256 point. */
export async function enablePrivateAddresses(db: DbOrTx, input: PrivateAddressesEnable, now: Date): Promise<PrivateAddresses> {
  let keyId: string;
  try {
    ({ keyId } = await readOwnerPublicKey(input.publicKey));
  } catch (error) {
    if (error instanceof OwnerSealError) throw invalid(error.message);
    throw error;
  }
  return db.transaction(async (tx) => {
    if (await activeOwnerPublicKey(tx)) throw conflict(ALREADY_ON);
    const [known] = await tx.select({ keyId: ownerSealKeys.keyId }).from(ownerSealKeys).where(eq(ownerSealKeys.keyId, keyId));
    if (known) throw conflict("This key was used before. Set private addresses up again to make a new one.");
    try {
      await tx.insert(ownerSealKeys).values({
        keyId,
        publicKey: input.publicKey,
        wrappedPrivateKey: input.wrappedPrivateKey,
        salt: input.salt,
        iterations: input.iterations,
        createdAt: now,
        passphraseChangedAt: now,
      });
    } catch (error) {
      // Two browsers turning it on at once: the one-in-use index lets only the first through.
      if (pgErrorCode(error) === UNIQUE_VIOLATION) throw conflict(ALREADY_ON);
      throw error;
    }
    return getPrivateAddresses(tx);
  });
}

/** The same key pair under a new passphrase; refused if the passphrase changed elsewhere since the browser read it. */
export async function changeOwnerPassphrase(db: DbOrTx, input: OwnerPassphraseChange, now: Date): Promise<PrivateAddresses> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(ownerSealKeys).where(eq(ownerSealKeys.keyId, input.keyId)).for("update");
    if (!row) throw notFound("There is no such key. Reload the page and try again.");
    if (row.salt !== input.currentSalt) {
      throw conflict("The passphrase was changed elsewhere since this page loaded. Reload the page and use the new passphrase.");
    }
    await tx
      .update(ownerSealKeys)
      .set({ wrappedPrivateKey: input.wrappedPrivateKey, salt: input.salt, iterations: input.iterations, passphraseChangedAt: now })
      .where(eq(ownerSealKeys.keyId, input.keyId));
    return getPrivateAddresses(tx);
  });
}

/**
 * Turns the mode off: new addresses are encrypted with the server's key again. Addresses already
 * sealed stay sealed (the server cannot open them to re-encrypt), and the key stays so the owner's
 * passphrase still opens them. Safe to repeat.
 */
export async function disablePrivateAddresses(db: DbOrTx, now: Date): Promise<PrivateAddresses> {
  await db.update(ownerSealKeys).set({ retiredAt: now }).where(isNull(ownerSealKeys.retiredAt));
  return getPrivateAddresses(db);
}
