import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botSettings } from "../../db/schema";
import { createSecretBox } from "../../crypto";
import { idleBot, startTestServer, type TestServer } from "../../testing/app";
import { startFakeTelegram, type FakeTelegram } from "../../testing/fake-telegram";

const SETTINGS = {
  botName: "Shop Bot",
  botToken: "123456:ABC-secret-bot-token",
  acceptedCurrencies: ["XMR", "BTC"],
  welcomeMessage: "Welcome!",
  faqContent: "Q: When? A: Soon.",
  nowpaymentsApiKey: "NP-API-KEY-SECRET",
  nowpaymentsIpnSecret: "ipn-secret-value",
  webhookUrl: "https://shop.example/api/telegram/webhook",
};

describe("bot settings API", () => {
  let server: TestServer;
  let cookie: string;
  let saves = 0;
  // Saving checks the token with Telegram's getMe: this fake answers it.
  let telegram: FakeTelegram;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startTestServer({
      config: { telegramApiRoot: telegram.apiRoot },
      deps: { bot: idleBot({ settingsSaved: async () => void saves++ }) },
    });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await telegram?.close();
  });

  it("answers 401 without a session", async () => {
    expect((await server.request("GET", "/api/bot-settings")).status).toBe(401);
    expect((await server.request("POST", "/api/bot-settings", { body: SETTINGS })).status).toBe(401);
    const put = await server.request("PUT", "/api/bot-settings/00000000-0000-4000-8000-000000000000", { body: SETTINGS });
    expect(put.status).toBe(401);
    expect(await put.json()).toEqual({ error: "Not logged in." });
  });

  it("answers null while nothing is saved", async () => {
    const response = await server.request("GET", "/api/bot-settings", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.text()).toBe("null");
  });

  it("requires at least one cryptocurrency, and only BTC, LTC or XMR", async () => {
    const none = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, acceptedCurrencies: [] } });
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe("Invalid acceptedCurrencies: Select at least one cryptocurrency");
    const doge = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, acceptedCurrencies: ["DOGE"] } });
    expect(doge.status).toBe(400);
    expect((await doge.json()).error).toMatch(/^Invalid acceptedCurrencies/);
  });

  it("requires bot name, token, welcome message and FAQ", async () => {
    for (const field of ["botName", "botToken", "welcomeMessage", "faqContent"] as const) {
      const response = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, [field]: "  " } });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(new RegExp(`^Invalid ${field}: .+ is required$`));
    }
    expect((await server.request("GET", "/api/bot-settings", { cookie })).status).toBe(200);
    expect(saves).toBe(0);
  });

  it("creates the record, stores secrets encrypted and answers them decrypted", async () => {
    const created = await server.request("POST", "/api/bot-settings", { cookie, body: SETTINGS });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ ...SETTINGS, acceptedCurrencies: ["BTC", "XMR"], id: expect.any(String) });
    expect(saves).toBe(1);

    const [raw] = await server.database.db.select().from(botSettings);
    for (const field of ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const) {
      expect(raw![field]).not.toContain(SETTINGS[field]);
      expect(raw![field]).toMatch(/^enc:v1:/);
    }
    expect(raw!.botName).toBe("Shop Bot");

    const read = await server.request("GET", "/api/bot-settings", { cookie });
    expect(await read.json()).toMatchObject({ ...SETTINGS, acceptedCurrencies: ["BTC", "XMR"], id: body.id });
  });

  it("updates the record by id; empty optional fields become null", async () => {
    const { id } = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    const response = await server.request("PUT", `/api/bot-settings/${id}`, {
      cookie,
      body: { ...SETTINGS, botName: "Renamed", nowpaymentsApiKey: "", webhookUrl: "" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, botName: "Renamed", nowpaymentsApiKey: null, webhookUrl: null });
    expect(saves).toBe(2);
    const read = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    expect(read).toMatchObject({ id, botName: "Renamed", botToken: SETTINGS.botToken, nowpaymentsApiKey: null });
  });

  it("keeps a single record when created twice", async () => {
    const { id } = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    const again = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, botName: "Second" } });
    expect(again.status).toBe(201);
    expect((await again.json()).id).toBe(id);
    expect(await server.database.db.select().from(botSettings)).toHaveLength(1);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const unknown = await server.request("PUT", "/api/bot-settings/00000000-0000-4000-8000-000000000000", { cookie, body: SETTINGS });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/not found/i);
    const malformed = await server.request("PUT", "/api/bot-settings/abc", { cookie, body: SETTINGS });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toBe("Invalid id: must be a valid id");
  });

  it("treats secrets it cannot decrypt (the key changed) as not set, so the owner can type them again", async () => {
    await server.request("POST", "/api/bot-settings", { cookie, body: SETTINGS });
    const original = server.deps.secrets;
    server.deps.secrets = createSecretBox(Buffer.alloc(32, 9));
    try {
      const read = await server.request("GET", "/api/bot-settings", { cookie });
      expect(read.status).toBe(200);
      const settings = await read.json();
      expect(settings).toMatchObject({ botName: SETTINGS.botName, botToken: "", nowpaymentsApiKey: null, nowpaymentsIpnSecret: null });
      const saved = await server.request("PUT", `/api/bot-settings/${settings.id}`, { cookie, body: { ...SETTINGS, botToken: "123456:typed-again" } });
      expect(saved.status).toBe(200);
      expect(await saved.json()).toMatchObject({ botToken: "123456:typed-again", nowpaymentsApiKey: SETTINGS.nowpaymentsApiKey });
    } finally {
      server.deps.secrets = original;
    }
  });

  it("still saves when applying the settings to the bot fails", async () => {
    const { id } = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    let applied = false;
    server.deps.bot = idleBot({
      settingsSaved: async () => {
        applied = true;
        throw new Error("Telegram is down");
      },
    });
    const response = await server.request("PUT", `/api/bot-settings/${id}`, { cookie, body: { ...SETTINGS, botName: "Saved anyway" } });
    expect(response.status).toBe(200);
    expect(applied).toBe(true);
    const read = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    expect(read.botName).toBe("Saved anyway");
  });
  it("stores the underpayment tolerance (default 1%) and answers it as a number", async () => {
    const { id } = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    const put = (body: Record<string, unknown>) => server.request("PUT", `/api/bot-settings/${id}`, { cookie, body });
    const read = async () => (await (await server.request("GET", "/api/bot-settings", { cookie })).json()).underpaymentTolerancePercent;

    expect(await read()).toBe(1);
    const saved = await put({ ...SETTINGS, underpaymentTolerancePercent: "2.5" });
    expect(saved.status).toBe(200);
    expect((await saved.json()).underpaymentTolerancePercent).toBe(2.5);
    expect(await read()).toBe(2.5);
    const [raw] = await server.database.db.select().from(botSettings);
    expect(raw!.underpaymentTolerancePercent).toBe("2.50");

    for (const value of [0, 15, 0.25, "12.75"]) {
      expect((await put({ ...SETTINGS, underpaymentTolerancePercent: value })).status).toBe(200);
      expect(await read()).toBe(Number(value));
    }
    // Left out: the default, 1%.
    expect((await put(SETTINGS)).status).toBe(200);
    expect(await read()).toBe(1);
  });

  it("refuses a tolerance outside 0 to 15 or with more than two decimals, naming the field", async () => {
    const { id } = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    for (const value of [15.01, -1, "16", "1.005", "abc", "", null, true]) {
      const response = await server.request("PUT", `/api/bot-settings/${id}`, {
        cookie,
        body: { ...SETTINGS, underpaymentTolerancePercent: value },
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/^Invalid underpaymentTolerancePercent: Underpayment tolerance must be from 0 to 15/);
    }
    const read = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    expect(read.underpaymentTolerancePercent).toBe(1);
  });
});

describe("bot settings: the token is checked with Telegram (getMe) before it is saved", () => {
  let server: TestServer;
  let cookie: string;
  let telegram: FakeTelegram;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startTestServer({ config: { telegramApiRoot: telegram.apiRoot }, deps: { bot: idleBot() } });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await telegram?.close();
  });
  const stored = async () => (await server.database.db.select().from(botSettings)).length;
  const read = async () => (await server.request("GET", "/api/bot-settings", { cookie })).json();

  it("refuses a token Telegram does not accept (401), on the botToken field, and saves nothing", async () => {
    telegram.refuseToken("111:refused-token");
    const response = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, botToken: "111:refused-token" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Invalid botToken: Telegram did not accept this token" });
    expect(telegram.callsOf("getMe").at(-1)).toMatchObject({ token: "111:refused-token" });
    expect(await stored()).toBe(0);
  });

  it("saves an accepted token and tells the bot's username", async () => {
    const response = await server.request("POST", "/api/bot-settings", { cookie, body: SETTINGS });
    expect(response.status).toBe(201);
    expect((await response.json()).tokenCheck).toEqual({ outcome: "accepted", botUsername: "test_shop_bot", warning: null });
    expect(telegram.callsOf("getMe").at(-1)).toMatchObject({ token: SETTINGS.botToken });
  });

  it("refuses a malformed token Telegram answers 404 for, and keeps the token saved before", async () => {
    const { id } = await read();
    telegram.failNext("getMe", { error_code: 404, description: "Not Found" });
    const response = await server.request("PUT", `/api/bot-settings/${id}`, { cookie, body: { ...SETTINGS, botToken: "not a token" } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("Invalid botToken: Telegram did not accept this token");
    expect((await read()).botToken).toBe(SETTINGS.botToken);
  });

  it("saves with a warning when Telegram cannot be reached, or fails on its side (5xx)", async () => {
    const { id } = await read();
    telegram.outage("network");
    try {
      const response = await server.request("PUT", `/api/bot-settings/${id}`, { cookie, body: { ...SETTINGS, botToken: "222:while-down" } });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.botToken).toBe("222:while-down");
      expect(body.tokenCheck).toMatchObject({ outcome: "unreachable", botUsername: null });
      expect(body.tokenCheck.warning).toMatch(/^The token could not be checked: Telegram could not be reached .*The settings are saved/);
      expect(body.tokenCheck.warning).not.toContain("222:while-down");
    } finally {
      telegram.outage(null);
    }
    expect((await read()).botToken).toBe("222:while-down");

    telegram.failNext("getMe", { error_code: 502, description: "Bad Gateway" });
    const response = await server.request("PUT", `/api/bot-settings/${id}`, { cookie, body: { ...SETTINGS, botToken: "333:telegram-failing" } });
    expect(response.status).toBe(200);
    expect((await response.json()).tokenCheck.warning).toContain("502: Bad Gateway");
    expect((await read()).botToken).toBe("333:telegram-failing");
  });

  it("asks Telegram nothing on a server that runs no bot", async () => {
    const plain = await startTestServer({ config: { telegramApiRoot: telegram.apiRoot } });
    try {
      const before = telegram.calls.length;
      const response = await plain.request("POST", "/api/bot-settings", { cookie: await plain.login(), body: SETTINGS });
      expect(response.status).toBe(201);
      expect((await response.json()).tokenCheck).toEqual({ outcome: "not-checked", botUsername: null, warning: null });
      expect(telegram.calls.length).toBe(before);
    } finally {
      await plain.close();
    }
  });
});
