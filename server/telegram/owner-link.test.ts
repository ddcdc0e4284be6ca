import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ownerAlertSettings } from "../db/schema";
import { getOwnerAlertSettings, getOwnerAlerts, issueLinkCode } from "../shop/customers";
import { startShopWithBot, type ShopWithBot } from "../../test-support/bot-harness";
import { FAKE_BOT_INFO, newUpdateId, startFakeTelegram, telegramUser, textUpdate, type FakeTelegram } from "../../test-support/fake-telegram";
import { configurePayments } from "../../test-support/payments-setup";
import type { BotContext } from "./context";
import { BAD_CODE_REPLY, LINKED_GROUP_REPLY, LINKED_PRIVATE_REPLY, NO_CODE_REPLY, ownerLinkFeature } from "./features/owner-link";

// /link (issue 14, item 5): the code shown in Bot Settings, sent to the bot from a private chat or a
// group, links that chat for the owner alerts.

const OWNER = telegramUser(5150, "ada_owner");
const GROUP = { id: -1001234567890, type: "supergroup" as const, title: "Shop staff" };

/** A command sent in a group, addressed to the bot as Telegram spells it there (/link@test_shop_bot 123456). */
function groupCommand(text: string): Update {
  const command = /^\/\w+(@\w+)?/.exec(text)![0];
  return {
    update_id: newUpdateId(),
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: GROUP,
      from: OWNER,
      text,
      entities: [{ type: "bot_command", offset: 0, length: command.length }],
    },
  } as Update;
}

const repliesTo = (telegram: FakeTelegram, chatId: number, from: number) =>
  telegram.calls.slice(from).filter((call) => call.method === "sendMessage" && Number(call.payload.chat_id) === chatId).map((call) => call.payload.text);

describe("the /link composer on its own", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    // A server for its database only: the bot under test is built below with just the composer.
    shop = await startShopWithBot({ telegram });
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  it("links the private chat the valid code is sent from, and refuses a wrong one", async () => {
    const { db } = shop.server.deps;
    const bot = new Bot<BotContext>("123456:composer-test", { botInfo: FAKE_BOT_INFO, client: { apiRoot: telegram.apiRoot } });
    bot.use(ownerLinkFeature({ db, now: () => new Date() }));
    const from = telegram.calls.length;
    const { code } = await issueLinkCode(db, new Date());
    await bot.handleUpdate(textUpdate(OWNER, `/link ${code === "111111" ? "222222" : "111111"}`) as unknown as Update);
    await bot.handleUpdate(textUpdate(OWNER, `/link ${code}`) as unknown as Update);
    expect(repliesTo(telegram, OWNER.id, from)).toEqual([BAD_CODE_REPLY, LINKED_PRIVATE_REPLY]);
    expect(await getOwnerAlerts(db)).toMatchObject({ linked: true, chatTitle: "Customer 5150 (@ada_owner)" });
  });
});

// Through the real webhook and the shop's bot (telegram/bot.ts registers the composer before the
// customer middleware, which ignores groups).
describe("/link through the shop's bot", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let clock = new Date();
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithBot({ telegram, deps: { now: () => clock } });
    await configurePayments(shop.server.deps);
    await shop.bot.settingsSaved();
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });
  beforeEach(async () => {
    clock = new Date();
    await shop.server.deps.db.delete(ownerAlertSettings);
  });

  it("a private /link with the code links the owner; the same code again is refused", async () => {
    const { db } = shop.server.deps;
    const { code } = await issueLinkCode(db, clock);
    const from = telegram.calls.length;
    await shop.postUpdate(textUpdate(OWNER, `/link ${code}`));
    expect(repliesTo(telegram, OWNER.id, from)).toEqual([LINKED_PRIVATE_REPLY]);
    expect((await getOwnerAlertSettings(db))?.chatId).toBe(String(OWNER.id));

    const cookie = await shop.server.login();
    const state = await (await shop.server.request("GET", "/api/owner-alerts", { cookie })).json();
    expect(state).toMatchObject({ linked: true, chatTitle: "Customer 5150 (@ada_owner)" });

    const again = telegram.calls.length;
    await shop.postUpdate(textUpdate(telegramUser(6000, "someone_else"), `/link ${code}`));
    expect(repliesTo(telegram, 6000, again)).toEqual([BAD_CODE_REPLY]);
    expect((await getOwnerAlertSettings(db))?.chatId).toBe(String(OWNER.id));
  });

  it("/link@bot in a group links the group", async () => {
    const { db } = shop.server.deps;
    const { code } = await issueLinkCode(db, clock);
    const from = telegram.calls.length;
    await shop.postUpdate(groupCommand(`/link@${FAKE_BOT_INFO.username} ${code}`));
    expect(repliesTo(telegram, GROUP.id, from)).toEqual([LINKED_GROUP_REPLY]);
    expect(await getOwnerAlertSettings(db)).toMatchObject({ chatId: String(GROUP.id), chatTitle: "Shop staff" });
  });

  it("a code older than 15 minutes is refused (fixed clock), and /link alone says how", async () => {
    const { db } = shop.server.deps;
    const { code } = await issueLinkCode(db, clock);
    clock = new Date(clock.getTime() + 15 * 60_000 + 1);
    const from = telegram.calls.length;
    await shop.postUpdate(textUpdate(OWNER, `/link ${code}`));
    await shop.postUpdate(textUpdate(OWNER, "/link"));
    expect(repliesTo(telegram, OWNER.id, from)).toEqual([BAD_CODE_REPLY, NO_CODE_REPLY]);
    expect(await getOwnerAlerts(db)).toMatchObject({ linked: false });
  });
});
