import { and, eq, inArray, isNotNull, like, not, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { botConversations, customerMessages, customerNotes, dataKeys, orders } from "../../db/schema";
import type { SecretBox } from "../../crypto";
import { protectAddress, revealAddress, messageBinding, protectMessage, protectNote, revealNote, createDataKey, currentKey, open, SERVER_KEY_PREFIX, unwrapDataKey, VaultError, wrapDataKey } from "../vaults";
import { getConversation, saveConversation } from "../customers";
import { ENCRYPTED_SECRETS, lockSecretRows, replaceStoredValue, storedValuesOf } from "./encrypted-secrets";
import { sealKeyCheck } from "./key-check";

// `npm run keys:rotate` (issue 15; docs/decisions/0024-encryption-at-rest.md): a new data key becomes
// current, everything encrypted under an older one is encrypted again under it (and its blind index
// recomputed) in small batches, then the older key is retired: its wrapped key is deleted, so a copy of
// the database taken afterwards cannot open a value that old key encrypted. Safe to run with the servers
// running (new values go under the new key at once: vault.ts reads the current key on each write), and
// safe to interrupt: run again, it carries on with the key it was retiring.

export type RotationReport = { newKeyId: string; retiredKeyIds: string[]; addresses: number; messages: number; drafts: number; notes: number };

export type RotationOptions = {
  /** Rows encrypted again per transaction. */
  batchSize?: number;
  /**
   * How long to wait after the switch before the last sweep: a write that read the old current key just
   * before the switch commits within it. Tests pass 0, and keys:rotate on PGlite (it holds the data folder).
   */
  graceMs?: number;
  log?: (line: string) => void;
};

const notUnder = (column: typeof orders.address | typeof customerMessages.message | typeof customerNotes.note, keyId: string) =>
  not(like(column, `${SERVER_KEY_PREFIX}${keyId}:%`));

/** Encrypts again every address not under the current key; answers how many. */
async function rotateAddresses(db: Db, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const key = await currentKey(tx);
      const rows = await tx
        .select({ id: orders.id, address: orders.address })
        .from(orders)
        .where(and(like(orders.address, `${SERVER_KEY_PREFIX}%`), notUnder(orders.address, key.id)))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      let moved = 0;
      for (const row of rows) {
        const revealed = await revealAddress(tx, row);
        // One that does not decrypt (tampered with) is left as it is: the check after the sweep reports it.
        if (revealed.kind !== "clear") continue;
        await tx
          .update(orders)
          .set(await protectAddress(tx, row.id, revealed.address, key))
          .where(and(eq(orders.id, row.id), eq(orders.address, row.address!)));
        moved++;
      }
      return { seen: rows.length, moved };
    });
    total += moved.moved;
    if (moved.seen < batchSize || moved.moved === 0) return total;
  }
}

async function rotateMessages(db: Db, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const key = await currentKey(tx);
      const rows = await tx
        .select({ id: customerMessages.id, message: customerMessages.message })
        .from(customerMessages)
        .where(and(like(customerMessages.message, `${SERVER_KEY_PREFIX}%`), notUnder(customerMessages.message, key.id)))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      let moved = 0;
      for (const row of rows) {
        const text = await open(tx, row.message, messageBinding(row.id)).catch((error: unknown) => {
          if (error instanceof VaultError) return null;
          throw error;
        });
        if (text === null) continue;
        await tx
          .update(customerMessages)
          .set(await protectMessage(tx, row.id, text, key))
          .where(and(eq(customerMessages.id, row.id), eq(customerMessages.message, row.message)));
        moved++;
      }
      return { seen: rows.length, moved };
    });
    total += moved.moved;
    if (moved.seen < batchSize || moved.moved === 0) return total;
  }
}

/** The owner's notes about customers (docs/decisions/0029-customer-notes.md), as messages. */
async function rotateNotes(db: Db, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const key = await currentKey(tx);
      const rows = await tx
        .select({ telegramUserId: customerNotes.telegramUserId, note: customerNotes.note })
        .from(customerNotes)
        .where(and(like(customerNotes.note, `${SERVER_KEY_PREFIX}%`), notUnder(customerNotes.note, key.id)))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      let moved = 0;
      for (const row of rows) {
        const text = await revealNote(tx, row);
        if (text === null) continue;
        // Its updated_at stays: the owner did not change the note.
        await tx
          .update(customerNotes)
          .set({ note: await protectNote(tx, row.telegramUserId, text, key) })
          .where(and(eq(customerNotes.telegramUserId, row.telegramUserId), eq(customerNotes.note, row.note)));
        moved++;
      }
      return { seen: rows.length, moved };
    });
    total += moved.moved;
    if (moved.seen < batchSize || moved.moved === 0) return total;
  }
}

async function rotateDrafts(db: Db, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const key = await currentKey(tx);
      const rows = await tx
        .select({ telegramUserId: botConversations.telegramUserId })
        .from(botConversations)
        .where(
          and(
            sql`${botConversations.state} ->> 'sealedDraft' like ${`${SERVER_KEY_PREFIX}%`}`,
            sql`${botConversations.state} ->> 'sealedDraft' not like ${`${SERVER_KEY_PREFIX}${key.id}:%`}`,
          ),
        )
        .limit(batchSize)
        .for("update", { skipLocked: true });
      // A draft that no longer decrypts reads as idle and is saved so: the customer starts the checkout again.
      for (const row of rows) await saveConversation(tx, row.telegramUserId, await getConversation(tx, row.telegramUserId));
      return rows.length;
    });
    total += moved;
    if (moved < batchSize) return total;
  }
}

/** How many values are still encrypted under any of these keys. */
export async function countUnderKeys(db: Db, keyIds: string[]): Promise<number> {
  let total = 0;
  for (const keyId of keyIds) {
    const prefix = `${SERVER_KEY_PREFIX}${keyId}:%`;
    const [addresses] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(like(orders.address, prefix));
    const [messages] = await db.select({ n: sql<number>`count(*)::int` }).from(customerMessages).where(like(customerMessages.message, prefix));
    const [drafts] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(botConversations)
      .where(sql`${botConversations.state} ->> 'sealedDraft' like ${prefix}`);
    const [notes] = await db.select({ n: sql<number>`count(*)::int` }).from(customerNotes).where(like(customerNotes.note, prefix));
    total += Number(addresses!.n) + Number(messages!.n) + Number(drafts!.n) + Number(notes!.n);
  }
  return total;
}

export async function rotateDataKey(db: Db, options: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = options.batchSize ?? 200;
  const log = options.log ?? (() => {});
  // The switch: the current key starts retiring and a new one becomes current. A run that was
  // interrupted left a retiring key: this run finishes retiring it under the key made then.
  await db.transaction(async (tx) => {
    const [retiring] = await tx.select({ id: dataKeys.id }).from(dataKeys).where(eq(dataKeys.state, "retiring")).limit(1);
    if (retiring) return;
    await tx.update(dataKeys).set({ state: "retiring" }).where(eq(dataKeys.state, "current"));
    await createDataKey(tx);
  });
  const newKey = await currentKey(db);
  const retiring = await db.select({ id: dataKeys.id }).from(dataKeys).where(eq(dataKeys.state, "retiring"));
  const retiringIds = retiring.map((row) => row.id);
  log(`New data key ${newKey.id} is current; re-encrypting what ${retiringIds.join(", ") || "no older key"} encrypted.`);
  if (options.graceMs ?? 5_000) await new Promise((resolve) => setTimeout(resolve, options.graceMs ?? 5_000));

  const report: RotationReport = { newKeyId: newKey.id, retiredKeyIds: [], addresses: 0, messages: 0, drafts: 0, notes: 0 };
  report.addresses = await rotateAddresses(db, batchSize);
  report.messages = await rotateMessages(db, batchSize);
  report.drafts = await rotateDrafts(db, batchSize);
  report.notes = await rotateNotes(db, batchSize);
  log(
    `Re-encrypted ${report.addresses} address(es), ${report.messages} message(s), ${report.drafts} checkout draft(s) and ${report.notes} customer note(s).`,
  );

  const left = await countUnderKeys(db, retiringIds);
  if (left > 0) {
    throw new Error(
      `${left} value(s) are still encrypted under ${retiringIds.join(", ")} (one could not be read, or a write raced the rotation): ` +
        "the old key is kept. Run keys:rotate again.",
    );
  }
  if (retiringIds.length > 0) {
    await db
      .update(dataKeys)
      .set({ state: "retired", wrapped: null, retiredAt: new Date() })
      .where(and(eq(dataKeys.state, "retiring"), inArray(dataKeys.id, retiringIds)));
  }
  report.retiredKeyIds = retiringIds;
  return report;
}

/**
 * Wraps every data key again under a new master key, re-encrypts every encrypted secret
 * (ENCRYPTED_SECRETS: the bot's and the gateways' secrets, the accounts' two-factor secrets) with it
 * and seals the key check with it, in one transaction. The servers must then start with the new SECRET_KEY: one still running with the
 * old one can no longer load a data key or read the bot token.
 */
export async function rewrapUnderNewMasterKey(
  db: Db,
  keys: { oldMaster: Buffer; newMaster: Buffer; oldSecrets: SecretBox; newSecrets: SecretBox },
): Promise<{ dataKeys: number; secrets: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(dataKeys).where(isNotNull(dataKeys.wrapped)).for("update");
    for (const row of rows) {
      const material = unwrapDataKey(keys.oldMaster, row.id, row.wrapped!);
      await tx.update(dataKeys).set({ wrapped: wrapDataKey(keys.newMaster, row.id, material) }).where(eq(dataKeys.id, row.id));
    }
    let secrets = 0;
    await lockSecretRows(tx);
    for (const secret of ENCRYPTED_SECRETS) {
      // One that does not decrypt throws, and the transaction leaves everything as it was.
      for (const { rowId, stored } of await storedValuesOf(tx, secret)) {
        await replaceStoredValue(tx, secret, rowId, keys.newSecrets.encrypt(keys.oldSecrets.decrypt(stored)));
        secrets++;
      }
    }
    // The check the start compares its key with (key-check.ts) now names the new key: a server started
    // with the old one is refused instead of reading everything as not set.
    await sealKeyCheck(tx, keys.newMaster);
    return { dataKeys: rows.length, secrets };
  });
}
