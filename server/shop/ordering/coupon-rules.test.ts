import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { couponRefusal, couponState, discountPence, isEligibleLine, type CouponTerms } from "./coupon-rules";

// The pure coupon rules (issue 23): the discount's bounds, property-tested, and each state and refusal.

const NOW = new Date("2026-11-26T12:00:00Z");
const base: CouponTerms = {
  code: "SAVE10",
  kind: "percent",
  value: "10.00",
  minSubtotal: null,
  maxDiscount: null,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  perCustomerLimit: null,
  firstOrderOnly: false,
  productIds: [],
  categoryIds: [],
  isActive: true,
  timesUsed: 0,
  timesHeld: 0,
};
const pounds = (pence: number) => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, "0")}`;

describe("discountPence", () => {
  const coupon = fc.record({
    kind: fc.constantFrom("percent" as const, "fixed" as const),
    valuePence: fc.integer({ min: 1, max: 9_999_999_999 }),
    maxDiscountPence: fc.option(fc.integer({ min: 0, max: 9_999_999_999 }), { nil: null }),
  });

  it("is whole pence, never negative, never above the eligible amount or the cap; a percentage never above 100 %", () => {
    fc.assert(
      fc.property(coupon, fc.integer({ min: -100, max: 9_999_999_999 }), ({ kind, valuePence, maxDiscountPence }, eligible) => {
        const value = kind === "percent" ? Math.min(valuePence, 10_000) : valuePence;
        const terms = { kind, value: pounds(value), maxDiscount: maxDiscountPence === null ? null : pounds(maxDiscountPence) };
        const discount = discountPence(terms, eligible);
        expect(Number.isSafeInteger(discount)).toBe(true);
        expect(discount).toBeGreaterThanOrEqual(0);
        expect(discount).toBeLessThanOrEqual(Math.max(eligible, 0));
        if (maxDiscountPence !== null) expect(discount).toBeLessThanOrEqual(maxDiscountPence);
        if (kind === "fixed" && eligible > 0) expect(discount).toBe(Math.min(value, eligible, maxDiscountPence ?? Infinity));
        if (kind === "percent" && eligible > 0 && maxDiscountPence === null) {
          // The exact share, rounded to the nearest penny (BigInt: no floating point in the check).
          const exact = (BigInt(eligible) * BigInt(value) * 2n + 10_000n) / 20_000n;
          expect(BigInt(discount)).toBe(exact);
        }
      }),
    );
  });

  it("takes nothing off postage: the total never goes below the postage", () => {
    fc.assert(
      fc.property(coupon, fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000 }), ({ kind, valuePence, maxDiscountPence }, items, postage) => {
        const value = kind === "percent" ? Math.min(valuePence, 10_000) : valuePence;
        const discount = discountPence({ kind, value: pounds(value), maxDiscount: maxDiscountPence === null ? null : pounds(maxDiscountPence) }, items);
        expect(items - discount + postage).toBeGreaterThanOrEqual(postage);
      }),
    );
  });

  it("works out the usual cases to the penny", () => {
    expect(discountPence({ kind: "percent", value: "10.00", maxDiscount: null }, 4250)).toBe(425);
    expect(discountPence({ kind: "percent", value: "15.00", maxDiscount: null }, 333)).toBe(50); // 49.95 → 50
    expect(discountPence({ kind: "percent", value: "12.50", maxDiscount: null }, 999)).toBe(125); // 124.875 → 125
    expect(discountPence({ kind: "percent", value: "100.00", maxDiscount: null }, 1234)).toBe(1234);
    expect(discountPence({ kind: "percent", value: "50.00", maxDiscount: "3.00" }, 1000)).toBe(300);
    expect(discountPence({ kind: "fixed", value: "5.00", maxDiscount: null }, 300)).toBe(300);
    expect(discountPence({ kind: "fixed", value: "5.00", maxDiscount: null }, 0)).toBe(0);
  });
});

describe("isEligibleLine", () => {
  const line = { productId: "p1", categoryId: "child" };
  const ancestors = (id: string) => (id === "child" ? ["parent", "root"] : []);

  it("takes every line when the coupon names nothing, else the named products and categories, with their subcategories", () => {
    expect(isEligibleLine(base, line)).toBe(true);
    expect(isEligibleLine({ productIds: ["p1"], categoryIds: [] }, line)).toBe(true);
    expect(isEligibleLine({ productIds: ["p2"], categoryIds: [] }, line)).toBe(false);
    expect(isEligibleLine({ productIds: [], categoryIds: ["root"] }, line, ancestors)).toBe(true);
    expect(isEligibleLine({ productIds: [], categoryIds: ["child"] }, line)).toBe(true);
    expect(isEligibleLine({ productIds: [], categoryIds: ["other"] }, line, ancestors)).toBe(false);
    expect(isEligibleLine({ productIds: [], categoryIds: ["root"] }, { productId: "p1", categoryId: null }, ancestors)).toBe(false);
  });
});

describe("couponState and couponRefusal", () => {
  const cart = { itemsPence: 2000, eligiblePence: 2000, eligibleLines: 1 };
  const fresh = { usesByCustomer: 0, hasEarlierOrder: false };
  const refusal = (terms: Partial<CouponTerms> | null, overrides: { cart?: Partial<typeof cart>; history?: Partial<typeof fresh> } = {}) =>
    couponRefusal(terms === null ? null : { ...base, ...terms }, "SAVE10", { ...cart, ...overrides.cart }, { ...fresh, ...overrides.history }, NOW);

  it("names each state: off, expired, scheduled, used up (held uses count), active", () => {
    expect(couponState(base, NOW)).toBe("active");
    expect(couponState({ ...base, isActive: false, endsAt: new Date(0) }, NOW)).toBe("off");
    expect(couponState({ ...base, endsAt: NOW }, NOW)).toBe("expired");
    expect(couponState({ ...base, startsAt: new Date(NOW.getTime() + 1) }, NOW)).toBe("scheduled");
    expect(couponState({ ...base, usageLimit: 3, timesUsed: 1, timesHeld: 2 }, NOW)).toBe("used-up");
    expect(couponState({ ...base, usageLimit: 3, timesUsed: 1, timesHeld: 1 }, NOW)).toBe("active");
  });

  it("says why, in the customer's words, for each refusal", () => {
    expect(refusal(base)).toBeNull();
    expect(refusal(null)?.message).toBe("There is no coupon SAVE10. Please check the code and try again.");
    expect(refusal({ isActive: false })?.reason).toBe("unknown");
    expect(refusal({ endsAt: new Date("2026-11-01T00:00:00Z") })?.message).toBe("Coupon SAVE10 has expired.");
    expect(refusal({ startsAt: new Date("2026-12-01T00:00:00Z") })?.message).toBe("Coupon SAVE10 cannot be used yet: it starts on 1 December 2026.");
    expect(refusal({ usageLimit: 5, timesUsed: 3, timesHeld: 2 })?.message).toBe("Coupon SAVE10 has been used up.");
    expect(refusal({ perCustomerLimit: 1 }, { history: { usesByCustomer: 1 } })?.message).toBe(
      "You have already used coupon SAVE10 as many times as it allows.",
    );
    expect(refusal({ perCustomerLimit: 2 }, { history: { usesByCustomer: 1 } })).toBeNull();
    expect(refusal({ minSubtotal: "25.00" })?.message).toBe(
      "Coupon SAVE10 needs items worth at least £25.00 (postage not included); yours come to £20.00.",
    );
    expect(refusal({ productIds: ["p9"] }, { cart: { eligibleLines: 0, eligiblePence: 0 } })?.message).toBe(
      "Coupon SAVE10 does not apply to any item in your cart.",
    );
    expect(refusal({ firstOrderOnly: true }, { history: { hasEarlierOrder: true } })?.message).toBe("Coupon SAVE10 is for a first order only.");
    expect(couponRefusal(null, "", cart, fresh, NOW)?.message).toBe(
      "That is not a coupon code: codes are 3 to 32 letters, digits, - or _. Please check it and try again.",
    );
  });
});
