import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Coupon, Order } from "../../contract";
import { coupons, orders } from "../db/schema";
import { addToCart, checkout, CouponRefusedError, quoteCheckout } from "../shop/ordering";
import { createRecordingNotifier, startTestServer, type TestServer } from "../../test-support/app";
import { insertProduct } from "../../test-support/factories";
import { FAKE_PAYMENT_LIFETIME_MS, startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { configurePayments, TEST_IPN_SECRET } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";

// Coupons on the money path (issue 23; docs/decisions/0028-coupons.md), through the real HTTP API,
// signed IPNs and the fake NOWPayments: the gateway is asked for the discounted total and the
// payment is checked against it; a use is held at checkout, counted once when paid, released once
// on expiry, cancel or refund; the usage limit holds under 50 checkouts at once.

const START = new Date("2026-11-22T10:00:00Z");
const HOUR = 60 * 60 * 1000;
const address = { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" };

describe("coupons on the money path", () => {
  let server: TestServer;
  let gateway: FakeNowPayments;
  let cookie: string;
  let clock = START;
  let seq = 0;

  beforeAll(async () => {
    gateway = await startFakeNowPayments({ now: () => clock });
    server = await startTestServer({ config: { nowpaymentsApiUrl: gateway.url }, deps: { notifier: createRecordingNotifier(), now: () => clock } });
    await configurePayments(server.deps);
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });
  beforeEach(async () => {
    clock = START;
    cookie = await server.login();
  });

  const api = async <T>(method: string, url: string, body?: unknown, expectedStatus = 200): Promise<T> => {
    const response = await server.request(method, url, { cookie, body });
    const answer = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(expectedStatus);
    return answer as T;
  };
  const createCoupon = (body: Record<string, unknown>) => api<Coupon>("POST", "/api/coupons", body, 201);
  const couponRow = async (id: string) => (await server.deps.db.select().from(coupons).where(eq(coupons.id, id)))[0]!;
  const uses = async (id: string) => {
    const row = await couponRow(id);
    return { used: row.timesUsed, held: row.timesHeld };
  };
  const orderRow = async (id: string) => (await server.deps.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const pay = async (paymentId: string, status: string, actuallyPaid?: number) =>
    postIpn(server.baseUrl, gateway.ipnBody(paymentId, status, actuallyPaid === undefined ? {} : { actually_paid: actuallyPaid }), {
      secret: TEST_IPN_SECRET,
    });

  /** A customer with `quantity` x a £`price` product in their cart. */
  async function cartFor(options: { price?: string; quantity?: number; stock?: number } = {}) {
    const product = await insertProduct(server.deps.db, { name: `Lamp ${++seq}`, price: options.price ?? "20.00", stock: options.stock ?? 100 });
    const customer = `7700${++seq}`;
    await addToCart(server.deps.db, customer, product.id, options.quantity ?? 1);
    return { product, customer };
  }
  const checkoutWith = (customer: string, couponCode: string | null, quotedTotalPence?: number) =>
    checkout(server.deps, { telegramUserId: customer, shippingAddress: address, postageOptionId: null, coin: "BTC", couponCode, quotedTotalPence });

  it("lets at most usageLimit of 50 parallel checkouts carry the coupon; the others create nothing and say it is used up", async () => {
    const coupon = await createCoupon({ code: "rush5", kind: "fixed", value: "5", usageLimit: 5 });
    const carts = await Promise.all(Array.from({ length: 50 }, () => cartFor({ price: "12.00" })));
    const results = await Promise.allSettled(carts.map(({ customer }) => checkoutWith(customer, "Rush5")));
    const placed = results.filter((result) => result.status === "fulfilled").map((result) => result.value.order);
    const refused = results.filter((result) => result.status === "rejected").map((result) => result.reason as Error);

    expect(placed).toHaveLength(5);
    for (const order of placed) expect(order).toMatchObject({ couponCode: "RUSH5", discountAmount: "5.00", totalAmount: "7.00" });
    expect(refused).toHaveLength(45);
    for (const error of refused) {
      expect(error).toBeInstanceOf(CouponRefusedError);
      expect(error.message).toBe("Coupon RUSH5 has been used up.");
    }
    const carrying = await server.deps.db.select().from(orders).where(eq(orders.couponCode, "RUSH5"));
    expect(carrying).toHaveLength(5);
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 5 });
    // The gateway was asked for the discounted totals only.
    const asked = gateway.created.filter((call) => placed.some((order) => order.id === call.body.order_id));
    expect(asked.map((call) => call.body.price_amount)).toEqual(Array(5).fill(7));
    expect((await api<Coupon[]>("GET", "/api/coupons")).find((row) => row.id === coupon.id)).toMatchObject({ timesHeld: 5, state: "used-up" });
  });

  it("counts a paid order's use exactly once, however often its IPN is replayed; the payment is checked against the discounted total", async () => {
    const coupon = await createCoupon({ code: "paid10", kind: "percent", value: 10, usageLimit: 3 });
    const { customer } = await cartFor({ price: "15.00", quantity: 2 });
    const quote = await quoteCheckout(server.deps, { telegramUserId: customer, postageOptionId: null, coin: "BTC", couponCode: "paid10" });
    expect(quote).toMatchObject({ itemsPence: 3000, coupon: { code: "PAID10", discountPence: 300 }, totalPence: 2700 });
    const { order } = await checkoutWith(customer, "paid10", quote.totalPence);
    expect(order).toMatchObject({ totalAmount: "27.00", discountAmount: "3.00", couponCode: "PAID10" });
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });

    // A signed IPN for the undiscounted total is not this order's payment.
    const wrongTotal = { ...gateway.ipnBody(order.paymentId!, "finished"), price_amount: 30 };
    expect((await postIpn(server.baseUrl, wrongTotal, { secret: TEST_IPN_SECRET })).status).toBe(400);
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });

    // Paid short of the discounted amount: not paid, nothing counted.
    expect((await pay(order.paymentId!, "finished", 0.0004)).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe("pending");
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });

    // Paid in full (0.00054 BTC at £50,000 is £27), the IPN replayed ten times at once.
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(order.paymentId!, "finished", 0.00054)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect((await orderRow(order.id)).status).toBe("processing");
    expect(await uses(coupon.id)).toEqual({ used: 1, held: 0 });
    expect((await pay(order.paymentId!, "finished", 0.00054)).status).toBe(200);
    expect(await uses(coupon.id)).toEqual({ used: 1, held: 0 });

    // The order as the dashboard reads it.
    const listed = (await api<Order[]>("GET", "/api/orders")).find((row) => row.id === order.id);
    expect(listed).toMatchObject({ couponCode: "PAID10", discountAmount: "3.00", totalAmount: "27.00" });

    // A refund gives the use back.
    expect((await pay(order.paymentId!, "refunded")).status).toBe(200);
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 0 });
  });

  it("gives a held use back once when the order expires or is cancelled, and counts it again when an expired order is paid late", async () => {
    const coupon = await createCoupon({ code: "back1", kind: "fixed", value: "2.50", usageLimit: 1 });
    const first = await cartFor({ price: "10.00" });
    const { order: expiring } = await checkoutWith(first.customer, "BACK1");
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });
    const second = await cartFor({ price: "10.00" });
    await expect(checkoutWith(second.customer, "back1")).rejects.toThrow("Coupon BACK1 has been used up.");

    // Expired: cleaned up twice, in parallel; the use comes back once.
    clock = new Date(START.getTime() + FAKE_PAYMENT_LIFETIME_MS + HOUR);
    cookie = await server.login();
    const cleanups = await Promise.all([1, 2].map(() => api<{ expiredOrderIds: string[] }>("POST", "/api/orders/cleanup-expired")));
    expect(cleanups.flatMap((answer) => answer.expiredOrderIds)).toContain(expiring.id);
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 0 });
    expect((await orderRow(expiring.id)).couponUse).toBe("released");

    // The use is free again: the second customer takes it, then cancels (by the owner).
    const { order: cancelled } = await checkoutWith(second.customer, "back1");
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });
    await api("POST", `/api/orders/${cancelled.id}/cancel`);
    await api("POST", `/api/orders/${cancelled.id}/cancel`, undefined, 409);
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 0 });

    // The expired order's money arrives late and in full: it is revived and its use counted again.
    expect((await pay(expiring.paymentId!, "finished", 0.00015)).status).toBe(200);
    expect((await orderRow(expiring.id)).status).toBe("processing");
    expect(await uses(coupon.id)).toEqual({ used: 1, held: 0 });
    expect((await orderRow(expiring.id)).couponUse).toBe("counted");
  });

  it("keeps a late-paid order's discount without going over the limit when its use was taken meanwhile", async () => {
    const coupon = await createCoupon({ code: "late1", kind: "fixed", value: "1", usageLimit: 1 });
    const first = await cartFor({ price: "10.00" });
    const { order: expiring } = await checkoutWith(first.customer, "late1");
    clock = new Date(START.getTime() + FAKE_PAYMENT_LIFETIME_MS + HOUR);
    cookie = await server.login();
    await api("POST", "/api/orders/cleanup-expired");
    const second = await cartFor({ price: "10.00" });
    await checkoutWith(second.customer, "late1");
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });

    expect((await pay(expiring.paymentId!, "finished", 0.00018)).status).toBe(200);
    expect(await orderRow(expiring.id)).toMatchObject({ status: "processing", couponCode: "LATE1", discountAmount: "1.00", couponUse: "released" });
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 1 });
  });

  it("asks the total-changed question when the coupon's discount changed since the summary", async () => {
    const coupon = await createCoupon({ code: "shift", kind: "percent", value: 10 });
    const { customer } = await cartFor({ price: "10.00" });
    const quote = await quoteCheckout(server.deps, { telegramUserId: customer, postageOptionId: null, couponCode: "shift" });
    expect(quote.totalPence).toBe(900);
    await api("PATCH", `/api/coupons/${coupon.id}`, { value: 20 });
    await expect(checkoutWith(customer, "shift", quote.totalPence)).rejects.toThrow(/The total changed from £9\.00 to £8\.00/);
    expect(await uses(coupon.id)).toEqual({ used: 0, held: 0 });
    const { order } = await checkoutWith(customer, "shift", 800);
    expect(order).toMatchObject({ totalAmount: "8.00", discountAmount: "2.00" });
  });
});
