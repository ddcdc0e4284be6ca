import { and, asc, eq, gt, isNotNull, notInArray, or, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { orders } from "../../db/schema";
import { consoleLogger, type CustomerNotifier, type ShopLogger } from "../common";
import type { PaymentGateway } from "./gateway-port";
import { applyPaymentUpdate } from "./payment-updates";

// The rescue sweep: an IPN can be lost (our server was down, the network dropped it, or no
// PUBLIC_URL was set so none was ever sent). Asking the gateway about every unresolved payment
// makes sure a paid order never stays pending.

/** Statuses after which the gateway will not change its mind. */
const SETTLED = ["finished", "failed", "expired", "refunded"];
/** Gateways give up on an unpaid payment well within this; older ones are not asked about again. */
export const RESCUE_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
const MAX_PER_SWEEP = 500;

export type RescueDeps = {
  db: Db;
  gateway: PaymentGateway;
  notifier: CustomerNotifier;
  now: () => Date;
  logger?: ShopLogger;
};

export type RescueResult = { checked: number; applied: string[] };

/**
 * Re-checks each order whose payment is not settled yet and applies what the gateway says.
 * Safe with several server instances: applyPaymentUpdate locks the order row and deduplicates,
 * so two sweeps seeing the same status cause its effect once.
 */
export async function rescueUnsettledPayments(deps: RescueDeps): Promise<RescueResult> {
  const logger = deps.logger ?? consoleLogger;
  if (!(await deps.gateway.isConfigured())) return { checked: 0, applied: [] };
  const since = new Date(deps.now().getTime() - RESCUE_WINDOW_MS);
  const unsettled = await deps.db
    .select({ id: orders.id, paymentId: orders.paymentId, paymentStatus: orders.paymentStatus, paymentGateway: orders.paymentGateway })
    .from(orders)
    .where(
      and(
        isNotNull(orders.paymentId),
        // A test order's payment is simulated: the gateway never hears of it (docs/decisions/0023).
        eq(orders.isTest, false),
        or(isNull(orders.paymentStatus), notInArray(orders.paymentStatus, SETTLED)),
        gt(orders.createdAt, since),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(MAX_PER_SWEEP);

  const applied: string[] = [];
  for (const order of unsettled) {
    try {
      const payment = await deps.gateway.getPayment(order.paymentId!, order.paymentGateway);
      // Nothing new (the usual case): no need to take the order's lock.
      if (payment.status === order.paymentStatus && payment.status !== "partially_paid") continue;
      const result = await applyPaymentUpdate(deps, { ...payment, orderId: payment.orderId ?? order.id });
      await result.notified;
      if (result.outcome === "applied") applied.push(order.id);
    } catch (error) {
      // One payment the gateway cannot answer for must not stop the others from being checked.
      logger.warn({ orderId: order.id, err: error instanceof Error ? error.message : String(error) }, "payment status check failed");
    }
  }
  return { checked: unsettled.length, applied };
}
