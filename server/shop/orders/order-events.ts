import { asc, desc, eq } from "drizzle-orm";
import type { OrderEvent } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { orderEvents } from "../../db/schema";

// The audit trail of an order (issue 10): who moved its money state, when, and what happened.
// Written by the code that makes the change, inside the same transaction, so the trail never
// claims a change that was rolled back and never misses one that was committed.

export type OrderEventActor = OrderEvent["actor"];

/** The machine names of the events; the detail sentence says the rest. */
export type OrderEventAction =
  | "payment_paid"
  | "payment_short"
  | "payment_received_late"
  | "payment_refunded"
  | "payment_failed"
  | "payment_expired"
  | "payment_accepted"
  | "cancelled"
  | "expired"
  | "dispatched"
  | "dispatch_undone"
  | "dispatch_notice_failed"
  | "completed";

type OrderEventRow = typeof orderEvents.$inferSelect;

function toOrderEvent(row: OrderEventRow): OrderEvent {
  return {
    id: row.id,
    orderId: row.orderId,
    actor: row.actor as OrderEventActor,
    action: row.action,
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Adds one line to the order's trail. Call it while holding the order's row lock (every writer
 * does), so the trail's order is the order things happened in: an event is stamped at `now`, or
 * a millisecond after the order's previous event when the clock has not moved on (a fixed clock
 * in tests, two changes within one millisecond), so listing by time never shuffles them.
 */
export async function recordOrderEvent(
  tx: DbOrTx,
  event: { orderId: string; actor: OrderEventActor; action: OrderEventAction; detail: string },
  now: Date,
): Promise<void> {
  const [previous] = await tx
    .select({ createdAt: orderEvents.createdAt })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, event.orderId))
    .orderBy(desc(orderEvents.createdAt))
    .limit(1);
  const createdAt =
    previous && previous.createdAt.getTime() >= now.getTime() ? new Date(previous.createdAt.getTime() + 1) : now;
  await tx.insert(orderEvents).values({ ...event, createdAt });
}

/** The order's trail, oldest first. The caller checks that the order exists. */
export async function listOrderEvents(db: DbOrTx, orderId: string): Promise<OrderEvent[]> {
  const rows = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
  return rows.map(toOrderEvent);
}
