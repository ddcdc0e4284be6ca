import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { botSettings, cartItems, orderItems, orders, productVariants, products } from "../../db/schema";
import { createNowPaymentsGatewayFromSettings } from "../../gateways/nowpayments/client";
import { createTestDatabase } from "../../../test-support/database";
import { insertProduct } from "../../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../../test-support/fake-nowpayments";
import { configurePayments, TEST_NOWPAYMENTS_API_KEY } from "../../../test-support/payments-setup";
import { replaceVariants } from "../catalogue";
import { releaseOrderStock } from "../orders";
import { addToCart, getCart } from "./cart";
import { checkout, quoteCheckout, type CheckoutDeps } from "./checkout";

// Issue 23: checkout with sizes and colours (docs/decisions/0034-product-variants.md): stock taken per
// variant, prices per variant with the product's bulk tiers, the order keeping the label and SKU.

const address = { name: "Ada Lovelace", streetAddress: "12 Analytical Row, London", postcode: "NW1 2AB", contact: "@ada" };
const SIZE = { name: "Size", values: ["S", "M", "L"] };
const COLOUR = { name: "Colour", values: ["Black", "White"] };

describe("checkout of variants", () => {
  let database: Database;
  let gateway: FakeNowPayments;
  let deps: CheckoutDeps;
  let customerSeq = 0;
  const nextCustomer = () => `8100${++customerSeq}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    const secrets = createSecretBox(Buffer.alloc(32, 3));
    const config = { ...loadConfig({}), nowpaymentsApiUrl: gateway.url, publicUrl: "https://shop.example" };
    deps = { db: database.db, secrets, config, gateway: createNowPaymentsGatewayFromSettings({ db: database.db, secrets, config }), now: () => new Date() };
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(botSettings);
    await configurePayments(deps);
    gateway.created.length = 0;
  });

  /** A tee in S, M, L × Black, White with `stock` each; M / Black has its own price and SKU. */
  async function tee(stock: number, bulkPricing: { minQuantity: number; price: number }[] | null = null) {
    const product = await insertProduct(database.db, { name: "Acceptance Tee", price: "20.00", stock: 0, bulkPricing });
    const variants = SIZE.values.flatMap((size) =>
      COLOUR.values.map((colour) => ({
        optionValues: { Size: size, Colour: colour },
        sku: size === "M" && colour === "Black" ? "TEE-M-BLK" : null,
        price: size === "M" && colour === "Black" ? "24.00" : null,
        stock,
        imageUrl: null,
        isActive: true,
      })),
    );
    const saved = await replaceVariants(database.db, product.id, { options: [SIZE, COLOUR], variants }, new Date());
    const byLabel = new Map(saved.variants.map((variant) => [variant.label, variant]));
    return { product: saved, variant: (label: string) => byLabel.get(label)! };
  }
  const stocks = async (productId: string) =>
    Object.fromEntries(
      (await database.db.select().from(productVariants).where(eq(productVariants.productId, productId))).map((row) => [row.label, row.stock]),
    );
  const productStock = async (productId: string) => (await database.db.select().from(products).where(eq(products.id, productId)))[0]!.stock;

  it("sells exactly the 10 units of one variant to 200 buyers at once, the other variants untouched", async () => {
    const { product, variant } = await tee(10);
    const mBlack = variant("M / Black");
    const buyers = Array.from({ length: 200 }, () => nextCustomer());
    // Filled directly: each cart holds one unit, as if all 200 added it while stock lasted.
    await database.db.insert(cartItems).values(buyers.map((telegramUserId) => ({ telegramUserId, productId: product.id, variantId: mBlack.id, quantity: 1 })));

    const results = await Promise.allSettled(buyers.map((buyer) => checkout(deps, { telegramUserId: buyer, shippingAddress: address, postageOptionId: null, coin: "BTC" })));

    const sold = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(sold).toHaveLength(10);
    for (const result of refused) expect(String(result.reason.message)).toBe("Not enough stock for Acceptance Tee (M / Black): only 0 left.");
    expect(await stocks(product.id)).toEqual({ "S / Black": 10, "S / White": 10, "M / Black": 0, "M / White": 10, "L / Black": 10, "L / White": 10 });
    expect(await productStock(product.id)).toBe(50);
    const lines = await database.db.select().from(orderItems).where(eq(orderItems.variantId, mBlack.id));
    expect(lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(10);
    expect(gateway.created).toHaveLength(10);
  });

  it("prices each variant with the product's tiers counted over all its sizes, and the order keeps label and SKU", async () => {
    const { product, variant } = await tee(5, [{ minQuantity: 4, price: 18 }]);
    const customer = nextCustomer();
    await addToCart(database.db, customer, variant("M / Black").id, 2);
    await addToCart(database.db, customer, variant("S / White").id, 2);
    const cart = await getCart(database.db, customer);
    // 4 tees reach the tier: £2 off each, off M / Black's own £24 too.
    expect(cart.lines.map((line) => [line.name, line.unitPricePence, line.sku])).toEqual([
      ["Acceptance Tee (M / Black)", 2200, "TEE-M-BLK"],
      ["Acceptance Tee (S / White)", 1800, null],
    ]);
    const quote = await quoteCheckout(deps, { telegramUserId: customer, postageOptionId: null });
    expect(quote.totalPence).toBe(8000);

    const { order, items } = await checkout(deps, { telegramUserId: customer, shippingAddress: address, postageOptionId: null, coin: "BTC", quotedTotalPence: 8000 });
    expect(items.map((item) => [item.productName, item.variantLabel, item.sku, item.price, item.quantity])).toEqual([
      ["Acceptance Tee", "M / Black", "TEE-M-BLK", "22.00", 2],
      ["Acceptance Tee", "S / White", null, "18.00", 2],
    ]);
    expect(await stocks(product.id)).toMatchObject({ "M / Black": 3, "S / White": 3, "L / Black": 5 });

    // Released (the order failed), the stock goes back to the variants it came from, once.
    const release = () => database.db.transaction((tx) => releaseOrderStock(tx, order.id, new Date()));
    expect(await release()).toBe(true);
    expect(await release()).toBe(false);
    expect(await stocks(product.id)).toMatchObject({ "M / Black": 5, "S / White": 5 });
    expect(await productStock(product.id)).toBe(30);
    const [stored] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored!.stockReleasedAt).not.toBeNull();
  });

  it("refuses a product with options put in the cart without a choice, and a switched-off variant", async () => {
    const { product, variant } = await tee(3);
    const customer = nextCustomer();
    await expect(addToCart(database.db, customer, product.id)).rejects.toThrow("Please choose the options first.");
    await database.db.update(productVariants).set({ isActive: false }).where(eq(productVariants.id, variant("L / White").id));
    await expect(addToCart(database.db, customer, variant("L / White").id)).rejects.toThrow("That product is no longer available.");
    // Switched off while in a cart: it leaves the cart with a reason.
    await addToCart(database.db, customer, variant("L / Black").id);
    await database.db.update(productVariants).set({ isActive: false }).where(eq(productVariants.id, variant("L / Black").id));
    const cart = await getCart(database.db, customer);
    expect(cart.lines).toEqual([]);
    expect(cart.removed).toEqual([
      {
        name: "Acceptance Tee (L / Black)",
        reason: "Acceptance Tee (L / Black) is no longer available, so it was removed from your cart.",
        customerText: { key: "cart-removed-gone", values: { name: "Acceptance Tee (L / Black)" } },
      },
    ]);
  });
});
