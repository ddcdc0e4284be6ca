import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBroadcast, getBroadcastProgress } from "../shop/broadcasts";
import { createBotSettings } from "../shop/settings";
import { startShopWithBot, silentLog, type ShopWithBot } from "../testing/bot-harness";
import { startFakeTelegram, type FakeTelegram } from "../testing/fake-telegram";
import { createBroadcastSender, type BroadcastSender } from "./broadcast-sender";
import { OPTED_OUT_REPLY } from "./features/opt-out";
import { OPTED_IN_REPLY } from "./features/start";

// /stop and /start (issue 14, item 3): a customer who sent /stop gets no broadcast, with a reply
// saying so; /start brings them back, and the next broadcast reaches them.

describe("/stop and /start for broadcasts", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let sender: BroadcastSender;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithBot({ telegram });
    const { deps } = shop.server;
    await createBotSettings(deps.db, deps.secrets, {
      botName: "Shop",
      botToken: "7000000021:opt-out-test-token",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome to the shop!",
      faqContent: "FAQ",
      nowpaymentsApiKey: null,
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
    });
    await shop.bot.reload();
    await shop.bot.started();
    sender = createBroadcastSender(deps, { log: silentLog, soleInstance: true, idlePollMs: 100 });
    sender.start();
  });
  afterAll(async () => {
    await sender?.stop();
    await shop?.close();
    await telegram?.close();
  });

  async function broadcast(text: string) {
    const { db } = shop.server.deps;
    const { id } = await createBroadcast(db, { text, imageUrl: null, audience: { kind: "all" } }, new Date());
    sender.kick();
    await expect.poll(async () => (await getBroadcastProgress(db, id)).status, { timeout: 15_000, interval: 100 }).toBe("done");
    return getBroadcastProgress(db, id);
  }

  it("/stop opts out with a confirmation; /start opts back in", async () => {
    const ann = shop.customer(94_000_001, "ann");
    const bob = shop.customer(94_000_002, "bob");
    await ann.send("/start");
    await bob.send("/start");
    expect(ann.text()).toBe("Welcome to the shop!");

    await ann.send("/stop");
    expect(ann.text()).toBe(OPTED_OUT_REPLY);
    expect(await broadcast("Autumn sale")).toMatchObject({ total: 2, sent: 1, skipped: 1 });
    expect(telegram.messages(ann.user.id).some((m) => m.text === "Autumn sale")).toBe(false);
    expect(telegram.messages(bob.user.id).filter((m) => m.text === "Autumn sale")).toHaveLength(1);

    await ann.send("/start");
    expect(ann.text()).toBe(`Welcome to the shop!\n\n${OPTED_IN_REPLY}`);
    expect(await broadcast("Winter sale")).toMatchObject({ total: 2, sent: 2, skipped: 0 });
    expect(telegram.messages(ann.user.id).filter((m) => m.text === "Winter sale")).toHaveLength(1);
    // A later /start says nothing more than the welcome.
    await ann.send("/start");
    expect(ann.text()).toBe("Welcome to the shop!");
  });
});
