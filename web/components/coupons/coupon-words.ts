import type { Coupon } from "../../../contract";
import { formatDateTime } from "@/lib/dates";
import { formatGBP } from "@/lib/screen-helpers";
import { countOf } from "@/lib/utils";

// How the Coupons screen words a coupon (issue 23): its discount, its conditions, its uses, when it
// applies. Plain functions of the coupon, shared by the table and the phone's cards.

/** "15.00" → "15", "12.50" → "12.5": a percentage as people write it. */
export function percentText(value: string): string {
  const n = Number(value);
  return Number.isFinite(n) ? String(Number(n.toFixed(2))) : value;
}

/** "15% off" or "£5.00 off". */
export function discountText(coupon: Pick<Coupon, "kind" | "value">): string {
  return coupon.kind === "percent" ? `${percentText(coupon.value)}% off` : `${formatGBP(coupon.value)} off`;
}

/**
 * What must hold for the code to apply: "min £20.00", "max £10.00", "first order", "2 per customer",
 * "3 products", "1 category"; none: an empty list. The maximum only means something for a percentage.
 */
export function conditionParts(coupon: Coupon): string[] {
  const parts: string[] = [];
  if (coupon.minSubtotal != null) parts.push(`min ${formatGBP(coupon.minSubtotal)}`);
  if (coupon.kind === "percent" && coupon.maxDiscount != null) parts.push(`max ${formatGBP(coupon.maxDiscount)}`);
  if (coupon.firstOrderOnly) parts.push("first order");
  if (coupon.perCustomerLimit != null) parts.push(`${coupon.perCustomerLimit} per customer`);
  if (coupon.productIds.length > 0) parts.push(countOf(coupon.productIds.length, "product"));
  if (coupon.categoryIds.length > 0) parts.push(countOf(coupon.categoryIds.length, "category", "categories"));
  return parts;
}

/** "3 of 10 used" (or "3 used" without a limit), and "+1 held" for unpaid orders holding a use. */
export function usesText(coupon: Pick<Coupon, "timesUsed" | "usageLimit">): string {
  return coupon.usageLimit != null ? `${coupon.timesUsed} of ${coupon.usageLimit} used` : `${coupon.timesUsed} used`;
}

export function heldText(coupon: Pick<Coupon, "timesHeld">): string | null {
  return coupon.timesHeld > 0 ? `+${coupon.timesHeld} held` : null;
}

/**
 * When the code applies, in pieces that each stay on one line (a narrow cell breaks between the
 * start and the end, not inside a date): ["{start} –", "{end}"], ["From {start}"], ["Until {end}"],
 * or ["Any time"].
 */
export function validityParts(coupon: Pick<Coupon, "startsAt" | "endsAt">): string[] {
  const { startsAt, endsAt } = coupon;
  if (startsAt && endsAt) return [`${formatDateTime(startsAt)} –`, formatDateTime(endsAt)];
  if (startsAt) return [`From ${formatDateTime(startsAt)}`];
  if (endsAt) return [`Until ${formatDateTime(endsAt)}`];
  return ["Any time"];
}
