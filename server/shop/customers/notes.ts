import { eq, sql } from "drizzle-orm";
import type { CustomerNote } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { blockedCustomers, customerMessages, customerNotes, orders } from "../../db/schema";
import { notFound } from "../common";
import { protectNote, revealNote } from "../vaults";

// The owner's note about a customer (issue 22 item 9; docs/decisions/0029-customer-notes.md): one text
// per customer, beside their conversation and on their page. Encrypted at rest (shop/vaults/note-vault.ts);
// saving replaces it whole, the last save wins; an empty note deletes the row. Retention leaves notes
// alone (they are the owner's own words); forgetting the customer deletes theirs (shop/privacy/privacy.ts).
// The length limit is the contract's (CustomerNoteInputSchema): the route refuses a longer note with 400.

/** Rows of db.execute: node-postgres answers a result object, PGlite too; both carry `rows`. */
const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

/**
 * Whether the shop knows this customer: an order, a message, a block (as the Customers screen counts
 * them), or a note already (their messages may have been erased by retention since).
 */
async function isKnownCustomer(db: DbOrTx, telegramUserId: string): Promise<boolean> {
  const result = await db.execute<{ known: boolean }>(sql`select
      exists (select 1 from ${orders} where ${orders.telegramUserId} = ${telegramUserId})
      or exists (select 1 from ${customerMessages} where ${customerMessages.telegramUserId} = ${telegramUserId})
      or exists (select 1 from ${blockedCustomers} where ${blockedCustomers.telegramUserId} = ${telegramUserId})
      or exists (select 1 from ${customerNotes} where ${customerNotes.telegramUserId} = ${telegramUserId}) as known`);
  const row = rowsOf<{ known: boolean }>(result)[0];
  return row?.known === true;
}

async function toNote(db: DbOrTx, telegramUserId: string, row: typeof customerNotes.$inferSelect | undefined): Promise<CustomerNote> {
  if (!row) return { telegramUserId, note: "", updatedAt: null, unreadable: false };
  const note = await revealNote(db, row);
  return { telegramUserId, note: note ?? "", updatedAt: row.updatedAt.toISOString(), unreadable: note === null };
}

/** The owner's note about a customer ("" when none); 404 for a customer the shop does not know. */
export async function getCustomerNote(db: DbOrTx, telegramUserId: string): Promise<CustomerNote> {
  const [row] = await db.select().from(customerNotes).where(eq(customerNotes.telegramUserId, telegramUserId));
  if (!row && !(await isKnownCustomer(db, telegramUserId))) throw notFound("Customer not found");
  return toNote(db, telegramUserId, row);
}

/**
 * Saves the owner's note about a customer, replacing the one before (the last of parallel saves wins);
 * an empty note deletes it. `note` is already checked and trimmed by the contract. 404 for a customer
 * the shop does not know.
 */
export async function saveCustomerNote(db: DbOrTx, telegramUserId: string, note: string, now: Date): Promise<CustomerNote> {
  if (!(await isKnownCustomer(db, telegramUserId))) throw notFound("Customer not found");
  if (note === "") {
    await db.delete(customerNotes).where(eq(customerNotes.telegramUserId, telegramUserId));
    return toNote(db, telegramUserId, undefined);
  }
  const stored = await protectNote(db, telegramUserId, note);
  const [row] = await db
    .insert(customerNotes)
    .values({ telegramUserId, note: stored, updatedAt: now })
    .onConflictDoUpdate({ target: customerNotes.telegramUserId, set: { note: stored, updatedAt: now } })
    .returning();
  return { telegramUserId, note, updatedAt: row!.updatedAt.toISOString(), unreadable: false };
}

/** The audit log's line for a note saved: which customer, never what the note says. */
export function describeNoteChange(telegramUserId: string, cleared: boolean): string {
  return `Note about customer ${telegramUserId} ${cleared ? "cleared" : "changed"}`;
}
