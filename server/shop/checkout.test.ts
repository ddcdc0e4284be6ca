import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createSecretBox } from "../crypto";
import type { Database } from "../db/client";
import { botSettings, cartItems, orderItems, orders, postageOptions, products } from "../db/schema";
import { createNowPaymentsGateway } from "../payments/nowpayments";
import { createTestDatabase } from "../testing/database";
import { insertProduct } from "../testing/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../testing/fake-nowpayments";
import { configurePayments, TEST_NOWPAYMENTS_API_KEY } from "../testing/payments-setup";
import { addToCart, getCart } from "./cart";
import { checkout, type CheckoutDeps, type CheckoutInput } from "./checkout";

const address = { name: "Ada Lovelace", streetAddress: "12 Analytical Row, London", postcode: "NW1 2AB", contact: "@ada" };

describe("checkout", () => {
  let database: Database;
  let gateway: FakeNowPayments;
  let deps: CheckoutDeps;
  let customerSeq = 0;
  const nextCustomer = () => `8000${++customerSeq}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    deps = {
      db: database.db,
      secrets: createSecretBox(Buffer.alloc(32, 3)),
      config: { ...loadConfig({}), nowpaymentsApiUrl: gateway.url, publicUrl: "https://shop.example" },
      now: () => new Date(),
    };
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(botSettings);
    await configurePayments(deps);
    gateway.refuseWith(null);
    gateway.hang(false);
    gateway.created.length = 0;
  });

  const input = (telegramUserId: string, overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
    telegramUserId,
    telegramUsername: "ada",
    shippingAddress: address,
    postageOptionId: null,
    coin: "BTC",
    ...overrides,
  });
  const stockOf = async (id: string) =>
    (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const ordersOf = (telegramUserId: string) =>
    database.db.select().from(orders).where(eq(orders.telegramUserId, telegramUserId));

  it("creates the order with bulk prices and postage, reserves stock, empties the cart and asks the gateway for the total", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Blue Widget", price: "10.00", stock: 20, bulkPricing: [{ minQuantity: 5, price: 8 }] });
    const gadget = await insertProduct(db, { name: "Gadget", price: "2.50", stock: 3 });
    const [postage] = await db.insert(postageOptions).values({ name: "Royal Mail 1st Class", price: "3.99" }).returning();
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 5);
    await addToCart(db, customer, gadget.id, 1);

    const result = await checkout(deps, input(customer, { postageOptionId: postage!.id, coin: "LTC" }));

    // 5 x 8.00 (tier) + 1 x 2.50 + 3.99 postage
    expect(result.order).toMatchObject({
      telegramUserId: customer,
      telegramUsername: "ada",
      status: "pending",
      paymentStatus: "waiting",
      currency: "GBP",
      totalAmount: "46.49",
      paymentMethod: "ltc",
      postageOptionId: postage!.id,
      shippingAddress: address,
    });
    expect(result.items.map((i) => [i.productName, i.quantity, i.price])).toEqual([
      ["Blue Widget", 5, "8.00"],
      ["Gadget", 1, "2.50"],
    ]);
    expect(await stockOf(widget.id)).toBe(15);
    expect(await stockOf(gadget.id)).toBe(2);
    expect((await getCart(db, customer)).lines).toEqual([]);

    expect(gateway.created).toHaveLength(1);
    const call = gateway.created[0]!;
    expect(call.apiKey).toBe(TEST_NOWPAYMENTS_API_KEY);
    expect(call.body).toMatchObject({
      price_amount: 46.49,
      price_currency: "gbp",
      pay_currency: "ltc",
      order_id: result.order.id,
      ipn_callback_url: "https://shop.example/api/payments/webhook",
    });
    expect(call.body.order_description).toContain("5 x Blue Widget");

    const paid = gateway.payments.get(result.order.paymentId!)!;
    expect(result.payment).toEqual({
      payAddress: paid.pay_address,
      payAmount: String(paid.pay_amount),
      payCurrency: "ltc",
      expiresAt: paid.expiration_estimate_date,
    });
    const [stored] = await ordersOf(customer);
    expect(stored).toMatchObject({ paymentId: paid.payment_id, payAddress: paid.pay_address, payAmount: String(paid.pay_amount), payCurrency: "ltc" });
    expect(stored!.paymentExpiresAt?.toISOString()).toBe(paid.expiration_estimate_date);
  });

  it("leaves out the IPN callback when the server has no public address (the rescue sweep polls instead)", async () => {
    const widget = await insertProduct(database.db, { stock: 5 });
    const customer = nextCustomer();
    await addToCart(database.db, customer, widget.id);
    await checkout({ ...deps, config: { ...deps.config, publicUrl: undefined } }, input(customer));
    expect(gateway.created[0]!.body).not.toHaveProperty("ipn_callback_url");
  });

  it("creates nothing when a line ran short, and names the product", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Blue Widget", stock: 10 });
    const gadget = await insertProduct(db, { name: "Gadget", stock: 5 });
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 4);
    await addToCart(db, customer, gadget.id, 3);
    await db.update(products).set({ stock: 2 }).where(eq(products.id, gadget.id)); // someone else bought some

    await expect(checkout(deps, input(customer))).rejects.toThrow("Not enough stock for Gadget: only 2 left.");
    expect(await ordersOf(customer)).toEqual([]);
    expect(await stockOf(widget.id)).toBe(10);
    expect(await stockOf(gadget.id)).toBe(2);
    expect(gateway.created).toHaveLength(0);
    const cart = await db.select().from(cartItems).where(eq(cartItems.telegramUserId, customer));
    expect(cart).toHaveLength(2);
  });

  it("fails the order at once and puts the stock back when the gateway refuses", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Blue Widget", stock: 10 });
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 3);
    gateway.refuseWith({ status: 400, message: "amountTo is too small" });

    await expect(checkout(deps, input(customer))).rejects.toThrow(
      "The payment service refused the payment: amountTo is too small. Your order was cancelled and your cart kept, so you can try again.",
    );
    const [order] = await ordersOf(customer);
    expect(order).toMatchObject({ status: "failed", paymentStatus: "failed", paymentId: null });
    expect(order!.stockReleasedAt).not.toBeNull();
    expect(await stockOf(widget.id)).toBe(10);
    expect((await getCart(db, customer)).lines.map((l) => l.quantity)).toEqual([3]);

    gateway.refuseWith({ status: 500, message: "Internal error" });
    await expect(checkout(deps, input(customer))).rejects.toThrow(/payment service answered with an error \(500\)/);
    expect(await stockOf(widget.id)).toBe(10);
  });

  it("gives up on a gateway that does not answer, with a clear message", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { stock: 4 });
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 4);
    gateway.hang(true);
    const quick = createNowPaymentsGateway({ apiUrl: gateway.url, getApiKey: async () => TEST_NOWPAYMENTS_API_KEY, timeoutMs: 200 });
    await expect(checkout({ ...deps, gateway: quick }, input(customer))).rejects.toThrow(
      /did not answer in time.*Your order was cancelled/,
    );
    expect(await stockOf(widget.id)).toBe(4);
    expect((await ordersOf(customer))[0]!.status).toBe("failed");
  });

  it("refuses before creating anything when payments are not configured", async () => {
    const { db } = database;
    await db.delete(botSettings);
    await configurePayments(deps, { apiKey: null });
    const widget = await insertProduct(db, { stock: 4 });
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 2);
    await expect(checkout(deps, input(customer))).rejects.toThrow(/Payments are not configured/);
    await db.delete(botSettings);
    await expect(checkout(deps, input(customer))).rejects.toThrow(/Payments are not configured/);
    expect(await ordersOf(customer)).toEqual([]);
    expect(await stockOf(widget.id)).toBe(4);
    expect(gateway.created).toHaveLength(0);
  });

  it("refuses an empty cart, a coin that is not accepted, an unavailable postage option, a hidden product and a bad address", async () => {
    const { db } = database;
    await db.delete(botSettings);
    await configurePayments(deps, { acceptedCurrencies: ["BTC", "XMR"] });
    const customer = nextCustomer();
    await expect(checkout(deps, input(customer))).rejects.toThrow("Your cart is empty.");

    const widget = await insertProduct(db, { name: "Blue Widget", stock: 4 });
    await addToCart(db, customer, widget.id, 1);
    await expect(checkout(deps, input(customer, { coin: "LTC" }))).rejects.toThrow("LTC is not accepted. Please pay with BTC, XMR.");
    const [postage] = await db.insert(postageOptions).values({ name: "Courier", price: "9.00", isActive: false }).returning();
    await expect(checkout(deps, input(customer, { postageOptionId: postage!.id }))).rejects.toThrow(/postage option is no longer available/);
    await expect(checkout(deps, input(customer, { postageOptionId: "nope" }))).rejects.toThrow(/postage option is no longer available/);
    await expect(checkout(deps, input(customer, { shippingAddress: { ...address, postcode: " " } }))).rejects.toThrow(/postcode is required/);
    await db.update(products).set({ isActive: false }).where(eq(products.id, widget.id));
    await expect(checkout(deps, input(customer))).rejects.toThrow("Blue Widget is no longer available. Please check your cart.");

    expect(await ordersOf(customer)).toEqual([]);
    expect(await stockOf(widget.id)).toBe(4);
    expect(gateway.created).toHaveLength(0);
  });

  it("sells exactly the last 10 units to 50 concurrent checkouts, never below zero", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Last Widget", price: "5.00", stock: 10 });
    const customers = Array.from({ length: 50 }, () => nextCustomer());
    // Filled directly: each cart holds one unit, as if all 50 added it while stock lasted.
    await db.insert(cartItems).values(customers.map((telegramUserId) => ({ telegramUserId, productId: widget.id, quantity: 1 })));

    const results = await Promise.allSettled(customers.map((customer) => checkout(deps, input(customer))));

    const sold = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(sold).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(String(r.reason.message)).toBe("Not enough stock for Last Widget: only 0 left.");
    expect(await stockOf(widget.id)).toBe(0);
    const items = await db.select().from(orderItems).where(eq(orderItems.productId, widget.id));
    expect(items.reduce((sum, item) => sum + item.quantity, 0)).toBe(10);
    expect(gateway.created.filter((c) => sold.some((s) => s.status === "fulfilled" && s.value.order.id === c.body.order_id))).toHaveLength(10);
  });
});
