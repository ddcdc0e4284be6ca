import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { orderItems, orders, paymentEvents } from "../db/schema";
import { invalid, notFound, ShopError } from "../shop/errors";
import { isUuid } from "../shop/ids";
import { releaseOrderStock, reserveStock } from "../shop/stock";
import type { Notifier } from "../telegram/notifier";
import type { GatewayPayment, PaymentStatus } from "./gateway";
import { isPaymentStatus } from "./gateway";
import { paymentMessages } from "./messages";

// --- Signature (NOWPayments IPN) ---

/** Objects with their keys sorted, at every depth (nested objects such as `fee` included). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Hex HMAC-SHA512 with the IPN secret over JSON.stringify of the body with its keys sorted. */
export function ipnSignature(body: unknown, secret: string): string {
  return crypto.createHmac("sha512", secret).update(JSON.stringify(sortKeysDeep(body))).digest("hex");
}

/** Compared in constant time, so the signature cannot be guessed a character at a time. */
export function verifyIpnSignature(body: unknown, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]+$/i.test(signature)) return false;
  const expected = Buffer.from(ipnSignature(body, secret), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

// --- Applying a payment status to its order (DESIGN decision 3) ---

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
 * Whether `next` moves the payment forward from `current`. Money that arrived is never undone by
 * a late failure; money arriving after a failure (the customer paid late) is always heard; a
 * partial payment may grow.
 */
function movesForward(current: string | null, next: PaymentStatus): boolean {
  if (current === null || !isPaymentStatus(current)) return true;
  if (next === "refunded") return current !== "refunded";
  if (PAID.includes(current)) return PAID.includes(next) && RANK[next] > RANK[current];
  if (FAILURE.includes(current)) return PAID.includes(next);
  if (current === "refunded") return false;
  if (current === "partially_paid" && next === "partially_paid") return true;
  return RANK[next] > RANK[current];
}

export type PaymentLogger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export const consoleLogger: PaymentLogger = {
  info: () => {},
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

export type PaymentUpdateDeps = {
  db: Db;
  notifier: Notifier;
  now: () => Date;
  logger?: PaymentLogger;
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


/** Decimal a - b on text (crypto amounts have up to 18 places; floats would lose them). Null when not positive. */
export function decimalShortfall(due: string | null, paid: string | null): string | null {
  if (!due || !/^\d+(\.\d+)?$/.test(due)) return null;
  const paidText = paid && /^\d+(\.\d+)?$/.test(paid) ? paid : "0";
  const places = Math.max(due.split(".")[1]?.length ?? 0, paidText.split(".")[1]?.length ?? 0);
  const scaled = (text: string) => {
    const [whole, fraction = ""] = text.split(".");
    return BigInt(whole! + fraction.padEnd(places, "0"));
  };
  const diff = scaled(due) - scaled(paidText);
  if (diff <= 0n) return null;
  const digits = diff.toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * Applies one payment status, from an IPN or from polling the gateway, to its order: checked
 * against the order, deduplicated and applied in one transaction, so replays and out-of-order
 * deliveries cause each effect once and the status only moves forward. The customer is told
 * after the commit; a message that cannot be delivered never undoes the payment's effect.
 */
export async function applyPaymentUpdate(deps: PaymentUpdateDeps, payment: GatewayPayment): Promise<PaymentUpdateResult> {
  const logger = deps.logger ?? consoleLogger;
  const status = payment.status;
  if (!isPaymentStatus(status)) throw invalid(`Unknown payment status "${status}".`);
  if (!payment.orderId) throw invalid("The payment update has no order_id.");
  if (!isUuid(payment.orderId)) throw notFound(`No order matches order_id ${payment.orderId}.`);
  const orderId = payment.orderId;
  const now = deps.now();

  const result = await deps.db.transaction(async (tx) => {
    // The row lock serialises every update of this order, across server instances too.
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) throw notFound(`No order matches order_id ${orderId}.`);
    if (order.paymentId && order.paymentId !== payment.paymentId) {
      throw invalid(`The payment_id ${payment.paymentId} does not belong to order ${orderId}.`);
    }
    const expectedCoin = (order.payCurrency ?? order.paymentMethod ?? "").toLowerCase();
    if (payment.payCurrency !== expectedCoin) {
      throw invalid(`The pay_currency ${payment.payCurrency ?? "(none)"} does not match order ${orderId} (${expectedCoin || "none"}).`);
    }
    if (payment.priceCurrency && payment.priceCurrency !== order.currency.toLowerCase()) {
      throw invalid(`The price_currency ${payment.priceCurrency} does not match order ${orderId} (${order.currency}).`);
    }

    // A partial payment can grow, so each amount received is its own event.
    const dedupeKey = `${payment.paymentId}:${status}` + (status === "partially_paid" ? `:${payment.actuallyPaid ?? ""}` : "");
    const inserted = await tx
      .insert(paymentEvents)
      .values({ orderId, paymentId: payment.paymentId, paymentStatus: status, dedupeKey, payload: payment.raw, receivedAt: now })
      .onConflictDoNothing({ target: paymentEvents.dedupeKey })
      .returning({ id: paymentEvents.id });
    const unchanged = { orderStatus: order.status, paymentStatus: order.paymentStatus, message: null, chatId: order.telegramUserId };
    if (inserted.length === 0) return { ...unchanged, outcome: "duplicate" as const };
    if (!movesForward(order.paymentStatus, status)) return { ...unchanged, outcome: "stale" as const };

    let orderStatus = order.status;
    // Only a revived order touches stock_released_at here; releaseOrderStock owns setting it.
    let revived = false;
    let message: string | null = null;

    if (PAID.includes(status)) {
      if (order.status === "pending") {
        orderStatus = "processing";
        message = paymentMessages.paid(orderId);
      } else if (order.status === "failed" && !PAID.includes(order.paymentStatus ?? "")) {
        // Paid after the order expired (DESIGN decision 1: a paid order is never lost): take its
        // stock again if it is still there; otherwise the admin sees a failed order marked paid.
        // Tried once per payment: a later "finished" after "confirmed" does not ask again.
        if (await reclaimStock(tx, orderId, order.stockReleasedAt !== null)) {
          orderStatus = "processing";
          revived = true;
          message = paymentMessages.paid(orderId);
        } else {
          logger.warn({ orderId, paymentId: payment.paymentId, status }, "payment arrived for an expired order whose stock is gone");
          message = paymentMessages.paidTooLate(orderId);
        }
      }
    } else if (FAILURE.includes(status) || status === "refunded") {
      if (order.status === "pending") {
        orderStatus = "failed";
        await releaseOrderStock(tx, orderId, now);
        message =
          status === "expired"
            ? paymentMessages.expired(orderId)
            : status === "failed"
              ? paymentMessages.failed(orderId)
              : paymentMessages.refunded(orderId);
      }
    } else if (status === "partially_paid") {
      if (order.status === "pending") {
        message = paymentMessages.partiallyPaid({
          orderId,
          actuallyPaid: payment.actuallyPaid,
          payAmount: order.payAmount ?? payment.payAmount,
          shortfall: decimalShortfall(order.payAmount ?? payment.payAmount, payment.actuallyPaid),
          payCurrency: order.payCurrency ?? payment.payCurrency,
          payAddress: order.payAddress ?? payment.payAddress,
        });
      }
    }

    await tx
      .update(orders)
      .set({
        status: orderStatus,
        paymentStatus: status,
        // An update that came before checkout stored the payment id binds it (the signature vouched for it).
        paymentId: payment.paymentId,
        actuallyPaid: payment.actuallyPaid ?? order.actuallyPaid,
        transactionHash: payment.transactionHash ?? order.transactionHash,
        ...(revived ? { stockReleasedAt: null } : {}),
        updatedAt: now,
      })
      .where(eq(orders.id, orderId));
    return { orderStatus, paymentStatus: status as string | null, outcome: "applied" as const, message, chatId: order.telegramUserId };
  });

  const { message, chatId } = result;
  const notified =
    message !== null
      ? deps.notifier.sendMessage(chatId, message).catch((error: unknown) => {
          logger.warn(
            { orderId, paymentStatus: status, err: error instanceof Error ? error.message : String(error) },
            "the customer could not be told about their payment",
          );
        })
      : Promise.resolve();
  return { outcome: result.outcome, orderId, orderStatus: result.orderStatus, paymentStatus: result.paymentStatus, notified };
}

/** Takes a failed order's items off the shelf again; all lines or none (a savepoint undoes a partial take). */
async function reclaimStock(tx: Tx, orderId: string, wasReleased: boolean): Promise<boolean> {
  if (!wasReleased) return true;
  const lines = await tx
    .select({ productId: orderItems.productId, productName: orderItems.productName, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  try {
    await tx.transaction(async (savepoint) => {
      await reserveStock(
        savepoint,
        lines.map((line) => ({ ...line, productName: line.productName ?? `Product ${line.productId.slice(0, 8)}` })),
      );
    });
    return true;
  } catch (error) {
    if (error instanceof ShopError) return false; // a line ran short
    throw error;
  }
}
