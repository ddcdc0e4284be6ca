import type { BulkPricingTier } from "../../db/schema";
import { invalid } from "../common";

// Money is integer pence inside the code (docs/product.md §11): "4.99" strings only at the edges,
// so totals never pick up floating-point pennies.

/** "4.99", "4.9", "4", 4.99 -> pence. Tier prices are numbers and may carry more decimals: rounded to the penny. */
export function toPence(amount: string | number): number {
  const text = typeof amount === "number" ? String(amount) : amount.trim();
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (match) {
    const pence = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
    return match[1] ? -pence : pence;
  }
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) throw invalid(`"${text}" is not an amount of money.`);
  return Math.round(value * 100);
}

/** 499 -> "4.99"; the two-decimal string of the API and the database. */
export function formatPence(pence: number): string {
  if (!Number.isInteger(pence)) throw new Error(`formatPence needs whole pence, got ${pence}`);
  const sign = pence < 0 ? "-" : "";
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

export type PricedProduct = { price: string | number; bulkPricing?: BulkPricingTier[] | null };

/**
 * The unit price for buying `quantity`: the price of the highest bulk tier whose minQuantity is
 * at most the quantity, else the base price. Tiers are looked at by minQuantity, not by their
 * order in the list, so an unsorted list stored by hand still prices correctly.
 */
export function unitPricePence(product: PricedProduct, quantity: number): number {
  let best: BulkPricingTier | null = null;
  for (const tier of product.bulkPricing ?? []) {
    if (tier.minQuantity <= quantity && (!best || tier.minQuantity > best.minQuantity)) best = tier;
  }
  return toPence(best ? best.price : product.price);
}

/**
 * A variant's unit price for buying `quantity` of its product (issue 23; docs/decisions/0034-product-variants.md):
 * without its own price, the product's tier price; with one, a tier takes off the variant's price what
 * it takes off the product's ("buy 5, save £1 each"), never below £0. `quantity` counts every variant
 * of the product in the cart, so 2 S and 3 M reach a tier of 5.
 */
export function variantUnitPricePence(product: PricedProduct, variantPrice: string | null, quantity: number): number {
  const tierPence = unitPricePence(product, quantity);
  if (variantPrice === null) return tierPence;
  return Math.max(0, toPence(variantPrice) - (toPence(product.price) - tierPence));
}
