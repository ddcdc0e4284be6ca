import { inArray, isNotNull, like, or, sql } from "drizzle-orm";
import { createSecretBox, isEncryptedSecret, SecretUnreadableError } from "../../crypto";
import type { Db, DbOrTx } from "../../db/client";
import { botConversations, customerMessages, customerNotes, dataKeys, orders } from "../../db/schema";
import { ENCRYPTED_SECRETS, type EncryptedSecret, lockSecretRows, storedValuesOf } from "./encrypted-secrets";
import { sealKeyCheck } from "./key-check";
import { SERVER_KEY_PREFIX, unwrapDataKey } from "../vaults";

// `npm run secrets:forget` (scripts/secrets-forget.ts; README "Backup"; docs/SECURITY.md "The secret
// key"): the way out when the master key of a shop's data is lost. What the current key cannot open is
// forgotten, so the shop starts with it: every encrypted secret it cannot decrypt (ENCRYPTED_SECRETS:
// the bot token and payment keys, typed again in Bot Settings; the accounts' two-factor secrets,
// two-factor then off for them) and the data keys it cannot unwrap. What customers typed under those
// data keys cannot be decrypted by anyone any more; it stays in the rows and reads as unreadable
// (address-vault.ts, message-vault.ts; a checkout draft reads as no checkout), until the privacy rules
// erase it.

/** One encrypted secret (ENCRYPTED_SECRETS) the key cannot open in some rows. */
export type LostSecret = Pick<EncryptedSecret, "name" | "what" | "whenForgotten"> & {
  /** How many stored values (rows). */
  count: number;
  /** Who must act in person: the accounts whose two-factor sign-in is turned off (usernames). */
  accounts: string[];
};

export type ForgetReport = {
  /** Stored secrets this key cannot open, all kinds together. */
  secrets: number;
  /** Each kind of them, in ENCRYPTED_SECRETS' order; kinds with none left out. */
  lost: LostSecret[];
  /** Data keys this key cannot unwrap. */
  dataKeys: number;
  /** What customers typed under those data keys: it cannot be decrypted any more. */
  addresses: number;
  messages: number;
  drafts: number;
  /** The owner's notes about customers under those keys (docs/decisions/0029-customer-notes.md). */
  notes: number;
};

type Lost = { secrets: { secret: EncryptedSecret; rowIds: string[] }[]; keyIds: string[] };

async function findLost(db: DbOrTx, master: Buffer): Promise<Lost> {
  const box = createSecretBox(master);
  const opens = (stored: string) => {
    try {
      box.decrypt(stored);
      return true;
    } catch (error) {
      if (error instanceof SecretUnreadableError) return false;
      throw error;
    }
  };
  const secrets: Lost["secrets"] = [];
  for (const secret of ENCRYPTED_SECRETS) {
    const rowIds = (await storedValuesOf(db, secret)).filter(({ stored }) => isEncryptedSecret(stored) && !opens(stored)).map(({ rowId }) => rowId);
    if (rowIds.length > 0) secrets.push({ secret, rowIds });
  }
  const keyIds: string[] = [];
  for (const row of await db.select({ id: dataKeys.id, wrapped: dataKeys.wrapped }).from(dataKeys).where(isNotNull(dataKeys.wrapped))) {
    try {
      unwrapDataKey(master, row.id, row.wrapped!);
    } catch {
      keyIds.push(row.id);
    }
  }
  return { secrets, keyIds };
}

async function countUnder(db: DbOrTx, keyIds: string[]): Promise<Pick<ForgetReport, "addresses" | "messages" | "drafts" | "notes">> {
  if (keyIds.length === 0) return { addresses: 0, messages: 0, drafts: 0, notes: 0 };
  const prefixes = keyIds.map((id) => `${SERVER_KEY_PREFIX}${id}:%`);
  const count = sql<number>`count(*)::int`;
  const [addresses] = await db.select({ n: count }).from(orders).where(or(...prefixes.map((prefix) => like(orders.address, prefix))));
  const [messages] = await db
    .select({ n: count })
    .from(customerMessages)
    .where(or(...prefixes.map((prefix) => like(customerMessages.message, prefix))));
  const [drafts] = await db
    .select({ n: count })
    .from(botConversations)
    .where(or(...prefixes.map((prefix) => sql`${botConversations.state} ->> 'sealedDraft' like ${prefix}`)));
  const [notes] = await db
    .select({ n: count })
    .from(customerNotes)
    .where(or(...prefixes.map((prefix) => like(customerNotes.note, prefix))));
  return { addresses: Number(addresses!.n), messages: Number(messages!.n), drafts: Number(drafts!.n), notes: Number(notes!.n) };
}

async function reportOf(db: DbOrTx, lost: Lost): Promise<ForgetReport> {
  const secrets: LostSecret[] = [];
  for (const { secret, rowIds } of lost.secrets) {
    const { name, what, whenForgotten } = secret;
    secrets.push({ name, what, whenForgotten, count: rowIds.length, accounts: (await secret.accountsAffected?.(db, rowIds)) ?? [] });
  }
  return {
    secrets: secrets.reduce((n, secret) => n + secret.count, 0),
    lost: secrets,
    dataKeys: lost.keyIds.length,
    ...(await countUnder(db, lost.keyIds)),
  };
}

/** What forgetting would lose with this key, without changing anything. */
export async function whatForgettingLoses(db: DbOrTx, master: Buffer): Promise<ForgetReport> {
  return reportOf(db, await findLost(db, master));
}

/**
 * Forgets, in one transaction, what `master` cannot open: each secret as ENCRYPTED_SECRETS says (the
 * column emptied, two-factor turned off), the data keys retired with their wrapped key deleted (as
 * keys:rotate retires one), and the key check is sealed with `master`, so the next start with it goes
 * ahead. A new data key is made at the first write.
 */
export async function forgetSecretsOfAnotherKey(db: Db, master: Buffer): Promise<ForgetReport> {
  return db.transaction(async (tx) => {
    // Locked first: a server on PostgreSQL cannot save Bot Settings or set up two-factor in between.
    await lockSecretRows(tx);
    await tx.select({ id: dataKeys.id }).from(dataKeys).for("update");
    const lost = await findLost(tx, master);
    const report = await reportOf(tx, lost);
    for (const { secret, rowIds } of lost.secrets) await secret.forget(tx, rowIds);
    if (lost.keyIds.length > 0) {
      await tx.update(dataKeys).set({ state: "retired", wrapped: null, retiredAt: new Date() }).where(inArray(dataKeys.id, lost.keyIds));
    }
    await sealKeyCheck(tx, master);
    return report;
  });
}
