import { and, desc, eq, inArray } from "drizzle-orm";
import { EXPIRED_ORDER_AGE_MS, type OrderStatus } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { orderEvents, orders } from "../../db/schema";
import { type CustomerText, decimalShortfall, isPositiveDecimal, notFound, isUuid } from "../common";
import { translatorFor } from "../languages";

// What a customer sees of their own orders in the bot.

export type CustomerOrder = {
  id: string;
  createdAt: Date;
  totalAmount: string;
  status: OrderStatus;
  paymentStatus: string | null;
  paymentId: string | null;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string | null;
  paymentMethod: string | null;
  actuallyPaid: string | null;
  paymentExpiresAt: Date | null;
  adminFlag: string | null;
  trackingNumber: string | null;
  carrier: string | null;
  /** The gateway's own payment page (BTCPay's invoice checkout link; issue 24); null for NOWPayments. */
  paymentCheckoutUrl: string | null;
  /** How a failed order came to fail, from its audit trail: the owner cancelled it, or it expired. */
  closedBy: "owner" | "expiry" | null;
};

const customerOrderColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  totalAmount: orders.totalAmount,
  status: orders.status,
  paymentStatus: orders.paymentStatus,
  paymentId: orders.paymentId,
  payAddress: orders.payAddress,
  payAmount: orders.payAmount,
  payCurrency: orders.payCurrency,
  paymentMethod: orders.paymentMethod,
  actuallyPaid: orders.actuallyPaid,
  paymentExpiresAt: orders.paymentExpiresAt,
  adminFlag: orders.adminFlag,
  trackingNumber: orders.trackingNumber,
  carrier: orders.carrier,
  paymentCheckoutUrl: orders.paymentCheckoutUrl,
};

/** The customer's most recent orders, newest first. */
export async function listCustomerOrders(db: DbOrTx, telegramUserId: string, limit = 10): Promise<CustomerOrder[]> {
  const rows = await db
    .select(customerOrderColumns)
    .from(orders)
    .where(eq(orders.telegramUserId, telegramUserId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return withClosures(db, rows);
}

/** One of the customer's own orders; null for an unknown id or someone else's (never told apart). */
export async function getCustomerOrder(db: DbOrTx, telegramUserId: string, orderId: string): Promise<CustomerOrder | null> {
  if (!isUuid(orderId)) return null;
  const rows = await db
    .select(customerOrderColumns)
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.telegramUserId, telegramUserId)));
  return (await withClosures(db, rows))[0] ?? null;
}

/** The orders with how each failed one came to fail (closedBy), from their audit trails. */
async function withClosures(db: DbOrTx, rows: (Omit<CustomerOrder, "status" | "closedBy"> & { status: string })[]): Promise<CustomerOrder[]> {
  const failedIds = rows.filter((row) => row.status === "failed").map((row) => row.id);
  const closures =
    failedIds.length === 0
      ? []
      : await db
          .select({ orderId: orderEvents.orderId, action: orderEvents.action })
          .from(orderEvents)
          .where(and(inArray(orderEvents.orderId, failedIds), inArray(orderEvents.action, ["cancelled", "expired"])));
  const closedBy = new Map(closures.map((event) => [event.orderId, event.action === "cancelled" ? ("owner" as const) : ("expiry" as const)]));
  return rows.map((row) => ({ ...row, status: row.status as OrderStatus, closedBy: closedBy.get(row.id) ?? null }));
}

/** The coin an order is paid in, as customers write it ("BTC"). */
export function orderCoin(order: Pick<CustomerOrder, "payCurrency" | "paymentMethod">): string {
  return (order.payCurrency ?? order.paymentMethod ?? "").toUpperCase();
}

/** Payment statuses that mean money arrived at the gateway (in full or in part). */
const MONEY_ARRIVED = ["partially_paid", "confirmed", "sending", "finished"];

type StatusOf = Pick<CustomerOrder, "status" | "paymentStatus" | "paymentId" | "payAmount" | "actuallyPaid" | "payCurrency" | "paymentMethod" | "adminFlag"> &
  Partial<Pick<CustomerOrder, "closedBy">>;

/**
 * The order's status in the customer's words, from its status and its payment's: a key of the bot's
 * locale files (order-status-*), so My Orders says it in the customer's language.
 */
export function orderStatusText(order: StatusOf): CustomerText {
  const status = (key: string, values?: CustomerText["values"]): CustomerText => ({ key: `order-status-${key}`, ...(values ? { values } : {}) });
  switch (order.status) {
    case "pending":
      if (order.paymentStatus === "partially_paid") {
        const due = decimalShortfall(order.payAmount, order.actuallyPaid);
        return due ? status("underpaid-due", { due, coin: orderCoin(order) }) : status("underpaid");
      }
      if (order.paymentStatus === "confirming") return status("confirming");
      return status("awaiting-payment");
    case "processing":
      return status("processing");
    case "dispatched":
      return status("dispatched");
    case "completed":
      return status("completed");
    case "failed":
      if (order.paymentStatus === "refunded") return status("refunded");
      if (order.adminFlag === "refund_due") return status("cancelled-refund-due");
      if (order.closedBy === "owner") return status("cancelled-by-shop");
      if (MONEY_ARRIVED.includes(order.paymentStatus ?? "") || isPositiveDecimal(order.actuallyPaid)) return status("paid-too-late");
      if (order.paymentStatus === "expired" || order.closedBy === "expiry") return status("expired");
      if (order.paymentStatus === "failed" && !order.paymentId) return status("payment-not-created");
      if (order.paymentStatus === "failed") return status("payment-failed");
      return status("no-payment");
    default:
      return { key: "order-status-other", values: { status: order.status } };
  }
}

/** The order's status in the customer's words, in English (the shop's own words). */
export function describeOrderStatus(order: StatusOf): string {
  return translatorFor("en").say(orderStatusText(order));
}

/**
 * When the customer must have paid by: the gateway's expiry when it gave one (its address stops
 * taking the payment then), else the shop's own deadline, created + 2 hours (docs/product.md rule 1).
 */
export function paymentDeadline(order: { createdAt: Date; paymentExpiresAt: Date | null }): Date {
  return order.paymentExpiresAt ?? new Date(order.createdAt.getTime() + EXPIRED_ORDER_AGE_MS);
}

const URI_SCHEMES: Record<string, { scheme: string; amountParameter: string }> = {
  BTC: { scheme: "bitcoin", amountParameter: "amount" }, // BIP 21
  LTC: { scheme: "litecoin", amountParameter: "amount" },
  XMR: { scheme: "monero", amountParameter: "tx_amount" }, // Monero's URI scheme
};

/** The URI a wallet opens from a QR code: the address and the amount, so neither can be mistyped. Null for a coin without one. */
export function paymentUri(coin: string, address: string, amount: string): string | null {
  const uri = URI_SCHEMES[coin.toUpperCase()];
  if (!uri) return null;
  return `${uri.scheme}:${address}?${uri.amountParameter}=${encodeURIComponent(amount)}`;
}

export type PaymentDetails = {
  orderId: string;
  totalAmount: string;
  coin: string;
  payAddress: string;
  payAmount: string;
  /** What is still to send: the whole amount, or after a short payment the shortfall; null while a payment is being confirmed. */
  amountDue: string | null;
  actuallyPaid: string | null;
  paymentStatus: string | null;
  deadline: Date;
  /** The gateway's own payment page (BTCPay's invoice checkout link; issue 24); null for NOWPayments. */
  checkoutUrl: string | null;
};

/** Where and how much a customer still has to pay for one of their pending orders. */
export async function getPaymentDetails(db: DbOrTx, telegramUserId: string, orderId: string): Promise<PaymentDetails> {
  const [order] = isUuid(orderId)
    ? await db
        .select({ ...customerOrderColumns, telegramUserId: orders.telegramUserId, checkoutUrl: orders.paymentCheckoutUrl })
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.telegramUserId, telegramUserId)))
    : [];
  if (!order) throw notFound("That order was not found.", { key: "refusal-order-not-found" });
  if (order.status !== "pending" || !order.payAddress || !order.payAmount) {
    throw notFound("That order is not waiting for a payment any more. Open My Orders to see where it is.", { key: "refusal-order-not-awaiting-payment" });
  }
  const amountDue = amountDueOf({ ...order, payAmount: order.payAmount });
  return {
    orderId: order.id,
    totalAmount: order.totalAmount,
    coin: orderCoin(order),
    payAddress: order.payAddress,
    payAmount: order.payAmount,
    amountDue,
    actuallyPaid: order.actuallyPaid,
    paymentStatus: order.paymentStatus,
    deadline: paymentDeadline(order),
    checkoutUrl: order.checkoutUrl,
  };
}

/**
 * What is still to send for a pending order: the whole amount, or after a short payment the
 * shortfall; null while a payment is being confirmed.
 */
export function amountDueOf(order: Pick<CustomerOrder, "paymentStatus" | "actuallyPaid"> & { payAmount: string }): string | null {
  if (order.paymentStatus === "partially_paid") return decimalShortfall(order.payAmount, order.actuallyPaid);
  if (order.paymentStatus === "confirming") return null;
  return order.payAmount;
}

/** The pending orders of `orders` that have payment details to show. */
export function awaitingPayment(list: CustomerOrder[]): CustomerOrder[] {
  return list.filter((order) => order.status === "pending" && order.payAddress !== null && order.payAmount !== null);
}
