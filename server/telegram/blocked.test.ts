import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botConversations, cartItems, customerMessages } from "../db/schema";
import { startShopWithConfiguredBot, type ShopWithBot } from "../../test-support/bot-harness";
import { insertProduct } from "../../test-support/factories";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { BLOCKED_CUSTOMER_REPLY } from "./bot";

// A customer the owner blocked (issue 13) gets only a polite refusal: to /start, to anything typed,
// to any button. Nothing else happens for them; unblocked, the shop is theirs again.

describe("a blocked customer", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let cookie: string;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithConfiguredBot({ telegram, botToken: "7000000003:blocked-test-token", welcomeMessage: "Welcome to the shop!" });
    cookie = await shop.server.login();
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  const setBlocked = async (telegramUserId: string, blocked: boolean) => {
    const response = await shop.server.request("POST", `/api/customers/${telegramUserId}/${blocked ? "block" : "unblock"}`, {
      cookie,
      body: {},
    });
    expect(response.status).toBe(200);
  };

  it("gets only the refusal to /start, to text and to a button press, which is still answered", async () => {
    const { db } = shop.server.deps;
    const product = await insertProduct(db, { name: "Teapot", price: "15.00", stock: 4 });
    const eve = shop.customer(93_000_001, "eve");
    await eve.send("/start");
    expect(eve.text()).toMatch(/Welcome to the shop!/);
    const menu = eve.screen();

    // The owner blocks her from the dashboard; the bot refuses her from the next update on.
    await setBlocked(eve.id, true);
    const from = telegram.calls.length;
    await eve.send("/start");
    expect(eve.text()).toBe(BLOCKED_CUSTOMER_REPLY);
    expect(eve.buttons()).toEqual([]);

    // A press on a button of an earlier screen: answered (the spinner stops) with the refusal, nothing else.
    await eve.pressData(`add:${product.id}:1`, menu);
    await eve.pressData("support", menu);
    expect(eve.notices(from)).toEqual([BLOCKED_CUSTOMER_REPLY, BLOCKED_CUSTOMER_REPLY]);

    await eve.send("Please let me in");
    expect(eve.text()).toBe(BLOCKED_CUSTOMER_REPLY);

    // Only the refusals went out: one message per text, one answer per press.
    const sent = telegram.calls.slice(from).map((call) => call.method);
    expect(sent.sort()).toEqual(["answerCallbackQuery", "answerCallbackQuery", "sendMessage", "sendMessage"]);
    expect(await db.select().from(cartItems).where(eq(cartItems.telegramUserId, eve.id))).toEqual([]);
    expect(await db.select().from(customerMessages).where(eq(customerMessages.telegramUserId, eve.id))).toEqual([]);
    const [conversation] = await db.select().from(botConversations).where(eq(botConversations.telegramUserId, eve.id));
    expect(conversation?.state ?? { step: "idle" }).not.toMatchObject({ step: "support" });

    // Other customers are served as before.
    const sam = shop.customer(93_000_002, "sam");
    await sam.send("/start");
    expect(sam.text()).toMatch(/Welcome to the shop!/);
  });

  it("is served again once unblocked", async () => {
    const zoe = shop.customer(93_000_003, "zoe");
    await setBlocked(zoe.id, true);
    await zoe.send("/start");
    expect(zoe.text()).toBe(BLOCKED_CUSTOMER_REPLY);
    await setBlocked(zoe.id, false);
    await zoe.send("/start");
    expect(zoe.text()).toMatch(/Welcome to the shop!/);
    const from = telegram.calls.length;
    await zoe.press(/Contact Support/);
    expect(zoe.notices(from)).not.toContain(BLOCKED_CUSTOMER_REPLY);
    expect(zoe.text()).not.toBe(BLOCKED_CUSTOMER_REPLY);
  });
});
