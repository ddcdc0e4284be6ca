import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Order, OrderEvent, PaymentGateways } from "../../contract";
import { cartItems, jobRuns, orders, products } from "../db/schema";
import { addToCart, BTCPAY_WEBHOOK_PATH, checkout, quoteCheckout } from "../shop/ordering";
import { rescueUnsettledPayments } from "../shop/payments";
import { getPaymentGatewaySettings } from "../shop/settings";
import { createRecordingNotifier, startTestServer, type TestServer } from "../../test-support/app";
import { insertProduct } from "../../test-support/factories";
import { startFakeBtcpay, type FakeBtcpay } from "../../test-support/fake-btcpay";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { configureBtcpay, configurePayments, TEST_BTCPAY_WEBHOOK_SECRET } from "../../test-support/payments-setup";
import { btcpaySignature } from "../gateways/btcpay";

// Issue 24: BTCPay Server beside NOWPayments, with the same guarantees. Each scenario through a real
// checkout, the fake Greenfield server and signed webhook deliveries over real HTTP, with a fixed clock.
// A £15.00 order in BTC at the fake's rate (£50,000) is 0.0003 BTC.

const START = new Date("2026-11-22T10:00:00Z");

describe("BTCPay Server: invoices, webhooks and the rescue sweep", () => {
  let server: TestServer;
  let btcpay: FakeBtcpay;
  let nowpayments: FakeNowPayments;
  let cookie: string;
  const clock = START;
  let seq = 0;
  const notifier = createRecordingNotifier();

  beforeAll(async () => {
    btcpay = await startFakeBtcpay({ now: () => clock });
    nowpayments = await startFakeNowPayments({ now: () => clock });
    server = await startTestServer({ config: { nowpaymentsApiUrl: nowpayments.url }, deps: { notifier, now: () => clock } });
    await configurePayments(server.deps);
    await configureBtcpay(server.deps, btcpay, { coins: ["BTC"] });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await btcpay?.close();
    await nowpayments?.close();
  });
  beforeEach(async () => {
    await server.deps.db.delete(orders);
  });

  async function placeOrder(options: { price?: string; coin?: "BTC" | "LTC"; stock?: number } = {}) {
    const product = await insertProduct(server.deps.db, { name: `Lamp ${++seq}`, price: options.price ?? "15.00", stock: options.stock ?? 10 });
    const customer = `7700${++seq}`;
    await addToCart(server.deps.db, customer, product.id, 1);
    const result = await checkout(server.deps, {
      telegramUserId: customer,
      telegramUsername: null,
      shippingAddress: { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" },
      postageOptionId: null,
      coin: options.coin ?? "BTC",
    });
    return { ...result, product, customer, invoiceId: result.order.paymentId!, short: result.order.id.slice(0, 8) };
  }

  const webhookUrl = () => server.baseUrl + BTCPAY_WEBHOOK_PATH;
  const deliver = (body: Record<string, unknown>, options: { signature?: string | null; raw?: string; secret?: string } = {}) =>
    btcpay.deliver(body, { url: webhookUrl(), secret: TEST_BTCPAY_WEBHOOK_SECRET, ...options });
  /** Delivers one webhook about the invoice and expects it taken. */
  const notify = async (invoiceId: string, type: string) => {
    const response = await deliver(btcpay.webhookBody(invoiceId, type));
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as { outcome: string; orderStatus: string };
  };
  const api = async <T>(method: string, url: string, expectedStatus = 200): Promise<T> => {
    const response = await server.request(method, url, { cookie });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(expectedStatus);
    return body as T;
  };
  const storedOrder = async (id: string) => (await server.deps.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const listedOrder = async (id: string) => (await api<Order[]>("GET", "/api/orders")).find((o) => o.id === id)!;
  const events = (id: string) => api<OrderEvent[]>("GET", `/api/orders/${id}/events`);
  const stockOf = async (id: string) => (await server.deps.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
  const toldTo = (chatId: string) => notifier.sent.filter((m) => m.chatId === chatId).map((m) => m.text);

  it("creates a GBP invoice for the order's total and shows its address, amount and checkout link; paid in full, it is Ready to Dispatch", async () => {
    const { order, payment, invoiceId, customer, short } = await placeOrder();
    expect(btcpay.created.at(-1)).toEqual({
      amount: "15.00",
      currency: "GBP",
      metadata: { orderId: order.id, itemDesc: `Order #${short}, 1 item` },
      checkout: { paymentMethods: ["BTC-CHAIN"], expirationMinutes: 120, paymentTolerance: 1 },
    });
    const invoice = btcpay.invoices.get(invoiceId)!;
    expect(payment).toEqual({
      payAddress: invoice.method.destination,
      payAmount: "0.0003",
      payCurrency: "btc",
      expiresAt: new Date(invoice.expirationTime * 1000).toISOString(),
      checkoutUrl: invoice.checkoutLink,
    });
    expect(await storedOrder(order.id)).toMatchObject({ paymentGateway: "btcpay", paymentCheckoutUrl: invoice.checkoutLink, payAmount: "0.0003" });
    expect(nowpayments.created).toHaveLength(0);

    btcpay.payInFull(invoiceId);
    expect(await notify(invoiceId, "InvoiceProcessing")).toMatchObject({ outcome: "applied", orderStatus: "pending" });
    expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "confirming" });

    btcpay.settle(invoiceId);
    expect(await notify(invoiceId, "InvoiceSettled")).toMatchObject({ outcome: "applied", orderStatus: "processing" });
    expect(await listedOrder(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished", actuallyPaid: "0.0003", paidAt: START.toISOString() });
    expect(toldTo(customer)).toEqual([`Payment received for order #${short}. Thank you! Your order is now being prepared for dispatch.`]);
  });

  it("keeps NOWPayments for the coins left with it", async () => {
    const { order } = await placeOrder({ coin: "LTC" });
    expect(nowpayments.created.at(-1)!.body).toMatchObject({ pay_currency: "ltc", order_id: order.id });
    expect(await storedOrder(order.id)).toMatchObject({ paymentGateway: "nowpayments", paymentCheckoutUrl: null });
  });

  it("a short payment stays pending for the owner (accept or cancel); one within the tolerance is paid", async () => {
    const { order, invoiceId, customer, short, product } = await placeOrder();
    btcpay.payShort(invoiceId, "0.0001");
    await notify(invoiceId, "InvoiceReceivedPayment");
    expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "partially_paid", actuallyPaid: "0.0001", shortfall: "0.0002" });
    expect(toldTo(customer).at(-1)).toBe(
      `We received 0.0001 BTC for order #${short}, but 0.0003 BTC is due. Please send the remaining 0.0002 BTC to ${order.payAddress} to complete your order.`,
    );
    // BTCPay gives up on the invoice: still the short payment, the owner's to settle.
    btcpay.expire(invoiceId);
    expect(await notify(invoiceId, "InvoiceExpired")).toMatchObject({ outcome: "duplicate", orderStatus: "pending" });
    const accepted = await api<Order>("POST", `/api/orders/${order.id}/accept-payment`);
    expect(accepted).toMatchObject({ status: "processing" });
    expect(await stockOf(product.id)).toBe(9);

    const within = await placeOrder();
    btcpay.payShort(within.invoiceId, "0.000297"); // 99%: the 1% tolerance
    await notify(within.invoiceId, "InvoiceReceivedPayment");
    expect(await listedOrder(within.order.id)).toMatchObject({ status: "processing", paymentStatus: "partially_paid" });

    const cancelled = await placeOrder();
    btcpay.payShort(cancelled.invoiceId, "0.0001");
    await notify(cancelled.invoiceId, "InvoiceReceivedPayment");
    await api("POST", `/api/orders/${cancelled.order.id}/cancel`);
    expect(await listedOrder(cancelled.order.id)).toMatchObject({ status: "failed", adminFlag: "refund_due" });
  });

  it("an overpayment is paid, and the owner sees by how much", async () => {
    const { order, invoiceId } = await placeOrder();
    btcpay.payOver(invoiceId, "0.0004");
    await notify(invoiceId, "InvoiceSettled");
    expect(await listedOrder(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished", actuallyPaid: "0.0004" });
    expect(await events(order.id)).toEqual([
      expect.objectContaining({ action: "payment_paid", detail: expect.stringContaining("Overpaid by 0.0001 BTC") }),
    ]);
  });

  it("expired unpaid fails the order; money paid late is the owner's to decide, whatever its amount", async () => {
    const { order, invoiceId, product, customer, short } = await placeOrder();
    btcpay.expire(invoiceId);
    await notify(invoiceId, "InvoiceExpired");
    expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "expired" });
    expect(await stockOf(product.id)).toBe(10);

    btcpay.payLate(invoiceId);
    await notify(invoiceId, "InvoiceReceivedPayment");
    expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "partially_paid", adminFlag: "refund_due", actuallyPaid: "0.0003" });
    expect((await events(order.id)).map((e) => e.action)).toEqual(["payment_expired", "payment_received_late"]);
    expect(toldTo(customer).at(-1)).toBe(`We received 0.0003 BTC for order #${short}, but the order had already been cancelled. Please contact support and we will sort it out.`);
    // Paid late while the shop still waited: pending, the owner accepts or cancels.
    const waiting = await placeOrder();
    btcpay.payLate(waiting.invoiceId);
    await notify(waiting.invoiceId, "InvoiceReceivedPayment");
    expect(await listedOrder(waiting.order.id)).toMatchObject({ status: "pending", paymentStatus: "partially_paid", paidAt: null });
    expect(await api<Order>("POST", `/api/orders/${waiting.order.id}/accept-payment`)).toMatchObject({ status: "processing" });
  });

  it("an invalid invoice fails the order", async () => {
    const { order, invoiceId } = await placeOrder();
    btcpay.invalidate(invoiceId);
    await notify(invoiceId, "InvoiceInvalid");
    expect(await listedOrder(order.id)).toMatchObject({ status: "failed", paymentStatus: "failed" });
  });

  it("refuses a tampered, unsigned or wrongly signed delivery with a 401, changing nothing", async () => {
    const { order, invoiceId } = await placeOrder();
    btcpay.settle(invoiceId);
    const body = btcpay.webhookBody(invoiceId, "InvoiceSettled");
    const raw = JSON.stringify(body);
    const signature = btcpaySignature(raw, TEST_BTCPAY_WEBHOOK_SECRET);
    const attempts = [
      deliver(body, { raw: raw.replace(invoiceId, invoiceId.slice(0, -1) + "X"), signature }), // the bytes changed under the signature
      deliver(body, { raw: raw + " ", signature }), // one byte more
      deliver(body, { signature: null }),
      deliver(body, { signature: "" }),
      deliver(body, { signature: signature.replace("sha256=", "") }),
      deliver(body, { signature: signature.toUpperCase().replace("SHA256=", "sha1=") }),
      deliver(body, { secret: "not-the-secret" }),
      deliver(body, { signature: "sha256=" + "0".repeat(64) }),
    ];
    for (const [index, response] of (await Promise.all(attempts)).entries()) {
      expect(response.status, `attempt ${index}`).toBe(401);
      expect(await response.json()).toMatchObject({ error: expect.stringMatching(/BTCPay-Sig/) });
    }
    expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting" });
    // Signed but unreadable: 400.
    expect((await deliver(body, { raw: "{not json" })).status).toBe(400);
    expect((await deliver({ ...body, invoiceId: undefined })).status).toBe(400);
    expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting" });
  });

  it("takes a delivery once: replays and redeliveries of the same deliveryId have no second effect", async () => {
    const { order, invoiceId, customer } = await placeOrder();
    btcpay.settle(invoiceId);
    const body = btcpay.webhookBody(invoiceId, "InvoiceSettled");
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(body)));
    const outcomes = await Promise.all(answers.map(async (a) => ((await a.json()) as { outcome: string }).outcome));
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(4);
    const redelivery = await deliver({ ...body, isRedelivery: true, originalDeliveryId: body.deliveryId, timestamp: Number(body.timestamp) + 60 });
    expect(await redelivery.json()).toMatchObject({ outcome: "duplicate" });
    expect(toldTo(customer)).toHaveLength(1);
    expect(await listedOrder(order.id)).toMatchObject({ status: "processing" });
  });

  it("acts on the invoice as BTCPay answers it: out-of-order deliveries, and a body claiming Settled while the invoice is New", async () => {
    const forged = await placeOrder();
    const claim = await deliver(btcpay.webhookBody(forged.invoiceId, "InvoiceSettled", { status: "Settled", afterExpiration: false, manuallyMarked: false }));
    expect(claim.status).toBe(200);
    expect(await listedOrder(forged.order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting", paidAt: null });

    const { order, invoiceId } = await placeOrder();
    const processing = btcpay.webhookBody(invoiceId, "InvoiceProcessing");
    btcpay.payInFull(invoiceId);
    btcpay.settle(invoiceId);
    // The Settled delivery arrives first, the older Processing one after: the order never goes back.
    await notify(invoiceId, "InvoiceSettled");
    const late = await deliver(processing);
    expect(await late.json()).toMatchObject({ outcome: "duplicate", orderStatus: "processing" });
    expect(await listedOrder(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished" });
  });

  it("answers 200 and changes nothing for an invoice the shop did not create (the store's other sales)", async () => {
    const { order, invoiceId } = await placeOrder();
    const ours = btcpay.invoices.get(invoiceId)!;
    for (const [id, metadata] of [
      ["OtherAppInvoice1", {}],
      ["OtherAppInvoice2", { orderId: "woo-1234" }],
      ["OtherAppInvoice3", { orderId: "00000000-0000-4000-8000-000000000000" }],
    ] as const) {
      btcpay.invoices.set(id, { ...ours, id, metadata });
      btcpay.settle(id);
      const response = await deliver(btcpay.webhookBody(id, "InvoiceSettled"));
      expect(response.status, id).toBe(200);
      expect(await response.json()).toEqual({ ok: true, outcome: "ignored", orderStatus: null });
    }
    expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting", paidAt: null });
  });

  it("refuses an invoice whose GBP amount is not the order's total", async () => {
    const { order, invoiceId } = await placeOrder();
    const invoice = btcpay.invoices.get(invoiceId)!;
    btcpay.invoices.set(invoiceId, { ...invoice, amount: "0.01" });
    btcpay.settle(invoiceId);
    const response = await deliver(btcpay.webhookBody(invoiceId, "InvoiceSettled"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.stringContaining("does not match the total") });
    expect(await listedOrder(order.id)).toMatchObject({ status: "pending", paymentStatus: "waiting" });
  });

  it("the rescue sweep finds an invoice settled while its webhook was lost, asking BTCPay (not NOWPayments)", async () => {
    const { order, invoiceId, customer } = await placeOrder();
    btcpay.settle(invoiceId);
    const nowpaymentsChecks = nowpayments.statusChecks.length;
    const result = await rescueUnsettledPayments({ ...server.deps });
    expect(result.applied).toContain(order.id);
    expect(btcpay.invoiceReads).toContain(invoiceId);
    expect(nowpayments.statusChecks.length).toBe(nowpaymentsChecks);
    expect(await listedOrder(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished" });
    expect(toldTo(customer).at(-1)).toMatch(/^Payment received/);
    // The webhook that arrives afterwards changes nothing.
    expect(await notify(invoiceId, "InvoiceSettled")).toMatchObject({ outcome: "duplicate" });
  });

  it("50 concurrent checkouts for the last 10 units make 10 invoices; their settled webhooks, each sent twice at once, pay each once", async () => {
    const { db } = server.deps;
    const widget = await insertProduct(db, { name: "Last Widget", price: "5.00", stock: 10 });
    const customers = Array.from({ length: 50 }, (_, i) => `880${i}`);
    await db.insert(cartItems).values(customers.map((telegramUserId) => ({ telegramUserId, productId: widget.id, variantId: widget.id, quantity: 1 })));
    const before = btcpay.created.length;
    const results = await Promise.allSettled(
      customers.map((customer) =>
        checkout(server.deps, {
          telegramUserId: customer,
          shippingAddress: { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" },
          postageOptionId: null,
          coin: "BTC",
        }),
      ),
    );
    const sold = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(sold).toHaveLength(10);
    expect(btcpay.created.length - before).toBe(10);
    expect(await stockOf(widget.id)).toBe(0);
    for (const { order } of sold) btcpay.settle(order.paymentId!);
    const bodies = sold.map(({ order }) => btcpay.webhookBody(order.paymentId!, "InvoiceSettled"));
    const answers = await Promise.all([...bodies, ...bodies].map((body) => deliver(body)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const paid = await db.select().from(orders).where(eq(orders.status, "processing"));
    expect(paid.filter((o) => o.paymentGateway === "btcpay" && sold.some((s) => s.order.id === o.id))).toHaveLength(10);
    const messages = notifier.sent.filter((m) => customers.includes(m.chatId));
    expect(messages).toHaveLength(10);
  });

  it("offers a coin given to BTCPay only while BTCPay is configured", async () => {
    const product = await insertProduct(server.deps.db, { price: "1.00", stock: 1 });
    await addToCart(server.deps.db, "9911", product.id, 1);
    expect((await quoteCheckout(server.deps, { telegramUserId: "9911", postageOptionId: null })).coins).toEqual(["BTC", "LTC", "XMR"]);
    await configureBtcpay(server.deps, { ...btcpay, apiKey: "" }, { coins: ["BTC"] });
    try {
      expect((await quoteCheckout(server.deps, { telegramUserId: "9911", postageOptionId: null })).coins).toEqual(["LTC", "XMR"]);
    } finally {
      await configureBtcpay(server.deps, btcpay, { coins: ["BTC"] });
    }
  });

  describe("registering the webhook again replaces the shop's webhook (POST /api/payment-gateways/btcpay/webhook)", () => {
    const register = () => server.request("POST", "/api/payment-gateways/btcpay/webhook", { cookie });
    const registerOk = async () => {
      const response = await register();
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as PaymentGateways;
    };
    /** The store's webhooks posting to the shop: after any registration, exactly one. */
    const ours = () => btcpay.webhooks.filter((hook) => hook.url === webhookUrl());
    const theOne = () => {
      expect(ours()).toHaveLength(1);
      return { ...ours()[0]! };
    };
    const saved = async () => (await getPaymentGatewaySettings(server.deps.db, server.deps.secrets)).btcpay;
    /** The saved webhook is the one on the store: its id, address and secret. */
    const expectSavedToMatchStore = async () => {
      const hook = theOne();
      expect(await saved()).toMatchObject({ webhookId: hook.id, webhookUrl: hook.url, webhookSecret: hook.secret });
      return hook;
    };
    const callsDuring = async (action: () => Promise<unknown>) => {
      const before = btcpay.webhookCalls.length;
      await action();
      return btcpay.webhookCalls.slice(before);
    };

    beforeAll(() => {
      // This server's own address is the PUBLIC_URL, so the webhook BTCPay is given reaches it.
      server.deps.config.publicUrl = server.baseUrl;
    });
    afterAll(() => {
      server.deps.config.publicUrl = undefined;
    });
    afterEach(async () => {
      btcpay.refuseWebhooks(null);
      btcpay.delayWebhooks(0);
      btcpay.webhooks.splice(0);
      await configureBtcpay(server.deps, btcpay, { coins: ["BTC"] });
    });

    it("keeps one webhook: the same one updated with the new secret; a delivery signed with the old secret is refused", async () => {
      // The saved webhook (configureBtcpay's FakeHook0) is not on the store: the first registration creates one.
      expect(await callsDuring(registerOk)).toEqual(["list", "create"]);
      const first = await expectSavedToMatchStore();
      const { order, invoiceId } = await placeOrder();

      let answer: PaymentGateways | null = null;
      expect(await callsDuring(async () => (answer = await registerOk()))).toEqual(["list", `update ${first.id}`]);
      const second = await expectSavedToMatchStore();
      expect(second.id).toBe(first.id);
      expect(second.secret).not.toBe(first.secret);
      expect(second.body).toMatchObject({ enabled: true, url: webhookUrl(), authorizedEvents: { everything: false, specificEvents: expect.arrayContaining(["InvoiceSettled"]) } });
      expect(answer!.btcpay.webhook).toEqual({ id: first.id, url: webhookUrl(), state: "registered" });

      btcpay.settle(invoiceId);
      const body = btcpay.webhookBody(invoiceId, "InvoiceSettled");
      const stale = await deliver(body, { secret: first.secret });
      expect(stale.status).toBe(401);
      // BTCPay posts the event to each webhook on the store: one, signed with the secret the shop keeps.
      const deliveries = await btcpay.deliverToEach(body, server.baseUrl);
      expect(deliveries.map((d) => [d.webhookId, d.response.status])).toEqual([[first.id, 200]]);
      expect(await listedOrder(order.id)).toMatchObject({ status: "processing", paymentStatus: "finished" });
    });

    it("moves the shop's webhook to a new PUBLIC_URL and deletes older ones at the shop's address, never another integration's", async () => {
      await registerOk();
      const ownId = theOne().id;
      // PUBLIC_URL changed since the shop's webhook was registered; two registrations from before this rule remain.
      btcpay.webhooks.find((hook) => hook.id === ownId)!.url = "https://old-address.example/api/payments/btcpay/webhook";
      const stale = [btcpay.addWebhook({ url: webhookUrl() }), btcpay.addWebhook({ url: webhookUrl() })];
      // Other integrations, some at addresses that differ from the shop's by one character.
      const nearMisses = fc.sample(
        fc
          .tuple(fc.nat({ max: webhookUrl().length }), fc.constantFrom("/", "?", "x", "%", "#", " ", ".", "0", "A", "é"), fc.boolean())
          .map(([at, char, replace]) => webhookUrl().slice(0, at) + char + webhookUrl().slice(replace ? at + 1 : at))
          .filter((url) => url !== webhookUrl()),
        { numRuns: 25, seed: 24 },
      );
      const others = [
        "https://woocommerce.example/?wc-api=btcpay",
        webhookUrl() + "/",
        webhookUrl().replace("http://", "https://"),
        webhookUrl().toUpperCase(),
        ...nearMisses,
      ].map((url) => ({ ...btcpay.addWebhook({ url, secret: `secret of ${url}` }) }));

      const calls = await callsDuring(registerOk);
      expect(calls).toEqual(["list", ...stale.map((hook) => `delete ${hook.id}`), `update ${ownId}`]);
      expect((await expectSavedToMatchStore()).id).toBe(ownId);
      expect(btcpay.webhooks.filter((hook) => hook.id !== ownId)).toEqual(others);
    });

    it("creates the webhook again when it was deleted on BTCPay; an old one left at the shop's address is reused", async () => {
      await registerOk();
      const deleted = theOne().id;
      btcpay.webhooks.splice(0);
      expect(await callsDuring(registerOk)).toEqual(["list", "create"]);
      const created = await expectSavedToMatchStore();
      expect(created.id).not.toBe(deleted);

      // Deleted again, while an older webhook at the shop's address is still there: that one becomes the shop's.
      btcpay.webhooks.splice(0);
      const older = btcpay.addWebhook({ url: webhookUrl(), secret: "a secret the shop never knew" });
      expect(await callsDuring(registerOk)).toEqual(["list", `update ${older.id}`]);
      expect((await expectSavedToMatchStore()).id).toBe(older.id);
    });

    it("parallel registrations end with one webhook, whose secret is the saved one; a claim left by a dead process lapses", async () => {
      // Slow answers, so that registrations not kept one at a time would all list an empty store and each add one.
      btcpay.delayWebhooks(25);
      const calls = await callsDuring(async () => {
        const answers = await Promise.all(Array.from({ length: 4 }, () => register()));
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      });
      expect(calls.filter((call) => call === "create")).toHaveLength(1);
      await expectSavedToMatchStore();

      // A registration that died holding the claim three minutes ago does not block the next one.
      await server.deps.db
        .insert(jobRuns)
        .values({ name: "btcpay-webhook-registration", lastRunAt: sql`now() - interval '3 minutes'` })
        .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: sql`now() - interval '3 minutes'` } });
      btcpay.delayWebhooks(0);
      await registerOk();
      await expectSavedToMatchStore();
      expect(await server.deps.db.select().from(jobRuns).where(eq(jobRuns.name, "btcpay-webhook-registration"))).toEqual([]);
    });

    it("a key without the webhook permission gets a sentence saying so, and the saved webhook still matches the store", async () => {
      await registerOk();
      const registered = theOne();
      const stale = btcpay.addWebhook({ url: webhookUrl() });
      const refused = async (call: "list" | "delete" | "update" | "create", sentence: RegExp) => {
        btcpay.refuseWebhooks(403, [call]);
        try {
          const response = await register();
          expect(response.status).toBe(502);
          const { error } = (await response.json()) as { error: string };
          expect(error).toMatch(sentence);
          expect(error).toMatch(/the API key needs the permission to modify the store's webhooks \(btcpay\.store\.webhooks\.canmodifywebhooks/);
        } finally {
          btcpay.refuseWebhooks(null);
        }
      };

      await refused("list", /^BTCPay Server refused to list the store's webhooks/);
      await refused("delete", /^BTCPay Server refused to delete an old webhook of the shop/);
      await refused("update", /^BTCPay Server refused to update the shop's webhook/);
      // Nothing of the shop's changed: the saved secret is still the one BTCPay signs with.
      expect(btcpay.webhooks.find((hook) => hook.id === registered.id)).toEqual(registered);
      expect(await saved()).toMatchObject({ webhookId: registered.id, webhookSecret: registered.secret });

      // Its webhook deleted on BTCPay and adding one refused: no longer shown as registered.
      btcpay.webhooks.splice(0);
      await refused("create", /^BTCPay Server refused to add the webhook/);
      expect(btcpay.webhooks).toEqual([]);
      expect(await saved()).toMatchObject({ webhookId: null, webhookUrl: null, webhookSecret: null });
      const card = (await (await server.request("GET", "/api/payment-gateways", { cookie })).json()) as PaymentGateways;
      expect(card.btcpay.webhook.state).toBe("not-registered");

      // With the permission back, one registration puts it right.
      btcpay.addWebhook({ url: stale.url });
      await registerOk();
      await expectSavedToMatchStore();
    });
  });
});
