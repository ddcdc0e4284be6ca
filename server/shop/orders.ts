import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { EXPIRED_ORDER_AGE_MS, type Order, type OrderItem, type OrderStatus } from "../../contract";
import type { Db, DbOrTx } from "../db/client";
import { orderItems, orders } from "../db/schema";
import { conflict, notFound, ShopError, unavailable } from "./errors";
import { releaseOrderStock } from "./stock";
import { isUuid, shortOrderId } from "./ids";

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** Sends a text to a customer's chat; the Telegram notifier fits this shape. */
export type CustomerNotifier = { sendMessage(chatId: string, text: string): Promise<void> };


export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    telegramUserId: row.telegramUserId,
    telegramUsername: row.telegramUsername,
    status: row.status as OrderStatus,
    totalAmount: row.totalAmount,
    currency: row.currency,
    paymentMethod: row.paymentMethod,
    paymentStatus: row.paymentStatus,
    paymentId: row.paymentId,
    transactionHash: row.transactionHash,
    shippingAddress: row.shippingAddress
      ? { ...row.shippingAddress, contact: row.shippingAddress.contact ?? null }
      : null,
    postageOptionId: row.postageOptionId,
    trackingNumber: row.trackingNumber,
    payAddress: row.payAddress,
    payAmount: row.payAmount,
    payCurrency: row.payCurrency,
    paymentExpiresAt: row.paymentExpiresAt?.toISOString() ?? null,
    actuallyPaid: row.actuallyPaid,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toOrderItem(row: OrderItemRow): OrderItem {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

async function findOrderRow(db: DbOrTx, id: string): Promise<OrderRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

async function requireOrderRow(db: DbOrTx, id: string): Promise<OrderRow> {
  const row = await findOrderRow(db, id);
  if (!row) throw notFound("Order not found.");
  return row;
}

/** Every order, newest first. */
export async function listOrders(db: DbOrTx): Promise<Order[]> {
  const rows = await db.select().from(orders).orderBy(desc(orders.createdAt), desc(orders.id));
  return rows.map(toOrder);
}

export async function getOrder(db: DbOrTx, id: string): Promise<Order> {
  return toOrder(await requireOrderRow(db, id));
}

/** The order's lines in the order they were added, each with the product name as it was when ordered. */
export async function getOrderItems(db: DbOrTx, orderId: string): Promise<OrderItem[]> {
  await requireOrderRow(db, orderId);
  const rows = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    // Lines of one checkout share their createdAt: by name next, so the list reads the same every time.
    .orderBy(asc(orderItems.createdAt), sql`nullif(${orderItems.productName}, '') asc nulls last`, asc(orderItems.id));
  return rows.map(toOrderItem);
}

/**
 * The only status changes an admin may make (DESIGN decision 4). Failing an order belongs to the
 * payment rules and the expiry cleanup, which also put its stock back; moving back is never allowed.
 */
const ADMIN_TRANSITIONS: Partial<Record<OrderStatus, OrderStatus>> = {
  dispatched: "processing",
  completed: "dispatched",
};

function refusedTransition(order: OrderRow, to: OrderStatus): ShopError {
  const name = `Order #${shortOrderId(order.id)}`;
  if (order.status === to) return conflict(`${name} is already ${to}.`);
  if (to === "failed") {
    return conflict(
      `${name} cannot be marked failed by hand: an order fails only when its payment fails or expires, or through Cleanup Expired.`,
    );
  }
  if (to === "pending" || to === "processing") {
    return conflict(`${name} cannot be moved back to ${to}: its status follows its payment.`);
  }
  const from = ADMIN_TRANSITIONS[to]!;
  return conflict(`${name} is ${order.status}; only a ${from} order can be marked ${to}.`);
}

/**
 * Moves an order along processing -> dispatched -> completed. The change is one conditional UPDATE,
 * so a payment or cleanup changing the same order at the same moment cannot be overwritten.
 * `trackingNumber`: undefined keeps it, null or "" clears it.
 */
export async function updateOrderStatus(
  db: DbOrTx,
  id: string,
  change: { status: OrderStatus; trackingNumber?: string | null },
  now: Date,
): Promise<Order> {
  const order = await requireOrderRow(db, id);
  const from = ADMIN_TRANSITIONS[change.status];
  if (!from || order.status !== from) throw refusedTransition(order, change.status);
  const values: Partial<typeof orders.$inferInsert> = { status: change.status, updatedAt: now };
  if (change.trackingNumber !== undefined) values.trackingNumber = change.trackingNumber || null;
  const [row] = await db
    .update(orders)
    .set(values)
    .where(and(eq(orders.id, id), eq(orders.status, from)))
    .returning();
  if (!row) throw refusedTransition(await requireOrderRow(db, id), change.status);
  return toOrder(row);
}

/** Only failed orders can be deleted (DESIGN decision 4); their items go with them. */
export async function deleteOrder(db: Db, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await requireOrderRow(tx, id);
    if (order.status !== "failed") {
      throw conflict(`Order #${shortOrderId(id)} is ${order.status}; only failed orders can be deleted.`);
    }
    // A failed order's stock is normally back already; this is a no-op then, and a safety net otherwise.
    await releaseOrderStock(tx, id, now);
    const deleted = await tx
      .delete(orders)
      .where(and(eq(orders.id, id), eq(orders.status, "failed")))
      .returning({ id: orders.id });
    if (deleted.length === 0) throw conflict(`Order #${shortOrderId(id)} changed meanwhile; reload and try again.`);
  });
}

/** Payment statuses that mean no money is on its way (DESIGN decision 1); null is an order never sent to the gateway. */
export const UNPAID_PAYMENT_STATUSES = ["waiting", "expired", "failed"] as const;

/**
 * Fails orders older than EXPIRED_ORDER_AGE_MS that are still pending or processing and whose payment
 * never arrived, and puts their stock back. A paid order (confirming, partially_paid, confirmed,
 * sending, finished) is never failed here. Safe when two server instances run it at once: the one
 * conditional UPDATE locks the rows, so each order is failed, and its stock released, by one of them.
 * Answers the ids it failed.
 */
export async function cleanupExpiredOrders(db: Db, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - EXPIRED_ORDER_AGE_MS);
  return db.transaction(async (tx) => {
    const failed = await tx
      .update(orders)
      .set({ status: "failed", updatedAt: now })
      .where(
        and(
          inArray(orders.status, ["pending", "processing"]),
          lt(orders.createdAt, cutoff),
          or(isNull(orders.paymentStatus), inArray(orders.paymentStatus, [...UNPAID_PAYMENT_STATUSES])),
        ),
      )
      .returning({ id: orders.id });
    for (const { id } of failed) await releaseOrderStock(tx, id, now);
    return failed.map(({ id }) => id);
  });
}

export function dispatchNotice(order: Pick<Order, "id" | "trackingNumber">): string {
  const lines = [`Good news! Your order #${shortOrderId(order.id)} has been dispatched.`];
  if (order.trackingNumber) lines.push(`Tracking number: ${order.trackingNumber}`);
  lines.push("Thank you for shopping with us.");
  return lines.join("\n");
}

/**
 * Tells the customer their order is on its way. The order must already be dispatched; when the
 * message cannot be delivered the order stays dispatched and the error says why.
 */
export async function notifyDispatch(db: DbOrTx, notifier: CustomerNotifier, id: string): Promise<void> {
  const order = await requireOrderRow(db, id);
  if (order.status !== "dispatched") {
    throw conflict(
      `Order #${shortOrderId(id)} is ${order.status}; the customer is notified only once it is dispatched.`,
    );
  }
  try {
    await notifier.sendMessage(order.telegramUserId, dispatchNotice(order));
  } catch (error) {
    if (error instanceof ShopError) {
      throw unavailable(`The order is dispatched, but the customer could not be notified. ${error.message}`);
    }
    throw error;
  }
}
