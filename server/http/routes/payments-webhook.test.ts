import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botSettings, orders, paymentEvents, products } from "../../db/schema";
import { addToCart, checkout } from "../../shop/ordering";
import { cleanupExpiredOrders } from "../../shop/orders";
import { createRecordingNotifier, startTestServer, type TestServer } from "../../../test-support/app";
import { insertProduct } from "../../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../../test-support/fake-nowpayments";
import { configurePayments, TEST_IPN_SECRET } from "../../../test-support/payments-setup";
import { postIpn, signIpn } from "../../../test-support/sign-ipn";

describe("POST /api/payments/webhook (NOWPayments IPN)", () => {
  let server: TestServer;
  let gateway: FakeNowPayments;
  let notifier: ReturnType<typeof createRecordingNotifier>;
  let clock = new Date();
  let seq = 0;

  beforeAll(async () => {
    gateway = await startFakeNowPayments({ now: () => clock });
    notifier = createRecordingNotifier();
    server = await startTestServer({ config: { nowpaymentsApiUrl: gateway.url }, deps: { notifier, now: () => clock } });
    await configurePayments(server.deps);
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });

  /** A real checkout of `quantity` units of a fresh product; answers the order and the product. */
  async function placeOrder(quantity = 2, stock = 10) {
    const { db } = server.deps;
    const product = await insertProduct(db, { name: `Widget ${++seq}`, price: "12.50", stock });
    const customer = `9000${seq}`;
    await addToCart(db, customer, product.id, quantity);
    const { order } = await checkout(server.deps, {
      telegramUserId: customer,
      telegramUsername: null,
      shippingAddress: { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" },
      postageOptionId: null,
      coin: "BTC",
    });
    return { order, product, customer, paymentId: order.paymentId! };
  }
  const orderRow = async (id: string) => (await server.deps.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const stockOf = async (id: string) =>
    (await server.deps.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const sentTo = (chatId: string) => notifier.sent.filter((m) => m.chatId === chatId);
  const ipn = (body: unknown, signature?: string | null) => postIpn(server.baseUrl, body, { secret: TEST_IPN_SECRET, signature });

  it("refuses a missing, wrong or stale-body signature with 401 and changes nothing", async () => {
    const { order, customer, paymentId } = await placeOrder();
    const body = gateway.ipnBody(paymentId, "finished");

    const missing = await ipn(body, null);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: "Invalid IPN signature." });
    expect((await ipn(body, "ab".repeat(64))).status).toBe(401);
    expect((await ipn(body, "not hex at all")).status).toBe(401);
    expect((await ipn(body, signIpn(body, "some other secret"))).status).toBe(401);
    // Signed for the body as it was; the body was then changed (here: inside the nested fee object).
    const stale = { ...body, fee: { ...(body.fee as object), serviceFee: 0.5 } };
    expect((await ipn(stale, signIpn(body, TEST_IPN_SECRET))).status).toBe(401);

    expect(await orderRow(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting" });
    expect(await server.deps.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id))).toEqual([]);
    expect(sentTo(customer)).toEqual([]);
  });

  it("answers 401 and changes nothing while no IPN secret is configured", async () => {
    const { order, paymentId } = await placeOrder();
    const { db, secrets } = server.deps;
    await db.delete(botSettings);
    await configurePayments({ db, secrets }, { ipnSecret: null });
    try {
      const response = await ipn(gateway.ipnBody(paymentId, "finished"));
      expect(response.status).toBe(401);
      expect((await response.json()).error).toMatch(/No IPN secret is configured/);
      expect((await orderRow(order.id)).status).toBe("pending");
    } finally {
      await db.delete(botSettings);
      await configurePayments({ db, secrets });
    }
  });

  it("moves a paid order to processing and tells the customer once, however often the IPN is replayed", async () => {
    const { order, customer, paymentId } = await placeOrder();
    const body = gateway.ipnBody(paymentId, "finished");
    for (let i = 0; i < 50; i++) {
      const response = await ipn(body);
      expect(response.status).toBe(200);
    }
    const concurrent = await Promise.all(Array.from({ length: 50 }, () => ipn(body)));
    expect(concurrent.map((r) => r.status)).toEqual(Array(50).fill(200));

    expect(await orderRow(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished" });
    expect(sentTo(customer)).toEqual([
      { chatId: customer, text: `Payment received for order #${order.id.slice(0, 8)}. Thank you! Your order is now being prepared for dispatch.` },
    ]);
  });

  it("applies each effect once when 100 replays arrive all at once", async () => {
    const { order, customer, paymentId, product } = await placeOrder(3);
    const body = gateway.ipnBody(paymentId, "confirmed");
    const responses = await Promise.all(Array.from({ length: 100 }, () => ipn(body)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await orderRow(order.id)).status).toBe("processing");
    expect(sentTo(customer)).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(7);
  });

  it("follows waiting -> confirming -> finished, and a late 'waiting' or 'expired' after 'finished' leaves it processing", async () => {
    const { order, customer, paymentId, product } = await placeOrder();
    expect((await ipn(gateway.ipnBody(paymentId, "waiting"))).status).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting" });
    await ipn(gateway.ipnBody(paymentId, "confirming"));
    expect(await orderRow(order.id)).toMatchObject({ status: "pending", paymentStatus: "confirming" });
    await ipn(gateway.ipnBody(paymentId, "finished"));
    expect(await orderRow(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished" });

    // Late deliveries: statuses further back, and a failure after the money arrived.
    for (const status of ["waiting", "sending", "confirmed", "expired", "failed"]) {
      const late = await ipn(gateway.ipnBody(paymentId, status));
      expect(late.status).toBe(200);
      expect((await late.json()).orderStatus).toBe("processing");
    }
    expect(await orderRow(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished" });
    expect(await stockOf(product.id)).toBe(8);
    expect(sentTo(customer)).toHaveLength(1);
  });

  it("fails an expired order and releases its stock exactly once", async () => {
    const { order, customer, paymentId, product } = await placeOrder(4);
    expect(await stockOf(product.id)).toBe(6);
    const body = gateway.ipnBody(paymentId, "expired");
    await Promise.all(Array.from({ length: 20 }, () => ipn(body)));
    await ipn(gateway.ipnBody(paymentId, "failed"));
    // The scheduled cleanup reaching the same order later puts nothing back a second time.
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    try {
      await cleanupExpiredOrders({ db: server.deps.db, notifier, now: () => clock });
    } finally {
      clock = new Date();
    }

    const failed = await orderRow(order.id);
    expect(failed).toMatchObject({ status: "failed", paymentStatus: "expired" });
    expect(failed.stockReleasedAt).not.toBeNull();
    expect(await stockOf(product.id)).toBe(10);
    expect(sentTo(customer).map((m) => m.text)).toEqual([
      `Order #${order.id.slice(0, 8)} expired: no payment arrived in time, so it was cancelled and its items released. If you already sent a payment, please contact support.`,
    ]);
  });

  it("keeps a partly paid order pending, records what arrived and tells the customer the shortfall", async () => {
    const { order, customer, paymentId } = await placeOrder(2); // 25.00 GBP = 0.0005 BTC at the fake's rate
    const row = await orderRow(order.id);
    expect(row.payAmount).toBe("0.0005");
    await ipn(gateway.ipnBody(paymentId, "partially_paid", { actually_paid: 0.0002 }));
    await ipn(gateway.ipnBody(paymentId, "partially_paid", { actually_paid: 0.0002 })); // replay
    expect(await orderRow(order.id)).toMatchObject({ status: "pending", paymentStatus: "partially_paid", actuallyPaid: "0.0002" });
    expect(sentTo(customer).map((m) => m.text)).toEqual([
      `We received 0.0002 BTC for order #${order.id.slice(0, 8)}, but 0.0005 BTC is due. Please send the remaining 0.0003 BTC to ${row.payAddress} to complete your order.`,
    ]);
    // The customer tops up: paid in full.
    await ipn(gateway.ipnBody(paymentId, "finished"));
    expect(await orderRow(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished", actuallyPaid: "0.0005" });
  });

  it("refuses an IPN whose payment id or currency does not match the order, or names no known order", async () => {
    const { order, paymentId } = await placeOrder();
    const other = await placeOrder();
    const wrongPayment = { ...gateway.ipnBody(paymentId, "finished"), payment_id: Number(other.paymentId) };
    const r1 = await ipn(wrongPayment);
    expect(r1.status).toBe(400);
    expect((await r1.json()).error).toMatch(/payment_id .* does not belong to order/);
    const r2 = await ipn({ ...gateway.ipnBody(paymentId, "finished"), pay_currency: "ltc" });
    expect(r2.status).toBe(400);
    expect((await r2.json()).error).toMatch(/pay_currency ltc does not match/);
    const r3 = await ipn({ ...gateway.ipnBody(paymentId, "finished"), price_currency: "usd" });
    expect(r3.status).toBe(400);
    const r4 = await ipn({ ...gateway.ipnBody(paymentId, "finished"), order_id: "00000000-0000-4000-8000-000000000000" });
    expect(r4.status).toBe(404);
    const r5 = await ipn({ payment_status: "finished" });
    expect(r5.status).toBe(400);
    expect((await orderRow(order.id)).status).toBe("pending");
    expect((await orderRow(other.order.id)).status).toBe("pending");
  });

  it("keeps the payment's effect when the customer cannot be told, and answers without waiting for Telegram", async () => {
    const { order, paymentId } = await placeOrder();
    notifier.failWith(new Error("Telegram is down"));
    try {
      const response = await ipn(gateway.ipnBody(paymentId, "finished"));
      expect(response.status).toBe(200);
      expect((await orderRow(order.id)).status).toBe("processing");
    } finally {
      notifier.failWith(null);
    }

    // A Telegram that never answers does not hold up the gateway's request.
    const hung = await placeOrder();
    const original = notifier.sendMessage;
    notifier.sendMessage = () => new Promise<void>(() => {});
    try {
      const started = Date.now();
      const response = await ipn(gateway.ipnBody(hung.paymentId, "finished"));
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await orderRow(hung.order.id)).status).toBe("processing");
    } finally {
      notifier.sendMessage = original;
    }
  });

  it("still fulfils an order paid after it expired, when its stock is still there", async () => {
    const { order, customer, paymentId, product } = await placeOrder(2);
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000); // past the gateway's 24-hour deadline
    try {
      expect((await cleanupExpiredOrders({ db: server.deps.db, notifier, now: () => clock })).expiredOrderIds).toContain(order.id);
    } finally {
      clock = new Date();
    }
    expect(await stockOf(product.id)).toBe(10);
    await ipn(gateway.ipnBody(paymentId, "finished"));
    expect(await orderRow(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished", stockReleasedAt: null });
    expect(await stockOf(product.id)).toBe(8);
    expect(sentTo(customer).at(-1)!.text).toMatch(/^Payment received/);
  });

  it("tells the customer to contact support when an expired order is paid but its stock is gone", async () => {
    const { order, customer, paymentId, product } = await placeOrder(2, 2);
    await ipn(gateway.ipnBody(paymentId, "expired"));
    await server.deps.db.update(products).set({ stock: 1 }).where(eq(products.id, product.id)); // sold meanwhile
    await ipn(gateway.ipnBody(paymentId, "finished"));
    expect(await orderRow(order.id)).toMatchObject({ status: "failed", paymentStatus: "finished" });
    expect(await stockOf(product.id)).toBe(1);
    expect(sentTo(customer).at(-1)!.text).toMatch(/already expired .* Please contact support/);
  });
});
