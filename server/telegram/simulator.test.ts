import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, RevenueReport, SimulatorState } from "../../contract";
import { broadcastRecipients, orders, products } from "../db/schema";
import { createBroadcast, recordBotStart, getOwnerAlerts, issueLinkCode } from "../shop/customers";
import { recordMessageToTestCustomer, TEST_CUSTOMER_ID } from "../shop/simulator";
import { startShopWithBot, type ShopWithBot } from "../../test-support/bot-harness";
import { insertOrder, insertProduct } from "../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";
import { queryRows } from "../db/rows";

// Bot Preview's chat simulator (issue 14, item 1; docs/decisions/0023): the admin plays the test
// customer through the real bot; nothing reaches Telegram or the payment gateway, the test order is
// paid by simulation through the real payment path, stays out of revenue, the numbers and the
// customer list, can be dispatched and deleted, and no real order can be paid that way.

const TOKEN = "7000000014:simulator-token";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001", "hex");

type Setup = { shop: ShopWithBot; telegram: FakeTelegram; gateway: FakeNowPayments; admin: string };

describe("the chat simulator", () => {
  let setup: Setup;
  let productId: string;
  let imagePath: string;

  beforeAll(async () => {
    const telegram = await startFakeTelegram();
    const gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    const shop = await startShopWithBot({ telegram, config: { nowpaymentsApiUrl: gateway.url } });
    const admin = await shop.server.login();
    const saved = await shop.server.request("POST", "/api/bot-settings", {
      cookie: admin,
      body: {
        botName: "Simulated Shop",
        botToken: TOKEN,
        acceptedCurrencies: ["BTC", "LTC"],
        welcomeMessage: "Welcome to the simulated shop!",
        faqContent: "FAQ",
        nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
        nowpaymentsIpnSecret: TEST_IPN_SECRET,
      },
    });
    expect(saved.status).toBeLessThan(300);
    await shop.bot.started();
    const { db, storage } = shop.server.deps;
    await storage.put("simulatorimage01", PNG, "image/png");
    imagePath = "/objects/simulatorimage01";
    const product = await insertProduct(db, { name: "Simulated Tea", price: "12.50", stock: 5, imageUrl: imagePath });
    productId = product.id;
    setup = { shop, telegram, gateway, admin };
  });

  afterAll(async () => {
    await setup?.shop.close();
    await setup?.gateway.close();
    await setup?.telegram.close();
  });

  async function api<T = SimulatorState>(method: string, url: string, body?: unknown, expected = 200): Promise<T> {
    const response = await setup.shop.server.request(method, url, { cookie: setup.admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBe(expected);
    return (await response.json()) as T;
  }
  const say = (text: string) => api("POST", "/api/bot/simulator/messages", { text });
  /** Presses the newest button whose label matches, as the admin would tap it. */
  async function press(state: SimulatorState, label: RegExp): Promise<SimulatorState> {
    for (const message of [...state.messages].reverse()) {
      const button = message.keyboard?.flat().find((b) => b.data && label.test(b.text));
      if (button) return api("POST", "/api/bot/simulator/presses", { messageId: message.messageId, data: button.data });
    }
    throw new Error(`No button ${label} in ${JSON.stringify(state.messages.map((m) => m.keyboard))}`);
  }
  async function orderRow(id: string) {
    const [row] = await setup.shop.server.deps.db.select().from(orders).where(eq(orders.id, id));
    return row;
  }
  const lastBotText = (state: SimulatorState) => state.messages.filter((m) => !m.fromCustomer).at(-1)?.text ?? "";
  /** Every Telegram call that names the test customer's chat: there must never be one. */
  const callsForTestCustomer = () =>
    setup.telegram.calls.filter((call) => JSON.stringify(call).includes(TEST_CUSTOMER_ID));

  let testOrderId: string;

  it("walks browse, cart and checkout with the real bot, and nothing reaches Telegram or the gateway", async () => {
    const callsBefore = setup.telegram.calls.length;
    let state = await say("/start");
    expect(state.customer.telegramUserId).toBe(TEST_CUSTOMER_ID);
    expect(state.events.map((e) => e.type)).toEqual(["message"]);
    expect(lastBotText(state)).toBe("Welcome to the simulated shop!");
    // The storefront's button shows as a link to the page Telegram would open inside the chat.
    expect(state.messages.at(-1)!.keyboard![0]).toEqual([{ text: "🛍 Open shop", url: "https://shop.example/shop/" }]);
    expect(state.messages.at(-2)).toMatchObject({ fromCustomer: true, text: "/start" });

    state = await press(state, /^Browse Products$/);
    // The menu message is edited in place, as in Telegram.
    expect(state.events[0]).toMatchObject({ type: "edit" });
    expect(state.messages.filter((m) => !m.fromCustomer)).toHaveLength(1);
    expect(state.messages.at(-1)!.edited).toBe(true);
    state = await press(state, /Other products/);
    state = await press(state, /Simulated Tea/);
    // The product card: a photo, shown from the shop's own image, with its caption and keyboard.
    const card = state.messages.at(-1)!;
    expect(card.photo).toBe(imagePath);
    expect(card.text).toContain("Simulated Tea");
    state = await press(state, /^➕$/);
    expect(state.messages.at(-1)!.text).toContain("Simulated Tea");
    state = await press(state, /^Add 2 to cart$/);
    expect(state.events.some((e) => e.type === "notice")).toBe(true);
    state = await press(state, /My Cart/);
    state = await press(state, /Checkout/);
    state = await say("Tess Tester");
    state = await say("1 Test Street, Testtown");
    state = await say("TE5 7ST");
    state = await press(state, /^Skip$/);
    state = await press(state, /Bitcoin/);
    expect(lastBotText(state)).toContain("Total: £25.00");
    state = await press(state, /Confirm and pay/);

    expect(state.pendingPayment).not.toBeNull();
    testOrderId = state.pendingPayment!.orderId;
    const paymentMessage = state.messages.find((m) => m.text.includes("To pay, send exactly"));
    expect(paymentMessage?.text).toContain("SIMULATION-ONLY");
    expect(setup.gateway.created).toHaveLength(0);
    expect(setup.telegram.calls.slice(callsBefore)).toEqual([]);

    expect(await orderRow(testOrderId)).toMatchObject({ isTest: true, status: "pending", telegramUserId: TEST_CUSTOMER_ID });
    // The Orders screen's list says it is a test order.
    const list = await api<Order[]>("GET", "/api/orders?limit=50&status=pending");
    expect(list.find((o) => o.id === testOrderId)?.isTest).toBe(true);
    const [product] = await setup.shop.server.deps.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
    expect(product!.stock).toBe(3);
  });

  it("keeps the transcript: GET answers the chat as it stands", async () => {
    const state = await api("GET", "/api/bot/simulator");
    expect(state.events).toEqual([]);
    expect(state.messages.some((m) => m.text.includes("To pay, send exactly"))).toBe(true);
    expect(state.pendingPayment?.orderId).toBe(testOrderId);
  });

  it("refuses a press of a button that is not on the message", async () => {
    const state = await api("GET", "/api/bot/simulator");
    const message = state.messages.find((m) => !m.fromCustomer)!;
    const refused = await api<{ error: string }>("POST", "/api/bot/simulator/presses", { messageId: message.messageId, data: "add:x:999" }, 409);
    expect(refused.error).toMatch(/not on this message/);
    await api("POST", "/api/bot/simulator/presses", { messageId: 999_999, data: "menu" }, 404);
    await api("POST", "/api/bot/simulator/presses", { messageId: "1", data: "menu" }, 400);
    await api("POST", "/api/bot/simulator/messages", { text: "   " }, 400);
  });

  it("an IPN or the rescue sweep cannot touch a simulated payment", async () => {
    const [row] = await setup.shop.server.deps.db.select().from(orders).where(eq(orders.id, testOrderId));
    const response = await postIpn(setup.shop.server.baseUrl, {
      payment_id: row!.paymentId,
      payment_status: "finished",
      order_id: testOrderId,
      pay_currency: "btc",
      pay_amount: Number(row!.payAmount),
      actually_paid: Number(row!.payAmount),
      price_amount: 25,
      price_currency: "gbp",
    }, { secret: TEST_IPN_SECRET });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect((await orderRow(testOrderId))!.status).toBe("pending");
    setup.gateway.statusChecks.length = 0;
    const { rescueUnsettledPayments } = await import("../shop/payments/rescue");
    const { checked } = await rescueUnsettledPayments(setup.shop.server.deps);
    expect(checked).toBe(0);
    expect(setup.gateway.statusChecks).toEqual([]);
  });

  it("refuses to pay a real customer's order by simulation", async () => {
    const { order } = await insertOrder(setup.shop.server.deps.db, { status: "pending", paymentStatus: "waiting", paymentId: "4242", payAmount: "0.001", payCurrency: "btc" });
    const refused = await api<{ error: string }>("POST", "/api/bot/simulator/payments", { orderId: order.id }, 409);
    expect(refused.error).toMatch(/real customer/);
    const [after] = await setup.shop.server.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after).toMatchObject({ status: "pending", paymentStatus: "waiting", paidAt: null });
    await api("POST", "/api/bot/simulator/payments", { orderId: "00000000-0000-4000-8000-000000000000" }, 404);
    await api("POST", "/api/bot/simulator/payments", { orderId: "not-an-id" }, 400);
    await setup.shop.server.deps.db.delete(orders).where(eq(orders.id, order.id));
  });

  it("Simulate payment pays the test order through the real path; it stays out of revenue, the numbers and the customers", async () => {
    const statsBefore = await api<Record<string, unknown>>("GET", "/api/dashboard/stats");
    const state = await api("POST", "/api/bot/simulator/payments", { orderId: testOrderId });
    expect(state.pendingPayment).toBeNull();
    // The customer's "payment received" message lands in the chat, not in Telegram.
    expect(state.messages.at(-1)!.text).toMatch(/payment/i);
    const order = await orderRow(testOrderId);
    expect(order).toMatchObject({ status: "processing", paymentStatus: "finished", isTest: true });
    expect(order!.paidAt).not.toBeNull();
    const events = await api<{ action: string }[]>("GET", `/api/orders/${testOrderId}/events`);
    expect(events.map((e) => e.action)).toContain("payment_paid");
    // Paying twice is refused: it is not pending any more.
    await api("POST", "/api/bot/simulator/payments", { orderId: testOrderId }, 409);

    const stats = await api<Record<string, unknown>>("GET", "/api/dashboard/stats");
    expect(stats).toEqual(statsBefore);
    expect(stats.totalRevenue).toBe("0.00");
    // Numbers: no revenue, no best seller, no order counted by status.
    const report = await api<RevenueReport>("GET", "/api/dashboard/revenue");
    expect(report.series.every((point) => Number(point.revenue) === 0)).toBe(true);
    expect(report.bestSellers).toEqual([]);
    expect(report.ordersByStatus.every((entry) => entry.count === 0)).toBe(true);
    // The spreadsheet leaves it out.
    const csv = await setup.shop.server.request("GET", "/api/orders/export.csv", { cookie: setup.admin });
    expect(csv.status).toBe(200);
    expect(await csv.text()).not.toContain(testOrderId.slice(0, 8));
    // No owner alert: the owner is the one playing the test customer.
    const alerts = await queryRows<unknown>(setup.shop.server.deps.db, sql`select kind, ref from owner_alerts where ref = ${testOrderId}`);
    expect(alerts).toEqual([]);
    // No broadcast reaches the test customer, though /start recorded them like anyone.
    await recordBotStart(setup.shop.server.deps.db, "777000111", null, new Date());
    const broadcast = await createBroadcast(setup.shop.server.deps.db, { text: "News", imageUrl: null, audience: { kind: "all" } }, new Date());
    const recipients = await setup.shop.server.deps.db
      .select({ telegramUserId: broadcastRecipients.telegramUserId })
      .from(broadcastRecipients)
      .where(eq(broadcastRecipients.broadcastId, broadcast.id));
    expect(recipients.map((r) => r.telegramUserId)).toEqual(["777000111"]);
    const customers = await api<{ items: { telegramUserId: string }[] } | { telegramUserId: string }[]>("GET", "/api/customers");
    const list = Array.isArray(customers) ? customers : customers.items;
    expect(list.map((c) => c.telegramUserId)).not.toContain(TEST_CUSTOMER_ID);
    expect(callsForTestCustomer()).toEqual([]);
  });

  it("the test order can be dispatched; the customer's message goes to the chat", async () => {
    await api<Order>("PUT", `/api/orders/${testOrderId}`, { status: "dispatched", trackingNumber: "SIM123" });
    await api("POST", `/api/orders/${testOrderId}/notify-dispatch`, undefined);
    const state = await api("GET", "/api/bot/simulator");
    expect(state.messages.at(-1)!.text).toContain("has been dispatched");
    expect(callsForTestCustomer()).toEqual([]);
  });

  it("a test order is deletable even once paid and dispatched, and its stock comes back", async () => {
    await api("DELETE", `/api/orders/${testOrderId}`);
    expect(await orderRow(testOrderId)).toBeUndefined();
    const [product] = await setup.shop.server.deps.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
    expect(product!.stock).toBe(5);
  });

  it("Reset test customer empties the chat, the cart and the test orders, and leaves real customers alone", async () => {
    const { order: realOrder } = await insertOrder(setup.shop.server.deps.db, { status: "failed" });
    let state = await say("/start");
    state = await press(state, /Browse Products/);
    state = await press(state, /Other products/);
    state = await press(state, /Simulated Tea/);
    state = await press(state, /^Add 1 to cart$/);
    expect(state.messages.length).toBeGreaterThan(0);
    state = await api("POST", "/api/bot/simulator/reset");
    expect(state.messages).toEqual([]);
    expect(state.pendingPayment).toBeNull();
    state = await say("/start");
    state = await press(state, /My Cart/);
    expect(lastBotText(state)).toMatch(/empty/i);
    const [real] = await setup.shop.server.deps.db.select().from(orders).where(eq(orders.id, realOrder.id));
    expect(real).toBeDefined();
  });

  it("turns sent at once, and shop messages arriving meanwhile, each get their own message number", async () => {
    await api("POST", "/api/bot/simulator/reset");
    const db = setup.shop.server.deps.db;
    await Promise.all([
      say("hello 1"),
      say("hello 2"),
      say("/start"),
      recordMessageToTestCustomer(db, "Shop notice A", new Date()),
      recordMessageToTestCustomer(db, "Shop notice B", new Date()),
      api("POST", "/api/bot/simulator/reset"),
      say("hello 3"),
    ]);
    const state = await api("GET", "/api/bot/simulator");
    const ids = state.messages.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Whatever order they ran in, the chat carries on.
    const after = await say("hello 4");
    expect(after.messages.at(-2)).toMatchObject({ fromCustomer: true, text: "hello 4" });
    expect(after.messages.at(-1)!.fromCustomer).toBe(false);
  });

  it("the test customer cannot take the owner's alerts with a link code", async () => {
    const { code } = await issueLinkCode(setup.shop.server.deps.db, new Date());
    await say(`/link ${code}`);
    expect((await getOwnerAlerts(setup.shop.server.deps.db)).linked).toBeFalsy();
  });

  it("a real bot ignores an update claiming to come from the test customer (only a forged one could)", async () => {
    const from = setup.telegram.calls.length;
    const response = await setup.shop.postUpdate({
      update_id: 990_001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(TEST_CUSTOMER_ID), type: "private", first_name: "Forged" },
        from: { id: Number(TEST_CUSTOMER_ID), is_bot: false, first_name: "Forged" },
        text: "/start",
        entities: [{ type: "bot_command", offset: 0, length: 6 }],
      },
    });
    expect(response.status).toBe(200);
    expect(setup.telegram.calls.slice(from)).toEqual([]);
  });

  it("shows a product's several photos as its album, in order, then the card's buttons (issue 23)", async () => {
    const { db, storage } = setup.shop.server.deps;
    await storage.put("simulatoralbum02", PNG, "image/png");
    const photos = ["/objects/simulatoralbum02", imagePath];
    await insertProduct(db, { name: "Album Tea", price: "3.00", stock: 5, imageUrl: photos[0], imageUrls: photos });
    const callsBefore = setup.telegram.calls.length;
    let state = await say("/start");
    state = await press(state, /^Browse Products$/);
    state = await press(state, /Other products/);
    state = await press(state, /Album Tea/);
    const [first, second, buttons] = state.messages.slice(-3);
    expect([first!.photo, second!.photo]).toEqual(photos);
    expect(first!.text).toMatch(/^Album Tea\n[\s\S]*Quantity: 1 × £3\.00 = £3\.00$/);
    expect(second!.text).toBe("");
    expect(buttons).toMatchObject({ photo: null, text: "Album Tea" });
    expect(buttons!.keyboard?.flat().map((b) => b.text)).toContain("Add 1 to cart");
    expect(setup.telegram.calls.slice(callsBefore)).toEqual([]);
  });

  it("is for the admin only", async () => {
    for (const [method, url, body] of [
      ["GET", "/api/bot/simulator", undefined],
      ["POST", "/api/bot/simulator/messages", { text: "/start" }],
      ["POST", "/api/bot/simulator/presses", { messageId: 1, data: "menu" }],
      ["POST", "/api/bot/simulator/payments", { orderId: testOrderId }],
      ["POST", "/api/bot/simulator/reset", undefined],
    ] as const) {
      const response = await setup.shop.server.request(method, url, { body });
      expect(response.status, `${method} ${url}`).toBe(401);
    }
  });
});
