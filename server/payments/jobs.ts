import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Locks } from "../db/leader";
import { jobRuns } from "../db/schema";
import { cleanupExpiredOrders } from "../shop/orders";
import { settleAbandonedCheckouts } from "../shop/ordering";
import { applyRetention } from "../shop/privacy";
import { consoleLogger, type CustomerNotifier, type ShopLogger } from "../shop/common";
import { type PaymentGateway, rescueUnsettledPayments } from "../shop/payments";

// The payment jobs on a timer: the rescue sweep (rescue.ts) and the expired-order cleanup of
// docs/product.md rule 1 (docs/decisions/0004). Both are safe with two server instances on one
// PostgreSQL: the sweep goes through applyPaymentUpdate (row lock + deduplication) and the
// cleanup claims each order with one conditional UPDATE ... RETURNING.
// Safe is not enough with N instances: each would ask the gateway about every open payment, N
// times per interval. So a run takes an advisory lock (one run at a time across instances, held on
// a connection of its own, never a transaction open across the gateway's HTTP calls), then claims
// the interval in job_runs: a run starts only when no instance started one in the last interval.

export const PAYMENT_JOBS_INTERVAL_MS = 5 * 60 * 1000;

export type PaymentJobsDeps = {
  db: Db;
  gateway: PaymentGateway;
  notifier: CustomerNotifier;
  now: () => Date;
  logger?: ShopLogger;
  intervalMs?: number;
  /** Cross-instance locks (db/leader.ts); absent: no other instance is assumed (tests). */
  locks?: Locks;
};

const JOB_NAME = "payments";

/**
 * Claims this interval's run: true when no instance started one within the last interval (or when
 * forced). A run may start a tenth of an interval early, so timers that drift a little on one
 * instance do not skip a whole interval. The database's clock decides, the same for every machine.
 */
async function claimRun(db: Db, intervalMs: number, force: boolean): Promise<boolean> {
  const dueAt = sql`now() - ${Math.round(intervalMs * 0.9)} * interval '1 millisecond'`;
  const claimed = await db
    .insert(jobRuns)
    .values({ name: JOB_NAME, lastRunAt: sql`now()` })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: { lastRunAt: sql`now()` },
      ...(force ? {} : { setWhere: sql`${jobRuns.lastRunAt} <= ${dueAt}` }),
    })
    .returning({ name: jobRuns.name });
  return claimed.length > 0;
}

export type PaymentJobs = {
  /**
   * Runs the jobs once more now (after any run in progress), even within the interval; tests use
   * it. Skipped only while another instance is running them.
   */
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
      const { applied } = await rescueUnsettledPayments({ ...deps, logger });
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
    // After the expiry, so an order it just failed is counted from now. Not a payment job, but one
    // more pass over orders on the same schedule and lock (issue 15: retention, forgotten customers).
    try {
      const erased = await applyRetention(deps.db, deps.now());
      if (erased.addresses + erased.messages > 0) logger.info(erased, "addresses and messages erased by the retention rules");
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "the retention pass failed");
    }
  }

  const intervalMs = deps.intervalMs ?? PAYMENT_JOBS_INTERVAL_MS;

  async function runGuarded(force: boolean) {
    const claimAndRun = async () => {
      let due: boolean;
      try {
        due = await claimRun(deps.db, intervalMs, force);
      } catch (error) {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, "the payment jobs could not be scheduled");
        return;
      }
      if (due) await runOnce();
    };
    if (!deps.locks) return claimAndRun();
    // false: another instance is running them right now, and that run covers this interval.
    await deps.locks.runExclusive("paymentJobs", claimAndRun);
  }

  // One run at a time on this instance: a slow gateway never stacks runs on top of each other.
  const schedule = (force: boolean) => {
    running = running.then(() => (stopped ? undefined : runGuarded(force)));
    return running;
  };

  const timer = setInterval(() => void schedule(false), intervalMs);
  timer.unref();
  // Once at start-up too, unless another instance ran them within the interval.
  void schedule(false);
  const runNow = () => schedule(true);

  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
