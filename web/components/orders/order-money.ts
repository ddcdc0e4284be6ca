import type { Order, OrderAdminFlag, OrderEvent } from "../../../contract";

// What the order details dialog says about an order's money, and which settling actions it offers
// (docs/product.md rules 3 and 4). The server decides; these only choose what to show.

/** Gateway statuses that mean money reached the gateway, in part or in full. */
const MONEY_STATUSES = new Set(["partially_paid", "confirmed", "sending", "finished"]);

/** The coin the customer pays in, upper-case ("BTC"); the payment method when the gateway named none. */
export function coinOf(order: Pick<Order, "payCurrency" | "paymentMethod">): string {
  return (order.payCurrency || order.paymentMethod || "").toUpperCase();
}

/** Money arrived for this order (any amount), so it must be accepted or refunded, never just dropped. */
export function moneyReceived(order: Pick<Order, "actuallyPaid" | "paymentStatus">): boolean {
  if (order.paymentStatus === "refunded") return false;
  return Number(order.actuallyPaid ?? 0) > 0 || MONEY_STATUSES.has(order.paymentStatus ?? "");
}

/** A short payment (the order stays pending) or money that arrived after the order failed. */
export function canAcceptPayment(order: Order): boolean {
  return (order.status === "pending" || order.status === "failed") && moneyReceived(order);
}

export function canCancel(order: Order): boolean {
  return order.status === "pending";
}

/**
 * "Discount (SUMMER10)" and "−£3.00" for an order a coupon was applied to (issue 23); null otherwise.
 * The order's total is already net of it; the postage is never discounted.
 */
export function discountLine(order: Pick<Order, "couponCode" | "discountAmount">): { label: string; amount: string } | null {
  const pence = Math.round(Number(order.discountAmount ?? 0) * 100);
  if (!order.couponCode && !(pence > 0)) return null;
  const label = order.couponCode ? `Discount (${order.couponCode})` : "Discount";
  return { label, amount: `\u2212£${(Math.max(pence, 0) / 100).toFixed(2)}` };
}

/** "Underpaid: paid 0.0001 of 0.001 BTC" for a short payment; null otherwise. */
export function underpaidText(order: Order): string | null {
  if (order.paymentStatus !== "partially_paid") return null;
  return `Underpaid: paid ${order.actuallyPaid ?? "0"} of ${order.payAmount ?? "?"} ${coinOf(order)}`.trimEnd();
}

export const ADMIN_FLAG_LABELS: Record<OrderAdminFlag, string> = {
  refund_due: "Refund due",
  refunded_after_dispatch: "Refunded after dispatch",
};

/** What the owner should do about a flag. */
export const ADMIN_FLAG_HINTS: Record<OrderAdminFlag, string> = {
  refund_due: "The order was cancelled after money arrived: refund the customer from your NOWPayments dashboard.",
  refunded_after_dispatch: "The payment was refunded after the order was dispatched: the goods went out unpaid.",
};

const ACTOR_LABELS: Record<OrderEvent["actor"], string> = {
  admin: "Admin",
  gateway: "NOWPayments",
  system: "System",
  customer: "Customer",
};

export function actorLabel(actor: string): string {
  return ACTOR_LABELS[actor as OrderEvent["actor"]] ?? actor;
}

/** "payment_accepted" -> "Payment accepted", for events without a sentence of their own. */
export function actionLabel(action: string): string {
  const words = action.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
