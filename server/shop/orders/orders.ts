import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { EXPIRED_ORDER_AGE_MS, itemDisplayName, type Order, type OrderEvent, type OrderItem, type OrderItemsSummary, type OrderStatus } from "../../../contract";
import type { Db, DbOrTx } from "../../db/client";
import { orderEvents, orderItems, orders } from "../../db/schema";
import { conflict, notFound, ShopError, decimalShortfall, isPositiveDecimal, isUuid, shortOrderId, consoleLogger, type CustomerNotifier, type WarningLogger } from "../common";
import { listOrderEvents, recordOrderEvent } from "./order-events";
import { releaseOrderStock, reserveStock } from "./stock";
import { countCouponUse } from "./coupon-uses";
import { carrierName, trackingUrl } from "./carriers";
import { paymentMessages } from "./payment-messages";
import { messageLanguageOf, translatorFor } from "../languages";
import { revealAddress, revealAddresses, type RevealedAddress } from "../vaults";

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** What the owner's money actions and the expiry need: they change the order, then tell the customer. */
export type OrderActionDeps = { db: Db; notifier: CustomerNotifier; now: () => Date; logger?: WarningLogger };

/**
 * Tells a customer something after the change was committed. Never rejects: the change stands
 * whether or not Telegram takes the message, and the failure is logged for the owner.
 */
function tellCustomer(deps: Pick<OrderActionDeps, "notifier" | "logger">, orderId: string, chatId: string, text: string) {
  return deps.notifier.sendMessage(chatId, text).catch((error: unknown) => {
    (deps.logger ?? consoleLogger).warn(
      { orderId, err: error instanceof Error ? error.message : String(error) },
      "the customer could not be told about their order",
    );
  });
}


/** An order as the API shows it, its address revealed as the server can (shop/vaults/address-vault.ts). */
export function toOrder(row: OrderRow, revealed: RevealedAddress, itemsSummary: OrderItemsSummary | null): Order {
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
    shippingAddress: revealed.kind === "clear" ? revealed.address : null,
    sealedShippingAddress: revealed.kind === "sealed" ? revealed.sealed : null,
    addressErasedAt: row.addressErasedAt?.toISOString() ?? null,
    postageOptionId: row.postageOptionId,
    postageName: row.postageName,
    postagePrice: row.postagePrice,
    couponCode: row.couponCode,
    discountAmount: row.discountAmount,
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    trackingUrl: trackingUrl(row.carrier, row.trackingNumber),
    payAddress: row.payAddress,
    payAmount: row.payAmount,
    payCurrency: row.payCurrency,
    paymentExpiresAt: row.paymentExpiresAt?.toISOString() ?? null,
    actuallyPaid: row.actuallyPaid,
    shortfall: row.paymentStatus === "partially_paid" ? decimalShortfall(row.payAmount, row.actuallyPaid) : null,
    paidAt: row.paidAt?.toISOString() ?? null,
    adminFlag: row.adminFlag as Order["adminFlag"],
    isTest: row.isTest,
    placedFrom: row.placedFrom,
    dispatchNotice: row.dispatchNoticeState
      ? { state: row.dispatchNoticeState, dueAt: row.dispatchNoticeDueAt?.toISOString() ?? null }
      : null,
    itemsSummary,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** An order row as the API shows it, its address decrypted. */
export async function orderOf(db: DbOrTx, row: OrderRow): Promise<Order> {
  const [revealed, summaries] = await Promise.all([revealAddress(db, row), itemsSummariesOf(db, [row.id])]);
  return toOrder(row, revealed, summaries.get(row.id) ?? null);
}

/**
 * Many order rows as the API shows them (a page): the keys their addresses need are loaded once, and
 * their items' summaries in one query.
 */
export async function ordersOf(db: DbOrTx, rows: OrderRow[]): Promise<Order[]> {
  const [revealed, summaries] = await Promise.all([revealAddresses(db, rows), itemsSummariesOf(db, rows.map((row) => row.id))]);
  return rows.map((row, index) => toOrder(row, revealed[index]!, summaries.get(row.id) ?? null));
}

/**
 * An order's lines in the order they were added. Lines of one checkout share their createdAt: by name
 * next, so the list reads the same every time (and the summary's first line is the details' first).
 */
const LINE_ORDER = [asc(orderItems.createdAt), sql`nullif(${orderItems.productName}, '') asc nulls last`, asc(orderItems.id)];

/** Ids per query: well under the 65,535 parameters a PostgreSQL statement takes (the unpaged list has them all). */
const SUMMARY_BATCH = 1_000;

/** Each order's first line and its number of lines (order_items_order_id_idx finds them), by order id. */
async function itemsSummariesOf(db: DbOrTx, orderIds: string[]): Promise<Map<string, OrderItemsSummary>> {
  const summaries = new Map<string, OrderItemsSummary>();
  for (let at = 0; at < orderIds.length; at += SUMMARY_BATCH) {
    const rows = await db
      .selectDistinctOn([orderItems.orderId], {
        orderId: orderItems.orderId,
        productId: orderItems.productId,
        productName: orderItems.productName,
        variantLabel: orderItems.variantLabel,
        quantity: orderItems.quantity,
        // Counted over all of the order's lines before DISTINCT ON keeps the first.
        lineCount: sql<number>`count(*) over (partition by ${orderItems.orderId})`.mapWith(Number),
      })
      .from(orderItems)
      .where(inArray(orderItems.orderId, orderIds.slice(at, at + SUMMARY_BATCH)))
      .orderBy(asc(orderItems.orderId), ...LINE_ORDER);
    for (const { orderId, lineCount, ...first } of rows) summaries.set(orderId, { first, lineCount });
  }
  return summaries;
}

/** A line of an order; shownName is the product's name as the customer saw it, when their language gave it another. */
export type OrderLine = OrderItem & { shownName: string | null };

function toOrderItem(row: OrderItemRow): OrderLine {
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

/**
 * The order, locked until the transaction ends: every change to an order's money state (IPN,
 * sweep, expiry, the owner's actions) takes this lock first, so two of them never both win.
 */
async function lockOrderRow(tx: DbOrTx, id: string): Promise<OrderRow> {
  const [row] = isUuid(id) ? await tx.select().from(orders).where(eq(orders.id, id)).for("update") : [];
  if (!row) throw notFound("Order not found.");
  return row;
}

export async function getOrder(db: DbOrTx, id: string): Promise<Order> {
  return orderOf(db, await requireOrderRow(db, id));
}

/** The order's lines in the order they were added, each with the product name as it was when ordered. */
export async function getOrderItems(db: DbOrTx, orderId: string): Promise<OrderLine[]> {
  await requireOrderRow(db, orderId);
  const rows = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(...LINE_ORDER);
  return rows.map(toOrderItem);
}

/** Payment statuses that mean money reached the gateway for the order (in full, in part, or since refunded). */
const MONEY_ARRIVED_STATUSES: readonly string[] = ["partially_paid", "confirmed", "sending", "finished", "refunded"];
/** Payment statuses of money the owner may accept: it arrived and was not sent back. */
const ACCEPTABLE_PAYMENT_STATUSES: readonly string[] = ["partially_paid", "confirmed", "sending", "finished"];

/** Whether any money arrived for the order, even if short or refunded since (docs/product.md rule 1: it is never deleted). */
export function hasReceivedMoney(order: Pick<OrderRow, "paymentStatus" | "actuallyPaid">): boolean {
  return isPositiveDecimal(order.actuallyPaid) || MONEY_ARRIVED_STATUSES.includes(order.paymentStatus ?? "");
}

/** "0.00005 of 0.0005 BTC", for the owner's trail and errors. */
function describeReceived(order: Pick<OrderRow, "actuallyPaid" | "payAmount" | "payCurrency" | "paymentMethod">): string {
  if (!isPositiveDecimal(order.actuallyPaid)) return "an amount the gateway did not report";
  const coin = (order.payCurrency ?? order.paymentMethod ?? "").toUpperCase();
  return order.payAmount ? `${order.actuallyPaid} of ${order.payAmount} ${coin}` : `${order.actuallyPaid} ${coin}`;
}

/**
 * Whether the owner cancelled this order by hand. Money arriving for it
 * later never brings it back on its own: the owner decided, and settles it by hand.
 */
export async function wasCancelledByOwner(tx: DbOrTx, orderId: string): Promise<boolean> {
  const [event] = await tx
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.action, "cancelled")))
    .limit(1);
  return event !== undefined;
}

/**
 * Takes a failed order's items off the shelf again, all lines or none (a savepoint undoes a
 * partial take). Answers null when it worked, or the sentence saying which line ran short.
 * An order whose stock was never released has nothing to take back.
 */
export async function reclaimOrderStock(tx: DbOrTx, order: Pick<OrderRow, "id" | "stockReleasedAt">): Promise<string | null> {
  if (order.stockReleasedAt === null) return null;
  const lines = await tx
    .select({
      productId: orderItems.productId,
      variantId: orderItems.variantId,
      productName: orderItems.productName,
      variantLabel: orderItems.variantLabel,
      quantity: orderItems.quantity,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id));
  try {
    await tx.transaction(async (savepoint) => {
      await reserveStock(
        savepoint,
        lines.map((line) => ({
          productId: line.productId,
          // A line from before variants was of its product's default variant.
          variantId: line.variantId ?? line.productId,
          productName: itemDisplayName(line.productName ?? `Product ${line.productId.slice(0, 8)}`, line.variantLabel),
          quantity: line.quantity,
        })),
      );
    });
    return null;
  } catch (error) {
    if (error instanceof ShopError) return error.message; // a line ran short
    throw error;
  }
}

/**
 * The only status changes an admin may make by editing an order (docs/product.md rule 4). Failing an
 * order belongs to the payment rules, the expiry and Cancel; moving back is never allowed.
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
      `${name} cannot be marked failed by hand: an order fails only when its payment fails or expires, or when a pending order is cancelled.`,
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
 * so a payment or cleanup changing the same order at the same moment cannot be overwritten; the
 * audit trail gets its line in the same transaction.
 * `trackingNumber` and `carrier`: undefined keeps them, null or "" clears them.
 */
export async function updateOrderStatus(
  db: DbOrTx,
  id: string,
  change: { status: OrderStatus; trackingNumber?: string | null; carrier?: string | null },
  now: Date,
): Promise<Order> {
  const order = await requireOrderRow(db, id);
  const from = ADMIN_TRANSITIONS[change.status];
  if (!from || order.status !== from) throw refusedTransition(order, change.status);
  const values: Partial<typeof orders.$inferInsert> = { status: change.status, updatedAt: now };
  if (change.trackingNumber !== undefined) values.trackingNumber = change.trackingNumber || null;
  if (change.carrier !== undefined) values.carrier = carrierName(change.carrier || null);
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(orders)
      .set(values)
      .where(and(eq(orders.id, id), eq(orders.status, from)))
      .returning();
    if (!updated) return undefined;
    const shipment = [updated.carrier, updated.trackingNumber && `tracking number ${updated.trackingNumber}`].filter(Boolean);
    const tracking = shipment.length > 0 ? ` (${shipment.join(", ")})` : "";
    await recordOrderEvent(
      tx,
      {
        orderId: id,
        actor: "admin",
        action: change.status === "dispatched" ? "dispatched" : "completed",
        detail: change.status === "dispatched" ? `Marked dispatched${tracking}.` : "Marked completed.",
      },
      now,
    );
    return updated;
  });
  if (!row) throw refusedTransition(await requireOrderRow(db, id), change.status);
  return orderOf(db, row);
}

/**
 * The owner accepts the money that arrived as payment in full (issue 10, docs/product.md rule 4): a
 * pending order paid short, or a failed order whose money arrived after it expired or was
 * cancelled, as long as its items can be taken off the shelf again. The order becomes processing
 * (Ready to Dispatch) and counts as revenue from now; the customer is told it is paid.
 */
export async function acceptPayment(deps: OrderActionDeps, id: string): Promise<Order> {
  const now = deps.now();
  const { row, chatId } = await deps.db.transaction(async (tx) => {
    const order = await lockOrderRow(tx, id);
    const name = `Order #${shortOrderId(order.id)}`;
    if (order.status !== "pending" && order.status !== "failed") {
      throw conflict(`${name} is ${order.status}: it is already paid, so there is no payment to accept.`);
    }
    if (order.paymentStatus === "refunded") {
      throw conflict(`${name} cannot be accepted as paid: its payment was refunded.`);
    }
    if (order.paymentStatus === "confirming") {
      throw conflict(`${name} has a payment still being confirmed on the blockchain; wait until it settles, then try again.`);
    }
    const received = isPositiveDecimal(order.actuallyPaid) || ACCEPTABLE_PAYMENT_STATUSES.includes(order.paymentStatus ?? "");
    if (!received) {
      throw conflict(`${name} has received no payment, so it cannot be accepted as paid. Cancel it instead, or wait for the payment.`);
    }
    let reclaimed = false;
    if (order.status === "failed") {
      const shortage = await reclaimOrderStock(tx, order);
      if (shortage) {
        throw conflict(`${name} cannot be accepted as paid: ${shortage} Restock it first, or refund the payment.`);
      }
      reclaimed = order.stockReleasedAt !== null;
    }
    const [updated] = await tx
      .update(orders)
      .set({
        status: "processing",
        paidAt: now,
        adminFlag: null,
        ...(reclaimed ? { stockReleasedAt: null } : {}),
        updatedAt: now,
      })
      .where(eq(orders.id, order.id))
      .returning();
    await countCouponUse(tx, order.id, now);
    await recordOrderEvent(
      tx,
      {
        orderId: order.id,
        actor: "admin",
        action: "payment_accepted",
        detail:
          `Payment accepted by the owner (received: ${describeReceived(order)})` +
          (order.status === "failed" ? "; the order was revived and its items taken off the shelf again." : "."),
      },
      now,
    );
    return { row: updated!, chatId: order.telegramUserId };
  });
  await tellCustomer(deps, row.id, chatId, paymentMessages.paid(row.id, translatorFor(await messageLanguageOf(deps.db, chatId))));
  return orderOf(deps.db, row);
}

/**
 * The owner cancels a pending order (issue 10, docs/product.md rule 4): it fails, its stock goes back
 * on the shelf once, and the customer is told. When money had arrived, the order is flagged
 * "refund_due" so the owner remembers to send it back.
 */
export async function cancelOrder(deps: OrderActionDeps, id: string): Promise<Order> {
  const now = deps.now();
  const { row, chatId } = await deps.db.transaction(async (tx) => {
    const order = await lockOrderRow(tx, id);
    const name = `Order #${shortOrderId(order.id)}`;
    if (order.status !== "pending") {
      throw conflict(`${name} is ${order.status}; only a pending order can be cancelled.`);
    }
    if (order.paymentStatus === "confirming") {
      throw conflict(`${name} has a payment still being confirmed on the blockchain; wait until it settles, then try again.`);
    }
    const refundDue = isPositiveDecimal(order.actuallyPaid);
    const [updated] = await tx
      .update(orders)
      .set({ status: "failed", adminFlag: refundDue ? "refund_due" : order.adminFlag, updatedAt: now })
      .where(eq(orders.id, order.id))
      .returning();
    await releaseOrderStock(tx, order.id, now);
    await recordOrderEvent(
      tx,
      {
        orderId: order.id,
        actor: "admin",
        action: "cancelled",
        detail: refundDue
          ? `Cancelled by the owner after ${describeReceived(order)} had arrived: refund due. Its items are back on sale.`
          : "Cancelled by the owner before any payment arrived. Its items are back on sale.",
      },
      now,
    );
    return { row: updated!, chatId: order.telegramUserId };
  });
  await tellCustomer(
    deps,
    row.id,
    chatId,
    paymentMessages.cancelled(
      {
        orderId: row.id,
        actuallyPaid: isPositiveDecimal(row.actuallyPaid) ? row.actuallyPaid : null,
        payCurrency: row.payCurrency ?? row.paymentMethod,
      },
      translatorFor(await messageLanguageOf(deps.db, chatId)),
    ),
  );
  return orderOf(deps.db, row);
}

/** The order's audit trail, oldest first; 404 for an unknown order. */
export async function getOrderEvents(db: DbOrTx, id: string): Promise<OrderEvent[]> {
  await requireOrderRow(db, id);
  return listOrderEvents(db, id);
}

/**
 * Only failed orders can be deleted (docs/product.md rule 4); a test order whatever its status, and only when no money ever arrived for
 * them (docs/product.md rule 1): an order with money is the record of that money. Its items go with it.
 */
export async function deleteOrder(db: Db, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    // Locked, so a payment arriving at this moment either lands first (and stops the delete) or waits for it.
    const order = await lockOrderRow(tx, id);
    const name = `Order #${shortOrderId(id)}`;
    if (order.isTest) {
      // A test order (docs/decisions/0023) holds no money and sent no goods: it goes whatever its
      // status, and the stock it still holds goes back on the shelf, once.
      await releaseOrderStock(tx, id, now);
      await tx.delete(orders).where(eq(orders.id, id));
      return;
    }
    if (order.status !== "failed") {
      throw conflict(`${name} is ${order.status}; only failed orders can be deleted.`);
    }
    if (hasReceivedMoney(order)) {
      throw conflict(`${name} received a payment (${describeReceived(order)}), so it is kept as the record of that money and cannot be deleted.`);
    }
    // A failed order's stock is normally back already; this is a no-op then, and a safety net otherwise.
    await releaseOrderStock(tx, id, now);
    await tx.delete(orders).where(eq(orders.id, id));
  });
}

/** Payment statuses that mean no money is on its way (docs/product.md rule 1); null is an order never sent to the gateway. */
export const UNPAID_PAYMENT_STATUSES = ["waiting", "expired", "failed"] as const;

/**
 * The orders waiting for their customer's payment: pending, with no money on its way or arrived.
 * Expiry fails exactly these once their deadline passes; checkout caps how many one customer holds
 * (shop/ordering/unpaid-orders.ts).
 */
export function awaitingPaymentCondition() {
  return and(eq(orders.status, "pending"), or(isNull(orders.paymentStatus), inArray(orders.paymentStatus, [...UNPAID_PAYMENT_STATUSES])));
}

/** How many of the customer's orders wait for their payment (awaitingPaymentCondition), test orders as others. */
export async function countOrdersAwaitingPayment(db: DbOrTx, telegramUserId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.telegramUserId, telegramUserId), awaitingPaymentCondition()));
  return row?.count ?? 0;
}

export type ExpiryResult = {
  expiredOrderIds: string[];
  /** The customers' messages, sent after the commit; never rejects (a failed send is logged). */
  notified: Promise<void>;
};

/**
 * Fails pending orders whose payment never arrived (docs/product.md rule 1) once their deadline has
 * passed: the later of created + EXPIRED_ORDER_AGE_MS and the gateway's payment expiry, which is
 * what the customer was told ("Please pay by ..."). Their stock goes back on the shelf, the trail
 * says why, and each customer is told. An order with money on its way or arrived (confirming,
 * partially_paid, a paid status) is never failed here, nor is any order past pending.
 * Safe when two server instances run it at once: the one conditional UPDATE locks the rows (and
 * waits for an IPN holding one), so each order is failed, and its stock released, by one of them.
 */
export async function cleanupExpiredOrders(deps: OrderActionDeps): Promise<ExpiryResult> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - EXPIRED_ORDER_AGE_MS);
  const failed = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(orders)
      .set({ status: "failed", updatedAt: now })
      .where(
        and(
          awaitingPaymentCondition(),
          lt(orders.createdAt, cutoff),
          or(isNull(orders.paymentExpiresAt), lt(orders.paymentExpiresAt, now)),
        ),
      )
      .returning({
        id: orders.id,
        telegramUserId: orders.telegramUserId,
        createdAt: orders.createdAt,
        paymentExpiresAt: orders.paymentExpiresAt,
      });
    for (const order of rows) {
      await releaseOrderStock(tx, order.id, now);
      const deadline = Math.max(order.createdAt.getTime() + EXPIRED_ORDER_AGE_MS, order.paymentExpiresAt?.getTime() ?? 0);
      await recordOrderEvent(
        tx,
        {
          orderId: order.id,
          actor: "system",
          action: "expired",
          detail: `Expired: no payment arrived by ${new Date(deadline).toISOString()}. The order failed and its items are back on sale.`,
        },
        now,
      );
    }
    return rows;
  });
  const notified = Promise.all(
    failed.map(async (order) =>
      tellCustomer(deps, order.id, order.telegramUserId, paymentMessages.expired(order.id, translatorFor(await messageLanguageOf(deps.db, order.telegramUserId)))),
    ),
  ).then(() => undefined);
  return { expiredOrderIds: failed.map((order) => order.id), notified };
}
