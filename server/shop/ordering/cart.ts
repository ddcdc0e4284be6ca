import { and, asc, eq, sql } from "drizzle-orm";
import { itemDisplayName, type Language, type NameTranslations } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { cartItems, products, productVariants } from "../../db/schema";
import { conflict, type CustomerText, invalid, notFound, isUuid } from "../common";
import { variantUnitPricePence } from "../catalogue";
import { localizedName } from "../languages";

// A customer's cart (table cart_items), keyed by their Telegram user id. A line is one variant of a
// product (issue 23): for a product without options its hidden default variant, whose id is the
// product's, so a product's id can be put in the cart as it always was. Every refusal is a ShopError
// whose message the bot can show the customer as it is. Given the customer's language (issue 26), the
// sentences in it (customerText) name a product as the customer's catalogue does; the message, the
// shop's English, keeps the product's own name.

export type CartLine = {
  variantId: string;
  productId: string;
  /** "Acceptance Tee (M / Black)", or the product's name for a product without options. */
  name: string;
  productName: string;
  /** "M / Black"; "" for a product without options. */
  label: string;
  sku: string | null;
  quantity: number;
  unitPricePence: number;
  linePricePence: number;
  /** The variant's stock. */
  stock: number;
  imageUrl: string | null;
};

/** A line that left the cart (or shrank) since the customer last looked, and why, in a sentence. */
export type CartRemoval = { name: string; reason: string; customerText: CustomerText };

export type Cart = { lines: CartLine[]; subtotalPence: number; removed: CartRemoval[] };

/** The most of one variant a cart may hold, whatever the stock says (keeps totals within numeric(10,2)). */
export const MAX_CART_QUANTITY = 10_000;

export const CHOOSE_OPTIONS_FIRST = "Please choose the options first.";

/**
 * "Wollmütze (M / Schwarz)": a line's name as the customer sees it in their language, for the
 * sentences the bot tells them in it; the product's own name without a language or a translation.
 */
export function shownItemName(product: { name: string; translations?: NameTranslations | null }, label: string, language: Language | undefined): string {
  return itemDisplayName(language ? localizedName(product, language) : product.name, label);
}

function checkQuantity(quantity: number, { allowZero }: { allowZero: boolean }) {
  if (!Number.isInteger(quantity) || quantity < (allowZero ? 0 : 1)) {
    throw allowZero
      ? invalid("The quantity must be a whole number of 0 or more.", { key: "refusal-quantity-zero-or-more" })
      : invalid("The quantity must be a whole number of at least 1.", { key: "refusal-quantity-at-least-one" });
  }
  if (quantity > MAX_CART_QUANTITY) throw invalid(`The quantity can be at most ${MAX_CART_QUANTITY}.`, { key: "refusal-quantity-at-most", values: { max: String(MAX_CART_QUANTITY) } });
}

/** A variant that can be put in a cart, with its product's name (and as shown in `language`); a product's id means its default variant. */
async function findSellable(db: DbOrTx, variantId: string, language: Language | undefined) {
  // A malformed id (an old button, a typed command) is "not available", not a database error.
  if (!isUuid(variantId)) throw productGone();
  const [found] = await db
    .select({
      id: productVariants.id,
      productId: products.id,
      productName: products.name,
      productTranslations: products.translations,
      label: productVariants.label,
      stock: productVariants.stock,
      isActive: sql<boolean>`${products.isActive} and ${productVariants.isActive}`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId));
  if (!found) {
    // The id of a product with options (an old button from before they were added): a size must be chosen.
    const [product] = await db.select({ isActive: products.isActive }).from(products).where(eq(products.id, variantId));
    if (product?.isActive) throw invalid(CHOOSE_OPTIONS_FIRST, { key: "refusal-choose-options" });
    throw productGone();
  }
  const name = itemDisplayName(found.productName, found.label);
  if (!found.isActive) throw productGone();
  return { ...found, name, shownName: shownItemName({ name: found.productName, translations: found.productTranslations }, found.label, language) };
}

const productGone = () => notFound("That product is no longer available.", { key: "refusal-product-gone" });

function stockRefusal(variant: { name: string; shownName: string; stock: number }) {
  const { name, shownName, stock } = variant;
  return stock <= 0
    ? conflict(`${name} is out of stock.`, { key: "refusal-out-of-stock", values: { name: shownName } })
    : conflict(`Only ${stock} left of ${name}.`, { key: "refusal-only-left", values: { name: shownName, stock: String(stock) } });
}

/**
 * The cart as it can be bought now. Lines whose product or variant was switched off or sold out
 * leave the cart, and quantities above the stock are lowered; both are written back, so the customer
 * is told once and checkout sees the same cart. (Deleted products leave by the foreign key's cascade,
 * deleted variants with the edit that deleted them.) Bulk tiers count every variant of a product.
 * `language`: the customer's, for the sentences saying what changed.
 */
export async function getCart(db: DbOrTx, telegramUserId: string, language?: Language): Promise<Cart> {
  const rows = await db
    .select({
      id: cartItems.id,
      quantity: cartItems.quantity,
      product: {
        id: products.id,
        name: products.name,
        price: products.price,
        bulkPricing: products.bulkPricing,
        isActive: products.isActive,
        imageUrl: products.imageUrl,
        translations: products.translations,
      },
      variant: {
        id: productVariants.id,
        label: productVariants.label,
        sku: productVariants.sku,
        price: productVariants.price,
        stock: productVariants.stock,
        isActive: productVariants.isActive,
        imageUrl: productVariants.imageUrl,
      },
    })
    .from(cartItems)
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.telegramUserId, telegramUserId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));

  const kept: { quantity: number; product: (typeof rows)[number]["product"]; variant: (typeof rows)[number]["variant"]; name: string }[] = [];
  const removed: CartRemoval[] = [];
  for (const { id, quantity: wanted, product, variant } of rows) {
    const name = itemDisplayName(product.name, variant.label);
    const shownName = shownItemName(product, variant.label, language);
    if (!product.isActive || !variant.isActive) {
      removed.push({ name, reason: `${name} is no longer available, so it was removed from your cart.`, customerText: { key: "cart-removed-gone", values: { name: shownName } } });
      await db.delete(cartItems).where(eq(cartItems.id, id));
      continue;
    }
    if (variant.stock <= 0) {
      removed.push({ name, reason: `${name} is out of stock, so it was removed from your cart.`, customerText: { key: "cart-removed-sold-out", values: { name: shownName } } });
      await db.delete(cartItems).where(eq(cartItems.id, id));
      continue;
    }
    let quantity = wanted;
    if (wanted > variant.stock) {
      quantity = variant.stock;
      removed.push({
        name,
        reason: `Only ${variant.stock} left of ${name}, so your quantity was lowered to ${variant.stock}.`,
        customerText: { key: "cart-quantity-lowered", values: { name: shownName, stock: String(variant.stock) } },
      });
      await db.update(cartItems).set({ quantity }).where(eq(cartItems.id, id));
    }
    kept.push({ quantity, product, variant, name });
  }

  const perProduct = new Map<string, number>();
  for (const line of kept) perProduct.set(line.product.id, (perProduct.get(line.product.id) ?? 0) + line.quantity);
  const lines: CartLine[] = kept.map(({ quantity, product, variant, name }) => {
    const unit = variantUnitPricePence(product, variant.price, perProduct.get(product.id)!);
    return {
      variantId: variant.id,
      productId: product.id,
      name,
      productName: product.name,
      label: variant.label,
      sku: variant.sku,
      quantity,
      unitPricePence: unit,
      linePricePence: unit * quantity,
      stock: variant.stock,
      imageUrl: variant.imageUrl ?? product.imageUrl,
    };
  });
  return { lines, subtotalPence: lines.reduce((sum, line) => sum + line.linePricePence, 0), removed };
}

/** Adds `quantity` more of a variant (1 by default; a product's id: its default variant), up to what is in stock. */
export async function addToCart(db: DbOrTx, telegramUserId: string, variantId: string, quantity = 1, language?: Language): Promise<Cart> {
  checkQuantity(quantity, { allowZero: false });
  const variant = await findSellable(db, variantId, language);
  const [existing] = await db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.telegramUserId, telegramUserId), eq(cartItems.variantId, variant.id)));
  const total = (existing?.quantity ?? 0) + quantity;
  if (total > variant.stock) {
    if (existing && variant.stock > 0) {
      throw conflict(`Only ${variant.stock} left of ${variant.name}, and ${existing.quantity} ${existing.quantity === 1 ? "is" : "are"} already in your cart.`, {
        key: "refusal-only-left-in-cart",
        values: { name: variant.shownName, stock: String(variant.stock), inCart: existing.quantity },
      });
    }
    throw stockRefusal(variant);
  }
  checkQuantity(total, { allowZero: false });
  await db
    .insert(cartItems)
    .values({ telegramUserId, productId: variant.productId, variantId: variant.id, quantity })
    .onConflictDoUpdate({
      target: [cartItems.telegramUserId, cartItems.variantId],
      set: { quantity: sql`${cartItems.quantity} + ${quantity}` },
    });
  return getCart(db, telegramUserId, language);
}

/** Sets a line's quantity; 0 removes the line. */
export async function setCartQuantity(db: DbOrTx, telegramUserId: string, variantId: string, quantity: number, language?: Language): Promise<Cart> {
  checkQuantity(quantity, { allowZero: true });
  if (quantity === 0) return removeFromCart(db, telegramUserId, variantId, language);
  const variant = await findSellable(db, variantId, language);
  if (quantity > variant.stock) throw stockRefusal(variant);
  await db
    .insert(cartItems)
    .values({ telegramUserId, productId: variant.productId, variantId: variant.id, quantity })
    .onConflictDoUpdate({ target: [cartItems.telegramUserId, cartItems.variantId], set: { quantity } });
  return getCart(db, telegramUserId, language);
}

export async function removeFromCart(db: DbOrTx, telegramUserId: string, variantId: string, language?: Language): Promise<Cart> {
  if (isUuid(variantId)) await db.delete(cartItems).where(and(eq(cartItems.telegramUserId, telegramUserId), eq(cartItems.variantId, variantId)));
  return getCart(db, telegramUserId, language);
}

export async function clearCart(db: DbOrTx, telegramUserId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.telegramUserId, telegramUserId));
}
