import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { telegramFileCache } from "../db/schema";
import { startShopWithBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";

const TOKEN = "7000000001:purchase-test-token";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("a customer buys through the bot, end to end", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let shop: ShopWithBot;
  let admin: string;
  let customer: Customer;

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await shop.server.request(method, url, { cookie: admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return response.json();
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    shop = await startShopWithBot({ telegram, config: { nowpaymentsApiUrl: gateway.url } });
    admin = await shop.server.login();

    // The admin sets the shop up through the dashboard's API.
    await api("POST", "/api/bot-settings", {
      botName: "Tea Shop",
      botToken: TOKEN,
      acceptedCurrencies: ["BTC", "LTC"],
      welcomeMessage: "Welcome to the Tea Shop!",
      faqContent: "Fresh tea, shipped in 2 days.",
      nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
      nowpaymentsIpnSecret: TEST_IPN_SECRET,
    });
    const tea = await api("POST", "/api/categories", { name: "Tea" });
    await api("POST", "/api/categories", { name: "Coffee" });
    const green = await api("POST", "/api/categories", { name: "Green Tea", parentId: tea.id });
    await shop.server.deps.storage.put("sencha-image-1", PNG, "image/png");
    await api("POST", "/api/products", {
      name: "Sencha",
      description: "A bright Japanese green tea, 50 g.",
      price: "4.99",
      stock: 20,
      categoryId: green.id,
      imageUrl: "/objects/sencha-image-1",
      bulkPricing: [
        { minQuantity: 10, price: 4 },
        { minQuantity: 5, price: 4.5 },
      ],
    });
    await api("POST", "/api/products", { name: "Matcha", description: "Ceremonial grade.", price: "12.00", stock: 0, categoryId: green.id });
    await api("POST", "/api/postage-options", { name: "Royal Mail 1st Class", price: "3.50", estimatedDays: 2 });
    await api("POST", "/api/postage-options", { name: "Courier", price: "9.00", isActive: false });
    await shop.bot.started();

    customer = shop.customer(81_000_001, "alice");
  });
  afterAll(async () => {
    await shop?.close();
    await gateway?.close();
    await telegram?.close();
  });

  it("welcomes the customer and lets them browse two levels down to a product card with its image", async () => {
    await customer.send("/start");
    expect(customer.text()).toBe("Welcome to the Tea Shop!");

    await customer.press("Browse Products");
    expect(customer.text()).toMatch(/Choose a category/);
    expect(customer.buttons()).toEqual(["Coffee", "Tea", "« Main menu"]);

    await customer.press("Tea");
    expect(customer.text()).toMatch(/^Tea/);
    await customer.press("📁 Green Tea");
    expect(customer.text()).toMatch(/^Green Tea/);
    expect(customer.buttons()).toEqual(["Matcha · out of stock", "Sencha · £4.99", "« Back", "« Main menu"]);

    await customer.press("Sencha · £4.99");
    const photo = telegram.callsOf("sendPhoto").at(-1)!;
    expect(Object.values(photo.files)).toEqual([expect.objectContaining({ size: PNG.length })]);
    expect(customer.text()).toBe(
      [
        "Sencha",
        "A bright Japanese green tea, 50 g.",
        "Price: £4.99\nBulk pricing:\n• 5+ for £4.50\n• 10+ for £4.00\nStock: 20 available\n\nQuantity: 1 × £4.99 = £4.99",
      ].join("\n\n"),
    );
  });

  it("does not offer an out-of-stock product for sale", async () => {
    await customer.press("« Back");
    expect(customer.text()).toMatch(/^Green Tea/);
    await customer.press("Matcha · out of stock");
    expect(customer.text()).toMatch(/Out of stock/);
    expect(customer.buttons().some((b) => b.startsWith("Add"))).toBe(false);
    await customer.press("« Back");
  });

  it("reuses the uploaded image's file_id, picks a bulk tier and adds it to the cart", async () => {
    await customer.press("Sencha · £4.99");
    const again = telegram.callsOf("sendPhoto").at(-1)!;
    expect(again.files).toEqual({});
    expect(again.payload.photo).toBe("photo-file-1");

    await customer.press("5+");
    expect(customer.text()).toMatch(/Quantity: 5 × £4\.50 = £22\.50$/);
    expect(telegram.callsOf("editMessageCaption").length).toBeGreaterThan(0);

    const from = telegram.calls.length;
    await customer.press("Add 5 to cart");
    expect(customer.notices(from)).toEqual(["Added 5 × Sencha to your cart. You now have 5 in your cart."]);
  });

  it("shows the cart priced by tier and changes its quantity", async () => {
    await customer.press("🛒 My Cart");
    expect(customer.text()).toBe("My Cart\n\n1. Sencha\n    5 × £4.50 = £22.50\n\nSubtotal: £22.50");
    await customer.press("➖");
    expect(customer.text()).toMatch(/4 × £4\.99 = £19\.96\n\nSubtotal: £19\.96$/);
    await customer.press("➕");
    await customer.press("➕");
    expect(customer.text()).toMatch(/6 × £4\.50 = £27\.00\n\nSubtotal: £27\.00$/);
  });

  it("checks out with address and postage, re-prompting bad input, and gets the payment details", async () => {
    await customer.press("✅ Checkout");
    expect(customer.text()).toMatch(/full name/);

    await customer.send("A");
    expect(customer.text()).toMatch(/^Please send a name of 2 to 100 characters/);
    await customer.send("Alice Smith");
    expect(customer.text()).toMatch(/street address/);
    await customer.send("12 High Street, London");
    expect(customer.text()).toMatch(/postcode/);
    await customer.send("not a postcode!");
    expect(customer.text()).toMatch(/^That doesn't look like a postcode/);
    await customer.send("sw1a 1aa");
    expect(customer.text()).toMatch(/contact \(optional\)/);
    await customer.press("Skip");

    expect(customer.text()).toMatch(/postage/);
    expect(customer.buttons()).toEqual(["Royal Mail 1st Class: £3.50 (2 days)", "✖ Cancel checkout"]);
    await customer.press("Royal Mail 1st Class: £3.50 (2 days)");
    expect(customer.buttons()).toEqual(["Bitcoin (BTC)", "Litecoin (LTC)", "✖ Cancel checkout"]);
    await customer.press("Bitcoin (BTC)");

    expect(customer.text()).toBe(
      [
        "Please check your order",
        "6 × Sencha (£4.50 each): £27.00",
        "Subtotal: £27.00\nPostage: Royal Mail 1st Class: £3.50\nTotal: £30.50",
        "Deliver to:\nAlice Smith\n12 High Street, London\nSW1A 1AA",
        "Pay with: Bitcoin (BTC)",
      ].join("\n\n"),
    );
    const summary = customer.screen();
    const from = telegram.calls.length;
    await customer.press("✅ Confirm and pay");

    expect(gateway.created).toHaveLength(1);
    const payment = [...gateway.payments.values()][0]!;
    expect(payment.price_amount).toBe(30.5);
    const placed = telegram.messages(customer.user.id).find((m) => m.message_id === summary.message_id)!;
    expect(placed.text).toBe(`Order #${payment.order_id.slice(0, 8)} is placed. Total: £30.50`);
    // The payment details: a new photo message (QR code) with amount and address on lines of their own.
    const photo = telegram.calls.slice(from).find((c) => c.method === "sendPhoto")!;
    const caption = String(photo.payload.caption);
    expect(caption).toContain(`To pay, send exactly\n${payment.pay_amount} BTC\nto this address:\n${payment.pay_address}`);
    expect(caption).toMatch(/Please pay by \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    expect(customer.buttons()).toEqual(["My Orders", "« Main menu"]);
  });

  it("tells the customer when the payment arrives, and shows the order as paid", async () => {
    const payment = [...gateway.payments.values()][0]!;
    const from = telegram.calls.length;
    gateway.setStatus(payment.payment_id, "finished");
    const ipn = await postIpn(shop.server.baseUrl, gateway.ipnBody(payment.payment_id, "finished"), { secret: TEST_IPN_SECRET });
    expect(ipn.status).toBe(200);
    const paid = await telegram.waitForCall(
      (c) => c.method === "sendMessage" && c.payload.chat_id === customer.id && /Payment received/.test(String(c.payload.text)),
      { from },
    );
    expect(paid.payload.text).toContain(`#${payment.order_id.slice(0, 8)}`);

    await customer.send("/start");
    await customer.press("My Orders");
    expect(customer.text()).toMatch(
      new RegExp(`Order #${payment.order_id.slice(0, 8)} · \\d{1,2} \\w{3} \\d{4}\\nTotal: £30\\.50\\nStatus: Paid, being prepared for dispatch`),
    );
  });

  it("shows the order to the admin as Ready to Dispatch; the admin dispatches it and the customer hears", async () => {
    const payment = [...gateway.payments.values()][0]!;
    const orders = await api("GET", "/api/orders");
    const order = orders.find((o: { id: string }) => o.id === payment.order_id);
    expect(order).toMatchObject({ status: "processing", telegramUserId: customer.id, telegramUsername: "alice", totalAmount: "30.50" });
    expect(order.shippingAddress).toEqual({ name: "Alice Smith", streetAddress: "12 High Street, London", postcode: "SW1A 1AA", contact: null });
    expect((await api("GET", "/api/dashboard/stats")).processingOrders).toBe(1);

    const from = telegram.calls.length;
    await api("PUT", `/api/orders/${order.id}`, { status: "dispatched" });
    await api("POST", `/api/orders/${order.id}/notify-dispatch`);
    const dispatched = await telegram.waitForCall((c) => c.method === "sendMessage" && c.payload.chat_id === customer.id, { from });
    expect(dispatched.payload.text).toMatch(new RegExp(`order #${order.id.slice(0, 8)} has been dispatched`));

    await customer.send("/start");
    await customer.press("My Orders");
    expect(customer.text()).toMatch(/Status: Dispatched/);
  });

  it("shows a product with several photos as one album in their order, the buttons answering it, each photo's file_id cached (issue 23)", async () => {
    // Each photo a byte longer than the one before, so the uploads show their order.
    const paths = ["/objects/kenya-one", "/objects/kenya-two", "/objects/kenya-three"];
    for (const [i, path] of paths.entries()) {
      await shop.server.deps.storage.put(path.slice(9), Buffer.concat([PNG, Buffer.alloc(i + 1)]), "image/png");
    }
    const coffee = (await api("GET", "/api/categories")).find((c: { name: string }) => c.name === "Coffee");
    // The owner's order: 2, then one whose file went missing (left out), then 1 and 3.
    await api("POST", "/api/products", {
      name: "Kenya AA",
      description: "Bright and fruity.",
      price: "8.00",
      stock: 3,
      categoryId: coffee.id,
      imageUrls: ["/objects/kenya-two", "/objects/kenya-missing", "/objects/kenya-one", "/objects/kenya-three"],
    });
    const chat = customer.user.id;
    await customer.send("/start");
    await customer.press("Browse Products");
    await customer.press("Coffee");
    const list = customer.screen();

    let from = telegram.calls.length;
    await customer.press("Kenya AA · £8.00");
    const [album, ...more] = telegram.calls.slice(from).filter((c) => c.method === "sendMediaGroup");
    expect(more).toEqual([]);
    expect(telegram.calls.slice(from).filter((c) => c.method === "sendPhoto")).toEqual([]);
    const media = album!.payload.media as { type: string; media: string; caption?: string }[];
    expect(media.map((item) => item.type)).toEqual(["photo", "photo", "photo"]);
    expect(media.map((item) => album!.files[item.media.replace("attach://", "")]?.size)).toEqual([PNG.length + 2, PNG.length + 1, PNG.length + 3]);
    expect(media[0]!.caption).toBe("Kenya AA\n\nBright and fruity.\n\nPrice: £8.00\nStock: 3 available\n\nQuantity: 1 × £8.00 = £8.00");
    expect(media.slice(1).map((item) => item.caption)).toEqual([undefined, undefined]);
    expect(album!.payload.reply_markup).toBeUndefined();

    // The buttons follow as a message answering the album's first photo; the list it came from is gone.
    const photos = telegram.messages(chat).filter((m) => m.media_group_id);
    expect(photos).toHaveLength(3);
    const buttons = customer.screen();
    expect(buttons.text).toBe("Kenya AA");
    expect(buttons.reply_to_message?.message_id).toBe(photos[0]!.message_id);
    expect(customer.buttons()).toEqual(expect.arrayContaining(["➖", "Qty: 1", "➕", "Add 1 to cart", "« Back"]));
    expect(telegram.messages(chat).some((m) => m.message_id === list.message_id)).toBe(false);
    const cached = await shop.server.database.db.select().from(telegramFileCache).where(inArray(telegramFileCache.imagePath, paths));
    expect(cached).toHaveLength(3);

    // A quantity press edits the album's caption and the buttons in place: no new album.
    from = telegram.calls.length;
    await customer.press("➕");
    expect(telegram.calls.slice(from).map((c) => c.method).filter((m) => m.startsWith("send"))).toEqual([]);
    expect(telegram.messages(chat).find((m) => m.message_id === photos[0]!.message_id)!.caption).toMatch(/Quantity: 2 × £8\.00 = £16\.00$/);
    expect(customer.screen().message_id).toBe(buttons.message_id);
    expect(customer.buttons()).toContain("Add 2 to cart");

    // Shown again: every photo by its cached file_id, nothing uploaded.
    await customer.press("« Back");
    from = telegram.calls.length;
    await customer.press("Kenya AA · £8.00");
    const again = telegram.calls.slice(from).find((c) => c.method === "sendMediaGroup")!;
    expect(again.files).toEqual({});
    const fileIdOf = new Map(cached.map((row) => [row.imagePath, row.fileId]));
    expect((again.payload.media as { media: string }[]).map((item) => item.media)).toEqual(
      ["/objects/kenya-two", "/objects/kenya-one", "/objects/kenya-three"].map((path) => fileIdOf.get(path)),
    );

    // Telegram refuses a cached file_id (the token changed): all are uploaded again, once.
    await customer.press("« Back");
    telegram.failNext("sendMediaGroup", { error_code: 400, description: "Bad Request: wrong file identifier/HTTP URL specified" });
    from = telegram.calls.length;
    await customer.press("Kenya AA · £8.00");
    const tries = telegram.calls.slice(from).filter((c) => c.method === "sendMediaGroup");
    expect(tries.map((c) => Object.keys(c.files).length)).toEqual([0, 3]);
    expect(customer.buttons()).toContain("Add 1 to cart");
  });
});
