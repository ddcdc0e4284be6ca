import { describe, expect, it } from "vitest";
import { formatPence, toPence, unitPricePence, variantUnitPricePence } from "./pricing";

describe("money in pence", () => {
  it("reads GBP amounts without floating-point pennies", () => {
    expect(toPence("4.99")).toBe(499);
    expect(toPence("4.9")).toBe(490);
    expect(toPence("4")).toBe(400);
    expect(toPence("0.01")).toBe(1);
    expect(toPence("1234567.89")).toBe(123456789);
    expect(toPence(4.35)).toBe(435); // 4.35 * 100 is 434.99999... in floating point
    expect(toPence(0.1 + 0.2)).toBe(30);
    expect(() => toPence("four")).toThrow(/not an amount/);
  });

  it("writes two-decimal strings", () => {
    expect(formatPence(499)).toBe("4.99");
    expect(formatPence(5)).toBe("0.05");
    expect(formatPence(0)).toBe("0.00");
    expect(formatPence(100000)).toBe("1000.00");
    expect(formatPence(-250)).toBe("-2.50");
  });
});

describe("unit price with bulk tiers", () => {
  const widget = {
    price: "10.00",
    // Stored out of order on purpose: the highest qualifying tier wins, not the last listed.
    bulkPricing: [
      { minQuantity: 10, price: 7.5 },
      { minQuantity: 5, price: 8.99 },
    ],
  };

  it("uses the base price below the first tier", () => {
    expect(unitPricePence(widget, 1)).toBe(1000);
    expect(unitPricePence(widget, 4)).toBe(1000);
  });

  it("switches tier exactly at each minQuantity", () => {
    expect(unitPricePence(widget, 5)).toBe(899);
    expect(unitPricePence(widget, 9)).toBe(899);
    expect(unitPricePence(widget, 10)).toBe(750);
    expect(unitPricePence(widget, 1000)).toBe(750);
  });

  it("uses the base price when there are no tiers", () => {
    expect(unitPricePence({ price: "3.50", bulkPricing: null }, 50)).toBe(350);
    expect(unitPricePence({ price: "3.50", bulkPricing: [] }, 50)).toBe(350);
    expect(unitPricePence({ price: "3.50" }, 2)).toBe(350);
  });

  it("allows a free tier and rounds a tier price with extra decimals to the penny", () => {
    expect(unitPricePence({ price: "1.00", bulkPricing: [{ minQuantity: 2, price: 0 }] }, 2)).toBe(0);
    expect(unitPricePence({ price: "1.00", bulkPricing: [{ minQuantity: 2, price: 0.555 }] }, 2)).toBe(56);
  });
});

describe("a variant's unit price (docs/decisions/0034-product-variants.md)", () => {
  const tee = { price: "20.00", bulkPricing: [{ minQuantity: 5, price: 18 }, { minQuantity: 10, price: 15 }] };

  it("is the product's tier price without a price of its own", () => {
    expect(variantUnitPricePence(tee, null, 1)).toBe(2000);
    expect(variantUnitPricePence(tee, null, 5)).toBe(1800);
  });

  it("takes off its own price what a tier takes off the product's, never below £0", () => {
    expect(variantUnitPricePence(tee, "24.00", 1)).toBe(2400);
    expect(variantUnitPricePence(tee, "24.00", 5)).toBe(2200);
    expect(variantUnitPricePence(tee, "24.00", 12)).toBe(1900);
    expect(variantUnitPricePence(tee, "3.00", 12)).toBe(0);
  });
});
