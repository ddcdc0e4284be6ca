import type { Config } from "./config";
import type { Database } from "./db/client";
import type { LockName, Locks } from "./db/leader";
import { startDatabaseUpkeep, UPKEEP_INTERVAL_MS, type UpkeepLogger } from "./db/upkeep";
import { startPaymentJobs, type PaymentJobsDeps } from "./payments/jobs";
import type { ShopLogger } from "./shop/common";
import type { DispatchNoticeSender } from "./shop/orders";
import type { BroadcastSender } from "./telegram/broadcast-sender";
import type { OwnerAlertSender } from "./telegram/owner-alert-sender";
import type { BotRuntime } from "./telegram/runner";

// The server's background work, declared in one place: what runs besides answering requests, how
// often, under which lock, and how it stops. main.ts starts the list and stops it in
// reverse order on shutdown (createJobRunner); no route starts work (eslint.config.js). Building the
// list starts nothing: each job starts when the runner asks it to.
//
//   payments          the rescue sweep, abandoned checkouts, the expired-order cleanup and the
//                     retention pass, in that order, every PAYMENT_JOBS_INTERVAL_MS (payments/jobs.ts, config.ts)
//   database upkeep   VACUUM (ANALYZE) where no autovacuum does it, every hour (db/upkeep.ts)
//   broadcast sender  sends the broadcast queue (telegram/broadcast-sender.ts)
//   owner-alert sender  sends the owner alerts' outbox (telegram/owner-alert-sender.ts)
//   dispatch-notice sender  sends each customer's dispatch message once its undo window has ended
//                     (shop/orders/dispatch-notices.ts; docs/decisions/0027-dispatch-notice-held.md)
//   telegram bot      the bot, by webhook or long polling, with its inbox worker, which handles
//                     the stored updates (telegram/runner.ts, telegram/inbox.ts)
//
// The locks are PostgreSQL advisory locks (db/leader.ts; docs/decisions/0010): with several
// instances on one database, a locked job runs on one of them at a time. The senders need none:
// their claims in the database share the work between instances.

export type Job = {
  /** How the job is named in the code and the tests. */
  name: string;
  /** How often it runs, for a job on a timer. */
  intervalMs?: number;
  /** The advisory lock (db/leader.ts) that keeps it to one instance at a time, where it takes one. */
  lock?: LockName;
  /** Started only once the server listens (the bot: Telegram may call the webhook as soon as it is set). */
  afterListen?: boolean;
  start(): void | Promise<void>;
  /** Stops it, and waits for the work in hand to finish and be recorded. */
  stop(): Promise<void>;
};

/** What the background jobs need of the services (services.ts). */
export type JobsDeps = Omit<PaymentJobsDeps, "logger" | "intervalMs" | "locks"> & {
  config: Pick<Config, "paymentJobsIntervalMs">;
  bot: Pick<BotRuntime, "start" | "stop">;
  broadcasts?: Pick<BroadcastSender, "start" | "stop">;
  ownerAlerts?: Pick<OwnerAlertSender, "start" | "stop">;
  dispatchNotices?: Pick<DispatchNoticeSender, "start" | "stop">;
};

export type JobsOptions = {
  database: Pick<Database, "db" | "kind">;
  locks: Locks;
  log: ShopLogger & UpkeepLogger;
};

/** Every background job of the server, in the order main.ts starts them. */
export function backgroundJobs(deps: JobsDeps, options: JobsOptions): Job[] {
  return [paymentJobsJob(deps, options), databaseUpkeepJob(options), ...senderJobs(deps), botJob(deps.bot)];
}

/** Rescue sweep + expired-order cleanup + retention, every few minutes and once at start. */
export function paymentJobsJob(deps: JobsDeps, options: Pick<JobsOptions, "locks" | "log">): Job {
  const intervalMs = deps.config.paymentJobsIntervalMs;
  let jobs: ReturnType<typeof startPaymentJobs> | undefined;
  return {
    name: "payments",
    intervalMs,
    lock: "paymentJobs",
    start() {
      jobs = startPaymentJobs({ ...deps, logger: options.log, locks: options.locks, intervalMs });
    },
    async stop() {
      await jobs?.stop();
    },
  };
}

/** VACUUM and ANALYZE where no autovacuum does them (PGlite; PostgreSQL with it off). */
export function databaseUpkeepJob(options: JobsOptions): Job {
  let upkeep: ReturnType<typeof startDatabaseUpkeep> | undefined;
  return {
    name: "database upkeep",
    intervalMs: UPKEEP_INTERVAL_MS,
    lock: "upkeep",
    start() {
      upkeep = startDatabaseUpkeep({ database: options.database, locks: options.locks, log: options.log });
    },
    async stop() {
      await upkeep?.stop();
    },
  };
}

/**
 * The broadcast, owner-alert and dispatch-notice senders the services hold (none for a test server
 * that sends none). The routes only kick them (http/routes/broadcasts.ts, owner-alerts.ts).
 */
export function senderJobs(deps: Pick<JobsDeps, "broadcasts" | "ownerAlerts" | "dispatchNotices">): Job[] {
  const jobs: Job[] = [];
  const { broadcasts, ownerAlerts, dispatchNotices } = deps;
  if (broadcasts) jobs.push({ name: "broadcast sender", start: () => broadcasts.start(), stop: () => broadcasts.stop() });
  if (ownerAlerts) jobs.push({ name: "owner-alert sender", start: () => ownerAlerts.start(), stop: () => ownerAlerts.stop() });
  if (dispatchNotices) {
    jobs.push({ name: "dispatch-notice sender", start: () => dispatchNotices.start(), stop: () => dispatchNotices.stop() });
  }
  return jobs;
}

/**
 * The Telegram bot: by webhook when PUBLIC_URL is https, else long polling (one poller across
 * instances); off without a token. A save of Bot Settings on any instance rebuilds it on every
 * instance (telegram/runner.ts).
 */
export function botJob(bot: JobsDeps["bot"]): Job {
  return { name: "telegram bot", lock: "telegramPolling", afterListen: true, start: () => bot.start(), stop: () => bot.stop() };
}

export type JobRunner = {
  /** Starts, in the list's order, the jobs of this moment: before the server listens, or once it does. */
  start(moment: "beforeListen" | "afterListen"): Promise<void>;
  /** Stops every job started, in reverse order; a start asked for afterwards starts nothing. */
  stop(): Promise<void>;
};

/** Starts and stops a list of jobs; main.ts, the test server (test-support/app.ts) and the browser tests' server use it. */
export function createJobRunner(jobs: Job[]): JobRunner {
  const started: Job[] = [];
  let stopped = false;
  return {
    async start(moment) {
      for (const job of jobs) {
        if (stopped) return;
        if (Boolean(job.afterListen) !== (moment === "afterListen")) continue;
        // Counted as started before its start settles: a shutdown meanwhile stops it too.
        started.push(job);
        await job.start();
      }
    },
    async stop() {
      stopped = true;
      while (started.length > 0) await started.pop()!.stop();
    },
  };
}
