import { and, eq, gte, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { orderItems, orders, products } from "../../db/schema";
import { conflict } from "../common";
import { releaseCouponUse } from "./coupon-uses";

// docs/product.md rule 2: stock is reserved when an order is created and released when it fails.

export type StockLine = { productId: string; productName: string; quantity: number };

/**
 * Takes the lines' quantities off the shelf, each with one conditional UPDATE so concurrent
 * checkouts can never drive stock below zero. Call inside the order's transaction: when a line
 * cannot be reserved this throws, and the transaction undoes the lines already taken.
 */
export async function reserveStock(tx: DbOrTx, lines: StockLine[]): Promise<void> {
  for (const line of lines) {
    const taken = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${line.quantity}`, updatedAt: new Date() })
      .where(and(eq(products.id, line.productId), eq(products.isActive, true), gte(products.stock, line.quantity)))
      .returning({ id: products.id });
    if (taken.length === 0) {
      const [product] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, line.productId));
      const left = product ? `only ${product.stock} left` : "no longer available";
      throw conflict(`Not enough stock for ${line.productName}: ${left}.`);
    }
  }
}

/**
 * Puts an order's reserved stock back, exactly once however often it is called (the order's
 * stock_released_at is claimed with a conditional UPDATE). Answers whether this call released it.
 * Products deleted since are skipped. The coupon use the order held or counted goes back with it
 * (coupon-uses.ts): every path that fails an order comes through here.
 */
export async function releaseOrderStock(tx: DbOrTx, orderId: string, now: Date): Promise<boolean> {
  const claimed = await tx
    .update(orders)
    .set({ stockReleasedAt: now })
    .where(and(eq(orders.id, orderId), isNull(orders.stockReleasedAt)))
    .returning({ id: orders.id });
  if (claimed.length === 0) return false;
  const items = await tx
    .select({ productId: orderItems.productId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  for (const item of items) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${item.quantity}`, updatedAt: now })
      .where(eq(products.id, item.productId));
  }
  await releaseCouponUse(tx, orderId, now);
  return true;
}
