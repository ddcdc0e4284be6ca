import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { cartItems, products } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { insertProduct } from "../../../test-support/factories";
import { addToCart, clearCart, getCart, removeFromCart, setCartQuantity } from "./cart";
import { ShopError } from "../common";
import { translatorFor } from "../languages";

describe("cart", () => {
  let database: Database;
  const customer = "700100";
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(cartItems);
  });

  it("lists lines with unit and line prices (bulk tiers applied) and a subtotal", async () => {
    const { db } = database;
    const widget = await insertProduct(db, {
      name: "Blue Widget",
      price: "10.00",
      stock: 20,
      imageUrl: "/objects/widget.png",
      bulkPricing: [{ minQuantity: 5, price: 8 }],
    });
    const gadget = await insertProduct(db, { name: "Gadget", price: "2.50", stock: 3 });
    await addToCart(db, customer, widget.id, 3);
    await addToCart(db, customer, gadget.id);
    let cart = await addToCart(db, customer, widget.id, 2); // 5 in total: the tier price applies

    expect(cart.lines).toEqual([
      // A product without options is its default variant, whose id is the product's (issue 23).
      {
        variantId: widget.id,
        productId: widget.id,
        name: "Blue Widget",
        productName: "Blue Widget",
        label: "",
        sku: null,
        quantity: 5,
        unitPricePence: 800,
        linePricePence: 4000,
        stock: 20,
        imageUrl: "/objects/widget.png",
      },
      {
        variantId: gadget.id,
        productId: gadget.id,
        name: "Gadget",
        productName: "Gadget",
        label: "",
        sku: null,
        quantity: 1,
        unitPricePence: 250,
        linePricePence: 250,
        stock: 3,
        imageUrl: null,
      },
    ]);
    expect(cart.subtotalPence).toBe(4250);
    expect(cart.removed).toEqual([]);

    cart = await setCartQuantity(db, customer, widget.id, 4);
    expect(cart.lines[0]).toMatchObject({ quantity: 4, unitPricePence: 1000, linePricePence: 4000 });
    cart = await setCartQuantity(db, customer, gadget.id, 0);
    expect(cart.lines.map((line) => line.name)).toEqual(["Blue Widget"]);
    cart = await removeFromCart(db, customer, widget.id);
    expect(cart).toEqual({ lines: [], subtotalPence: 0, removed: [] });
  });

  it("refuses more than the stock with a sentence the customer can read", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Blue Widget", stock: 3 });
    await expect(addToCart(db, customer, widget.id, 4)).rejects.toThrow("Only 3 left of Blue Widget.");
    await addToCart(db, customer, widget.id, 2);
    await expect(addToCart(db, customer, widget.id, 2)).rejects.toThrow(
      "Only 3 left of Blue Widget, and 2 are already in your cart.",
    );
    await expect(setCartQuantity(db, customer, widget.id, 4)).rejects.toThrow("Only 3 left of Blue Widget.");
    const soldOut = await insertProduct(db, { name: "Red Widget", stock: 0 });
    await expect(addToCart(db, customer, soldOut.id)).rejects.toThrow("Red Widget is out of stock.");
    expect((await getCart(db, customer)).lines.map((l) => [l.name, l.quantity])).toEqual([["Blue Widget", 2]]);
  });

  it("refuses inactive, unknown and malformed products and bad quantities", async () => {
    const { db } = database;
    const hidden = await insertProduct(db, { name: "Hidden", isActive: false });
    await expect(addToCart(db, customer, hidden.id)).rejects.toThrow("That product is no longer available.");
    await expect(addToCart(db, customer, "00000000-0000-4000-8000-000000000000")).rejects.toThrow("no longer available");
    await expect(addToCart(db, customer, "not-an-id")).rejects.toBeInstanceOf(ShopError);
    const widget = await insertProduct(db, { stock: 5 });
    await expect(addToCart(db, customer, widget.id, 0)).rejects.toThrow("at least 1");
    await expect(addToCart(db, customer, widget.id, 1.5)).rejects.toThrow("whole number");
    await expect(setCartQuantity(db, customer, widget.id, -1)).rejects.toThrow("whole number");
  });

  it("drops deactivated, deleted and sold-out products and lowers quantities above stock, saying why once", async () => {
    const { db } = database;
    const a = await insertProduct(db, { name: "Alpha", stock: 10 });
    const b = await insertProduct(db, { name: "Bravo", stock: 10 });
    const c = await insertProduct(db, { name: "Charlie", stock: 10 });
    const d = await insertProduct(db, { name: "Delta", stock: 10 });
    const e = await insertProduct(db, { name: "Echo", stock: 10 });
    for (const p of [a, b, c, d, e]) await addToCart(db, customer, p.id, 5);

    await db.update(products).set({ isActive: false }).where(eq(products.id, a.id));
    await db.update(products).set({ stock: 0 }).where(eq(products.id, b.id));
    await db.update(products).set({ stock: 2 }).where(eq(products.id, c.id));
    await db.delete(products).where(eq(products.id, d.id));

    const cart = await getCart(db, customer);
    expect(cart.lines.map((l) => [l.name, l.quantity])).toEqual([
      ["Charlie", 2],
      ["Echo", 5],
    ]);
    // Each with the same sentence by its locale key, for the bot to say in the customer's language.
    expect(cart.removed).toEqual([
      { name: "Alpha", reason: "Alpha is no longer available, so it was removed from your cart.", customerText: { key: "cart-removed-gone", values: { name: "Alpha" } } },
      { name: "Bravo", reason: "Bravo is out of stock, so it was removed from your cart.", customerText: { key: "cart-removed-sold-out", values: { name: "Bravo" } } },
      {
        name: "Charlie",
        reason: "Only 2 left of Charlie, so your quantity was lowered to 2.",
        customerText: { key: "cart-quantity-lowered", values: { name: "Charlie", stock: "2" } },
      },
    ]);
    const english = translatorFor("en");
    for (const removal of cart.removed) expect(english.say(removal.customerText)).toBe(removal.reason);
    // Told once: the cart now holds what can be bought.
    expect((await getCart(db, customer)).removed).toEqual([]);
  });

  it("names a product as the customer's language does in what it says to them; the shop's English keeps its own name", async () => {
    const { db } = database;
    const hat = await insertProduct(db, { name: "Wool Hat", stock: 10, translations: { de: { name: "Wollmütze" } } });
    const gone = await insertProduct(db, { name: "Rain Jacket", stock: 10, translations: { de: { name: "Regenjacke" } } });
    await addToCart(db, customer, hat.id, 5, "de");
    await addToCart(db, customer, gone.id, 1, "de");
    const refusal = await addToCart(db, customer, hat.id, 6, "de").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ShopError);
    expect((refusal as ShopError).message).toBe("Only 10 left of Wool Hat, and 5 are already in your cart.");
    expect(translatorFor("de").refusal(refusal as ShopError)).toBe("Von Wollmütze sind nur noch 10 übrig, und 5 liegen schon in deinem Warenkorb.");
    await expect(setCartQuantity(db, customer, hat.id, 11, "de")).rejects.toMatchObject({ message: "Only 10 left of Wool Hat.", customerText: { values: { name: "Wollmütze" } } });

    await db.update(products).set({ stock: 2 }).where(eq(products.id, hat.id));
    await db.update(products).set({ isActive: false }).where(eq(products.id, gone.id));
    const cart = await getCart(db, customer, "de");
    expect(cart.removed.map((removal) => [removal.reason, translatorFor("de").say(removal.customerText)])).toEqual([
      ["Only 2 left of Wool Hat, so your quantity was lowered to 2.", "Von Wollmütze sind nur noch 2 übrig, deshalb wurde deine Menge auf 2 gesenkt."],
      ["Rain Jacket is no longer available, so it was removed from your cart.", "Regenjacke ist nicht mehr erhältlich und wurde aus deinem Warenkorb entfernt."],
    ]);
    // In English (or without a language) the product's own name, word for word as before.
    await setCartQuantity(db, customer, hat.id, 2);
    await db.update(products).set({ stock: 1 }).where(eq(products.id, hat.id));
    const [lowered] = (await getCart(db, customer, "en")).removed;
    expect(translatorFor("en").say(lowered!.customerText)).toBe("Only 1 left of Wool Hat, so your quantity was lowered to 1.");
  });

  it("keeps each customer's cart apart and clears one", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { stock: 10 });
    await addToCart(db, customer, widget.id, 2);
    await addToCart(db, "700200", widget.id, 3);
    await clearCart(db, customer);
    expect((await getCart(db, customer)).lines).toEqual([]);
    expect((await getCart(db, "700200")).lines[0]!.quantity).toBe(3);
  });
});
