import { and, eq, gte, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { orderItems, orders, products, productVariants } from "../../db/schema";
import { conflict } from "../common";
import { releaseCouponUse } from "./coupon-uses";

// docs/product.md rule 2: stock is reserved when an order is created and released when it fails.

/**
 * A line to reserve: a variant (issue 23) and the name the customer knows it by ("Acceptance Tee (M /
 * Black)"); `shownName`, that name as the customer's language shows it (issue 26), for the refusal
 * they read in it (productName without one).
 */
export type StockLine = { variantId: string; productId: string; productName: string; shownName?: string; quantity: number };

/**
 * Takes the lines' quantities off the shelf, each with one conditional UPDATE of its variant so
 * concurrent checkouts can never drive stock below zero (the product's stock, their sum, follows by
 * the product_variants_stock trigger). Call inside the order's transaction: when a line cannot be
 * reserved this throws, and the transaction undoes the lines already taken. Lines are taken in one
 * order (by variant id), so two checkouts of the same variants never wait on each other in a circle.
 */
export async function reserveStock(tx: DbOrTx, lines: StockLine[]): Promise<void> {
  const ordered = [...lines].sort((a, b) => (a.variantId < b.variantId ? -1 : a.variantId > b.variantId ? 1 : 0));
  for (const line of ordered) {
    const taken = await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} - ${line.quantity}`, updatedAt: new Date() })
      .where(
        and(
          eq(productVariants.id, line.variantId),
          eq(productVariants.isActive, true),
          gte(productVariants.stock, line.quantity),
          sql`exists (select 1 from ${products} where ${products.id} = ${productVariants.productId} and ${products.isActive})`,
        ),
      )
      .returning({ id: productVariants.id });
    if (taken.length === 0) {
      const [variant] = await tx.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, line.variantId));
      const left = variant ? `only ${variant.stock} left` : "no longer available";
      const name = line.shownName ?? line.productName;
      throw conflict(
        `Not enough stock for ${line.productName}: ${left}.`,
        variant
          ? { key: "refusal-not-enough-stock", values: { name, stock: String(variant.stock) } }
          : { key: "refusal-not-enough-stock-gone", values: { name } },
      );
    }
  }
}

/**
 * Puts an order's reserved stock back, exactly once however often it is called (the order's
 * stock_released_at is claimed with a conditional UPDATE). Answers whether this call released it.
 * Variants (or products) deleted since are skipped. The coupon use the order held or counted goes back with it
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
    .select({ variantId: orderItems.variantId, productId: orderItems.productId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  // In the reservation's order; a line from before variants went back to its product's default variant.
  const ordered = items
    .map((item) => ({ ...item, variantId: item.variantId ?? item.productId }))
    .sort((a, b) => (a.variantId < b.variantId ? -1 : a.variantId > b.variantId ? 1 : 0));
  for (const item of ordered) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${item.quantity}`, updatedAt: now })
      .where(eq(productVariants.id, item.variantId));
  }
  await releaseCouponUse(tx, orderId, now);
  return true;
}
