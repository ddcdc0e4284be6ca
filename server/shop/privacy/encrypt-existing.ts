import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import type { ShippingAddress } from "../../db/schema";
import { protectAddress, tokenArray, protectMessage, currentKey } from "../vaults";
import { saveConversation, ConversationStateSchema } from "../customers";

// What was stored in clear before encryption at rest (issue 15), encrypted once at start: drizzle's
// migrations are SQL, and SQL cannot encrypt (drizzle/0014_encryption_at_rest.sql).
// docs/decisions/0024-encryption-at-rest.md.
//
// One transaction under an advisory lock: of several instances starting together, one does it and
// the others then find nothing left; a crash half-way leaves everything as it was, to be done again at
// the next start. The clear address column is dropped in the same transaction, so once it commits no
// clear copy is left in the table (PostgreSQL's dead rows go at the next vacuum).

/** An arbitrary constant naming this pass's advisory lock (pg_advisory_xact_lock). */
const ENCRYPT_EXISTING_LOCK = 1_514_240_015;

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

export type EncryptedExisting = { addresses: number; messages: number; drafts: number; auditEntries: number };

async function hasClearAddressColumn(db: DbOrTx): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from information_schema.columns
     where table_schema = current_schema() and table_name = 'orders' and column_name = 'shipping_address'`);
  return rowsOf(result).length > 0;
}

async function hasClearMessages(db: DbOrTx): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from customer_messages where search_tokens is null limit 1`)).length > 0;
}

async function hasClearDrafts(db: DbOrTx): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from bot_conversations where state ->> 'step' = 'checkout' and state ? 'draft' limit 1`);
  return rowsOf(result).length > 0;
}

/** Encrypts what earlier versions stored in clear; answers how much it did (nothing, after the first time). */
export async function encryptExistingData(db: Db): Promise<EncryptedExisting> {
  const done: EncryptedExisting = { addresses: 0, messages: 0, drafts: 0, auditEntries: 0 };
  // The usual start finds nothing to do with three reads, without taking the lock.
  if (!(await hasClearAddressColumn(db)) && !(await hasClearMessages(db)) && !(await hasClearDrafts(db))) return done;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ENCRYPT_EXISTING_LOCK})`);
    const key = await currentKey(tx);

    if (await hasClearAddressColumn(tx)) {
      const result = await tx.execute(sql`select id, shipping_address from orders where shipping_address is not null`);
      for (const row of rowsOf<{ id: string; shipping_address: ShippingAddress | string }>(result)) {
        const address = typeof row.shipping_address === "string" ? (JSON.parse(row.shipping_address) as ShippingAddress) : row.shipping_address;
        const stored = await protectAddress(tx, row.id, address, key);
        await tx.execute(sql`
          update orders set address = ${stored.address}, address_search = ${tokenArray(stored.addressSearch ?? [])}, shipping_address = null
           where id = ${row.id}`);
        done.addresses++;
      }
      await tx.execute(sql`alter table orders drop column shipping_address`);
    }

    const messages = await tx.execute(sql`select id, message from customer_messages where search_tokens is null`);
    for (const row of rowsOf<{ id: string; message: string }>(messages)) {
      const stored = await protectMessage(tx, row.id, row.message, key);
      await tx.execute(sql`
        update customer_messages set message = ${stored.message}, search_tokens = ${tokenArray(stored.searchTokens)}
         where id = ${row.id}`);
      done.messages++;
    }

    const drafts = await tx.execute(sql`
      select telegram_user_id, state from bot_conversations where state ->> 'step' = 'checkout' and state ? 'draft'`);
    for (const row of rowsOf<{ telegram_user_id: string; state: unknown }>(drafts)) {
      const state = typeof row.state === "string" ? (JSON.parse(row.state) as unknown) : row.state;
      const parsed = ConversationStateSchema.safeParse(state);
      await saveConversation(tx, row.telegram_user_id, parsed.success ? parsed.data : { step: "idle" });
      done.drafts++;
    }

    // The owner's replies were summarised into the audit log with their first words: only their length stays.
    const audit = await tx.execute(sql`
      update audit_log set summary = 'A reply (its text is no longer kept here)'
       where action = 'message.reply' and summary like 'message: %' returning id`);
    done.auditEntries = rowsOf(audit).length;
  });
  return done;
}
