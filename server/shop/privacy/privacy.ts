import { and, count, eq, inArray, isNotNull, lt, lte, notInArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { ERASED_ADDRESS } from "../vaults";
import { auditLog, botConversations, botCustomers, customerMessages, customerNotes, erasureRequests, orders, privacySettings } from "../../db/schema";
import { recordAudit } from "../common";

// What the shop keeps about a customer, and for how long (issue 15, items 3 and 4):
// - retention: a shipping address is erased N days after its order was completed or failed, customer
//   messages N days after they were written (the owner sets N; 0 keeps them); the owner's note about a
//   customer is the owner's own and stays (docs/decisions/0029-customer-notes.md);
// - a customer's right to be forgotten (/forgetme in the bot, or the owner for them): their
//   addresses, messages, username, checkout draft and the owner's note about them go; orders keep amounts, items and status for
//   the books. An address an order still needs (awaiting payment or dispatch) stays until the parcel
//   is on its way, then goes too (erasure_requests).
// Erasing an address sets it to null and stamps address_erased_at, so every screen can say when.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** What an audit entry that held a forgotten customer's words says instead. */
export const ERASED_SUMMARY = "[erased at the customer's request]";

export type PrivacySettings = { addressRetentionDays: number; messageRetentionDays: number };

export const DEFAULT_PRIVACY_SETTINGS: PrivacySettings = { addressRetentionDays: 30, messageRetentionDays: 0 };

/** Orders whose address is still needed: the money may still arrive, or the parcel is still to go. */
const ADDRESS_NEEDED: string[] = ["pending", "processing"];

export async function getPrivacySettings(db: DbOrTx): Promise<PrivacySettings> {
  const [row] = await db
    .select({ addressRetentionDays: privacySettings.addressRetentionDays, messageRetentionDays: privacySettings.messageRetentionDays })
    .from(privacySettings)
    .where(eq(privacySettings.id, 1));
  return row ?? DEFAULT_PRIVACY_SETTINGS;
}

export async function savePrivacySettings(db: DbOrTx, values: PrivacySettings): Promise<PrivacySettings> {
  const [row] = await db
    .insert(privacySettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: privacySettings.id, set: { ...values, updatedAt: new Date() } })
    .returning({ addressRetentionDays: privacySettings.addressRetentionDays, messageRetentionDays: privacySettings.messageRetentionDays });
  return row!;
}

const erasedAddress = (now: Date) => ({ ...ERASED_ADDRESS, addressErasedAt: now });

/** The retention rule for addresses: every completed or failed order closed more than N days ago. */
export async function eraseDueAddresses(db: DbOrTx, now: Date): Promise<number> {
  const { addressRetentionDays } = await getPrivacySettings(db);
  if (addressRetentionDays === 0) return 0;
  const erased = await db
    .update(orders)
    .set(erasedAddress(now))
    .where(
      and(
        inArray(orders.status, ["completed", "failed"]),
        lte(orders.closedAt, new Date(now.getTime() - addressRetentionDays * DAY_MS)),
        isNotNull(orders.address),
      ),
    )
    .returning({ id: orders.id });
  return erased.length;
}

/** The retention rule for messages: every customer message (and reply) older than N days. */
export async function eraseOldMessages(db: DbOrTx, now: Date): Promise<number> {
  const { messageRetentionDays } = await getPrivacySettings(db);
  if (messageRetentionDays === 0) return 0;
  const erased = await db
    .delete(customerMessages)
    .where(lt(customerMessages.createdAt, new Date(now.getTime() - messageRetentionDays * DAY_MS)))
    .returning({ id: customerMessages.id });
  return erased.length;
}

/**
 * Forgotten customers' addresses that their orders no longer need (dispatched or closed since the
 * request); a request is done once none of its orders needs an address any more.
 */
export async function eraseRequestedAddresses(db: DbOrTx, now: Date): Promise<number> {
  const requests = await db.select().from(erasureRequests);
  let erased = 0;
  for (const request of requests) {
    const covered = and(eq(orders.telegramUserId, request.telegramUserId), lte(orders.createdAt, request.requestedAt));
    const done = await db
      .update(orders)
      .set(erasedAddress(now))
      .where(and(covered, notInArray(orders.status, ADDRESS_NEEDED), isNotNull(orders.address)))
      .returning({ id: orders.id });
    erased += done.length;
    const [waiting] = await db
      .select({ n: count() })
      .from(orders)
      .where(and(covered, inArray(orders.status, ADDRESS_NEEDED), isNotNull(orders.address)));
    if (waiting!.n === 0) await db.delete(erasureRequests).where(eq(erasureRequests.telegramUserId, request.telegramUserId));
  }
  return erased;
}

/** The periodic privacy work: every rule above, once. */
export async function applyRetention(db: DbOrTx, now: Date): Promise<{ addresses: number; messages: number }> {
  const addresses = (await eraseDueAddresses(db, now)) + (await eraseRequestedAddresses(db, now));
  const messages = await eraseOldMessages(db, now);
  return { addresses, messages };
}

export type CustomerData = {
  orders: number;
  /** Orders that still hold an address. */
  addresses: number;
  messages: number;
  username: string | null;
  /** Whether they will get broadcasts (null: never started the bot). */
  broadcasts: boolean | null;
  /** Whether the owner keeps a note about them (they may ask what the shop holds, so they are told). */
  note: boolean;
};

/** What the shop keeps about one customer, as the bot's "My data" tells them. */
export async function describeCustomerData(db: DbOrTx, telegramUserId: string): Promise<CustomerData> {
  const [orderCounts] = await db
    .select({ orders: count(), addresses: count(orders.address) })
    .from(orders)
    .where(eq(orders.telegramUserId, telegramUserId));
  const [messageCount] = await db.select({ n: count() }).from(customerMessages).where(eq(customerMessages.telegramUserId, telegramUserId));
  const [started] = await db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, telegramUserId));
  const [noted] = await db.select({ n: count() }).from(customerNotes).where(eq(customerNotes.telegramUserId, telegramUserId));
  const [named] = await db
    .select({ username: orders.telegramUsername })
    .from(orders)
    .where(and(eq(orders.telegramUserId, telegramUserId), isNotNull(orders.telegramUsername)))
    .limit(1);
  return {
    orders: orderCounts!.orders,
    addresses: orderCounts!.addresses,
    messages: messageCount!.n,
    username: started?.telegramUsername ?? named?.username ?? null,
    broadcasts: started ? started.optedOutAt === null : null,
    note: noted!.n > 0,
  };
}

export type ForgetResult = {
  /** Addresses erased now. */
  addressesErased: number;
  /** Addresses kept until their order is dispatched or closed (then erased by the periodic job). */
  addressesKept: number;
  messagesErased: number;
};

/**
 * Forgets a customer: addresses their orders no longer need, every message of their conversation,
 * their username everywhere, their checkout draft, the owner's note about them; records it in the audit log (without the data).
 * Amounts, items and statuses stay for the books. Safe to repeat.
 */
export async function forgetCustomer(
  db: DbOrTx,
  telegramUserId: string,
  now: Date,
  requestedBy: "customer" | "owner",
): Promise<ForgetResult> {
  return db.transaction(async (tx) => {
    const mine = eq(orders.telegramUserId, telegramUserId);
    const erased = await tx
      .update(orders)
      .set({ ...erasedAddress(now), telegramUsername: null })
      .where(and(mine, notInArray(orders.status, ADDRESS_NEEDED), isNotNull(orders.address)))
      .returning({ id: orders.id });
    await tx.update(orders).set({ telegramUsername: null }).where(and(mine, isNotNull(orders.telegramUsername)));
    const kept = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(mine, inArray(orders.status, ADDRESS_NEEDED), isNotNull(orders.address)));
    if (kept.length > 0) {
      await tx
        .insert(erasureRequests)
        .values({ telegramUserId, requestedAt: now })
        .onConflictDoUpdate({ target: erasureRequests.telegramUserId, set: { requestedAt: now } });
    }
    const messages = await tx.delete(customerMessages).where(eq(customerMessages.telegramUserId, telegramUserId)).returning({ id: customerMessages.id });
    await tx.update(botCustomers).set({ telegramUsername: null }).where(eq(botCustomers.telegramUserId, telegramUserId));
    await tx.delete(botConversations).where(eq(botConversations.telegramUserId, telegramUserId));
    await tx.delete(customerNotes).where(eq(customerNotes.telegramUserId, telegramUserId));
    const result = { addressesErased: erased.length, addressesKept: kept.length, messagesErased: messages.length };
    // The owner's replies were summarised into the audit log with their text: that text goes too.
    await tx
      .update(auditLog)
      .set({ summary: ERASED_SUMMARY })
      .where(and(eq(auditLog.action, "message.reply"), eq(auditLog.targetType, "customer"), eq(auditLog.targetId, telegramUserId)));
    // The owner's own request is recorded by the HTTP layer's audit hook (server/http/audit.ts).
    if (requestedBy === "customer") {
      await recordAudit(tx, { action: "customer.forget-requested", targetType: "customer", targetId: telegramUserId, summary: describeForget(result, "customer") }, now);
    }
    return result;
  });
}

/** The audit log's line for a forget: what was erased, never the data itself. */
export function describeForget(result: ForgetResult, requestedBy: "customer" | "owner"): string {
  const who = requestedBy === "customer" ? "The customer asked to be forgotten (/forgetme)" : "Erased by the owner";
  const kept = result.addressesKept > 0 ? `; ${result.addressesKept} kept until dispatched, then erased` : "";
  return `${who}: ${result.addressesErased} address(es) and ${result.messagesErased} message(s) erased${kept}`;
}
