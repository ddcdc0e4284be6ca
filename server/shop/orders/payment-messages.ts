// What the customer is told in Telegram when a payment moves, all in one place: in the customer's
// language (the bot's locale files, server/telegram/locales; English unless a translator is given).

import type { OrderChannel } from "../../../contract";
import { translatorFor, type Translator } from "../languages";
import { shortOrderId } from "../common";

const coin = (payCurrency: string | null) => (payCurrency ?? "").toUpperCase();

// English by default, looked up per call: the languages folder may still be loading when this one is.
export const paymentMessages = {
  paid: (orderId: string, tr: Translator = translatorFor("en")) => tr.t("payment-paid", { order: shortOrderId(orderId) }),

  /** The same words whether the gateway said so (expired IPN) or the shop's deadline passed (cleanup). */
  expired: (orderId: string, tr: Translator = translatorFor("en")) => tr.t("payment-expired", { order: shortOrderId(orderId) }),

  failed: (orderId: string, tr: Translator = translatorFor("en")) => tr.t("payment-failed", { order: shortOrderId(orderId) }),

  refunded: (orderId: string, tr: Translator = translatorFor("en")) => tr.t("payment-refunded", { order: shortOrderId(orderId) }),

  partiallyPaid: (
    p: { orderId: string; actuallyPaid: string | null; payAmount: string | null; shortfall: string | null; payCurrency: string | null; payAddress: string | null },
    tr: Translator = translatorFor("en"),
  ) =>
    tr.t("payment-partly-paid", {
      paid: p.actuallyPaid ?? tr.t("payment-part-of-payment"),
      due: p.payAmount ?? tr.t("payment-more"),
      coin: coin(p.payCurrency),
      order: shortOrderId(p.orderId),
    }) +
    " " +
    (p.shortfall && p.payAddress
      ? tr.t("payment-partly-paid-send-rest", { rest: p.shortfall, coin: coin(p.payCurrency), address: p.payAddress })
      : tr.t("payment-partly-paid-contact")),

  /** The owner cancelled a pending order; when money had arrived, it is marked for a refund. */
  cancelled: (p: { orderId: string; actuallyPaid: string | null; payCurrency: string | null }, tr: Translator = translatorFor("en")) =>
    tr.t("order-cancelled-by-shop", { order: shortOrderId(p.orderId) }) +
    " " +
    (p.actuallyPaid ? tr.t("order-cancelled-refund", { paid: p.actuallyPaid, coin: coin(p.payCurrency) }) : tr.t("order-cancelled-no-payment")),

  /** Money arrived for an order the owner had cancelled; the owner settles it by hand. */
  receivedAfterCancel: (p: { orderId: string; actuallyPaid: string | null; payCurrency: string | null }, tr: Translator = translatorFor("en")) =>
    tr.t("payment-after-cancel", { paid: p.actuallyPaid ?? tr.t("payment-a-payment"), coin: coin(p.payCurrency), order: shortOrderId(p.orderId) }),

  /**
   * A checkout interrupted before its payment was created failed (the abandoned-checkout sweep): no
   * payment was taken. A bot order's items are back in the bot's cart; a storefront order is placed
   * again in the shop, as its items never were in that cart.
   */
  checkoutAbandoned: (p: { orderId: string; placedFrom: OrderChannel }, tr: Translator = translatorFor("en")) =>
    tr.t("checkout-abandoned", { order: shortOrderId(p.orderId) }) +
    " " +
    (p.placedFrom === "bot" ? tr.t("checkout-abandoned-cart-restored") : tr.t("checkout-abandoned-order-again")),

  /** Money arrived after the order had expired and its stock could not be taken again. */
  paidTooLate: (orderId: string, tr: Translator = translatorFor("en")) => tr.t("payment-too-late", { order: shortOrderId(orderId) }),
};
