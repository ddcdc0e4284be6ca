import crypto from "node:crypto";
import { and, asc, eq, gte, isNotNull } from "drizzle-orm";
import type { LiveEventName, LiveOrderPaid } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { orders } from "../../db/schema";
import { consoleLogger, reasonOf, type ShopLogger } from "../common";
import type { ChangeFeed } from "../catalogue";

// What the live dashboard is told (issue 13; GET /api/events in http/routes/events.ts). The source
// of truth is the database's change notices (drizzle/0007_customers_and_live.sql): every committed
// write to orders, customer_messages or blocked_customers, whoever made it (the bot, a payment
// webhook, the admin, another instance), reaches every instance. One feed per server watches them
// and hands each event to every connected browser; the browsers then reload those lists.
//
// Events carry ids "<feed>-<n>": n counts up in this process, and <feed> is new on every start, so
// an id another process (or an earlier run) gave out is recognised as such. A browser that comes
// back with a Last-Event-ID from this feed gets what it missed from the recent events; anything
// else (another instance, too old, unreadable) gets "resync": reload everything.

/** Which event a change to a table is announced as. Other tables (the catalogue) are not live. */
const EVENT_OF_TABLE: Record<string, LiveEventName> = {
  orders: "orders",
  customer_messages: "messages",
  blocked_customers: "customers",
  coupons: "coupons",
};

/**
 * Notices arriving within this long become one event per kind: a checkout writes the orders table
 * several times, and a busy minute should not make every browser reload its lists for each write.
 */
export const COALESCE_MS = 150;
/** How many past events a reconnecting browser can be given back; beyond that it resyncs. */
const RECENT_EVENTS = 200;
/** How soon to listen again after the database could not be reached. */
const RELISTEN_MS = 1_000;
/**
 * paid_at is the writer's clock, and a payment can commit a moment after a later one: each look for
 * newly paid orders covers this much before now, and skips the ones already announced.
 */
const PAID_LOOKBACK_MS = 5 * 60_000;
/** At most this many order-paid events per look (a burst is still announced by "orders"). */
const PAID_BATCH = 20;

export type LiveEvent = { id: string; name: LiveEventName; data: string };
export type LiveListener = (event: LiveEvent) => void;

export type LiveSubscription = {
  /**
   * What the browser must be sent first, before any new event: the events it missed since
   * `lastEventId`, a resync when that cannot be told, then "ready" with the current id.
   */
  catchUp: LiveEvent[];
  stop(): void;
};

export type LiveFeed = {
  /** Settles once database notices are being received; rejects while the database cannot be reached. */
  listening(): Promise<void>;
  /** Starts sending events to `listener`, after the catch-up for a browser that was here before. */
  subscribe(lastEventId: string | undefined, listener: LiveListener): LiveSubscription;
  /** How many browsers are connected (tests, logs). */
  subscriberCount(): number;
  stop(): void;
};

/**
 * `logger`: where each failure the feed survives is reported with its reason (docs/SECURITY.md,
 * "What is logged"): the browsers only see a resync or a 503, so the log is where the owner learns why.
 */
export function createLiveFeed(deps: { changes: ChangeFeed; db: DbOrTx; now: () => Date; logger?: ShopLogger }): LiveFeed {
  const logger = deps.logger ?? consoleLogger;
  const feedId = crypto.randomBytes(4).toString("hex");
  const startedAt = deps.now();
  let sequence = 0;
  const recent: { sequence: number; event: LiveEvent }[] = [];
  const listeners = new Set<LiveListener>();
  const pending = new Set<LiveEventName>();
  let flushTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let watch: ReturnType<ChangeFeed["watchChanges"]> | null = null;
  let ready: Promise<void> | null = null;
  let stopped = false;
  /** Order ids already announced as paid, with when they were paid (forgotten after the lookback). */
  const announcedPaid = new Map<string, number>();
  let paidCheck: Promise<void> | null = null;
  let paidCheckAgain = false;

  const idOf = (n: number) => `${feedId}-${n}`;

  function publish(name: LiveEventName, data: unknown = {}) {
    sequence += 1;
    const event = { id: idOf(sequence), name, data: JSON.stringify(data) };
    recent.push({ sequence, event });
    if (recent.length > RECENT_EVENTS) recent.shift();
    for (const listener of [...listeners]) listener(event);
  }

  function flush() {
    flushTimer = undefined;
    const names = [...pending];
    pending.clear();
    for (const name of names) publish(name);
    if (names.includes("orders")) checkPaidOrders();
  }

  function onChange(table: string | null, reason?: string) {
    if (stopped) return;
    if (table === null) {
      // Notices may have been lost: everyone reloads now, and again once notices flow again,
      // since what changed in between is announced by nobody.
      logger.warn(
        { reason: reason ?? "unknown", browsers: listeners.size },
        "live events: the database's change notices may have been lost; every browser is told to reload",
      );
      pending.clear();
      clearTimeout(flushTimer);
      flushTimer = undefined;
      publish("resync");
      ready = null;
      void listen(true).catch(() => {}); // a failure is logged by listen itself
      return;
    }
    const name = EVENT_OF_TABLE[table];
    if (!name) return;
    pending.add(name);
    flushTimer ??= setTimeout(flush, COALESCE_MS);
  }

  /** Watches the notices (once), and keeps trying while the database cannot be reached. */
  function listen(resyncWhenListening = false): Promise<void> {
    if (stopped) return Promise.resolve();
    watch ??= deps.changes.watchChanges(onChange);
    const current = watch.ready().then(
      () => {
        if (resyncWhenListening && !stopped) {
          logger.info({ browsers: listeners.size }, "live events: listening to the database's change notices again");
          publish("resync");
        }
      },
      (error: unknown) => {
        if (ready === current) ready = null;
        const retrying = !stopped && listeners.size > 0;
        logger.warn(
          { reason: reasonOf(error), retryInMs: retrying ? RELISTEN_MS : null },
          "live events: could not listen to the database's change notices",
        );
        if (retrying) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(() => void listen(true).catch(() => {}), RELISTEN_MS); // logged as above
          retryTimer.unref();
        }
        throw error;
      },
    );
    ready = current;
    return current;
  }

  /** Announces orders paid since the last look; one look at a time, and one more if asked meanwhile. */
  function checkPaidOrders() {
    if (listeners.size === 0) return;
    if (paidCheck) {
      paidCheckAgain = true;
      return;
    }
    paidCheck = announceNewlyPaid()
      // The orders event went out anyway; a failed look only skips the order-paid chime.
      .catch((error: unknown) => {
        logger.warn({ reason: reasonOf(error) }, "live events: could not look for newly paid orders; no order-paid event this time");
      })
      .finally(() => {
        paidCheck = null;
        if (paidCheckAgain && !stopped) {
          paidCheckAgain = false;
          checkPaidOrders();
        }
      });
  }

  async function announceNewlyPaid() {
    const since = new Date(Math.max(startedAt.getTime(), deps.now().getTime() - PAID_LOOKBACK_MS));
    for (const [orderId, paidAt] of announcedPaid) if (paidAt < since.getTime()) announcedPaid.delete(orderId);
    const paid = await deps.db
      .select({ id: orders.id, paidAt: orders.paidAt, totalAmount: orders.totalAmount, currency: orders.currency })
      .from(orders)
      // A test order (Bot Preview's simulator, docs/decisions/0023) rings no chime: the owner just paid it by hand.
      .where(and(isNotNull(orders.paidAt), gte(orders.paidAt, since), eq(orders.isTest, false)))
      .orderBy(asc(orders.paidAt))
      .limit(PAID_BATCH);
    for (const order of paid) {
      if (announcedPaid.has(order.id) || stopped) continue;
      announcedPaid.set(order.id, order.paidAt!.getTime());
      const data: LiveOrderPaid = { orderId: order.id, totalAmount: order.totalAmount, currency: order.currency };
      publish("order-paid", data);
    }
  }

  /** The events after `lastEventId`, or null when they cannot be told (another feed, too old, unreadable). */
  function missedSince(lastEventId: string): LiveEvent[] | null {
    const match = /^([0-9a-f]+)-(\d{1,15})$/.exec(lastEventId);
    if (!match || match[1] !== feedId) return null;
    const seen = Number(match[2]);
    if (seen > sequence) return null;
    if (seen === sequence) return [];
    const oldestKept = recent[0]?.sequence ?? sequence + 1;
    if (seen + 1 < oldestKept) return null;
    return recent.filter((entry) => entry.sequence > seen).map((entry) => entry.event);
  }

  return {
    listening() {
      return ready ?? listen();
    },
    subscribe(lastEventId, listener) {
      const missed = lastEventId ? missedSince(lastEventId) : [];
      const catchUp: LiveEvent[] = [
        ...(missed ?? [{ id: idOf(sequence), name: "resync" as const, data: "{}" }]),
        { id: idOf(sequence), name: "ready", data: "{}" },
      ];
      listeners.add(listener);
      return { catchUp, stop: () => void listeners.delete(listener) };
    },
    subscriberCount: () => listeners.size,
    stop() {
      stopped = true;
      clearTimeout(flushTimer);
      clearTimeout(retryTimer);
      listeners.clear();
      watch?.stop();
    },
  };
}
