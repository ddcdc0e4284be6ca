import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { botSettings, cartItems, orderEvents, orderItems, orders, postageOptions, products } from "../../db/schema";
import { ShopError, unavailable } from "../common";
import { chooseLanguage, translatorFor } from "../languages";
import { paymentMessages } from "../orders";
import type { CreatePaymentRequest, GatewayPayment, PaymentGateway } from "../payments";
import { TEST_CUSTOMER_ID } from "../simulator";
import { startPaymentJobs } from "../../payments/jobs";
import { createNowPaymentsGateway, createNowPaymentsGatewayFromSettings } from "../../gateways/nowpayments/client";
import { createRecordingNotifier } from "../../../test-support/app";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder, insertProduct } from "../../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../../test-support/fake-nowpayments";
import { configurePayments, TEST_NOWPAYMENTS_API_KEY } from "../../../test-support/payments-setup";
import type { OrderChannel } from "../../../contract";
import { addToCart, getCart } from "./cart";
import {
  ABANDONED_CHECKOUT_AFTER_MS,
  checkout,
  quoteCheckout,
  settleAbandonedCheckouts,
  TotalChangedError,
  type CheckoutDeps,
  type CheckoutInput,
} from "./checkout";
import { MAX_UNPAID_ORDERS, TOO_MANY_UNPAID_ORDERS_MESSAGE } from "./unpaid-orders";

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
    const secrets = createSecretBox(Buffer.alloc(32, 3));
    const config = { ...loadConfig({}), nowpaymentsApiUrl: gateway.url, publicUrl: "https://shop.example" };
    deps = {
      db: database.db,
      secrets,
      config,
      gateway: createNowPaymentsGatewayFromSettings({ db: database.db, secrets, config }),
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
  const eventsOf = (orderId: string) => database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
  const cartOf = async (telegramUserId: string) => (await getCart(database.db, telegramUserId)).lines.map((l) => [l.productId, l.quantity]);

  it("creates the order with bulk prices and postage, reserves stock, empties the cart and asks the gateway for the total", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Blue Widget", price: "10.00", stock: 20, bulkPricing: [{ minQuantity: 5, price: 8 }] });
    const gadget = await insertProduct(db, { name: "Gadget", price: "2.50", stock: 3 });
    const [postage] = await db.insert(postageOptions).values({ name: "Royal Mail 1st Class", price: "3.99" }).returning();
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 5);
    await addToCart(db, customer, gadget.id, 1);

    const quote = await quoteCheckout(deps, { telegramUserId: customer, postageOptionId: postage!.id, coin: "LTC" });
    expect(quote).toMatchObject({
      itemsPence: 4250,
      postage: { id: postage!.id, name: "Royal Mail 1st Class", pricePence: 399 },
      totalPence: 4649,
      coins: ["BTC", "LTC", "XMR"],
    });
    const result = await checkout(deps, input(customer, { postageOptionId: postage!.id, coin: "LTC", quotedTotalPence: quote.totalPence }));

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
      postageName: "Royal Mail 1st Class",
      postagePrice: "3.99",
      shippingAddress: address,
      placedFrom: "bot",
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
    expect(call.body.order_description).toBe(`Order #${result.order.id.slice(0, 8)}, 6 items`);

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
    expect((await eventsOf(order!.id)).map((e) => e.detail)).toEqual([
      "The payment service refused or did not answer, so no payment was created. The order failed, its items are back on sale and back in the customer's cart in the bot.",
    ]);

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
    await expect(checkout(deps, input(customer, { shippingAddress: { ...address, postcode: " " } }))).rejects.toThrow(/Postcode is required/);
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
    await db.insert(cartItems).values(customers.map((telegramUserId) => ({ telegramUserId, productId: widget.id, variantId: widget.id, quantity: 1 })));

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

  it("keeps the postage it was sent with on the order, whatever happens to the option later", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { price: "10.00", stock: 5 });
    const [courier] = await db.insert(postageOptions).values({ name: "Courier", price: "5.00" }).returning();
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 1);
    const { order } = await checkout(deps, input(customer, { postageOptionId: courier!.id, quotedTotalPence: 1500 }));

    await db.update(postageOptions).set({ name: "Courier (new)", price: "7.00" }).where(eq(postageOptions.id, courier!.id));
    await db.delete(postageOptions).where(eq(postageOptions.id, courier!.id));
    const [stored] = await ordersOf(customer);
    expect(stored).toMatchObject({ id: order.id, postageOptionId: courier!.id, postageName: "Courier", postagePrice: "5.00", totalAmount: "15.00" });
  });

  it("refuses, creating nothing, when the total is no longer the one the customer was shown", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Blue Widget", price: "10.00", stock: 20, bulkPricing: [{ minQuantity: 3, price: 9 }] });
    const [postage] = await db.insert(postageOptions).values({ name: "Royal Mail", price: "3.00" }).returning();
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 3);
    const quoteInput = { telegramUserId: customer, postageOptionId: postage!.id, coin: "BTC" as const };
    const shown = await quoteCheckout(deps, quoteInput);
    expect(shown.totalPence).toBe(3000); // 3 x 9.00 (tier) + 3.00

    const changes = [
      () => db.update(products).set({ price: "11.00" }).where(eq(products.id, widget.id)), // base price: not the tier, still 30.00
      () => db.update(products).set({ bulkPricing: [{ minQuantity: 3, price: 9.5 }] }).where(eq(products.id, widget.id)),
      () => db.update(postageOptions).set({ price: "4.00" }).where(eq(postageOptions.id, postage!.id)),
    ];
    await changes[0]!();
    const unchanged = await checkout(deps, input(customer, { postageOptionId: postage!.id, quotedTotalPence: shown.totalPence }));
    expect(unchanged.order.totalAmount).toBe("30.00");

    await addToCart(db, customer, widget.id, 3);
    for (const change of changes.slice(1)) {
      const before = await quoteCheckout(deps, quoteInput);
      await change();
      const error = await checkout(deps, input(customer, { postageOptionId: postage!.id, quotedTotalPence: before.totalPence })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TotalChangedError);
      const after = await quoteCheckout(deps, quoteInput);
      expect((error as TotalChangedError).message).toBe(
        `The total changed from £${(before.totalPence / 100).toFixed(2)} to £${(after.totalPence / 100).toFixed(2)} since you saw it ` +
          "(a price, a bulk discount, a coupon, the postage or the stock changed), so nothing was charged. Please check the new total below and confirm again.",
      );
    }
    expect(await ordersOf(customer)).toHaveLength(1);
    expect(await stockOf(widget.id)).toBe(17);
    expect(gateway.created).toHaveLength(1);
    expect((await getCart(db, customer)).lines.map((l) => l.quantity)).toEqual([3]);
  });

  it("offers exactly the accepted coins, and none when none is accepted", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { stock: 5 });
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 1);
    await db.delete(botSettings);
    await configurePayments(deps, { acceptedCurrencies: ["XMR"] });
    expect((await quoteCheckout(deps, { telegramUserId: customer, postageOptionId: null })).coins).toEqual(["XMR"]);
    await db.delete(botSettings);
    await configurePayments(deps, { acceptedCurrencies: [] });
    await expect(quoteCheckout(deps, { telegramUserId: customer, postageOptionId: null })).rejects.toThrow(
      "Payments are not available right now, so orders cannot be paid. Please try again later.",
    );
  });

  it("sends the gateway an ASCII-only description, whatever the products are called", async () => {
    const { db } = database;
    const cafe = await insertProduct(db, { name: "Café crème 1/2 kg", price: "6.00", stock: 5 });
    const tea = await insertProduct(db, { name: "Thé vert 緑茶 🍵", price: "4.00", stock: 5 });
    const customer = nextCustomer();
    await addToCart(db, customer, cafe.id, 2);
    await addToCart(db, customer, tea.id, 1);
    const { order } = await checkout(deps, input(customer, { quotedTotalPence: 1600 }));
    const description = String(gateway.created.at(-1)!.body.order_description);
    expect(description).toBe(`Order #${order.id.slice(0, 8)}, 3 items`);
    expect(description).toMatch(/^[\x20-\x7e]+$/);
  });

  it("makes one order of 20 concurrent confirms from one customer, taking the stock once", async () => {
    const { db } = database;
    const widget = await insertProduct(db, { name: "Hot Widget", price: "5.00", stock: 50 });
    const customer = nextCustomer();
    await addToCart(db, customer, widget.id, 4);

    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => checkout(deps, input(customer, { quotedTotalPence: 2000 }))),
    );

    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(placed).toHaveLength(1);
    for (const r of refused) expect(String(r.reason.message)).toBe("Your cart is empty.");
    expect(await ordersOf(customer)).toHaveLength(1);
    expect(await stockOf(widget.id)).toBe(46);
    expect(gateway.created).toHaveLength(1);
  });

  describe("at most MAX_UNPAID_ORDERS orders waiting for payment per customer (docs/decisions/0040)", () => {
    const oneOf = (productId: string): CheckoutInput["items"] => [{ productId, quantity: 1 }];

    it("refuses the next checkout with a sentence saying what to do, creating nothing, until a payment or a failure frees a place", async () => {
      const { db } = database;
      const widget = await insertProduct(db, { name: "Hoarded Widget", price: "5.00", stock: 20 });
      const customer = nextCustomer();
      const placed = [];
      for (let i = 0; i < MAX_UNPAID_ORDERS; i++) placed.push((await checkout(deps, input(customer, { items: oneOf(widget.id) }))).order);
      const sentBefore = gateway.created.length;

      const refused = await checkout(deps, input(customer, { items: oneOf(widget.id) })).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ShopError);
      expect(refused).toMatchObject({
        kind: "conflict",
        message: "You already have 3 orders waiting for payment. Pay one of them (see My Orders) or wait for one to expire before ordering again.",
        customerText: { key: "refusal-too-many-unpaid-orders", values: { count: 3 } },
      });
      // Through the bot's cart too: refused before the cart is read, which stays as it was.
      await addToCart(db, customer, widget.id, 2);
      await expect(checkout(deps, input(customer))).rejects.toThrow(TOO_MANY_UNPAID_ORDERS_MESSAGE);
      expect((await getCart(db, customer)).lines.map((line) => line.quantity)).toEqual([2]);
      expect(await ordersOf(customer)).toHaveLength(MAX_UNPAID_ORDERS);
      expect(await stockOf(widget.id)).toBe(20 - MAX_UNPAID_ORDERS);
      expect(gateway.created).toHaveLength(sentBefore);

      // Another customer is not held to this one's orders.
      await checkout(deps, input(nextCustomer(), { items: oneOf(widget.id) }));

      // Money seen (confirming, or short: on its way), paid or failed: none of them waits for the customer's payment any more.
      const frees = [
        { status: "pending", paymentStatus: "confirming" },
        { status: "processing", paymentStatus: "finished" },
        { status: "failed", paymentStatus: "expired" },
      ];
      for (const [i, change] of frees.entries()) {
        await db.update(orders).set(change).where(eq(orders.id, placed[i]!.id));
        await checkout(deps, input(customer, { items: oneOf(widget.id) }));
        await expect(checkout(deps, input(customer, { items: oneOf(widget.id) }))).rejects.toThrow(TOO_MANY_UNPAID_ORDERS_MESSAGE);
      }
      // A payment the gateway refused fails its order at once: no place is lost to it.
      await db.update(orders).set({ status: "failed" }).where(and(eq(orders.telegramUserId, customer), eq(orders.status, "pending"), eq(orders.paymentStatus, "waiting")));
      gateway.refuseWith({ status: 400, message: "amountTo is too small" });
      for (let i = 0; i < MAX_UNPAID_ORDERS + 1; i++) await expect(checkout(deps, input(customer, { items: oneOf(widget.id) }))).rejects.toThrow(/amountTo is too small/);
      gateway.refuseWith(null);
      await checkout(deps, input(customer, { items: oneOf(widget.id) }));
    });

    it("holds the test customer of Bot Preview to it too", async () => {
      const widget = await insertProduct(database.db, { price: "5.00", stock: 10 });
      await database.db.delete(orders).where(eq(orders.telegramUserId, TEST_CUSTOMER_ID));
      for (let i = 0; i < MAX_UNPAID_ORDERS; i++) await checkout(deps, input(TEST_CUSTOMER_ID, { items: oneOf(widget.id) }));
      await expect(checkout(deps, input(TEST_CUSTOMER_ID, { items: oneOf(widget.id) }))).rejects.toThrow(TOO_MANY_UNPAID_ORDERS_MESSAGE);
      expect(await ordersOf(TEST_CUSTOMER_ID)).toHaveLength(MAX_UNPAID_ORDERS);
    });

    it("makes exactly MAX_UNPAID_ORDERS orders of 6 checkouts at once from one customer, reserving stock for those only", async () => {
      const { db } = database;
      const widget = await insertProduct(db, { name: "Rushed Widget", price: "5.00", stock: 10 });
      const [hoarder, other] = [nextCustomer(), nextCustomer()];
      // Given lines lock no cart rows: only the lock on the customer keeps these apart.
      const results = await Promise.allSettled([
        ...Array.from({ length: 6 }, () => checkout(deps, input(hoarder, { items: oneOf(widget.id) }))),
        checkout(deps, input(other, { items: oneOf(widget.id) })),
      ]);

      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(refused.map((r) => String(r.reason.message))).toEqual(Array(6 - MAX_UNPAID_ORDERS).fill(TOO_MANY_UNPAID_ORDERS_MESSAGE));
      expect(results.at(-1)!.status).toBe("fulfilled");
      expect(await ordersOf(hoarder)).toHaveLength(MAX_UNPAID_ORDERS);
      expect(await stockOf(widget.id)).toBe(10 - MAX_UNPAID_ORDERS - 1);
    });
  });

  describe("a crash between the order's commit and the gateway's answer", () => {
    const start = new Date("2025-03-01T12:00:00Z");
    const at = (ms: number) => new Date(start.getTime() + ms);
    const afterAbandoned = at(ABANDONED_CHECKOUT_AFTER_MS + 1000);
    const sweep = (notifier: ReturnType<typeof createRecordingNotifier>, now: Date) => settleAbandonedCheckouts({ db: database.db, notifier, now: () => now });
    const short = (orderId: string) => orderId.slice(0, 8);

    /**
     * The state a crash leaves: the order committed with its stock taken (a bot order's cart emptied
     * with it), but no payment. A storefront customer's bot cart holds a line of another product, which
     * nothing may touch.
     */
    async function orderLeftByCrash(placedFrom: OrderChannel = "bot") {
      const { db } = database;
      const widget = await insertProduct(db, { name: "Crash Widget", price: "5.00", stock: 10 });
      const customer = nextCustomer();
      const other = await insertProduct(db, { name: "Cart Gadget", price: "2.00", stock: 5 });
      if (placedFrom === "storefront") await addToCart(db, customer, other.id, 1);
      const { order } = await insertOrder(db, {
        telegramUserId: customer,
        status: "pending",
        paymentStatus: "waiting",
        paymentId: null,
        placedFrom,
        createdAt: start,
        updatedAt: start,
        items: [{ product: widget, quantity: 3 }],
        reserveStock: true,
      });
      return { order, widget, other, customer };
    }

    it("fails the order after a few minutes: stock back once, cart restored, customer told", async () => {
      const { order, widget, customer } = await orderLeftByCrash();
      const notifier = createRecordingNotifier();
      expect(await stockOf(widget.id)).toBe(7);

      expect(await sweep(notifier, at(ABANDONED_CHECKOUT_AFTER_MS - 1000))).not.toContain(order.id); // a checkout may still be waiting for the gateway
      expect((await ordersOf(customer))[0]!.status).toBe("pending");

      expect(await sweep(notifier, afterAbandoned)).toEqual([order.id]);
      expect(await sweep(notifier, at(ABANDONED_CHECKOUT_AFTER_MS + 60_000))).toEqual([]);

      expect((await ordersOf(customer))[0]).toMatchObject({ status: "failed", paymentStatus: "failed" });
      expect(await stockOf(widget.id)).toBe(10);
      expect(await cartOf(customer)).toEqual([[widget.id, 3]]);
      // No language stored for the customer, and the shop's default is English.
      expect(notifier.sent).toEqual([
        {
          chatId: customer,
          text:
            `Order #${short(order.id)} could not be completed: something went wrong while its payment was being created, so no payment was taken. ` +
            "Your items are back in your cart, so you can check out again.",
        },
      ]);
      expect(await eventsOf(order.id)).toEqual([
        expect.objectContaining({
          actor: "system",
          action: "payment_failed",
          detail:
            "The checkout was interrupted before its payment was created, so no payment exists. " +
            "The order failed, its items are back on sale and back in the customer's cart in the bot.",
        }),
      ]);
    });

    it("leaves the bot's cart alone for a storefront order, and tells the customer to order again in the shop", async () => {
      const { order, widget, other, customer } = await orderLeftByCrash("storefront");
      const notifier = createRecordingNotifier();

      expect(await sweep(notifier, afterAbandoned)).toEqual([order.id]);
      expect((await ordersOf(customer))[0]).toMatchObject({ status: "failed", paymentStatus: "failed", placedFrom: "storefront" });
      expect(await stockOf(widget.id)).toBe(10);
      // The bot's cart is as it was: the storefront's items never were in it, and its own line stays.
      expect(await cartOf(customer)).toEqual([[other.id, 1]]);
      expect(notifier.sent).toEqual([
        {
          chatId: customer,
          text:
            `Order #${short(order.id)} could not be completed: something went wrong while its payment was being created, so no payment was taken. ` +
            "Please open the shop and place your order again.",
        },
      ]);
      expect(notifier.sent[0]!.text).not.toMatch(/cart|check out/i);
      expect((await eventsOf(order.id)).map((e) => e.detail)).toEqual([
        "The checkout was interrupted before its payment was created, so no payment exists. " +
          "The order failed and its items are back on sale; it was placed in the storefront, so the customer's cart in the bot was left as it was.",
      ]);
    });

    it("tells each customer in their language what to do where they ordered", async () => {
      const left = await Promise.all((["bot", "storefront", "bot"] as const).map((channel) => orderLeftByCrash(channel)));
      const [germanBot, germanStorefront, russianBot] = left;
      await chooseLanguage(database.db, germanBot!.customer, null, "de", start);
      await chooseLanguage(database.db, germanStorefront!.customer, null, "de", start);
      await chooseLanguage(database.db, russianBot!.customer, null, "ru", start);
      const notifier = createRecordingNotifier();

      const settled = await sweep(notifier, afterAbandoned);
      expect(settled).toEqual(expect.arrayContaining(left.map(({ order }) => order.id)));
      const told = (customer: string) => notifier.sent.filter((m) => m.chatId === customer).map((m) => m.text);
      expect(told(germanBot!.customer)).toEqual([
        `Bestellung #${short(germanBot!.order.id)} konnte nicht abgeschlossen werden: Beim Erstellen der Zahlung ist etwas schiefgegangen, daher wurde keine Zahlung eingezogen. ` +
          "Deine Artikel liegen wieder in deinem Warenkorb, du kannst also noch einmal zur Kasse gehen.",
      ]);
      expect(told(germanStorefront!.customer)).toEqual([
        `Bestellung #${short(germanStorefront!.order.id)} konnte nicht abgeschlossen werden: Beim Erstellen der Zahlung ist etwas schiefgegangen, daher wurde keine Zahlung eingezogen. ` +
          "Bitte öffne den Shop und bestelle noch einmal.",
      ]);
      expect(told(russianBot!.customer)).toEqual([paymentMessages.checkoutAbandoned({ orderId: russianBot!.order.id, placedFrom: "bot" }, translatorFor("ru"))]);
      expect(told(russianBot!.customer)[0]).toMatch(/^Не удалось оформить заказ #[0-9a-f]{8}: .* корзине/);
      expect(await cartOf(germanBot!.customer)).toEqual([[germanBot!.widget.id, 3]]);
      expect(await cartOf(germanStorefront!.customer)).toEqual([[germanStorefront!.other.id, 1]]);
    });

    it("runs with the payment jobs", async () => {
      const { order, widget } = await orderLeftByCrash("storefront");
      const notifier = createRecordingNotifier();
      const jobs = startPaymentJobs({
        ...deps,
        notifier,
        now: () => afterAbandoned,
        logger: { info: () => {}, warn: () => {}, error: () => {} },
      });
      try {
        await jobs.runNow();
      } finally {
        await jobs.stop();
      }
      expect((await database.db.select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe("failed");
      expect(await stockOf(widget.id)).toBe(10);
      expect(notifier.sent.map((m) => m.text)).toContain(paymentMessages.checkoutAbandoned({ orderId: order.id, placedFrom: "storefront" }));
    });

    it("takes only the bot and the storefront as where an order was placed", async () => {
      const { order } = await insertOrder(database.db, { status: "completed", paymentStatus: "finished" });
      for (const hostile of ["web", "", "BOT", "bot ", "storefront'; --"]) {
        await expect(database.db.update(orders).set({ placedFrom: hostile as OrderChannel }).where(eq(orders.id, order.id))).rejects.toThrow();
      }
      expect((await ordersOf(order.telegramUserId))[0]!.placedFrom).toBe("bot");
    });

    /** A gateway that asks for the payment and then waits for the test to answer it, or to refuse. */
    function slowGateway() {
      let answer!: (payment: GatewayPayment) => void;
      let refuse!: (error: Error) => void;
      let asked!: (request: CreatePaymentRequest) => void;
      const paymentAsked = new Promise<CreatePaymentRequest>((resolve) => (asked = resolve));
      const gateway: PaymentGateway = {
        name: "slow",
        isConfigured: async () => true,
        createPayment: (request) => {
          asked(request);
          return new Promise((resolve, reject) => {
            answer = resolve;
            refuse = reject;
          });
        },
        getPayment: () => Promise.reject(new Error("not used")),
        readNotification: () => Promise.reject(new Error("not used")),
      };
      return { gateway, paymentAsked, answer: (payment: GatewayPayment) => answer(payment), refuse: (error: Error) => refuse(error) };
    }

    /** A checkout of 2 widgets, in the bot (from the cart) or the storefront (given lines; the bot's cart holds a gadget). */
    async function slowCheckout(channel: OrderChannel) {
      const { db } = database;
      const widget = await insertProduct(db, { price: "5.00", stock: 10 });
      const gadget = await insertProduct(db, { price: "3.00", stock: 10 });
      const customer = nextCustomer();
      await addToCart(db, customer, channel === "bot" ? widget.id : gadget.id, channel === "bot" ? 2 : 1);
      const slow = slowGateway();
      const lines = channel === "storefront" ? { items: [{ productId: widget.id, quantity: 2 }] } : {};
      const placing = checkout({ ...deps, gateway: slow.gateway, now: () => start }, input(customer, { ...lines, quotedTotalPence: 1000 }));
      const request = await slow.paymentAsked;
      expect(await stockOf(widget.id)).toBe(8);
      const cartAfter = channel === "bot" ? [[widget.id, 2]] : [[gadget.id, 1]];
      return { widget, customer, slow, placing, request, cartAfter };
    }

    it("does not charge an order the sweep gave up on while the gateway was slow", async () => {
      const { widget, customer, slow, placing, request, cartAfter } = await slowCheckout("bot");
      const notifier = createRecordingNotifier();
      expect(await sweep(notifier, afterAbandoned)).toEqual([request.orderId]);
      slow.answer({
        paymentId: "late-1",
        status: "waiting",
        orderId: request.orderId,
        payAddress: "late-address",
        payAmount: "0.0002",
        payCurrency: "btc",
        priceAmount: "10.00",
        priceCurrency: "gbp",
        actuallyPaid: null,
        transactionHash: null,
        expiresAt: null,
        raw: {},
      });
      await expect(placing).rejects.toThrow("Creating your payment took too long, so your order was cancelled and your cart kept. Please try again.");
      const [order] = await ordersOf(customer);
      expect(order).toMatchObject({ status: "failed", paymentId: null });
      expect(await stockOf(widget.id)).toBe(10);
      expect(await cartOf(customer)).toEqual(cartAfter);
    });

    it.each(["bot", "storefront"] as const)(
      "puts a %s order's stock back once, and its cart as it belongs, when the gateway refuses after the sweep gave up on it",
      async (channel) => {
        const { widget, customer, slow, placing, request, cartAfter } = await slowCheckout(channel);
        const notifier = createRecordingNotifier();
        expect(await sweep(notifier, afterAbandoned)).toEqual([request.orderId]);
        slow.refuse(unavailable("The payment service did not answer in time."));
        await expect(placing).rejects.toThrow(/^The payment service did not answer in time\. Your order was cancelled/);

        expect(await ordersOf(customer)).toEqual([expect.objectContaining({ status: "failed", placedFrom: channel })]);
        expect(await stockOf(widget.id)).toBe(10);
        expect(await cartOf(customer)).toEqual(cartAfter);
        expect(await eventsOf(request.orderId)).toHaveLength(1);
        expect(notifier.sent.map((m) => m.text)).toEqual([paymentMessages.checkoutAbandoned({ orderId: request.orderId, placedFrom: channel })]);
      },
    );

    it.each(["bot", "storefront"] as const)("fails a %s order once when the gateway refuses just as the sweep finds it", async (channel) => {
      const { widget, customer, slow, placing, request, cartAfter } = await slowCheckout(channel);
      const notifier = createRecordingNotifier();
      slow.refuse(unavailable("The payment service did not answer in time."));
      const [settled, refused] = await Promise.all([sweep(notifier, afterAbandoned), placing.then(() => null, (error: unknown) => error)]);

      // Whichever claimed the order did the work, the other nothing: one event, the stock back once.
      expect(refused).toBeInstanceOf(ShopError);
      expect(settled.filter((id) => id !== request.orderId)).toEqual([]);
      expect(await ordersOf(customer)).toEqual([expect.objectContaining({ status: "failed", placedFrom: channel })]);
      expect(await eventsOf(request.orderId)).toHaveLength(1);
      expect(await stockOf(widget.id)).toBe(10);
      expect(await cartOf(customer)).toEqual(cartAfter);
      // Only the sweep tells the customer by message; the checkout's failure is its answer.
      expect(notifier.sent).toHaveLength(settled.length);
    });
  });
});
