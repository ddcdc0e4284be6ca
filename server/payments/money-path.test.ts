import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardStats, Order, OrderEvent } from "../../contract";
import { botSettings, orders, products } from "../db/schema";
import { addToCart, checkout } from "../shop/ordering";
import { createRecordingNotifier, startTestServer, type TestServer } from "../../test-support/app";
import { insertProduct } from "../../test-support/factories";
import { FAKE_PAYMENT_LIFETIME_MS, startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { configurePayments, TEST_IPN_SECRET } from "../../test-support/payments-setup";
import { postIpn, type IpnSigningStyle } from "../../test-support/sign-ipn";

// Issue 10, "the money path tells the truth": each scenario as the shop owner and the customer
// meet it, through the real HTTP API, signed IPNs and the fake NOWPayments, with a fixed clock.
// A £15.00 order in BTC at the fake's rate (£50,000) is 0.0003 BTC.

const START = new Date("2026-11-22T10:00:00Z");
const HOUR = 60 * 60 * 1000;

describe("the money path: amounts checked, short payments and refunds settled", () => {
  let server: TestServer;
  let gateway: FakeNowPayments;
  let cookie: string;
  let clock = START;
  let seq = 0;
  const notifier = createRecordingNotifier();

  beforeAll(async () => {
    gateway = await startFakeNowPayments({ now: () => clock });
    server = await startTestServer({ config: { nowpaymentsApiUrl: gateway.url }, deps: { notifier, now: () => clock } });
    await configurePayments(server.deps);
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });
  beforeEach(async () => {
    await setClock(START);
    // Each scenario counts revenue from an empty shop, with the default tolerance (1%).
    await server.deps.db.delete(orders);
    await server.deps.db.update(botSettings).set({ underpaymentTolerancePercent: "1" });
  });

  /** Moves the fixed clock; the session's idle limit (a day) is measured on it, so log in again. */
  async function setClock(at: Date) {
    clock = at;
    cookie = await server.login();
  }

  /** A real checkout of `quantity` x a fresh product priced `price`; answers what the tests need. */
  async function placeOrder(options: { price?: string; quantity?: number; stock?: number; name?: string } = {}) {
    const { price = "15.00", quantity = 1, stock = 10 } = options;
    const product = await insertProduct(server.deps.db, { name: options.name ?? `Lamp ${++seq}`, price, stock });
    const customer = `5500${++seq}`;
    await addToCart(server.deps.db, customer, product.id, quantity);
    const { order } = await checkout(server.deps, {
      telegramUserId: customer,
      telegramUsername: null,
      shippingAddress: { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" },
      postageOptionId: null,
      coin: "BTC",
    });
    return { order, product, customer, paymentId: order.paymentId!, short: order.id.slice(0, 8) };
  }

  const ipn = (body: unknown, style?: IpnSigningStyle) => postIpn(server.baseUrl, body, { secret: TEST_IPN_SECRET, style });
  const pay = async (paymentId: string, status: string, actuallyPaid?: number) => {
    const response = await ipn(gateway.ipnBody(paymentId, status, actuallyPaid === undefined ? {} : { actually_paid: actuallyPaid }));
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const api = async <T>(method: string, url: string, expectedStatus = 200): Promise<T> => {
    const response = await server.request(method, url, { cookie });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(expectedStatus);
    return body as T;
  };
  const listedOrder = async (id: string) => (await api<Order[]>("GET", "/api/orders")).find((o) => o.id === id)!;
  const stats = () => api<DashboardStats>("GET", "/api/dashboard/stats");
  const events = (id: string) => api<OrderEvent[]>("GET", `/api/orders/${id}/events`);
  const stockOf = async (id: string) =>
    (await server.deps.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const toldTo = (chatId: string) => notifier.sent.filter((m) => m.chatId === chatId).map((m) => m.text);

  describe("short payments", () => {
    it("keeps an order paid 10% with 'finished' pending, shows the shortfall and tells the customer how to pay it", async () => {
      const { order, customer, paymentId, product, short } = await placeOrder();
      expect(order.payAmount).toBe("0.0003");
      await pay(paymentId, "finished", 0.00003);

      expect(await listedOrder(order.id)).toMatchObject({
        status: "pending",
        paymentStatus: "partially_paid",
        actuallyPaid: "0.00003",
        payAmount: "0.0003",
        shortfall: "0.00027",
        paidAt: null,
      });
      expect(toldTo(customer)).toEqual([
        `We received 0.00003 BTC for order #${short}, but 0.0003 BTC is due. Please send the remaining 0.00027 BTC to ${order.payAddress} to complete your order.`,
      ]);
      expect(await stats()).toMatchObject({ pendingOrders: 1, processingOrders: 0, totalRevenue: "0.00" });
      expect(await stockOf(product.id)).toBe(9); // still reserved for the customer
      expect(await events(order.id)).toEqual([
        expect.objectContaining({ actor: "gateway", action: "payment_short", detail: expect.stringContaining("0.00003 of 0.0003 BTC") }),
      ]);

      // The customer sends the rest: paid in full, Ready to Dispatch.
      await pay(paymentId, "finished", 0.0003);
      expect(await listedOrder(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished", shortfall: null, paidAt: START.toISOString() });
      expect(toldTo(customer).at(-1)).toMatch(/^Payment received/);
    });

    it("counts a payment within the tolerance as paid, and one just beyond it as short", async () => {
      const within = await placeOrder();
      await pay(within.paymentId, "confirmed", 0.000297); // exactly 99%: the 1% tolerance
      expect(await listedOrder(within.order.id)).toMatchObject({ status: "processing", paymentStatus: "confirmed", paidAt: START.toISOString() });

      const beyond = await placeOrder();
      await pay(beyond.paymentId, "confirmed", 0.000296);
      expect(await listedOrder(beyond.order.id)).toMatchObject({ status: "pending", paymentStatus: "partially_paid", shortfall: "0.000004" });

      // The gateway's own partially_paid for a hair less (fees, rounding) is paid too: that is what the tolerance is for.
      const hair = await placeOrder();
      await pay(hair.paymentId, "partially_paid", 0.000299);
      expect(await listedOrder(hair.order.id)).toMatchObject({ status: "processing", paymentStatus: "partially_paid", paidAt: START.toISOString() });
      expect(toldTo(hair.customer)).toEqual([expect.stringMatching(/^Payment received/)]);

      // The owner widens the tolerance in Bot Settings to 5%: 96% now counts as paid.
      await server.deps.db.update(botSettings).set({ underpaymentTolerancePercent: "5" });
      const wider = await placeOrder();
      await pay(wider.paymentId, "finished", 0.000288);
      expect((await listedOrder(wider.order.id)).status).toBe("processing");
    });

    it("refuses an IPN whose price_amount is not the order's total (£0.01 for £15), and changes nothing", async () => {
      const { order, customer, paymentId, product } = await placeOrder();
      const refusals = [
        { price_amount: 0.01 },
        { price_amount: 15.001 },
        { price_amount: 150 },
        { price_amount: null },
        { price_currency: "usd" },
        { price_currency: null },
        { pay_currency: "ltc" },
      ];
      for (const change of refusals) {
        const response = await ipn({ ...gateway.ipnBody(paymentId, "finished"), ...change });
        expect(response.status, JSON.stringify(change)).toBe(400);
        expect((await response.json()).error).toMatch(/does not match/);
      }
      const response = await ipn({ ...gateway.ipnBody(paymentId, "finished"), price_amount: 0.01 });
      expect((await response.json()).error).toBe(
        `The price_amount 0.01 does not match the total of order ${order.id} (15.00 GBP).`,
      );
      expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting", actuallyPaid: null, paidAt: null });
      expect(await stockOf(product.id)).toBe(9);
      expect(toldTo(customer)).toEqual([]);
      expect(await events(order.id)).toEqual([]);
      // The genuine update still counts afterwards: nothing was recorded as seen.
      await pay(paymentId, "finished");
      expect((await listedOrder(order.id)).status).toBe("processing");
    });

    it("accepts '15' for a £15.00 order and '12.5' for £12.50: the amounts are compared in pence", async () => {
      const { order, paymentId } = await placeOrder({ price: "12.50" });
      await pay(paymentId, "finished");
      expect((await listedOrder(order.id)).status).toBe("processing");
    });
  });

  describe("the owner settles it", () => {
    it("accept-payment makes a short-paid order Ready to Dispatch, counted as revenue when accepted", async () => {
      const { order, customer, paymentId, short } = await placeOrder();
      await pay(paymentId, "partially_paid", 0.0002);

      // Two days later the owner accepts what arrived.
      const acceptedAt = new Date(START.getTime() + 48 * HOUR);
      await setClock(acceptedAt);
      expect(await stats()).toMatchObject({ dailyRevenue: "0.00", totalRevenue: "0.00" });
      const accepted = await api<Order>("POST", `/api/orders/${order.id}/accept-payment`);
      expect(accepted).toMatchObject({ id: order.id, status: "processing", paidAt: acceptedAt.toISOString(), adminFlag: null });
      expect(await stats()).toMatchObject({ processingOrders: 1, dailyRevenue: "15.00", weeklyRevenue: "15.00", totalRevenue: "15.00" });
      expect(toldTo(customer).at(-1)).toBe(
        `Payment received for order #${short}. Thank you! Your order is now being prepared for dispatch.`,
      );
      expect((await events(order.id)).map((e) => [e.actor, e.action])).toEqual([
        ["gateway", "payment_short"],
        ["admin", "payment_accepted"],
      ]);

      // A second accept has nothing to accept.
      const again = await api<{ error: string }>("POST", `/api/orders/${order.id}/accept-payment`, 409);
      expect(again.error).toBe(`Order #${short} is processing: it is already paid, so there is no payment to accept.`);
    });

    it("accept-payment answers 409 when no money arrived, and changes nothing", async () => {
      const { order, customer, short } = await placeOrder();
      const refused = await api<{ error: string }>("POST", `/api/orders/${order.id}/accept-payment`, 409);
      expect(refused.error).toBe(
        `Order #${short} has received no payment, so it cannot be accepted as paid. Cancel it instead, or wait for the payment.`,
      );
      expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paidAt: null });
      expect(toldTo(customer)).toEqual([]);
      expect(await events(order.id)).toEqual([]);
    });

    it("cancel fails a pending order, releases its stock once, tells the customer, and flags a refund when money arrived", async () => {
      const unpaid = await placeOrder({ quantity: 3 });
      expect(await stockOf(unpaid.product.id)).toBe(7);
      const cancelled = await api<Order>("POST", `/api/orders/${unpaid.order.id}/cancel`);
      expect(cancelled).toMatchObject({ status: "failed", adminFlag: null });
      expect(await stockOf(unpaid.product.id)).toBe(10);
      const twice = await api<{ error: string }>("POST", `/api/orders/${unpaid.order.id}/cancel`, 409);
      expect(twice.error).toBe(`Order #${unpaid.short} is failed; only a pending order can be cancelled.`);
      expect(await stockOf(unpaid.product.id)).toBe(10);
      expect(toldTo(unpaid.customer)).toEqual([
        `Order #${unpaid.short} was cancelled by the shop. No payment was taken for it. If you have any questions, please contact support.`,
      ]);

      const partlyPaid = await placeOrder({ quantity: 2 });
      await pay(partlyPaid.paymentId, "partially_paid", 0.0001);
      const flagged = await api<Order>("POST", `/api/orders/${partlyPaid.order.id}/cancel`);
      expect(flagged).toMatchObject({ status: "failed", adminFlag: "refund_due", actuallyPaid: "0.0001" });
      expect(await stockOf(partlyPaid.product.id)).toBe(10);
      expect(toldTo(partlyPaid.customer).at(-1)).toBe(
        `Order #${partlyPaid.short} was cancelled by the shop. We received 0.0001 BTC for it, which will be refunded: please contact support with an address to refund it to.`,
      );
      expect((await events(partlyPaid.order.id)).map((e) => [e.actor, e.action])).toEqual([
        ["gateway", "payment_short"],
        ["admin", "cancelled"],
      ]);
      // The money's record stays.
      const deleted = await api<{ error: string }>("DELETE", `/api/orders/${partlyPaid.order.id}`, 409);
      expect(deleted.error).toMatch(/received a payment \(0\.0001 of 0\.0006 BTC\), so it is kept/);
    });

    it("cancel racing the IPN that pays the order: one of them wins, and the stock is counted once", async () => {
      for (let round = 0; round < 6; round++) {
        const { order, paymentId, product, customer } = await placeOrder({ quantity: 2 });
        // Sent in both orders, so either may reach the order's lock first.
        const sendCancel = () => server.request("POST", `/api/orders/${order.id}/cancel`, { cookie });
        const sendPaid = () => ipn(gateway.ipnBody(paymentId, "finished"));
        const [cancel, paid] =
          round % 2 === 0
            ? await Promise.all([sendCancel(), sendPaid()])
            : await Promise.all([sendPaid(), sendCancel()]).then(([p, c]) => [c, p] as const);
        expect(paid.status).toBe(200);
        const final = await listedOrder(order.id);
        if (cancel.status === 200) {
          // Cancelled first: the payment that came after is the owner's to refund (or accept).
          expect(final).toMatchObject({ status: "failed", paymentStatus: "finished", adminFlag: "refund_due", paidAt: null });
          expect(await stockOf(product.id)).toBe(10);
          // Both notices go out after their own commits, so they may reach the customer in either order.
          expect(toldTo(customer)).toHaveLength(2);
          expect(toldTo(customer)).toEqual(
            expect.arrayContaining([expect.stringMatching(/was cancelled by the shop/), expect.stringMatching(/had already been cancelled/)]),
          );
        } else {
          expect(cancel.status).toBe(409);
          expect(final).toMatchObject({ status: "processing", paymentStatus: "finished", adminFlag: null });
          expect(await stockOf(product.id)).toBe(8);
        }
      }
    });

    it("money arriving after the owner cancelled does not revive the order: it is flagged for a refund", async () => {
      const { order, paymentId, product, customer, short } = await placeOrder({ quantity: 2 });
      await api("POST", `/api/orders/${order.id}/cancel`);
      await pay(paymentId, "finished");
      expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "finished", adminFlag: "refund_due", paidAt: null });
      expect(await stockOf(product.id)).toBe(10);
      expect(toldTo(customer).at(-1)).toBe(
        `We received 0.0006 BTC for order #${short}, but the order had already been cancelled. Please contact support and we will sort it out.`,
      );
      // The owner may still change their mind and accept it, while the stock is there.
      expect(await api<Order>("POST", `/api/orders/${order.id}/accept-payment`)).toMatchObject({ status: "processing", adminFlag: null });
      expect(await stockOf(product.id)).toBe(8);
      // Or the gateway refunds it: it leaves Ready to Dispatch again and its stock comes back.
      await pay(paymentId, "refunded");
      expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "refunded", adminFlag: null });
      expect(await stockOf(product.id)).toBe(10);
      expect((await events(order.id)).map((e) => [e.actor, e.action])).toEqual([
        ["admin", "cancelled"],
        ["gateway", "payment_received_late"],
        ["admin", "payment_accepted"],
        ["gateway", "payment_refunded"],
      ]);
    });

    it("accepts money that arrived after the order expired, while its stock is still there", async () => {
      const { order, paymentId, product } = await placeOrder({ quantity: 2 });
      await setClock(new Date(START.getTime() + FAKE_PAYMENT_LIFETIME_MS + HOUR));
      expect((await api<{ expiredOrderIds: string[] }>("POST", "/api/orders/cleanup-expired")).expiredOrderIds).toEqual([order.id]);
      expect(await stockOf(product.id)).toBe(10);

      // Part of the money arrives late: the order stays failed, flagged for the owner.
      await pay(paymentId, "partially_paid", 0.0002);
      expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "partially_paid", adminFlag: "refund_due" });
      expect(await stockOf(product.id)).toBe(10);

      const accepted = await api<Order>("POST", `/api/orders/${order.id}/accept-payment`);
      expect(accepted).toMatchObject({ status: "processing", adminFlag: null, paidAt: clock.toISOString() });
      expect(await stockOf(product.id)).toBe(8);
      expect((await events(order.id)).map((e) => [e.actor, e.action])).toEqual([
        ["system", "expired"],
        ["gateway", "payment_received_late"],
        ["admin", "payment_accepted"],
      ]);
    });

    it("refuses to accept late money when the stock has gone meanwhile, naming the product", async () => {
      const { order, paymentId, product } = await placeOrder({ quantity: 2, stock: 2, name: "Brass lamp" });
      await pay(paymentId, "expired");
      await pay(paymentId, "partially_paid", 0.0001);
      await server.deps.db.update(products).set({ stock: 1 }).where(eq(products.id, product.id)); // sold meanwhile
      const refused = await api<{ error: string }>("POST", `/api/orders/${order.id}/accept-payment`, 409);
      expect(refused.error).toBe(
        `Order #${order.id.slice(0, 8)} cannot be accepted as paid: Not enough stock for Brass lamp: only 1 left. Restock it first, or refund the payment.`,
      );
      expect(await listedOrder(order.id)).toMatchObject({ status: "failed", adminFlag: "refund_due" });
      expect(await stockOf(product.id)).toBe(1);
    });
  });

  describe("refunds", () => {
    it("a refund takes a processing order out of Ready to Dispatch and revenue, and puts its stock back", async () => {
      const { order, paymentId, product, customer, short } = await placeOrder({ quantity: 2, price: "7.50" });
      await pay(paymentId, "finished");
      expect(await stats()).toMatchObject({ processingOrders: 1, dailyRevenue: "15.00", totalRevenue: "15.00" });

      await pay(paymentId, "refunded");
      expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "refunded", paidAt: null });
      expect(await stats()).toMatchObject({ processingOrders: 0, dailyRevenue: "0.00", weeklyRevenue: "0.00", totalRevenue: "0.00" });
      expect(await stockOf(product.id)).toBe(10);
      expect(toldTo(customer).at(-1)).toBe(`The payment for order #${short} was refunded, so the order was cancelled.`);
      expect((await events(order.id)).map((e) => e.action)).toEqual(["payment_paid", "payment_refunded"]);
      // A refunded order stays as the record of its money.
      await api("DELETE", `/api/orders/${order.id}`, 409);
    });

    it("a refund after dispatch keeps the order dispatched, flags it for the owner and takes it out of revenue", async () => {
      const { order, paymentId, product, customer } = await placeOrder();
      await pay(paymentId, "finished");
      const dispatched = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched", trackingNumber: "RM1" } });
      expect(dispatched.status).toBe(200);
      const toldBefore = toldTo(customer).length;

      await pay(paymentId, "refunded");
      expect(await listedOrder(order.id)).toMatchObject({ status: "dispatched", paymentStatus: "refunded", adminFlag: "refunded_after_dispatch" });
      expect(await stats()).toMatchObject({ totalRevenue: "0.00" });
      expect(await stockOf(product.id)).toBe(9); // the goods left the shop
      expect(toldTo(customer)).toHaveLength(toldBefore);
      expect((await events(order.id)).map((e) => [e.actor, e.action])).toEqual([
        ["gateway", "payment_paid"],
        ["admin", "dispatched"],
        ["gateway", "payment_refunded"],
      ]);
    });
  });

  describe("expiry by the deadline the customer was given", () => {
    it("does not fail an unpaid order at 2 hours when the gateway gave 24; fails it after, and tells the customer", async () => {
      const { order, product, customer, short } = await placeOrder({ quantity: 4 });
      expect(order.paymentExpiresAt).toBe(new Date(START.getTime() + 24 * HOUR).toISOString());

      await setClock(new Date(START.getTime() + 3 * HOUR));
      expect(await api("POST", "/api/orders/cleanup-expired")).toEqual({ expiredOrderIds: [] });
      await setClock(new Date(START.getTime() + 24 * HOUR)); // the deadline itself: not past it yet
      expect(await api("POST", "/api/orders/cleanup-expired")).toEqual({ expiredOrderIds: [] });
      expect((await listedOrder(order.id)).status).toBe("pending");
      expect(await stockOf(product.id)).toBe(6);

      await setClock(new Date(START.getTime() + 24 * HOUR + 60_000));
      expect(await api("POST", "/api/orders/cleanup-expired")).toEqual({ expiredOrderIds: [order.id] });
      expect((await listedOrder(order.id)).status).toBe("failed");
      expect(await stockOf(product.id)).toBe(10);
      await vi.waitFor(() =>
        expect(toldTo(customer)).toEqual([
          `Order #${short} expired: no payment arrived in time, so it was cancelled and its items released. If you already sent a payment, please contact support.`,
        ]),
      );
      expect(await events(order.id)).toEqual([
        expect.objectContaining({ actor: "system", action: "expired", detail: expect.stringContaining("2026-11-23T10:00:00.000Z") }),
      ]);
      // Its 'expired' IPN arriving later changes and says nothing more.
      await pay(order.paymentId!, "expired");
      expect(toldTo(customer)).toHaveLength(1);
    });

    it("never fails a short-paid order, however late; the gateway's own 'expired' on it is not heard either", async () => {
      const { order, paymentId } = await placeOrder();
      await pay(paymentId, "partially_paid", 0.0001);
      await setClock(new Date(START.getTime() + 10 * 24 * HOUR));
      expect(await api("POST", "/api/orders/cleanup-expired")).toEqual({ expiredOrderIds: [] });
      await pay(paymentId, "expired");
      expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "partially_paid" });
    });
  });

  describe("signatures that survive real payloads", () => {
    it.each(["node", "php"] as const)("applies an IPN signed %s-style whose description has non-ASCII and '/'", async (style) => {
      const { order, paymentId } = await placeOrder({ name: "Café crème 1/2 kg" });
      const body = { ...gateway.ipnBody(paymentId, "finished"), order_description: "Café crème 1/2 kg — «spécial» 🍵" };
      const response = await ipn(body, style);
      expect(response.status).toBe(200);
      expect((await listedOrder(order.id)).status).toBe("processing");
    });
  });
});
