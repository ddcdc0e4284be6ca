import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShopWithBot, type ShopWithBot } from "../../test-support/bot-harness";
import { fillPath, seedShop, type ShopIds } from "../../test-support/attack";
import { startFakeTelegram, telegramUser, textUpdate, type FakeTelegram } from "../../test-support/fake-telegram";
import { getBotSettings } from "../shop/settings";
import { registeredRoutes } from "./security";

// Bot Settings' secrets are never read back in clear (docs/SECURITY.md, "What is logged"): not by
// GET /api/bot-settings, which masks them, and not by any other answer an admin session gets. The
// routes are taken from the router, so a GET added later is read here too.

// Distinctive, so that no piece of them turns up in an answer by chance.
const SECRETS = {
  botToken: "7000000032:AAGz8Kq3Vw5Xn2Lr7Tb4Mh9Pc6Jd",
  nowpaymentsApiKey: "K9W3PQ7-TZ2XM4V-LR8NB6D-Y5HC1JF",
  nowpaymentsIpnSecret: "Zq4Wm8Xv2Nk7Rt5Lb9Hj3Pc6Yd1Gs0F",
};

/**
 * The 5-character pieces of the secrets: a mask shows at most the last 4, so any piece found is a
 * leak. Digit-only pieces are left out: ids, counts and timestamps may hold them by chance.
 */
const PIECES = Object.values(SECRETS).flatMap((secret) =>
  Array.from({ length: secret.length - 4 }, (_, at) => secret.slice(at, at + 5)).filter((piece) => !/^\d+$/.test(piece)),
);

function leaksIn(text: string): string[] {
  return PIECES.filter((piece) => text.includes(piece));
}

describe("no answer to an admin session holds the bot token, the API key or the IPN secret", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let cookie: string;
  let ids: ShopIds;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithBot({ telegram });
    cookie = await shop.server.login();
    ids = await seedShop(shop.server, cookie);
    const saved = await shop.server.request("PUT", `/api/bot-settings/${ids.settings}`, {
      cookie,
      body: { botName: "Leak Test Shop", acceptedCurrencies: ["BTC"], welcomeMessage: "Welcome!", faqContent: "FAQ", ...SECRETS },
    });
    expect(saved.status).toBe(200);
    await shop.bot.started();
    // Activity that could carry a secret into what is read back: the bot answering, the Bot Preview
    // tester, the chat simulator, Telegram failing (the bot status keeps its last error).
    await shop.postUpdate(textUpdate(telegramUser(7032), "/start"));
    await shop.server.request("POST", "/api/telegram/webhook", { cookie, body: textUpdate(telegramUser(7033), "/start") });
    await shop.server.request("POST", "/api/bot/simulator/messages", { cookie, body: { text: "/start" } });
    telegram.failNext("sendMessage", { error_code: 401, description: "Unauthorized" });
    await shop.postUpdate(textUpdate(telegramUser(7034), "/start"));
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  it("stores the secrets as saved (the bot and the payments use them)", async () => {
    expect(await getBotSettings(shop.server.deps.db, shop.server.deps.secrets)).toMatchObject(SECRETS);
  });

  it("reads every admin GET route and finds no piece of a secret", async () => {
    const routes = registeredRoutes(shop.server.app).filter((r) => r.access === "admin" && r.method === "GET");
    expect(routes.length).toBeGreaterThan(20);
    const read: string[] = [];
    for (const route of routes) {
      const target = fillPath(route.url, ids);
      const response = await shop.server.request("GET", target, { cookie });
      let text: string;
      if (route.url === "/api/events") {
        // The live stream never ends: read it until it says it is listening.
        text = "";
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        while (!text.includes("event: ready")) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
        await reader.cancel();
      } else {
        text = await response.text();
      }
      // The upload route only exists with a token it issued: 404 is its answer to this one.
      if (!route.url.includes(":token")) expect(response.status, `GET ${target}: ${text.slice(0, 200)}`).toBe(200);
      expect(leaksIn(text), `GET ${target}`).toEqual([]);
      read.push(route.url);
    }
    expect(read).toEqual(expect.arrayContaining(["/api/bot-settings", "/api/bot/status", "/api/bot/simulator", "/api/audit-log"]));
  });

  it("answers the simulator's and the Bot Preview tester's writes without a piece of a secret", async () => {
    const simulator = await shop.server.request("POST", "/api/bot/simulator/messages", { cookie, body: { text: "hello" } });
    expect(simulator.status).toBe(200);
    expect(leaksIn(await simulator.text())).toEqual([]);
    const tester = await shop.server.request("POST", "/api/telegram/webhook", { cookie, body: textUpdate(telegramUser(7035), "/start") });
    expect(tester.status).toBe(200);
    expect(leaksIn(await tester.text())).toEqual([]);
  });
});
