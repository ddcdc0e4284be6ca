import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { botSettings, orders, paymentEvents } from "../../db/schema";
import { conflict, invalid, notFound, decimalShortfall, decimalToPence, isShortPayment, percentToBasisPoints, isUuid, consoleLogger, type CustomerNotifier, type ShopLogger } from "../common";
import { countCouponUse, recordOrderEvent, type OrderEventAction, reclaimOrderStock, wasCancelledByOwner, releaseOrderStock, paymentMessages } from "../orders";
import { toPence } from "../catalogue";
import { messageLanguageOf, translatorFor } from "../languages";
import type { GatewayPayment, PaymentStatus } from "./gateway-port";
import { isPaymentStatus } from "./gateway-port";

// What a payment update does to its order (moved here from server/shop/payments/payment-updates.ts, issue 21); the
// notification's signature is the gateway adapter's (server/gateways/nowpayments/signature.ts).

// --- Applying a payment status to its order (docs/product.md rule 3) ---

const PAID: readonly string[] = ["confirmed", "sending", "finished"] satisfies PaymentStatus[];
const FAILURE: readonly string[] = ["failed", "expired"] satisfies PaymentStatus[];
/** How far along a payment is; a status only replaces one further back. */
const RANK: Record<PaymentStatus, number> = {
  waiting: 0,
  confirming: 1,
  partially_paid: 2,
  confirmed: 3,
  sending: 4,
  finished: 5,
  failed: 6,
  expired: 6,
  refunded: 7,
};

/**
 * Whether `next` moves the payment forward from `current`. Money that arrived (in full or in
 * part) is never undone by a late failure; money arriving after a failure (the customer paid
 * late) is always heard; a partial payment may grow into a full one; a refund ends it all.
 */
function movesForward(current: string | null, next: PaymentStatus): boolean {
  if (current === null || !isPaymentStatus(current)) return true;
  if (current === "refunded") return false;
  if (next === "refunded") return true;
  if (PAID.includes(current)) return PAID.includes(next) && RANK[next] > RANK[current];
  if (current === "partially_paid") return next === "partially_paid" || PAID.includes(next);
  if (FAILURE.includes(current)) return next === "partially_paid" || PAID.includes(next);
  return RANK[next] > RANK[current];
}

/**
 * Whether a payment names an order of this shop: a BTCPay store can take payments for the owner's
 * other sales too (issue 24), whose invoices carry no order of ours and are none of the shop's business.
 */
export async function isShopOrder(db: DbOrTx, orderId: string | null): Promise<boolean> {
  if (!orderId || !isUuid(orderId)) return false;
  const [found] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  return found !== undefined;
}

export type PaymentUpdateDeps = {
  db: Db;
  notifier: CustomerNotifier;
  now: () => Date;
  logger?: ShopLogger;
};

export type PaymentUpdateResult = {
  /** applied: the order took it; duplicate: seen before; stale: behind what the order already has. */
  outcome: "applied" | "duplicate" | "stale";
  orderId: string;
  orderStatus: string;
  paymentStatus: string | null;
  /** The customer's Telegram message, sent after the commit; never rejects (a failed send is logged). */
  notified: Promise<void>;
};

/** Bot Settings' "Underpayment tolerance (%)" when none is saved (issue 10). */
export const DEFAULT_UNDERPAYMENT_TOLERANCE_PERCENT = 1;
const MAX_UNDERPAYMENT_TOLERANCE_PERCENT = 15;

/**
 * The underpayment tolerance in hundredths of a percent. Read from its column rather than
 * through getBotSettings: it is not a secret, so there is nothing to decrypt for every IPN.
 */
async function underpaymentToleranceBasisPoints(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ percent: botSettings.underpaymentTolerancePercent })
    .from(botSettings)
    .orderBy(botSettings.createdAt)
    .limit(1);
  const points = percentToBasisPoints(row?.percent ?? DEFAULT_UNDERPAYMENT_TOLERANCE_PERCENT);
  if (points === null) return DEFAULT_UNDERPAYMENT_TOLERANCE_PERCENT * 100;
  return Math.min(Math.max(points, 0), MAX_UNDERPAYMENT_TOLERANCE_PERCENT * 100);
}

type OrderRow = typeof orders.$inferSelect;

/**
 * Why this update cannot be about this order, or null when it can: the payment id, the coin, and
 * the fiat amount and currency must all be the order's (NOWPayments calls this check mandatory; a
 * signed IPN for £0.01 must not pay a £15 order).
 */
function mismatch(order: OrderRow, payment: GatewayPayment): string | null {
  const name = `order ${order.id}`;
  if (order.paymentId && order.paymentId !== payment.paymentId) {
    return `The payment_id ${payment.paymentId} does not belong to ${name}.`;
  }
  const expectedCoin = (order.payCurrency ?? order.paymentMethod ?? "").toLowerCase();
  if (payment.payCurrency !== expectedCoin) {
    return `The pay_currency ${payment.payCurrency ?? "(none)"} does not match ${name} (${expectedCoin || "none"}).`;
  }
  if (payment.priceCurrency !== order.currency.toLowerCase()) {
    return `The price_currency ${payment.priceCurrency ?? "(none)"} does not match ${name} (${order.currency.toLowerCase()}).`;
  }
  if (decimalToPence(payment.priceAmount) !== toPence(order.totalAmount)) {
    return `The price_amount ${payment.priceAmount ?? "(none)"} does not match the total of ${name} (${order.totalAmount} ${order.currency}).`;
  }
  return null;
}

/** What applying one status does to the order: its new fields, the trail's line, the customer's message. */
type Effect = {
  changes: Partial<typeof orders.$inferInsert>;
  event: { action: OrderEventAction; detail: string } | null;
  message: string | null;
};

/**
 * Applies one payment status, from an IPN or from polling the gateway, to its order: checked
 * against the order, deduplicated and applied in one transaction, so replays and out-of-order
 * deliveries cause each effect once and the status only moves forward. The customer is told
 * after the commit; a message that cannot be delivered never undoes the payment's effect.
 *
 * docs/product.md rule 3 (docs/decisions/0005): a paid status whose actually_paid falls short of
 * pay_amount by more than the tolerance is applied as partially_paid (the order stays pending
 * and shows its shortfall); paid in full moves a pending order to processing and stamps paidAt;
 * refunded takes a paid order out of Ready to Dispatch and revenue.
 */
export async function applyPaymentUpdate(
  deps: PaymentUpdateDeps,
  payment: GatewayPayment,
  options: {
    simulated?: boolean;
    /**
     * The gateway's id of the delivery that brought this update (BTCPay's deliveryId): recorded in
     * the same transaction, so a redelivery of it is a duplicate and has no second effect.
     */
    deliveryKey?: string;
  } = {},
): Promise<PaymentUpdateResult> {
  const logger = deps.logger ?? consoleLogger;
  const reported = payment.status;
  if (!isPaymentStatus(reported)) throw invalid(`Unknown payment status "${reported}".`);
  if (!payment.orderId) throw invalid("The payment update has no order_id.");
  if (!isUuid(payment.orderId)) throw notFound(`No order matches order_id ${payment.orderId}.`);
  const orderId = payment.orderId;
  const now = deps.now();
  const toleranceBasisPoints = await underpaymentToleranceBasisPoints(deps.db);

  const result = await deps.db.transaction(async (tx) => {
    // The row lock serialises every update of this order (and the owner's actions on it), across server instances too.
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) throw notFound(`No order matches order_id ${orderId}.`);
    // A test order's payment is simulated (docs/decisions/0023): only the simulator moves it, and the
    // simulator moves nothing else. Neither an IPN nor the sweep can touch one, nor it a real order.
    if (order.isTest !== Boolean(options.simulated)) {
      const reason = order.isTest
        ? `Order ${orderId} is a test order: its payment is simulated, and the gateway has no say in it.`
        : `Order ${orderId} is a real customer's order: it cannot be paid by simulation.`;
      logger.warn({ orderId, paymentId: payment.paymentId, status: reported }, "payment update refused: simulated and real payments do not mix");
      throw conflict(reason);
    }
    const refused = mismatch(order, payment);
    if (refused) {
      logger.warn({ orderId, paymentId: payment.paymentId, status: reported, reason: refused }, "payment update refused: it does not match its order");
      throw invalid(refused);
    }

    // What is due is what the customer was asked for; an update that came before checkout stored it says it itself.
    const due = order.payAmount ?? payment.payAmount;
    const withinTolerance = !isShortPayment(due, payment.actuallyPaid, toleranceBasisPoints);
    // A paid status short by more than the tolerance is a short payment (NOWPayments' fixed-rate
    // and "covering" options can say "finished" for less). The other way round, the gateway's own
    // partially_paid within the tolerance (fees, rounding) is paid: that is what the setting is for.
    // Money the gateway calls late (BTCPay's PaidLate) is for the owner to accept or refuse, whatever its amount.
    const status: PaymentStatus = (PAID.includes(reported) && !withinTolerance) || payment.ownerDecides ? "partially_paid" : reported;
    const paidInFull = !payment.ownerDecides && (PAID.includes(status) || (status === "partially_paid" && withinTolerance));

    const unchanged = { orderStatus: order.status, paymentStatus: order.paymentStatus, message: null, chatId: order.telegramUserId };
    if (options.deliveryKey !== undefined) {
      const delivery = await tx
        .insert(paymentEvents)
        .values({
          orderId,
          paymentId: payment.paymentId,
          paymentStatus: reported,
          dedupeKey: `delivery:${payment.gateway ?? "gateway"}:${options.deliveryKey}`,
          payload: { deliveryId: options.deliveryKey },
          receivedAt: now,
        })
        .onConflictDoNothing({ target: paymentEvents.dedupeKey })
        .returning({ id: paymentEvents.id });
      if (delivery.length === 0) return { ...unchanged, outcome: "duplicate" as const };
    }

    // A partial payment can grow, so each amount received is its own event; a short "finished"
    // is deduplicated as the partial payment it is, so the full one can still follow.
    const dedupeKey =
      `${payment.paymentId}:${status}` + (status === "partially_paid" ? `:${payment.actuallyPaid ?? ""}` : "") + (payment.ownerDecides ? ":late" : "");
    const inserted = await tx
      .insert(paymentEvents)
      .values({ orderId, paymentId: payment.paymentId, paymentStatus: reported, dedupeKey, payload: payment.raw, receivedAt: now })
      .onConflictDoNothing({ target: paymentEvents.dedupeKey })
      .returning({ id: paymentEvents.id });
    if (inserted.length === 0) return { ...unchanged, outcome: "duplicate" as const };
    if (!movesForward(order.paymentStatus, status)) return { ...unchanged, outcome: "stale" as const };
    // Partial payments delivered out of order: the smaller, older amount does not replace the larger.
    if (status === "partially_paid" && order.paymentStatus === "partially_paid" && decimalShortfall(order.actuallyPaid, payment.actuallyPaid)) {
      return { ...unchanged, outcome: "stale" as const };
    }

    const actuallyPaid = payment.actuallyPaid ?? order.actuallyPaid;
    const effect = await effectOf(tx, { ...order, actuallyPaid, payAmount: due }, payment, { status, paidInFull }, now);
    if (effect.event) {
      // A simulated payment is the admin's doing in Bot Preview, and its trail says so.
      const event = options.simulated ? { action: effect.event.action, detail: `Simulated in Bot Preview: ${effect.event.detail}` } : effect.event;
      await recordOrderEvent(tx, { orderId, actor: options.simulated ? "admin" : "gateway", ...event }, now);
    }
    const [updated] = await tx
      .update(orders)
      .set({
        paymentStatus: status,
        // An update that came before checkout stored the payment id binds it (the signature vouched for it).
        paymentId: payment.paymentId,
        actuallyPaid,
        transactionHash: payment.transactionHash ?? order.transactionHash,
        ...effect.changes,
        updatedAt: now,
      })
      .where(eq(orders.id, orderId))
      .returning({ status: orders.status });
    return {
      orderStatus: updated!.status,
      paymentStatus: status as string | null,
      outcome: "applied" as const,
      message: effect.message,
      chatId: order.telegramUserId,
    };
  });

  const { message, chatId } = result;
  const notified =
    message !== null
      ? deps.notifier.sendMessage(chatId, message).catch((error: unknown) => {
          logger.warn(
            { orderId, paymentStatus: reported, err: error instanceof Error ? error.message : String(error) },
            "the customer could not be told about their payment",
          );
        })
      : Promise.resolve();
  return { outcome: result.outcome, orderId, orderStatus: result.orderStatus, paymentStatus: result.paymentStatus, notified };
}

/**
 * The effect of a status that moves the payment forward, given the order as it is (with the
 * amount received so far). Stock is released or taken again here, inside the caller's transaction.
 */
async function effectOf(
  tx: DbOrTx,
  order: OrderRow,
  payment: GatewayPayment,
  { status, paidInFull }: { status: PaymentStatus; paidInFull: boolean },
  now: Date,
): Promise<Effect> {
  const orderId = order.id;
  // The customer is told in the language the bot speaks to them.
  const tr = translatorFor(await messageLanguageOf(tx, order.telegramUserId));
  const coin = (order.payCurrency ?? payment.payCurrency ?? "").toUpperCase();
  const received = `${order.actuallyPaid ?? "an unreported amount"} of ${order.payAmount ?? "an unknown amount"} ${coin}`;
  const none: Effect = { changes: {}, event: null, message: null };

  if (paidInFull) {
    if (order.status === "pending") {
      await countCouponUse(tx, orderId, now); // its held coupon use, if any, now counts
      // More than was due (BTCPay's PaidOver): paid, and the owner is told by how much, to settle with the customer.
      const overpaid = decimalShortfall(order.actuallyPaid, order.payAmount);
      return {
        changes: { status: "processing", paidAt: now },
        event: {
          action: "payment_paid",
          detail:
            (PAID.includes(status)
              ? `Paid (received ${received}; the gateway reported "${status}").`
              : `Paid within the underpayment tolerance (received ${received}).`) +
            (overpaid ? ` Overpaid by ${overpaid} ${coin}: refund the difference if the customer asks.` : ""),
        },
        message: paymentMessages.paid(orderId, tr),
      };
    }
    if (order.status === "failed" && !PAID.includes(order.paymentStatus ?? "")) {
      return moneyForFailedOrder(tx, order, received, "in full", now);
    }
    return none; // e.g. "finished" after "confirmed": paid already
  }

  if (status === "partially_paid") {
    if (order.status === "pending" && payment.ownerDecides) {
      return {
        changes: {},
        event: {
          action: "payment_short",
          detail: `Paid late: received ${received} after the gateway's invoice had expired. The order stays pending: accept the payment or cancel the order.`,
        },
        message: paymentMessages.partiallyPaid({
          orderId,
          actuallyPaid: order.actuallyPaid,
          payAmount: order.payAmount,
          shortfall: null,
          payCurrency: order.payCurrency ?? payment.payCurrency,
          payAddress: null,
        }, tr),
      };
    }
    if (order.status === "pending") {
      const shortfall = decimalShortfall(order.payAmount, order.actuallyPaid);
      return {
        changes: {},
        event: {
          action: "payment_short",
          detail:
            `Short payment: received ${received}` +
            (shortfall ? `, ${shortfall} ${coin} missing` : "") +
            (payment.status !== "partially_paid" ? ` (the gateway reported "${payment.status}")` : "") +
            ". The order stays pending: accept the payment or cancel the order.",
        },
        message: paymentMessages.partiallyPaid({
          orderId,
          actuallyPaid: order.actuallyPaid,
          payAmount: order.payAmount,
          shortfall,
          payCurrency: order.payCurrency ?? payment.payCurrency,
          payAddress: order.payAddress ?? payment.payAddress,
        }, tr),
      };
    }
    if (order.status === "failed") return moneyForFailedOrder(tx, order, received, "in part", now);
    return none; // an accepted order whose customer still tops up
  }

  if (FAILURE.includes(status)) {
    if (order.status !== "pending") return none;
    await releaseOrderStock(tx, orderId, now);
    return {
      changes: { status: "failed" },
      event: {
        action: status === "expired" ? "payment_expired" : "payment_failed",
        detail: `The gateway reported the payment ${status}. The order failed and its items are back on sale.`,
      },
      message: status === "expired" ? paymentMessages.expired(orderId, tr) : paymentMessages.failed(orderId, tr),
    };
  }

  if (status === "refunded") {
    if (order.status === "pending" || order.status === "processing") {
      await releaseOrderStock(tx, orderId, now);
      return {
        changes: { status: "failed", paidAt: null },
        event: {
          action: "payment_refunded",
          detail:
            `The gateway refunded the payment. The order failed` +
            (order.status === "processing" ? ", left Ready to Dispatch and revenue," : "") +
            " and its items are back on sale.",
        },
        message: paymentMessages.refunded(orderId, tr),
      };
    }
    if (order.status === "dispatched" || order.status === "completed") {
      // The goods are gone: only the owner can decide what to do (chargeback, ask for them back).
      return {
        changes: { adminFlag: "refunded_after_dispatch" },
        event: {
          action: "payment_refunded",
          detail: `The gateway refunded the payment after the order was ${order.status}. It no longer counts as revenue.`,
        },
        message: null,
      };
    }
    // A failed order: the money owed back has gone back.
    return {
      changes: order.adminFlag === "refund_due" ? { adminFlag: null } : {},
      event: { action: "payment_refunded", detail: "The gateway refunded the payment." },
      message: null,
    };
  }

  return none; // waiting, confirming: nothing to do yet
}

/**
 * Money for an order that already failed (docs/product.md rule 1, docs/decisions/0002): paid in full
 * after it expired, the order takes its stock again and is revived. Otherwise (paid short, the
 * owner had cancelled it, or its stock is gone) it stays failed, flagged "refund_due", and the
 * owner settles it: accept the payment (POST /api/orders/{id}/accept-payment) or refund it.
 */
async function moneyForFailedOrder(
  tx: DbOrTx,
  order: OrderRow,
  received: string,
  howMuch: "in full" | "in part",
  now: Date,
): Promise<Effect> {
  const orderId = order.id;
  const tr = translatorFor(await messageLanguageOf(tx, order.telegramUserId));
  const late = (detail: string, message: string): Effect => ({
    changes: { adminFlag: "refund_due" },
    event: { action: "payment_received_late", detail: `Received ${received} after the order had failed: ${detail}` },
    message,
  });
  const cancelled = await wasCancelledByOwner(tx, orderId);
  const toldContactSupport = paymentMessages.receivedAfterCancel({
    orderId,
    actuallyPaid: order.actuallyPaid,
    payCurrency: order.payCurrency ?? order.paymentMethod,
  }, tr);
  if (cancelled) return late("the owner had cancelled it. Accept the payment or refund it.", toldContactSupport);
  if (howMuch === "in part") return late("accept the payment or refund it.", toldContactSupport);

  const shortage = await reclaimOrderStock(tx, order);
  if (shortage) {
    return late(`${shortage} Restock it and accept the payment, or refund it.`, paymentMessages.paidTooLate(orderId, tr));
  }
  await countCouponUse(tx, orderId, now);
  return {
    changes: { status: "processing", paidAt: now, adminFlag: null, stockReleasedAt: null },
    event: { action: "payment_paid", detail: `Paid in full after the order had expired (${received}); its items were taken off the shelf again.` },
    message: paymentMessages.paid(orderId, tr),
  };
}
