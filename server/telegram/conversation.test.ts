import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { eq } from "drizzle-orm";
import { botConversations, categories } from "../db/schema";
import { getConversation } from "../shop/customers";
import { createBotSettings } from "../shop/settings";
import { startShopWithBot, type ShopWithBot } from "../../test-support/bot-harness";
import { createTestDatabase } from "../../test-support/database";
import { insertOrder, insertProduct } from "../../test-support/factories";
import { photoUpdate, startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { MAIN_MENU_BUTTON } from "./ui";

const TOKEN = "7000000001:conversation-test-token";

async function configure(database: Database, secrets: ShopWithBot["server"]["deps"]["secrets"], faqContent = "FAQ") {
  await createBotSettings(database.db, secrets, {
    botName: "Shop",
    botToken: TOKEN,
    acceptedCurrencies: ["BTC", "LTC", "XMR"],
    welcomeMessage: "Welcome!",
    faqContent,
    nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
    nowpaymentsIpnSecret: TEST_IPN_SECRET,
    webhookUrl: null,
  });
}

describe("conversation state lives in the database", () => {
  let telegram: FakeTelegram;
  let database: Database;
  let first: ShopWithBot | undefined;
  let second: ShopWithBot | undefined;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
    await telegram?.close();
  });

  it("resumes a checkout at the same step after a restart, and across two server instances", async () => {
    first = await startShopWithBot({ telegram, database });
    await configure(database, first.server.deps.secrets);
    await first.bot.reload();
    const product = await insertProduct(database.db, { name: "Kettle", price: "20.00", stock: 3 });

    const alice = first.customer(91_000_001, "alice");
    await alice.send("/start");
    await alice.pressData(`add:${product.id}:1`);
    await alice.press("My Cart");
    await alice.press("✅ Checkout");
    await alice.send("Alice Smith");
    expect(alice.text()).toMatch(/street address/);

    // The server restarts in the middle of the checkout.
    await first.close();
    first = undefined;
    second = await startShopWithBot({ telegram, database });
    await second.bot.started();
    const again = second.customer(91_000_001, "alice");
    await again.send("12 High Street, London");
    expect(again.text()).toMatch(/postcode/);
    expect(await getConversation(database.db, again.id)).toEqual({
      step: "checkout",
      stage: "postcode",
      draft: { name: "Alice Smith", streetAddress: "12 High Street, London" },
    });

    // A second instance next to it carries on from the same stored step.
    first = await startShopWithBot({ telegram, database });
    await first.bot.started();
    await first.customer(91_000_001, "alice").send("SW1A 1AA");
    expect(again.text()).toMatch(/contact \(optional\)/);
    await again.press("Skip");
    expect(again.text()).toMatch(/cryptocurrency/); // no postage options: straight to the coin
    expect(again.buttons()).toEqual(["Bitcoin (BTC)", "Litecoin (LTC)", "Monero (XMR)", "✖ Cancel checkout"]);
  });
});

describe("conversation edges", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithBot({ telegram });
    await configure(shop.server.database, shop.server.deps.secrets, "Q: ".repeat(3000));
    await shop.bot.reload();
    await shop.bot.started();
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  it("re-prompts a checkout step for a photo, a wrong button or a typed answer where a button is needed, and cancels", async () => {
    const product = await insertProduct(shop.server.deps.db, { name: "Mug", price: "8.00", stock: 5 });
    const bob = shop.customer(92_000_001);
    await bob.send("/start");
    await bob.pressData(`add:${product.id}:2`);
    await bob.pressData("checkout");
    const namePrompt = bob.screen();

    const photo = await shop.postUpdate(photoUpdate(bob.user));
    expect(photo.status).toBe(200);
    expect(bob.text()).toMatch(/^Please send your answer as a text message\.\n\nCheckout: delivery name/);

    const from = telegram.calls.length;
    await bob.pressData("co:skip", namePrompt);
    expect(bob.notices(from)).toEqual(["That button belongs to another step of the checkout."]);
    expect(bob.text()).toMatch(/Checkout: delivery name/);

    await bob.send("Bob Jones");
    await bob.send("1 Long Lane, Leeds");
    await bob.send("LS1 4AP");
    await bob.send("@bobjones");
    expect(bob.text()).toMatch(/Checkout: payment/);
    await bob.send("BTC please");
    expect(bob.text()).toMatch(/^Please choose one of the buttons below\./);

    await bob.send("/cancel");
    expect(bob.text()).toBe("Checkout cancelled. Your cart is kept for later.");
    expect(await getConversation(shop.server.deps.db, bob.id)).toEqual({ step: "idle" });
    await bob.press("My Cart");
    expect(bob.text()).toMatch(/2 × £8\.00 = £16\.00/);
  });

  it("stores support messages for the admin, linked to the latest order, and delivers the admin's reply to the chat", async () => {
    const carol = shop.customer(92_000_002, "carol");
    const { order } = await insertOrder(shop.server.deps.db, { telegramUserId: carol.id, telegramUsername: "carol" });
    await carol.send("/start");
    await carol.press("Contact Support");
    expect(carol.text()).toMatch(/Type your message/);
    await carol.send("Where is my parcel?");
    expect(carol.text()).toMatch(/^Thank you, your message has been sent/);

    const cookie = await shop.server.login();
    const messages = await (await shop.server.request("GET", "/api/messages", { cookie })).json();
    expect(messages).toContainEqual(
      expect.objectContaining({
        telegramUserId: carol.id,
        telegramUsername: "carol",
        message: "Where is my parcel?",
        isFromCustomer: true,
        isRead: false,
        orderId: order.id,
      }),
    );

    const from = telegram.calls.length;
    const reply = await shop.server.request("POST", "/api/messages", {
      cookie,
      body: { telegramUserId: carol.id, telegramUsername: "carol", message: "It left us this morning.", orderId: order.id },
    });
    expect(reply.status).toBeLessThan(300);
    const sent = await telegram.waitForCall((c) => c.method === "sendMessage" && c.payload.chat_id === carol.id, { from });
    expect(sent.payload.text).toBe("It left us this morning.");
    expect(sent.token).toBe(TOKEN);
  });

  it("writes the customer's step only when it changes", async () => {
    const erin = shop.customer(92_000_009);
    const stored = async () =>
      (await shop.server.deps.db.select().from(botConversations).where(eq(botConversations.telegramUserId, erin.id)))[0];
    // Greeting and browsing leave a new customer idle: nothing to store.
    await erin.send("/start");
    await erin.press("Browse Products");
    await erin.press(MAIN_MENU_BUTTON);
    expect(await stored()).toBeUndefined();
    await erin.press("Contact Support");
    expect(await stored()).toMatchObject({ state: { step: "support" } });
    await erin.send("/start");
    const idle = await stored();
    expect(idle).toMatchObject({ state: { step: "idle" } });
    // Idle again and again: the row is not touched.
    await erin.send("/start");
    await erin.press("Browse Products");
    expect((await stored())!.updatedAt).toEqual(idle!.updatedAt);
  });

  it("keeps texts within Telegram's limits", async () => {
    const dave = shop.customer(92_000_003);
    await dave.send("/start");
    await dave.press("About");
    expect(dave.text().length).toBeLessThanOrEqual(4096);
    expect(dave.text().endsWith("…")).toBe(true);

    await shop.server.deps.storage.put("long-description-image", Buffer.from("89504e470d0a1a0a", "hex"), "image/png");
    const product = await insertProduct(shop.server.deps.db, {
      name: "Teapot",
      description: "Lovely. ".repeat(400),
      imageUrl: "/objects/long-description-image",
      bulkPricing: [{ minQuantity: 3, price: 7.5 }],
    });
    await dave.pressData(`prod:${product.id}:1`);
    const caption = String(telegram.callsOf("sendPhoto").at(-1)!.payload.caption);
    expect(caption.length).toBeLessThanOrEqual(1024);
    expect(caption).toMatch(/3\+ for £7\.50\nStock: 10 available\n\nQuantity: 1 × £9\.99 = £9\.99$/);
  });

  it("waits and retries when Telegram answers 429 Too Many Requests", async () => {
    const erin = shop.customer(92_000_004);
    telegram.failNext("sendMessage", {
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    const from = telegram.calls.length;
    await erin.send("/start");
    const sends = telegram.calls.slice(from).filter((c) => c.method === "sendMessage");
    expect(sends).toHaveLength(2);
    expect(erin.text()).toBe("Welcome!");
  });

  it("pages long product lists, with back buttons on every level", async () => {
    const { db } = shop.server.deps;
    const [main] = await db.insert(categories).values({ name: "Kitchen" }).returning();
    const [sub] = await db.insert(categories).values({ name: "Spoons", parentId: main!.id }).returning();
    for (let i = 1; i <= 10; i++) await insertProduct(db, { name: `Spoon ${String(i).padStart(2, "0")}`, categoryId: sub!.id });
    const gina = shop.customer(92_000_006);
    await gina.send("/start");
    await gina.press("Browse Products");
    await gina.press("Kitchen");
    await gina.press("📁 Spoons");
    expect(gina.buttons().filter((b) => b.startsWith("Spoon"))).toHaveLength(8);
    expect(gina.buttons()).toContain("Page 1 of 2");
    await gina.press("Next ›");
    expect(gina.buttons()).toEqual(["Spoon 09 · £9.99", "Spoon 10 · £9.99", "‹ Previous", "Page 2 of 2", "« Back", "« Main menu"]);
    await gina.press("Spoon 10 · £9.99");
    expect(gina.text()).toMatch(/^Spoon 10/);
    await gina.press("« Back");
    expect(gina.text()).toMatch(/^Spoons/);
    await gina.press("« Back");
    expect(gina.text()).toMatch(/^Kitchen/);
    await gina.press("« Back");
    expect(gina.text()).toMatch(/Choose a category/);
    await gina.press("« Main menu");
    expect(gina.buttons()).toContain("Contact Support");
  });

  it("answers a stale product button after the product is switched off with the main menu", async () => {
    const product = await insertProduct(shop.server.deps.db, { name: "Old thing", isActive: false });
    const frank = shop.customer(92_000_005);
    await frank.send("/start");
    const from = telegram.calls.length;
    await frank.pressData(`add:${product.id}:1`);
    expect(frank.notices(from)).toEqual(["That product is no longer available."]);
    expect(frank.buttons()).toContain("Browse Products");
  });
});
