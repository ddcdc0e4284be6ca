// What the customer is told in Telegram when a payment moves, all in one place.

import { shortOrderId } from "../shop/ids";

const coin = (payCurrency: string | null) => (payCurrency ?? "").toUpperCase();

export const paymentMessages = {
  paid: (orderId: string) =>
    `Payment received for order #${shortOrderId(orderId)}. Thank you! Your order is now being prepared for dispatch.`,

  expired: (orderId: string) =>
    `The time to pay for order #${shortOrderId(orderId)} has run out, so the order was cancelled. ` +
    `If you already sent a payment, please contact support.`,

  failed: (orderId: string) =>
    `The payment for order #${shortOrderId(orderId)} failed, so the order was cancelled. ` +
    `If you already sent a payment, please contact support.`,

  refunded: (orderId: string) =>
    `The payment for order #${shortOrderId(orderId)} was refunded, so the order was cancelled.`,

  partiallyPaid: (p: { orderId: string; actuallyPaid: string | null; payAmount: string | null; shortfall: string | null; payCurrency: string | null; payAddress: string | null }) =>
    `We received ${p.actuallyPaid ?? "part of the payment"} ${coin(p.payCurrency)} for order #${shortOrderId(p.orderId)}, ` +
    `but ${p.payAmount ?? "more"} ${coin(p.payCurrency)} is due. ` +
    (p.shortfall && p.payAddress
      ? `Please send the remaining ${p.shortfall} ${coin(p.payCurrency)} to ${p.payAddress} to complete your order.`
      : `Please contact support to complete your order.`),

  /** Money arrived after the order had expired and its stock could not be taken again. */
  paidTooLate: (orderId: string) =>
    `We received your payment for order #${shortOrderId(orderId)}, but the order had already expired and an item ` +
    `in it is no longer in stock. Please contact support and we will sort it out.`,
};
