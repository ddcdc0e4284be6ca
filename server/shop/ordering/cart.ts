import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { cartItems, products } from "../../db/schema";
import { conflict, invalid, notFound, isUuid } from "../common";
import { unitPricePence } from "../catalogue";

// A customer's cart (table cart_items), keyed by their Telegram user id. Every refusal is a
// ShopError whose message the bot can show the customer as it is.

export type CartLine = {
  productId: string;
  name: string;
  quantity: number;
  unitPricePence: number;
  linePricePence: number;
  stock: number;
  imageUrl: string | null;
};

/** A line that left the cart (or shrank) since the customer last looked, and why, in a sentence. */
export type CartRemoval = { name: string; reason: string };

export type Cart = { lines: CartLine[]; subtotalPence: number; removed: CartRemoval[] };

/** The most of one product a cart may hold, whatever the stock says (keeps totals within numeric(10,2)). */
export const MAX_CART_QUANTITY = 10_000;

function checkQuantity(quantity: number, { allowZero }: { allowZero: boolean }) {
  if (!Number.isInteger(quantity) || quantity < (allowZero ? 0 : 1)) {
    throw invalid(allowZero ? "The quantity must be a whole number of 0 or more." : "The quantity must be a whole number of at least 1.");
  }
  if (quantity > MAX_CART_QUANTITY) throw invalid(`The quantity can be at most ${MAX_CART_QUANTITY}.`);
}


async function findSellable(db: DbOrTx, productId: string) {
  // A malformed id (an old button, a typed command) is "not available", not a database error.
  if (!isUuid(productId)) throw notFound("That product is no longer available.");
  const [product] = await db
    .select({ id: products.id, name: products.name, stock: products.stock, isActive: products.isActive })
    .from(products)
    .where(eq(products.id, productId));
  if (!product || !product.isActive) throw notFound("That product is no longer available.");
  return product;
}

function stockRefusal(name: string, stock: number) {
  return conflict(stock <= 0 ? `${name} is out of stock.` : `Only ${stock} left of ${name}.`);
}

/**
 * The cart as it can be bought now. Lines whose product was deactivated or sold out leave the
 * cart, and quantities above the stock are lowered; both are written back, so the customer is
 * told once and checkout sees the same cart. (Deleted products leave by the foreign key's cascade.)
 */
export async function getCart(db: DbOrTx, telegramUserId: string): Promise<Cart> {
  const rows = await db
    .select({
      id: cartItems.id,
      quantity: cartItems.quantity,
      product: {
        id: products.id,
        name: products.name,
        price: products.price,
        bulkPricing: products.bulkPricing,
        stock: products.stock,
        isActive: products.isActive,
        imageUrl: products.imageUrl,
      },
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.telegramUserId, telegramUserId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));

  const lines: CartLine[] = [];
  const removed: CartRemoval[] = [];
  for (const { id, quantity: wanted, product } of rows) {
    if (!product.isActive) {
      removed.push({ name: product.name, reason: `${product.name} is no longer available, so it was removed from your cart.` });
      await db.delete(cartItems).where(eq(cartItems.id, id));
      continue;
    }
    if (product.stock <= 0) {
      removed.push({ name: product.name, reason: `${product.name} is out of stock, so it was removed from your cart.` });
      await db.delete(cartItems).where(eq(cartItems.id, id));
      continue;
    }
    let quantity = wanted;
    if (wanted > product.stock) {
      quantity = product.stock;
      removed.push({
        name: product.name,
        reason: `Only ${product.stock} left of ${product.name}, so your quantity was lowered to ${product.stock}.`,
      });
      await db.update(cartItems).set({ quantity }).where(eq(cartItems.id, id));
    }
    const unit = unitPricePence(product, quantity);
    lines.push({
      productId: product.id,
      name: product.name,
      quantity,
      unitPricePence: unit,
      linePricePence: unit * quantity,
      stock: product.stock,
      imageUrl: product.imageUrl,
    });
  }
  return { lines, subtotalPence: lines.reduce((sum, line) => sum + line.linePricePence, 0), removed };
}

/** Adds `quantity` more of a product (1 by default), up to what is in stock. */
export async function addToCart(db: DbOrTx, telegramUserId: string, productId: string, quantity = 1): Promise<Cart> {
  checkQuantity(quantity, { allowZero: false });
  const product = await findSellable(db, productId);
  const [existing] = await db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.telegramUserId, telegramUserId), eq(cartItems.productId, productId)));
  const total = (existing?.quantity ?? 0) + quantity;
  if (total > product.stock) {
    if (existing && product.stock > 0) {
      throw conflict(`Only ${product.stock} left of ${product.name}, and ${existing.quantity} ${existing.quantity === 1 ? "is" : "are"} already in your cart.`);
    }
    throw stockRefusal(product.name, product.stock);
  }
  checkQuantity(total, { allowZero: false });
  await db
    .insert(cartItems)
    .values({ telegramUserId, productId, quantity })
    .onConflictDoUpdate({
      target: [cartItems.telegramUserId, cartItems.productId],
      set: { quantity: sql`${cartItems.quantity} + ${quantity}` },
    });
  return getCart(db, telegramUserId);
}

/** Sets a line's quantity; 0 removes the line. */
export async function setCartQuantity(db: DbOrTx, telegramUserId: string, productId: string, quantity: number): Promise<Cart> {
  checkQuantity(quantity, { allowZero: true });
  if (quantity === 0) return removeFromCart(db, telegramUserId, productId);
  const product = await findSellable(db, productId);
  if (quantity > product.stock) throw stockRefusal(product.name, product.stock);
  await db
    .insert(cartItems)
    .values({ telegramUserId, productId, quantity })
    .onConflictDoUpdate({ target: [cartItems.telegramUserId, cartItems.productId], set: { quantity } });
  return getCart(db, telegramUserId);
}

export async function removeFromCart(db: DbOrTx, telegramUserId: string, productId: string): Promise<Cart> {
  await db.delete(cartItems).where(and(eq(cartItems.telegramUserId, telegramUserId), eq(cartItems.productId, productId)));
  return getCart(db, telegramUserId);
}

export async function clearCart(db: DbOrTx, telegramUserId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.telegramUserId, telegramUserId));
}
