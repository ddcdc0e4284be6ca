import crypto from "node:crypto";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { CustomerMessage, MessageInputSchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { customerMessages, orders } from "../../db/schema";
import { invalid, notFound, isUuid, type CustomerNotifier } from "../common";
import { protectMessage, revealMessages } from "../vaults";

type MessageRow = typeof customerMessages.$inferSelect;
export type AdminReply = z.output<typeof MessageInputSchema>;

/** A message as the API shows it, given its decrypted text (message-vault.ts). */
export function toMessage(row: MessageRow, text: string): CustomerMessage {
  const { searchTokens: _tokens, ...shown } = row;
  return { ...shown, message: text, createdAt: row.createdAt.toISOString() };
}

/** Message rows as the API shows them, their texts decrypted. */
export async function messagesOf(db: DbOrTx, rows: MessageRow[]): Promise<CustomerMessage[]> {
  const texts = await revealMessages(db, rows);
  return rows.map((row, index) => toMessage(row, texts[index]!));
}

/** One customer's conversation, oldest first, as a chat reads; with `last`, only its latest `last` messages. */
export async function listThread(db: DbOrTx, telegramUserId: string, options: { last?: number } = {}): Promise<CustomerMessage[]> {
  const query = db.select().from(customerMessages).where(eq(customerMessages.telegramUserId, telegramUserId));
  const rows =
    options.last === undefined
      ? await query.orderBy(asc(customerMessages.createdAt), asc(customerMessages.id))
      : (await query.orderBy(desc(customerMessages.createdAt), desc(customerMessages.id)).limit(options.last)).reverse();
  return messagesOf(db, rows);
}

/** Messages customers sent that the admin has not read yet. */
export async function countUnread(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(customerMessages)
    .where(and(eq(customerMessages.isFromCustomer, true), eq(customerMessages.isRead, false)));
  return row?.count ?? 0;
}

export async function markMessageRead(db: DbOrTx, id: string): Promise<CustomerMessage> {
  if (!isUuid(id)) throw notFound("Message not found.");
  const [row] = await db
    .update(customerMessages)
    .set({ isRead: true })
    .where(eq(customerMessages.id, id))
    .returning();
  if (!row) throw notFound("Message not found.");
  return (await messagesOf(db, [row]))[0]!;
}

/**
 * The admin's reply (docs/product.md rule 7): delivered through Telegram first and stored only once
 * delivered, so a stored reply is one the customer received. When Telegram refuses, the notifier's
 * error goes up and nothing is stored. Admin messages are stored as read.
 */
export async function sendAdminReply(
  db: DbOrTx,
  notifier: CustomerNotifier,
  reply: AdminReply,
  now: Date,
): Promise<CustomerMessage> {
  if (reply.orderId) {
    const [order] = await db
      .select({ telegramUserId: orders.telegramUserId })
      .from(orders)
      .where(eq(orders.id, reply.orderId));
    if (!order) throw invalid("Order is not one of the shop's orders.");
    if (order.telegramUserId !== reply.telegramUserId) {
      throw invalid("Order belongs to another customer.");
    }
  }
  await notifier.sendMessage(reply.telegramUserId, reply.message);
  // Replies are encrypted too: they quote and answer what the customer wrote.
  const id = crypto.randomUUID();
  const [row] = await db
    .insert(customerMessages)
    .values({
      id,
      ...(await protectMessage(db, id, reply.message)),
      telegramUserId: reply.telegramUserId,
      telegramUsername: reply.telegramUsername,
      isFromCustomer: false,
      isRead: true,
      orderId: reply.orderId,
      createdAt: now,
    })
    .returning();
  return toMessage(row!, reply.message);
}

/**
 * A message a customer sent to the bot (or from the storefront): stored unread, linked to the order
 * it names, else to the customer's latest order when there is one, so the admin sees what it is about.
 * An order named must be the customer's own (else "not found", as for any other order).
 */
export async function recordCustomerMessage(
  db: DbOrTx,
  message: { telegramUserId: string; telegramUsername?: string | null; message: string; orderId?: string | null },
  now: Date = new Date(),
): Promise<CustomerMessage> {
  const named = message.orderId ?? null;
  const [latest] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.telegramUserId, message.telegramUserId), named === null ? undefined : isUuid(named) ? eq(orders.id, named) : sql`false`))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  if (named !== null && !latest) throw notFound("That order was not found.", { key: "refusal-order-not-found" });
  const id = crypto.randomUUID();
  const [row] = await db
    .insert(customerMessages)
    .values({
      id,
      ...(await protectMessage(db, id, message.message)),
      telegramUserId: message.telegramUserId,
      telegramUsername: message.telegramUsername ?? null,
      isFromCustomer: true,
      isRead: false,
      orderId: latest?.id ?? null,
      createdAt: now,
    })
    .returning();
  return toMessage(row!, message.message);
}
