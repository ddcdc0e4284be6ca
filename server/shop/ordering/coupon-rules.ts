import type { CouponState } from "../../../contract";
import type { CustomerText } from "../common";
import { formatPence, toPence } from "../catalogue";

// The rules of a coupon that need no database (issue 23; docs/decisions/0030-coupons.md): where a coupon
// stands, which items it applies to, what it takes off, and why a customer cannot use it. Pure, so the
// dashboard's state, the bot's summary and the checkout's transaction all read one set of rules.

/** What the rules read of a coupon row (server/db/schema.ts `coupons`). */
export type CouponTerms = {
  code: string;
  kind: "percent" | "fixed";
  /** "15.00" (percent) or "4.99" (GBP). */
  value: string;
  minSubtotal: string | null;
  maxDiscount: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  firstOrderOnly: boolean;
  productIds: string[];
  categoryIds: string[];
  isActive: boolean;
  timesUsed: number;
  timesHeld: number;
};

/**
 * Where a coupon stands now. Off wins (the owner's switch), then the calendar, then the uses:
 * a coupon whose uses are all held by unpaid orders is used up until one of them is released.
 */
export function couponState(coupon: CouponTerms, now: Date): CouponState {
  if (!coupon.isActive) return "off";
  if (coupon.endsAt && coupon.endsAt <= now) return "expired";
  if (coupon.startsAt && coupon.startsAt > now) return "scheduled";
  if (coupon.usageLimit !== null && coupon.timesUsed + coupon.timesHeld >= coupon.usageLimit) return "used-up";
  return "active";
}

/** A priced cart line: linePence is after its bulk tier. */
export type DiscountLine = { productId: string; categoryId: string | null; linePence: number };

/**
 * Whether a line is one the coupon applies to: every line when the coupon names no products and no
 * categories; otherwise a line whose product is named, or whose category is one named or inside one
 * (`categoryAncestors` gives a category's parents, nearest first).
 */
export function isEligibleLine(
  coupon: Pick<CouponTerms, "productIds" | "categoryIds">,
  line: Pick<DiscountLine, "productId" | "categoryId">,
  categoryAncestors: (categoryId: string) => string[] = () => [],
): boolean {
  if (coupon.productIds.length === 0 && coupon.categoryIds.length === 0) return true;
  if (coupon.productIds.includes(line.productId)) return true;
  if (line.categoryId === null) return false;
  return [line.categoryId, ...categoryAncestors(line.categoryId)].some((id) => coupon.categoryIds.includes(id));
}

/**
 * What the coupon takes off `eligiblePence` (the eligible lines after their bulk tiers; never the
 * postage): a percentage rounded to the nearest penny (half up), or a fixed amount; then capped by
 * maxDiscount and by the eligible amount itself, so a total never goes below the postage.
 */
export function discountPence(coupon: Pick<CouponTerms, "kind" | "value" | "maxDiscount">, eligiblePence: number): number {
  if (!Number.isSafeInteger(eligiblePence) || eligiblePence <= 0) return 0;
  const value = toPence(coupon.value); // hundredths: of a percent, or of a pound
  let discount = coupon.kind === "percent" ? Math.floor((eligiblePence * Math.min(value, 10_000) + 5_000) / 10_000) : value;
  if (coupon.maxDiscount !== null) discount = Math.min(discount, toPence(coupon.maxDiscount));
  return Math.max(0, Math.min(discount, eligiblePence));
}

/** What a customer has done before, for the per-customer and first-order rules. */
export type CustomerHistory = {
  /** Their orders holding or counting a use of this coupon. */
  usesByCustomer: number;
  /** Whether they have an order that is paid or awaiting payment (a failed one does not count). */
  hasEarlierOrder: boolean;
};

export type CouponRefusalReason =
  | "unknown"
  | "expired"
  | "not-started"
  | "used-up"
  | "already-used"
  | "minimum-not-met"
  | "not-for-these-items"
  | "first-order-only";

/** Why, in the shop's English (message) and for the bot in the customer's language (customerText). */
export type CouponRefusal = { reason: CouponRefusalReason; message: string; customerText: CustomerText };

/** The refusal's sentence by its key in the bot's locale files (coupon-refused-<reason>). */
export function refusalText(reason: CouponRefusalReason, code: string, detail: Parameters<typeof refusalMessage>[2] = {}): CustomerText {
  const key = reason === "unknown" && !code ? "coupon-refused-not-a-code" : `coupon-refused-${reason}`;
  const values: CustomerText["values"] = { code };
  if (reason === "not-started" && detail.startsAt) values.start = { day: detail.startsAt };
  if (reason === "minimum-not-met") Object.assign(values, { minimum: { pence: detail.minSubtotalPence ?? 0 }, items: { pence: detail.itemsPence ?? 0 } });
  return reason === "not-started" && !detail.startsAt ? { key: "coupon-refused-not-started-later", values } : { key, values };
}

const day = (date: Date) => date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** The customer's sentence for each reason: what is wrong and, where there is one, what to do. */
export function refusalMessage(reason: CouponRefusalReason, code: string, detail: { startsAt?: Date | null; minSubtotalPence?: number; itemsPence?: number } = {}): string {
  switch (reason) {
    case "unknown":
      return code
        ? `There is no coupon ${code}. Please check the code and try again.`
        : "That is not a coupon code: codes are 3 to 32 letters, digits, - or _. Please check it and try again.";
    case "expired":
      return `Coupon ${code} has expired.`;
    case "not-started":
      return `Coupon ${code} cannot be used yet: it starts on ${detail.startsAt ? day(detail.startsAt) : "a later date"}.`;
    case "used-up":
      return `Coupon ${code} has been used up.`;
    case "already-used":
      return `You have already used coupon ${code} as many times as it allows.`;
    case "minimum-not-met":
      return (
        `Coupon ${code} needs items worth at least £${formatPence(detail.minSubtotalPence ?? 0)} (postage not included); ` +
        `yours come to £${formatPence(detail.itemsPence ?? 0)}.`
      );
    case "not-for-these-items":
      return `Coupon ${code} does not apply to any item in your cart.`;
    case "first-order-only":
      return `Coupon ${code} is for a first order only.`;
  }
}

/**
 * Whether this customer may use the coupon on these lines now; null when they may. Checked in the
 * order a customer would want to hear it: whether the code works at all, then the shop's calendar and
 * stock of uses, then what is about them and their cart.
 */
export function couponRefusal(
  coupon: CouponTerms | null,
  code: string,
  cart: { itemsPence: number; eligiblePence: number; eligibleLines: number },
  history: CustomerHistory,
  now: Date,
): CouponRefusal | null {
  const refuse = (reason: CouponRefusalReason, detail?: Parameters<typeof refusalMessage>[2]): CouponRefusal => ({
    reason,
    message: refusalMessage(reason, coupon?.code ?? code, detail),
    customerText: refusalText(reason, coupon?.code ?? code, detail),
  });
  if (!coupon || !coupon.isActive) return refuse("unknown");
  if (coupon.endsAt && coupon.endsAt <= now) return refuse("expired");
  if (coupon.startsAt && coupon.startsAt > now) return refuse("not-started", { startsAt: coupon.startsAt });
  if (coupon.usageLimit !== null && coupon.timesUsed + coupon.timesHeld >= coupon.usageLimit) return refuse("used-up");
  if (coupon.perCustomerLimit !== null && history.usesByCustomer >= coupon.perCustomerLimit) return refuse("already-used");
  if (coupon.firstOrderOnly && history.hasEarlierOrder) return refuse("first-order-only");
  if (cart.eligibleLines === 0) return refuse("not-for-these-items");
  if (coupon.minSubtotal !== null && cart.itemsPence < toPence(coupon.minSubtotal)) {
    return refuse("minimum-not-met", { minSubtotalPence: toPence(coupon.minSubtotal), itemsPence: cart.itemsPence });
  }
  return null;
}
