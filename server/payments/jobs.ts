import type { Config } from "../config";
import type { Db } from "../db/client";
import { cleanupExpiredOrders } from "../shop/orders";
import { settleAbandonedCheckouts } from "../shop/checkout";
import type { Notifier } from "../telegram/notifier";
import { consoleLogger, type PaymentLogger } from "./ipn";
import { paymentGatewayFor, type GatewayDeps } from "./nowpayments";
import { rescueUnsettledPayments } from "./rescue";

// The payment jobs on a timer: the rescue sweep (rescue.ts) and the expired-order cleanup of
// DESIGN decision 1 (docs/decisions/0004). Both are safe with two server instances on one
// PostgreSQL: the sweep goes through applyPaymentUpdate (row lock + deduplication) and the
// cleanup claims each order with one conditional UPDATE ... RETURNING.

export const PAYMENT_JOBS_INTERVAL_MS = 5 * 60 * 1000;

export type PaymentJobsDeps = GatewayDeps & {
  db: Db;
  config: Pick<Config, "nowpaymentsApiUrl">;
  notifier: Notifier;
  now: () => Date;
  logger?: PaymentLogger;
  intervalMs?: number;
};

export type PaymentJobs = {
  /** Runs both jobs once more now (after any run in progress); tests and start-up use it. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for a run in progress to finish. */
  stop(): Promise<void>;
};

export function startPaymentJobs(deps: PaymentJobsDeps): PaymentJobs {
  const logger = deps.logger ?? consoleLogger;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  async function runOnce() {
    // The sweep goes first, so an order whose IPN was lost is settled as paid before the
    // cleanup could take it for abandoned.
    try {
      const { applied } = await rescueUnsettledPayments({ ...deps, gateway: paymentGatewayFor(deps), logger });
      if (applied.length > 0) logger.info({ orderIds: applied }, "payment statuses recovered by polling the gateway");
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "the payment rescue sweep failed");
    }
    // Before the expiry: a checkout cut off by a crash gets its cart back, not an "expired" notice.
    try {
      const abandoned = await settleAbandonedCheckouts({ ...deps, logger });
      if (abandoned.length > 0) logger.info({ orderIds: abandoned }, "checkouts interrupted before their payment was created were cancelled");
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "the abandoned-checkout sweep failed");
    }
    try {
      const { expiredOrderIds, notified } = await cleanupExpiredOrders({ ...deps, logger });
      if (expiredOrderIds.length > 0) logger.info({ orderIds: expiredOrderIds }, "expired unpaid orders marked as failed");
      await notified;
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "the expired-order cleanup failed");
    }
  }

  // One run at a time: a slow gateway never stacks runs on top of each other.
  const runNow = () => {
    running = running.then(() => (stopped ? undefined : runOnce()));
    return running;
  };

  const timer = setInterval(() => void runNow(), deps.intervalMs ?? PAYMENT_JOBS_INTERVAL_MS);
  timer.unref();
  void runNow();

  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
