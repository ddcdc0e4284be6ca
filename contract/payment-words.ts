// The gateway's payment statuses (NOWPayments: waiting, confirming, confirmed, sending, finished,
// partially_paid, failed, refunded, expired) as the owner thinks of them: "Waiting for payment",
// "Paid", "Underpaid by 0.0004 BTC". The order details, the orders list and the customer page show
// these; the raw status stays in the API for integrations.

export type PaymentWordsInput = {
  paymentStatus: string | null;
  payAmount?: string | null;
  actuallyPaid?: string | null;
  /** What is still missing after a short payment (crypto, decimal text), when the server worked it out. */
  shortfall?: string | null;
  payCurrency?: string | null;
  paymentMethod?: string | null;
};

const STATUS_WORDS: Record<string, string> = {
  waiting: "Waiting for payment",
  confirming: "Payment seen, confirming",
  confirmed: "Paid",
  sending: "Paid",
  finished: "Paid",
  failed: "Payment failed",
  refunded: "Refunded",
  expired: "Expired",
};

/** The statuses that mean the gateway holds the whole amount: shown as "Paid", in green. */
export const PAID_PAYMENT_STATUSES: readonly string[] = ["confirmed", "sending", "finished"];

/** a - b for two decimal texts, exactly (no floating point), without trailing zeros; null unless positive. */
function decimalDifference(a: string, b: string): string | null {
  if (!/^\d+(\.\d+)?$/.test(a) || !/^\d+(\.\d+)?$/.test(b)) return null;
  const places = Math.max(a.split(".")[1]?.length ?? 0, b.split(".")[1]?.length ?? 0);
  const scaled = (text: string) => BigInt(text.replace(".", "") + "0".repeat(places - (text.split(".")[1]?.length ?? 0)));
  const difference = scaled(a) - scaled(b);
  if (difference <= 0n) return null;
  const digits = difference.toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** "Underpaid by 0.0004 BTC" (the crypto still due), or "Underpaid" when the amounts are unknown. */
function underpaidWords(order: PaymentWordsInput): string {
  const coin = (order.payCurrency || order.paymentMethod || "").toUpperCase();
  const due = order.shortfall ?? (order.payAmount && order.actuallyPaid ? decimalDifference(order.payAmount, order.actuallyPaid) : null);
  return due ? `Underpaid by ${due}${coin ? ` ${coin}` : ""}` : "Underpaid";
}

/** The payment's status in the owner's words; an unknown status reads as its own words ("some_new" -> "Some new"). */
export function paymentStatusWords(order: PaymentWordsInput): string {
  const status = order.paymentStatus || "waiting";
  if (status === "partially_paid") return underpaidWords(order);
  const known = STATUS_WORDS[status];
  if (known) return known;
  const words = status.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
