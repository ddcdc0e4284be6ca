import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { coupons, orders } from "../../db/schema";

// A coupon's uses (issue 23; docs/decisions/0028-coupons.md), kept like the order's stock: a use is
// held when the order is created, counted when it is paid, released when it fails (expiry, cancel,
// a failed or refunded payment, an abandoned checkout). The order's coupon_use says where its use
// stands, and each move is one conditional UPDATE of it, so replays and two paths meeting move it once.
// Here rather than in shop/ordering/ because the payment rules (shop/payments/), which sit below
// ordering, count and release uses too.

/**
 * Takes one use of the coupon for an order being created, inside the checkout's transaction. One
 * conditional UPDATE of the coupon's row: parallel checkouts queue on that row and each sees the
 * count the one before left, so no more orders than usageLimit ever hold or count a use (and the
 * table's CHECK backs this up). Answers false when the coupon cannot be used now (used up, ended,
 * not started, switched off or deleted): the caller then says why.
 */
export async function holdCouponUse(tx: DbOrTx, couponId: string, now: Date): Promise<boolean> {
  const held = await tx
    .update(coupons)
    .set({ timesHeld: sql`${coupons.timesHeld} + 1`, updatedAt: now })
    .where(
      and(
        eq(coupons.id, couponId),
        eq(coupons.isActive, true),
        or(isNull(coupons.usageLimit), lt(sql`${coupons.timesUsed} + ${coupons.timesHeld}`, coupons.usageLimit)),
        or(isNull(coupons.startsAt), sql`${coupons.startsAt} <= ${now.toISOString()}`),
        or(isNull(coupons.endsAt), sql`${coupons.endsAt} > ${now.toISOString()}`),
      ),
    )
    .returning({ id: coupons.id });
  return held.length > 0;
}

/**
 * The order was paid: its held use becomes a counted one. An order whose use was released (it
 * expired, then its money arrived and it was revived) counts a use again when the coupon has one
 * left; when it has not, the order keeps its discount (the customer paid what they were asked) and
 * the coupon's count stays within its limit. Answers whether a use was counted now.
 */
export async function countCouponUse(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const [order] = await tx
    .select({ couponId: orders.couponId, couponUse: orders.couponUse })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order?.couponId || (order.couponUse !== "held" && order.couponUse !== "released")) return false;
  const claimed = await tx
    .update(orders)
    .set({ couponUse: "counted" })
    .where(and(eq(orders.id, orderId), eq(orders.couponUse, order.couponUse)))
    .returning({ id: orders.id });
  if (claimed.length === 0) return false;
  if (order.couponUse === "held") {
    await tx
      .update(coupons)
      .set({ timesHeld: sql`${coupons.timesHeld} - 1`, timesUsed: sql`${coupons.timesUsed} + 1`, updatedAt: now })
      .where(and(eq(coupons.id, order.couponId), sql`${coupons.timesHeld} > 0`));
    return true;
  }
  const counted = await tx
    .update(coupons)
    .set({ timesUsed: sql`${coupons.timesUsed} + 1`, updatedAt: now })
    .where(
      and(
        eq(coupons.id, order.couponId),
        or(isNull(coupons.usageLimit), lt(sql`${coupons.timesUsed} + ${coupons.timesHeld}`, coupons.usageLimit)),
      ),
    )
    .returning({ id: coupons.id });
  if (counted.length === 0) {
    // No use left to count: the order stays "released" so a later release gives nothing back.
    await tx.update(orders).set({ couponUse: "released" }).where(eq(orders.id, orderId));
    return false;
  }
  return true;
}

/**
 * The order failed (or was refunded): the use it held or counted goes back to the coupon, once. Called
 * from releaseOrderStock, which runs exactly once per release of an order's stock.
 */
export async function releaseCouponUse(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const [order] = await tx
    .select({ couponId: orders.couponId, couponUse: orders.couponUse })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order || (order.couponUse !== "held" && order.couponUse !== "counted")) return false;
  const claimed = await tx
    .update(orders)
    .set({ couponUse: "released" })
    .where(and(eq(orders.id, orderId), eq(orders.couponUse, order.couponUse)))
    .returning({ id: orders.id });
  if (claimed.length === 0 || !order.couponId) return claimed.length > 0;
  const counter = order.couponUse === "held" ? coupons.timesHeld : coupons.timesUsed;
  await tx
    .update(coupons)
    .set(order.couponUse === "held" ? { timesHeld: sql`${coupons.timesHeld} - 1`, updatedAt: now } : { timesUsed: sql`${coupons.timesUsed} - 1`, updatedAt: now })
    .where(and(eq(coupons.id, order.couponId), sql`${counter} > 0`));
  return true;
}
