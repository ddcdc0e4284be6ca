import { useSyncExternalStore } from "react";
import type { StorefrontLineInput, StorefrontProduct, StorefrontVariant } from "../../contract/storefront";
import { STOREFRONT_MAX_LINES } from "../../contract/storefront";

// The Mini App's cart: in the page's memory and this tab's sessionStorage, so a reload inside
// Telegram keeps it. It is not the bot's cart (the server keeps that one): the lines go to the
// server whole with each quote and order (contract/storefront.ts StorefrontLineInputSchema).

export type CartLine = { productId: string; variantId: string; quantity: number };

const STORAGE_KEY = "storefront-cart";
export const MAX_QUANTITY = 999;

function load(): CartLine[] {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as unknown;
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (line): line is CartLine =>
        typeof line?.productId === "string" && typeof line?.variantId === "string" && Number.isInteger(line?.quantity) && line.quantity > 0,
    );
  } catch {
    return [];
  }
}

let lines: CartLine[] = load();
const listeners = new Set<() => void>();

function save(next: CartLine[]) {
  lines = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(lines));
  } catch {
    // storage refused: the cart lasts as long as the page
  }
  for (const listener of listeners) listener();
}

export const cart = {
  lines: () => lines,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Adds to the line of this variant (a new line at the end otherwise); answers false when the cart has no room for another line. */
  add(productId: string, variantId: string, quantity: number): boolean {
    const existing = lines.find((line) => line.variantId === variantId);
    if (existing) {
      save(lines.map((line) => (line === existing ? { ...line, quantity: Math.min(MAX_QUANTITY, line.quantity + quantity) } : line)));
      return true;
    }
    if (lines.length >= STOREFRONT_MAX_LINES) return false;
    save([...lines, { productId, variantId, quantity: Math.min(MAX_QUANTITY, quantity) }]);
    return true;
  },
  setQuantity(variantId: string, quantity: number) {
    save(quantity <= 0 ? lines.filter((line) => line.variantId !== variantId) : lines.map((line) => (line.variantId === variantId ? { ...line, quantity: Math.min(MAX_QUANTITY, quantity) } : line)));
  },
  remove(variantId: string) {
    save(lines.filter((line) => line.variantId !== variantId));
  },
  /** Keeps only the lines still on sale; answers whether any went. */
  keepOnly(isOnSale: (line: CartLine) => boolean): boolean {
    const kept = lines.filter(isOnSale);
    if (kept.length === lines.length) return false;
    save(kept);
    return true;
  },
  clear() {
    save([]);
  },
};

export function useCart(): CartLine[] {
  return useSyncExternalStore(cart.subscribe, cart.lines);
}

/** A cart line with its product and variant from the catalogue. */
export type ResolvedLine = CartLine & { product: StorefrontProduct; variant: StorefrontVariant };

export function resolveLines(cartLines: CartLine[], products: StorefrontProduct[]): ResolvedLine[] {
  const byId = new Map(products.map((product) => [product.id, product]));
  return cartLines.flatMap((line) => {
    const product = byId.get(line.productId);
    const variant = product?.variants.find((candidate) => candidate.id === line.variantId);
    return product && variant ? [{ ...line, product, variant }] : [];
  });
}

/** The lines as the API takes them: a product sold in one kind names no variant (contract: variantId only with options). */
export function lineInputs(resolved: ResolvedLine[]): StorefrontLineInput[] {
  return resolved.map((line) => (line.product.options.length ? { productId: line.productId, variantId: line.variantId, quantity: line.quantity } : { productId: line.productId, quantity: line.quantity }));
}

// --- Money (GBP, two decimals, as text: contract/fields.ts MoneyTextSchema), counted in pence ---

export const toPence = (money: string) => Math.round(Number(money) * 100);
export const formatPence = (pence: number) => `£${(pence / 100).toFixed(2)}`;
export const formatMoney = (money: string) => formatPence(toPence(money));

/**
 * The unit price of a line as the shop will count it: the variant's own price, or the best bulk tier
 * the product's quantity in the whole cart reaches (tiers count every variant of the product). An
 * estimate for the cart screen; the checkout's quote is the server's word.
 */
export function unitPence(line: ResolvedLine, all: ResolvedLine[]): { pence: number; tier: { minQuantity: number; price: string } | null } {
  const own = toPence(line.variant.price);
  const tiers = line.product.bulkPricing ?? [];
  const productQuantity = all.filter((other) => other.productId === line.productId).reduce((sum, other) => sum + other.quantity, 0);
  const reached = tiers.filter((tier) => productQuantity >= tier.minQuantity).at(-1) ?? null;
  if (!reached || toPence(reached.price) >= own) return { pence: own, tier: null };
  return { pence: toPence(reached.price), tier: reached };
}
