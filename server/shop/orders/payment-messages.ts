// What the customer is told in Telegram when a payment moves, all in one place.

import { shortOrderId } from "../common";

const coin = (payCurrency: string | null) => (payCurrency ?? "").toUpperCase();

export const paymentMessages = {
  paid: (orderId: string) =>
    `Payment received for order #${shortOrderId(orderId)}. Thank you! Your order is now being prepared for dispatch.`,

  /** The same words whether the gateway said so (expired IPN) or the shop's deadline passed (cleanup). */
  expired: (orderId: string) =>
    `Order #${shortOrderId(orderId)} expired: no payment arrived in time, so it was cancelled and its items released. ` +
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

  /** The owner cancelled a pending order; when money had arrived, it is marked for a refund. */
  cancelled: (p: { orderId: string; actuallyPaid: string | null; payCurrency: string | null }) =>
    `Order #${shortOrderId(p.orderId)} was cancelled by the shop. ` +
    (p.actuallyPaid
      ? `We received ${p.actuallyPaid} ${coin(p.payCurrency)} for it, which will be refunded: please contact support with an address to refund it to.`
      : `No payment was taken for it. If you have any questions, please contact support.`),

  /** Money arrived for an order the owner had cancelled; the owner settles it by hand. */
  receivedAfterCancel: (p: { orderId: string; actuallyPaid: string | null; payCurrency: string | null }) =>
    `We received ${p.actuallyPaid ?? "a payment"} ${coin(p.payCurrency)} for order #${shortOrderId(p.orderId)}, but the order had already been ` +
    `cancelled. Please contact support and we will sort it out.`,

  /** Money arrived after the order had expired and its stock could not be taken again. */
  paidTooLate: (orderId: string) =>
    `We received your payment for order #${shortOrderId(orderId)}, but the order had already expired and an item ` +
    `in it is no longer in stock. Please contact support and we will sort it out.`,
};
