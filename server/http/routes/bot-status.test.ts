import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotStatusAnswer } from "../../../contract";
import { startTestServer } from "../../../test-support/app";
import { startShopWithBot, type ShopWithBot } from "../../../test-support/bot-harness";
import { startFakeTelegram, telegramUser, textUpdate, type FakeTelegram } from "../../../test-support/fake-telegram";

// GET /api/bot/status and POST /api/bot/webhook (issue 14, item 2), on the real HTTP server with the
// real bot runner, Telegram being the fake one on 127.0.0.1: an outage shows as an error with its
// reason, and the status is running again once Telegram answers.

const TOKEN = "123456:bot-status-token";
const SETTINGS = {
  botName: "Status Shop",
  botToken: TOKEN,
  acceptedCurrencies: ["BTC"],
  welcomeMessage: "Hello!",
  faqContent: "FAQ",
};
const WEBHOOK_URL = "https://shop.example/api/telegram/webhook";

async function startWithSettings(telegram: FakeTelegram, config: Parameters<typeof startShopWithBot>[0]["config"] = {}) {
  const shop = await startShopWithBot({ telegram, config });
  const cookie = await shop.server.login();
  const saved = await shop.server.request("POST", "/api/bot-settings", { cookie, body: SETTINGS });
  expect(saved.status).toBe(201);
  await shop.bot.started();
  const status = async (): Promise<BotStatusAnswer> => {
    const response = await shop.server.request("GET", "/api/bot/status", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    return (await response.json()) as BotStatusAnswer;
  };
  return { shop, cookie, status };
}

describe("bot status, webhook mode (PUBLIC_URL https)", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let cookie: string;
  let status: () => Promise<BotStatusAnswer>;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    ({ shop, cookie, status } = await startWithSettings(telegram));
  });
  afterAll(async () => {
    telegram.outage(null);
    await shop?.close();
    await telegram?.close();
  });

  it("needs the admin", async () => {
    expect((await shop.server.request("GET", "/api/bot/status")).status).toBe(401);
    expect((await shop.server.request("POST", "/api/bot/webhook")).status).toBe(401);
  });

  it("answers running, with the username and Telegram's webhook info, and when an update was last handled", async () => {
    const before = await status();
    expect(before).toMatchObject({
      state: "running",
      mode: "webhook",
      username: "test_shop_bot",
      webhook: { url: WEBHOOK_URL, pendingUpdateCount: 0, lastErrorDate: null, lastErrorMessage: null },
      lastUpdateAt: null,
      lastError: null,
      reason: null,
      webhookUrlToRegister: WEBHOOK_URL,
    });
    expect(Date.now() - Date.parse(before.telegramAnsweredAt!)).toBeLessThan(10_000);
    expect(telegram.callsOf("getWebhookInfo").at(-1)).toMatchObject({ token: TOKEN });

    await shop.postUpdate(textUpdate(telegramUser(7001), "/start"));
    const after = await status();
    expect(after.lastUpdateAt).not.toBeNull();
    expect(Date.now() - Date.parse(after.lastUpdateAt!)).toBeLessThan(10_000);
  });

  it("says error, with the reason, while Telegram cannot be reached, and running again once it answers", async () => {
    telegram.outage("network");
    try {
      const down = await status();
      expect(down).toMatchObject({ state: "error", mode: "webhook", username: "test_shop_bot", webhook: null });
      expect(down.lastError).toMatch(/^Telegram could not be reached/);
      expect(down.lastError).not.toContain(TOKEN);
      expect(down.lastErrorAt).not.toBeNull();
      // The bot's own calls are noted too: the reply it could not send.
      await shop.postUpdate(textUpdate(telegramUser(7002), "/start"));
      expect(shop.bot.status()).toMatchObject({ lastError: expect.stringMatching(/^Network request for 'sendMessage' failed!/) });
    } finally {
      telegram.outage(null);
    }
    const back = await status();
    expect(back).toMatchObject({ state: "running", webhook: { url: WEBHOOK_URL } });
    // The last error stays on show, with its time, but no longer makes the state an error.
    expect(back.lastError).toMatch(/sendMessage/);
  });

  it("says error while Telegram answers 5xx", async () => {
    telegram.outage("server-error");
    try {
      expect(await status()).toMatchObject({ state: "error", lastError: "Call to 'getWebhookInfo' failed! (502: Bad Gateway)" });
    } finally {
      telegram.outage(null);
    }
    expect((await status()).state).toBe("running");
  });

  it("says error when the token is revoked (401)", async () => {
    const other = await startFakeTelegram();
    const { shop: revoked, status: revokedStatus } = await startWithSettings(other);
    try {
      other.refuseToken(TOKEN);
      const answer = await revokedStatus();
      expect(answer.state).toBe("error");
      expect(answer.lastError).toBe("Call to 'getWebhookInfo' failed! (401: Unauthorized)");
    } finally {
      await revoked.close();
      await other.close();
    }
  });

  it("says error when Telegram delivers the updates elsewhere, and the button puts the webhook back", async () => {
    telegram.webhookInfo(TOKEN).url = "https://old-host.example/hook";
    const moved = await status();
    expect(moved.state).toBe("error");
    expect(moved.lastError).toBe(
      "Telegram delivers this bot's updates to https://old-host.example/hook, not to this server. Register the webhook again.",
    );

    const registered = await shop.server.request("POST", "/api/bot/webhook", { cookie });
    expect(registered.status).toBe(200);
    expect(await registered.json()).toEqual({ ok: true, url: WEBHOOK_URL });
    expect(telegram.callsOf("setWebhook").at(-1)!.payload).toMatchObject({ url: WEBHOOK_URL, secret_token: expect.any(String) });
    expect((await status()).state).toBe("running");
  });

  it("says error while Telegram cannot deliver updates that are waiting", async () => {
    const info = telegram.webhookInfo(TOKEN);
    Object.assign(info, { pending_update_count: 3, last_error_date: Math.floor(Date.now() / 1000) + 1, last_error_message: "Connection timed out" });
    try {
      const failing = await status();
      expect(failing).toMatchObject({
        state: "error",
        webhook: { pendingUpdateCount: 3, lastErrorMessage: "Connection timed out" },
        lastError: "Telegram cannot deliver updates to the webhook: Connection timed out",
      });
    } finally {
      Object.assign(info, { pending_update_count: 0 });
    }
    expect((await status()).state).toBe("running");
  });

  it("answers 502 when Telegram does not take the webhook", async () => {
    telegram.outage("network");
    try {
      const response = await shop.server.request("POST", "/api/bot/webhook", { cookie });
      expect(response.status).toBe(502);
      expect((await response.json()).error).toMatch(/^Telegram did not take the webhook: /);
    } finally {
      telegram.outage(null);
    }
  });
});

describe("bot status, long polling (no PUBLIC_URL)", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let cookie: string;
  let status: () => Promise<BotStatusAnswer>;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    ({ shop, cookie, status } = await startWithSettings(telegram, { publicUrl: undefined }));
  });
  afterAll(async () => {
    telegram.outage(null);
    await shop?.close();
    await telegram?.close();
  });

  it("answers running by polling, with no webhook to register", async () => {
    await expect.poll(() => telegram.pollsWaiting(), { timeout: 15_000 }).toBe(1);
    expect(await status()).toMatchObject({ state: "running", mode: "polling", username: "test_shop_bot", webhook: { url: "" }, webhookUrlToRegister: null });
    const refused = await shop.server.request("POST", "/api/bot/webhook", { cookie });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatch(/PUBLIC_URL is not an https address/);
  });

  it("notes the polling's own failure during an outage, and is running again once polling gets through", async () => {
    telegram.outage("network");
    // The runner's own getUpdates failed, before anyone asked for the status.
    await expect.poll(() => shop.bot.status(), { timeout: 10_000 }).toMatchObject({ lastError: expect.stringMatching(/getUpdates/) });
    const down = await status();
    expect(down.state).toBe("error");

    telegram.outage(null);
    expect((await status()).state).toBe("running");
    // Polling picks up again by itself (grammY retries every 3 s), and the updates are handled.
    await expect.poll(() => telegram.pollsWaiting(), { timeout: 15_000 }).toBe(1);
    telegram.pushUpdate(textUpdate(telegramUser(7101), "/start"));
    await expect.poll(async () => (await status()).lastUpdateAt, { timeout: 15_000 }).not.toBeNull();
    expect((await status()).state).toBe("running");
  });
});

describe("bot status without a bot", () => {
  it("is in the OpenAPI document with its summary and answer schema, behind the admin session", async () => {
    const server = await startTestServer();
    try {
      const cookie = await server.login();
      const document = await (await server.request("GET", "/api/openapi.json", { cookie })).json();
      const get = document.paths["/api/bot/status"].get;
      expect(get.summary).toMatch(/^Whether the bot runs/);
      expect(get.security).toBeUndefined();
      expect(get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/BotStatus" });
      const post = document.paths["/api/bot/webhook"].post;
      expect(post.summary).toMatch(/^Register the webhook/);
      expect(post.security).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("is stopped, with the reason, when no token is saved", async () => {
    const telegram = await startFakeTelegram();
    const shop = await startShopWithBot({ telegram });
    try {
      const cookie = await shop.server.login();
      const answer = await (await shop.server.request("GET", "/api/bot/status", { cookie })).json();
      expect(answer).toMatchObject({ state: "stopped", mode: "webhook", username: null, webhook: null, reason: "No bot token is configured." });
      const register = await shop.server.request("POST", "/api/bot/webhook", { cookie });
      expect(register.status).toBe(409);
      expect(telegram.callsOf("getWebhookInfo")).toEqual([]);
    } finally {
      await shop.close();
      await telegram.close();
    }
  });

  it("is stopped on a server that runs none, and asks Telegram nothing", async () => {
    const server = await startTestServer();
    try {
      const cookie = await server.login();
      const answer = await (await server.request("GET", "/api/bot/status", { cookie })).json();
      expect(answer).toMatchObject({ state: "stopped", mode: "polling", reason: "This server runs no Telegram bot.", webhookUrlToRegister: null });
      const register = await server.request("POST", "/api/bot/webhook", { cookie });
      expect(register.status).toBe(409);
      expect((await register.json()).error).toBe("This server runs no Telegram bot.");
    } finally {
      await server.close();
    }
  });
});
