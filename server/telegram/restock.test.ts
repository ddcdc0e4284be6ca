import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { broadcastRecipients } from "../db/schema";
import { restockText } from "../shop/customers/broadcasts";
import { silentLog, startShopWithConfiguredBot, type ShopWithBot } from "../../test-support/bot-harness";
import { insertProduct, type ProductRow } from "../../test-support/factories";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { createBroadcastSender, type BroadcastSender } from "./broadcast-sender";
import { NOTIFY_ME_BUTTON, NOTIFY_ME_NOTICE } from "./features/catalogue";

// Restock alerts (issue 14, item 4): an out-of-stock card offers "Notify me when back"; when the
// stock goes from 0 to more, every waiting customer gets one message with a button to the product.

describe("restock alerts", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let sender: BroadcastSender;
  let cookie: string;
  let matcha: ProductRow;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithConfiguredBot({ telegram, botToken: "7000000023:restock-test-token", withPayments: false });
    const { deps } = shop.server;
    sender = createBroadcastSender(deps, { log: silentLog, soleInstance: true, idlePollMs: 100 });
    sender.start();
    cookie = await shop.server.login();
    matcha = await insertProduct(deps.db, { name: "Matcha", price: "12.00", stock: 0 });
  });
  afterAll(async () => {
    await sender?.stop();
    await shop?.close();
    await telegram?.close();
  });

  async function setStock(stock: number, productId = matcha.id, name = "Matcha") {
    // The owner's edit in the dashboard.
    const answer = await shop.server.request("PUT", `/api/products/${productId}`, { cookie, body: { name, price: "12.00", stock } });
    expect(answer.status, await answer.text()).toBe(200);
  }

  /** The alerts sent to a chat (the calls: pressing the alert's button turns that message into the product card). */
  const alertsTo = (chatId: number) =>
    telegram.callsOf("sendMessage").filter((call) => String(call.payload.chat_id) === String(chatId) && call.payload.text === restockText("Matcha"));

  it("tells each waiting customer once when the stock comes back, with a button to the product", { timeout: 30_000 }, async () => {
    const ann = shop.customer(95_000_001, "ann");
    const bob = shop.customer(95_000_002, "bob");
    const cal = shop.customer(95_000_003, "cal");
    for (const customer of [ann, bob, cal]) {
      await customer.send("/start");
      await customer.pressData(`prod:${matcha.id}:1`);
      expect(customer.text()).toMatch(/Out of stock/);
    }
    const from = telegram.calls.length;
    await ann.press(NOTIFY_ME_BUTTON);
    expect(ann.notices(from)).toEqual([NOTIFY_ME_NOTICE]);
    await ann.press(NOTIFY_ME_BUTTON); // twice: still one alert
    await bob.press(NOTIFY_ME_BUTTON);
    // Cal does not ask.

    await setStock(5);
    await expect.poll(() => alertsTo(ann.user.id).length + alertsTo(bob.user.id).length, { timeout: 10_000, interval: 100 }).toBe(2);
    const alert = telegram.messages(ann.user.id).find((m) => m.text === restockText("Matcha"))!;
    expect(alert.reply_markup?.inline_keyboard?.flat()).toEqual([{ text: "View product", callback_data: `prod:${matcha.id}:1` }]);
    expect(alertsTo(cal.user.id)).toEqual([]);

    // The button opens the product, in stock now.
    await ann.pressData(`prod:${matcha.id}:1`, alert);
    expect(ann.text()).toMatch(/Stock: 5 available/);

    // Out of stock and back again: nobody asked again, so nobody is told again. Cal, waiting for
    // Sencha, restocked after that, is the sign the sender has looked since.
    const sencha = await insertProduct(shop.server.deps.db, { name: "Sencha", price: "5.00", stock: 0 });
    await cal.pressData(`prod:${sencha.id}:1`);
    await cal.press(NOTIFY_ME_BUTTON);
    await setStock(0);
    await setStock(3);
    await setStock(4, sencha.id, "Sencha");
    await expect
      .poll(() => telegram.callsOf("sendMessage").filter((c) => c.payload.text === restockText("Sencha")).length, { timeout: 10_000, interval: 100 })
      .toBe(1);
    await expect.poll(async () => (await shop.server.deps.db.select().from(broadcastRecipients).where(inArray(broadcastRecipients.state, ["pending", "sending"]))).length).toBe(0);
    expect(alertsTo(ann.user.id)).toHaveLength(1);
    expect(alertsTo(bob.user.id)).toHaveLength(1);
  });

  it("shows the product instead when it came back before the press", async () => {
    const dan = shop.customer(95_000_004, "dan");
    await setStock(0);
    await dan.send("/start");
    await dan.pressData(`prod:${matcha.id}:1`);
    await setStock(2);
    await dan.press(NOTIFY_ME_BUTTON);
    expect(dan.text()).toMatch(/Stock: 2 available/);
  });
});
