import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { COUPON_CODE_PATTERN, normaliseCouponCode, type CouponInputSchema, type CouponPatchSchema, type CouponSchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { categories, coupons, orders, products } from "../../db/schema";
import { conflict, invalid, notFound, pgErrorCode, ShopError, UNIQUE_VIOLATION } from "../common";
import { couponRefusal, couponState, discountPence, isEligibleLine, type CouponRefusal, type CustomerHistory, type DiscountLine } from "./coupon-rules";

// The owner's coupons (issue 23; GET/POST/PATCH/DELETE /api/coupons) and the look-up a checkout makes
// of one. The rules themselves are pure, in coupon-rules.ts; the uses are counted in shop/orders/.

export type CouponValues = z.output<typeof CouponInputSchema>;
export type CouponChange = z.output<typeof CouponPatchSchema>;
export type CouponView = z.output<typeof CouponSchema>;
type CouponRow = typeof coupons.$inferSelect;

const NOT_FOUND = "Coupon not found.";
const duplicate = (code: string) => conflict(`A coupon with the code ${code} already exists (codes are the same whatever their case).`);

function toView(row: CouponRow, now: Date): CouponView {
  return { ...row, state: couponState(row, now) };
}

/** Newest first: the coupon just made is at the top of the owner's list. */
export async function listCoupons(db: DbOrTx, now: Date): Promise<CouponView[]> {
  const rows = await db.select().from(coupons).orderBy(desc(coupons.createdAt), desc(coupons.id));
  return rows.map((row) => toView(row, now));
}

export async function getCoupon(db: DbOrTx, id: string, now: Date): Promise<CouponView> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
  if (!row) throw notFound(NOT_FOUND);
  return toView(row, now);
}

/** The products and categories a coupon names must exist (arrays hold no foreign keys). */
async function checkTargets(db: DbOrTx, values: { productIds?: string[]; categoryIds?: string[] }) {
  const productIds = [...new Set(values.productIds ?? [])];
  const categoryIds = [...new Set(values.categoryIds ?? [])];
  if (productIds.length > 0) {
    const found = await db.select({ id: products.id }).from(products).where(inArray(products.id, productIds));
    if (found.length !== productIds.length) throw invalid("Some of the chosen products no longer exist. Please choose again.");
  }
  if (categoryIds.length > 0) {
    const found = await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, categoryIds));
    if (found.length !== categoryIds.length) throw invalid("Some of the chosen categories no longer exist. Please choose again.");
  }
  return { productIds, categoryIds };
}

/** The checks that need the whole coupon (a patch is checked merged with what is stored). */
function checkWhole(coupon: Pick<CouponRow, "kind" | "value" | "startsAt" | "endsAt" | "usageLimit" | "timesUsed" | "timesHeld">) {
  if (coupon.kind === "percent" && Number(coupon.value) > 100) throw invalid("A percentage can be at most 100.");
  if (coupon.startsAt && coupon.endsAt && coupon.endsAt <= coupon.startsAt) throw invalid("End must be after the start.");
  const taken = coupon.timesUsed + coupon.timesHeld;
  if (coupon.usageLimit !== null && coupon.usageLimit < taken) {
    throw invalid(`Usage limit cannot be below ${taken}: the coupon has been used or is held by ${taken} ${taken === 1 ? "order" : "orders"}.`);
  }
}

export async function createCoupon(db: DbOrTx, values: CouponValues, now: Date): Promise<CouponView> {
  const targets = await checkTargets(db, values);
  try {
    const [row] = await db
      .insert(coupons)
      .values({ ...values, ...targets, createdAt: now, updatedAt: now })
      .returning();
    return toView(row!, now);
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw duplicate(values.code);
    throw error;
  }
}

/** Changes only the fields given; the coupon's uses so far stay. */
export async function updateCoupon(db: DbOrTx, id: string, patch: CouponChange, now: Date): Promise<CouponView> {
  const targets = await checkTargets(db, patch);
  try {
    return await db.transaction(async (tx) => {
      // Locked: a checkout holding a use meanwhile cannot slip under a lowered usage limit.
      const [stored] = await tx.select().from(coupons).where(eq(coupons.id, id)).for("update");
      if (!stored) throw notFound(NOT_FOUND);
      const change = {
        ...patch,
        ...(patch.productIds ? { productIds: targets.productIds } : {}),
        ...(patch.categoryIds ? { categoryIds: targets.categoryIds } : {}),
      };
      checkWhole({ ...stored, ...change });
      const [row] = await tx
        .update(coupons)
        .set({ ...change, updatedAt: now })
        .where(eq(coupons.id, id))
        .returning();
      return toView(row!, now);
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw duplicate(patch.code ?? "");
    throw error;
  }
}

/** Orders that used the coupon keep its code and their discount (their coupon_id becomes null). */
export async function deleteCoupon(db: DbOrTx, id: string): Promise<void> {
  const deleted = await db.delete(coupons).where(eq(coupons.id, id)).returning({ id: coupons.id });
  if (deleted.length === 0) throw notFound(NOT_FOUND);
}

// --- At checkout ---

/** What a coupon takes off a cart: the code as stored and the discount, in pence. */
export type AppliedCoupon = { id: string; code: string; discountPence: number };

/** The refusal a customer reads (the bot shows its message as it is). */
export class CouponRefusedError extends ShopError {
  constructor(readonly refusal: CouponRefusal) {
    super("invalid", refusal.message, refusal.customerText);
    this.name = "CouponRefusedError";
  }
}

async function customerHistory(db: DbOrTx, couponId: string, telegramUserId: string): Promise<CustomerHistory> {
  const [uses] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.couponId, couponId), eq(orders.telegramUserId, telegramUserId), inArray(orders.couponUse, ["held", "counted"])));
  const [earlier] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.telegramUserId, telegramUserId), ne(orders.status, "failed")))
    .limit(1);
  return { usesByCustomer: uses?.count ?? 0, hasEarlierOrder: earlier !== undefined };
}

/** A category's parents, nearest first, from the whole (small) categories table. */
async function ancestorsOf(db: DbOrTx): Promise<(categoryId: string) => string[]> {
  const rows = await db.select({ id: categories.id, parentId: categories.parentId }).from(categories);
  const parent = new Map(rows.map((row) => [row.id, row.parentId]));
  return (categoryId) => {
    const chain: string[] = [];
    for (let id = parent.get(categoryId); id && !chain.includes(id); id = parent.get(id)) chain.push(id);
    return chain;
  };
}

/**
 * The coupon a customer typed, applied to their priced lines: throws CouponRefusedError saying why
 * when it cannot be used. Inside the checkout's transaction this reads what the transaction sees;
 * the hold that follows (holdCouponUse) settles any race for the last use.
 */
export async function applyCoupon(
  db: DbOrTx,
  typed: string,
  cart: { telegramUserId: string; lines: DiscountLine[]; itemsPence: number },
  now: Date,
): Promise<AppliedCoupon> {
  const text = typed.trim();
  const wellFormed = COUPON_CODE_PATTERN.test(text);
  const code = wellFormed ? normaliseCouponCode(text) : "";
  const [coupon] = wellFormed ? await db.select().from(coupons).where(eq(coupons.code, code)) : [];
  const ancestors = coupon && coupon.categoryIds.length > 0 ? await ancestorsOf(db) : () => [];
  const eligible = coupon ? cart.lines.filter((line) => isEligibleLine(coupon, line, ancestors)) : [];
  const eligiblePence = eligible.reduce((sum, line) => sum + line.linePence, 0);
  const history = coupon ? await customerHistory(db, coupon.id, cart.telegramUserId) : { usesByCustomer: 0, hasEarlierOrder: false };
  const refusal = couponRefusal(coupon ?? null, code, { itemsPence: cart.itemsPence, eligiblePence, eligibleLines: eligible.length }, history, now);
  if (refusal) throw new CouponRefusedError(refusal);
  return { id: coupon!.id, code: coupon!.code, discountPence: discountPence(coupon!, eligiblePence) };
}
