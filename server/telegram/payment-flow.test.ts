import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botConversations, botSettings, orders, products } from "../db/schema";
import { createNowPaymentsGateway } from "../gateways/nowpayments/client";
import { getCart } from "../shop/ordering";
import { decimalShortfall } from "../shop/common";
import { cleanupExpiredOrders } from "../shop/orders";
import { startShopWithBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { insertOrder } from "../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { callbackUpdate, startFakeTelegram, textUpdate, type FakeTelegram, type TelegramCall } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";
import { paymentQrPng } from "./payment-message";

// The money path as a customer meets it in Telegram (issue 10): the price they confirm is the
// price they pay, the payment details stay in the chat with a QR code, My Orders shows them
// again, and Telegram's redeliveries and a slow gateway change nothing.

const TOKEN = "7000000001:payment-flow-token";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Setup = { shop: ShopWithBot; telegram: FakeTelegram; gateway: FakeNowPayments; admin: string };

async function setUp(options: { gatewayTimeoutMs?: number } = {}): Promise<Setup> {
  const telegram = await startFakeTelegram();
  const gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
  const shop = await startShopWithBot({
    telegram,
    config: { nowpaymentsApiUrl: gateway.url },
    deps: options.gatewayTimeoutMs
      ? {
          gateway: createNowPaymentsGateway({
            apiUrl: gateway.url,
            getApiKey: async () => TEST_NOWPAYMENTS_API_KEY,
            timeoutMs: options.gatewayTimeoutMs,
          }),
        }
      : {},
  });
  const admin = await shop.server.login();
  const saved = await shop.server.request("POST", "/api/bot-settings", {
    cookie: admin,
    body: {
      botName: "Money Shop",
      botToken: TOKEN,
      acceptedCurrencies: ["BTC", "XMR"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
      nowpaymentsIpnSecret: TEST_IPN_SECRET,
    },
  });
  expect(saved.status).toBeLessThan(300);
  await shop.bot.started();
  return { shop, telegram, gateway, admin };
}

async function tearDown(setup: Partial<Setup>) {
  await setup.shop?.close();
  await setup.gateway?.close();
  await setup.telegram?.close();
}

async function stockOfIn(setup: Setup, productId: string): Promise<number> {
  const [row] = await setup.shop.server.deps.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  return row!.stock;
}

function adminApi(setup: Setup) {
  return async <T = { id: string }>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await setup.shop.server.request(method, url, { cookie: setup.admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
}

/** Adds the product, goes through the checkout steps and stops at the summary. */
async function reachSummary(customer: Customer, productId: string, quantity: number, postage?: string) {
  await customer.send("/start");
  await customer.pressData(`add:${productId}:${quantity}`);
  await customer.press("My Cart");
  await customer.press("✅ Checkout");
  await customer.send("Alice Smith");
  await customer.send("12 High Street, London");
  await customer.send("SW1A 1AA");
  await customer.press("Skip");
  if (postage) await customer.press(postage);
  // Exactly the coins accepted in Bot Settings (BTC and XMR here).
  expect(customer.buttons()).toEqual(["Bitcoin (BTC)", "Monero (XMR)", "✖ Cancel checkout"]);
  await customer.press("Bitcoin (BTC)");
  expect(customer.text()).toMatch(/^Please check your order/m);
}

const captionOf = (call: TelegramCall) => String(call.payload.caption);

describe("paying through the bot", () => {
  let setup: Setup;
  let api: ReturnType<typeof adminApi>;
  let product: { id: string };
  let stockOf: (productId: string) => Promise<number>;

  beforeAll(async () => {
    setup = await setUp();
    api = adminApi(setup);
    stockOf = (id) => stockOfIn(setup, id);
    product = await api("POST", "/api/products", { name: "Kettle", description: "Steel kettle.", price: "20.00", stock: 50 });
  });
  afterAll(async () => {
    await tearDown(setup ?? {});
  });

  it("shows the new total instead of charging when the price changes between the summary and Confirm", async () => {
    const { shop, gateway, telegram } = setup;
    const teapot = await api("POST", "/api/products", { name: "Teapot", description: "", price: "10.00", stock: 10 });
    const customer = shop.customer(83_000_001);
    await reachSummary(customer, teapot.id, 2);
    expect(customer.text()).toContain("Total: £20.00");

    // The owner raises the price while the customer reads the summary.
    await api("PUT", `/api/products/${teapot.id}`, { name: "Teapot", description: "", price: "12.00", stock: 10, expectedStock: 10 });
    const created = gateway.created.length;
    const from = telegram.calls.length;
    await customer.press("✅ Confirm and pay");

    expect(telegram.calls.slice(from).some((c) => c.method === "editMessageText" && c.payload.text === "Creating your payment...")).toBe(true);
    expect(customer.text()).toMatch(/^⚠️ The total changed from £20\.00 to £24\.00 since you saw it/);
    expect(customer.text()).toContain("2 × Teapot (£12.00 each): £24.00");
    expect(customer.text()).toContain("Total: £24.00");
    expect(customer.buttons()).toContain("✅ Confirm and pay");
    expect(gateway.created.length).toBe(created);
    const placed = await api<{ telegramUserId: string }[]>("GET", "/api/orders");
    expect(placed.filter((o) => o.telegramUserId === customer.id)).toEqual([]);
    expect(await stockOf(teapot.id)).toBe(10);

    // Confirming the new summary charges the new total.
    await customer.press("✅ Confirm and pay");
    expect(gateway.created.length).toBe(created + 1);
    expect(gateway.created.at(-1)!.body.price_amount).toBe(24);
  });

  it("shows the new summary instead of charging when the stock ran short before Confirm", async () => {
    const { shop, gateway } = setup;
    const jug = await api("POST", "/api/products", { name: "Jug", description: "", price: "7.00", stock: 5 });
    const customer = shop.customer(83_000_006);
    await reachSummary(customer, jug.id, 3);
    expect(customer.text()).toContain("Total: £21.00");
    await api("PUT", `/api/products/${jug.id}`, { name: "Jug", description: "", price: "7.00", stock: 2, expectedStock: 5 });
    const created = gateway.created.length;

    await customer.press("✅ Confirm and pay");
    expect(customer.text()).toMatch(/^⚠️ Not enough stock for Jug: only 2 left\.\n\n⚠️ Only 2 left of Jug, so your quantity was lowered to 2\./);
    expect(customer.text()).toContain("Total: £14.00");
    expect(gateway.created.length).toBe(created);
    expect(await stockOf(jug.id)).toBe(2);

    await customer.press("✅ Confirm and pay");
    expect(gateway.created.at(-1)!.body.price_amount).toBe(14);
    expect(await stockOf(jug.id)).toBe(0);
  });

  it("refuses a fourth order waiting for payment at Confirm, saying what to do, and keeps the cart", async () => {
    const { shop, gateway } = setup;
    const customer = shop.customer(83_000_007);
    await reachSummary(customer, product.id, 1);
    // Placed meanwhile (in the Mini App, say), after Checkout let the customer in: Confirm counts again.
    const waiting = [];
    for (let i = 0; i < 3; i++) waiting.push((await insertOrder(shop.server.deps.db, { telegramUserId: customer.id, status: "pending", paymentStatus: "waiting" })).order);
    const created = gateway.created.length;
    const stock = await stockOf(product.id);

    await customer.press("✅ Confirm and pay");
    expect(customer.text()).toMatch(
      /^⚠️ You already have 3 orders waiting for payment\. Pay one of them \(see My Orders\) or wait for one to expire before ordering again\.\n\nPlease check your order/,
    );
    expect(gateway.created.length).toBe(created);
    expect(await stockOf(product.id)).toBe(stock);
    expect((await getCart(shop.server.deps.db, customer.id)).lines.map((l) => l.quantity)).toEqual([1]);

    // One of them paid: a place is free, and the same Confirm places the order.
    await shop.server.deps.db.update(orders).set({ status: "processing", paymentStatus: "finished" }).where(eq(orders.id, waiting[0]!.id));
    await customer.press("✅ Confirm and pay");
    expect(customer.text()).toBe("Your payment details are above, and under My Orders at any time.");
    expect(gateway.created.length).toBe(created + 1);
  });

  it("refuses a customer holding 3 orders waiting for payment at Checkout, before asking for an address, and keeps the cart", async () => {
    const { shop, telegram } = setup;
    const customer = shop.customer(83_000_008);
    const db = shop.server.deps.db;
    const waiting = [];
    for (let i = 0; i < 3; i++) waiting.push((await insertOrder(db, { telegramUserId: customer.id, status: "pending", paymentStatus: "waiting" })).order);
    // One whose money is on its way holds no place (docs/decisions/0040): three are still waiting.
    await insertOrder(db, { telegramUserId: customer.id, status: "pending", paymentStatus: "confirming" });
    await customer.send("/start");
    await customer.pressData(`add:${product.id}:2`);
    await customer.press("My Cart");

    const from = telegram.calls.length;
    await customer.press("✅ Checkout");
    const refusal = "You already have 3 orders waiting for payment. Pay one of them (see My Orders) or wait for one to expire before ordering again.";
    expect(customer.text()).toMatch(new RegExp(`^⚠️ ${refusal.replace(/[.()]/g, "\\$&")}\n\nMy Cart\n\n1\\. Kettle\n`));
    expect(customer.notices(from)).toEqual([refusal]);
    expect(customer.buttons()).toContain("✅ Checkout");
    expect((await getCart(db, customer.id)).lines.map((l) => l.quantity)).toEqual([2]);
    // No checkout step began: a name typed now is not taken as the delivery name.
    const [conversation] = await db.select().from(botConversations).where(eq(botConversations.telegramUserId, customer.id));
    expect(conversation?.state.step ?? "idle").toBe("idle");

    // One expired: a place is free, and the same button asks for the address.
    await db.update(orders).set({ status: "failed", paymentStatus: "expired" }).where(eq(orders.id, waiting[0]!.id));
    await customer.press("✅ Checkout");
    expect(customer.text()).toMatch(/^Checkout: delivery name/);
    expect(customer.buttons()).toEqual(["✖ Cancel checkout"]);
  });

  it("sends the payment details as a new message with a QR code, which no button edits away", async () => {
    const { shop, gateway, telegram } = setup;
    const customer = shop.customer(83_000_002);
    await reachSummary(customer, product.id, 1);
    const summary = customer.screen();
    const from = telegram.calls.length;
    await customer.press("✅ Confirm and pay");

    const payment = [...gateway.payments.values()].at(-1)!;
    const shortId = payment.order_id.slice(0, 8);
    // The summary became "Creating your payment...", then the order's confirmation.
    const summaryNow = telegram.messages(customer.user.id).find((m) => m.message_id === summary.message_id)!;
    expect(summaryNow.text).toBe(`Order #${shortId} is placed. Total: £20.00`);
    expect(summaryNow.reply_markup).toBeUndefined();

    const photos = telegram.calls.slice(from).filter((c) => c.method === "sendPhoto");
    expect(photos).toHaveLength(1);
    const photo = photos[0]!;
    expect(photo.payload.reply_markup).toBeUndefined();
    const [file] = Object.values(photo.files);
    expect(file!.data.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(file!.data).toEqual(await paymentQrPng(`bitcoin:${payment.pay_address}?amount=${payment.pay_amount}`));
    const caption = captionOf(photo);
    expect(caption).toMatch(
      new RegExp(
        `^Payment for order #${shortId}\\n\\nTo pay, send exactly\\n${payment.pay_amount} BTC\\nto this address:\\n${payment.pay_address}\\n\\n` +
          `Please pay by \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} \\S+\\.\\nWe'll message you here as soon as your payment arrives\\.$`,
      ),
    );
    // Amount and address are marked as code: one tap copies them.
    const entities = photo.payload.caption_entities as { type: string; offset: number; length: number }[];
    expect(entities.map((e) => caption.slice(e.offset, e.offset + e.length))).toEqual([String(payment.pay_amount), payment.pay_address]);

    expect(customer.text()).toBe("Your payment details are above, and under My Orders at any time.");
    expect(customer.buttons()).toEqual(["My Orders", "« Main menu"]);
    const paymentMessage = telegram.messages(customer.user.id).find((m) => m.caption === caption)!;

    await customer.press("My Orders");
    await customer.press("« Main menu");
    const still = telegram.messages(customer.user.id).find((m) => m.message_id === paymentMessage.message_id);
    expect(still?.caption).toBe(caption);
    const touched = telegram.calls
      .slice(from)
      .filter((c) => /^(edit|delete)/.test(c.method) && Number(c.payload.message_id) === paymentMessage.message_id);
    expect(touched).toEqual([]);
  });

  it("offers Payment details in My Orders, with the amount still due after a short payment", async () => {
    const { shop, gateway, telegram } = setup;
    const customer = shop.customer(83_000_003);
    await reachSummary(customer, product.id, 2);
    await customer.press("✅ Confirm and pay");
    const payment = [...gateway.payments.values()].at(-1)!;
    const shortId = payment.order_id.slice(0, 8);

    await customer.press("My Orders");
    expect(customer.text()).toContain(`Order #${shortId}`);
    expect(customer.text()).toContain("Status: Awaiting payment");
    let from = telegram.calls.length;
    await customer.press(`💳 Payment details #${shortId}`);
    let photo = telegram.calls.slice(from).find((c) => c.method === "sendPhoto")!;
    expect(captionOf(photo)).toContain(`To pay, send exactly\n${payment.pay_amount} BTC\nto this address:\n${payment.pay_address}\n\nPlease pay by`);

    // A quarter arrives: the order stays pending and shows what is still due.
    const paid = Number((payment.pay_amount / 4).toFixed(8));
    const ipn = await postIpn(shop.server.baseUrl, gateway.ipnBody(payment.payment_id, "partially_paid", { actually_paid: paid }), {
      secret: TEST_IPN_SECRET,
    });
    expect(ipn.status).toBe(200);
    const due = decimalShortfall(String(payment.pay_amount), String(paid))!;

    await customer.send("/start");
    await customer.press("My Orders");
    expect(customer.text()).toContain(`Status: Underpaid: ${due} BTC still due`);
    from = telegram.calls.length;
    await customer.press(`💳 Payment details #${shortId}`);
    photo = telegram.calls.slice(from).find((c) => c.method === "sendPhoto")!;
    expect(captionOf(photo)).toContain(`We received ${paid} of ${payment.pay_amount} BTC. Please send the rest.`);
    expect(captionOf(photo)).toContain(`To pay, send exactly\n${due} BTC\nto this address:\n${payment.pay_address}`);
    expect(Object.values(photo.files)[0]!.data).toEqual(await paymentQrPng(`bitcoin:${payment.pay_address}?amount=${due}`));

    // An order that is paid has no payment details to offer.
    const finished = await postIpn(shop.server.baseUrl, gateway.ipnBody(payment.payment_id, "finished"), { secret: TEST_IPN_SECRET });
    expect(finished.status).toBe(200);
    await customer.send("/start");
    await customer.press("My Orders");
    expect(customer.text()).toContain("Status: Paid, being prepared for dispatch");
    expect(customer.buttons().some((b) => b.startsWith("💳"))).toBe(false);
  });

  it("keeps the postage an order was sent with after the option is deleted", async () => {
    const { shop } = setup;
    const courier = await api<{ id: string }>("POST", "/api/postage-options", { name: "Courier", price: "5.00", estimatedDays: 1 });
    const customer = shop.customer(83_000_004);
    await reachSummary(customer, product.id, 1, "Courier: £5.00 (1 day)");
    expect(customer.text()).toContain("Postage: Courier: £5.00\nTotal: £25.00");
    await customer.press("✅ Confirm and pay");

    await api("DELETE", `/api/postage-options/${courier.id}`);
    const all = await api<{ telegramUserId: string; postageName: string | null; postagePrice: string | null; totalAmount: string }[]>(
      "GET",
      "/api/orders",
    );
    expect(all.find((o) => o.telegramUserId === customer.id)).toMatchObject({ postageName: "Courier", postagePrice: "5.00", totalAmount: "25.00" });
  });

  it("acts once on an update Telegram delivers twice: one cart line, one support message", async () => {
    const { shop, telegram } = setup;
    const customer = shop.customer(83_000_005);
    await customer.send("/start");
    const add = callbackUpdate(customer.user, `add:${product.id}:1`, customer.screen());
    expect((await shop.postUpdate(add)).status).toBe(200);
    const from = telegram.calls.length;
    expect((await shop.postUpdate(add)).status).toBe(200);
    expect(telegram.calls.slice(from)).toEqual([]);
    expect((await getCart(shop.server.deps.db, customer.id)).lines.map((l) => l.quantity)).toEqual([1]);

    await customer.send("/start");
    await customer.press("Contact Support");
    const message = textUpdate(customer.user, "Is the kettle loud?");
    expect((await shop.postUpdate(message)).status).toBe(200);
    expect((await shop.postUpdate(message)).status).toBe(200);
    const stored = await api<{ telegramUserId: string; message: string }[]>("GET", "/api/messages");
    expect(stored.filter((m) => m.telegramUserId === customer.id && m.message === "Is the kettle loud?")).toHaveLength(1);
  });
});

describe("a shop that accepts no coin", () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp();
  });
  afterAll(async () => {
    await tearDown(setup ?? {});
  });

  it("says payments are not available instead of offering every coin", async () => {
    const { shop, telegram } = setup;
    const product = await adminApi(setup)("POST", "/api/products", { name: "Mug", description: "", price: "8.00", stock: 5 });
    // The settings form needs a coin; an older record may have none.
    await shop.server.deps.db.update(botSettings).set({ acceptedCurrencies: [] });
    const customer = shop.customer(85_000_001);
    await customer.send("/start");
    await customer.pressData(`add:${product.id}:1`);
    await customer.press("My Cart");
    const from = telegram.calls.length;
    await customer.press("✅ Checkout");
    expect(customer.notices(from)).toEqual(["Payments are not available right now, so orders cannot be paid. Please try again later."]);
    expect(customer.text()).toMatch(/^My Cart/);
  });
});

describe("a payment gateway that does not answer", () => {
  let setup: Setup;

  beforeAll(async () => {
    setup = await setUp({ gatewayTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    setup?.gateway.hang(false);
    await tearDown(setup ?? {});
  });

  it("answers Telegram at once, shows Creating your payment..., then tells the customer", async () => {
    const { shop, gateway, telegram } = setup;
    const api = adminApi(setup);
    const stockOf = (id: string) => stockOfIn(setup, id);
    const product = await api("POST", "/api/products", { name: "Toaster", description: "", price: "30.00", stock: 5 });
    const customer = shop.customer(84_000_001);
    await reachSummary(customer, product.id, 1);

    gateway.hang(true);
    const from = telegram.calls.length;
    const started = Date.now();
    await customer.press("✅ Confirm and pay", { waitForBot: false });
    expect(Date.now() - started).toBeLessThan(1_500); // answered once stored, the gateway still silent
    await telegram.waitForCall((c) => c.payload.text === "Creating your payment...", { from, timeoutMs: 5_000 });

    const failure = await telegram.waitForCall((c) => /did not answer in time/.test(String(c.payload.text ?? "")), { from, timeoutMs: 10_000 });
    expect(String(failure.payload.text)).toMatch(
      /^⚠️ The payment service did not answer in time\. Please try again in a few minutes\. Your order was cancelled and your cart kept, so you can try again\./,
    );
    await shop.bot.drained();
    expect(customer.text()).toContain("Total: £30.00");
    expect(customer.buttons()).toContain("✅ Confirm and pay");
    const [order] = await shop.server.deps.db.select().from(orders).where(eq(orders.telegramUserId, customer.id));
    expect(order).toMatchObject({ status: "failed" });
    expect(await stockOf(product.id)).toBe(5);

    // Once the gateway answers again, the same summary goes through.
    gateway.hang(false);
    await customer.press("✅ Confirm and pay");
    expect(customer.text()).toBe("Your payment details are above, and under My Orders at any time.");

    // A day later nothing has arrived: the expiry fails the order, and My Orders says why each one ended.
    const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const { notified } = await cleanupExpiredOrders({ db: shop.server.deps.db, notifier: shop.server.deps.notifier, now: () => later });
    await notified;
    expect(customer.text()).toMatch(/^Order #[0-9a-f]{8} expired: no payment arrived/);
    await customer.send("/start");
    await customer.press("My Orders");
    expect(customer.text().match(/Status: .*/g)).toEqual(["Status: Expired: no payment arrived", "Status: Cancelled: the payment could not be created"]);
  });
});
