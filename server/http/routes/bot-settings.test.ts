import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { accounts, botSettings, sessions } from "../../db/schema";
import { createSecretBox } from "../../crypto";
import { getBotSettings } from "../../shop/settings";
import { idleBot, startTestServer, type TestServer } from "../../../test-support/app";
import { startShopWithBot, type ShopWithBot } from "../../../test-support/bot-harness";
import { startFakeTelegram, telegramUser, textUpdate, type FakeTelegram } from "../../../test-support/fake-telegram";
import { postIpn } from "../../../test-support/sign-ipn";
import { databaseChecksum } from "../../../test-support/checksum";

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
/** SETTINGS as the API answers them: "••••••••" (U+2022) and the last 4 characters of each secret. */
const MASKED = {
  botToken: "••••••••oken",
  nowpaymentsApiKey: "••••••••CRET",
  nowpaymentsIpnSecret: "••••••••alue",
};

/** The 400 for a masked-looking value that is not the stored secret's mask, naming the field by its label. */
const SECRET_LABELS = { botToken: "Bot token", nowpaymentsApiKey: "NOWPayments API key", nowpaymentsIpnSecret: "IPN secret key" } as const;
const maskRefused = (field: keyof typeof SECRET_LABELS) =>
  `${SECRET_LABELS[field]} cannot be "••••••••…": that stands for the one already saved; type the whole new one to replace it`;

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
  /** What the server holds, decrypted (the API answers it masked). */
  const stored = () => getBotSettings(server.deps.db, server.deps.secrets);

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
    expect((await none.json()).error).toBe("Select at least one cryptocurrency");
    const doge = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, acceptedCurrencies: ["DOGE"] } });
    expect(doge.status).toBe(400);
    expect((await doge.json()).error).toBe('Accepted cryptocurrencies must be one of "BTC", "LTC" or "XMR"');
  });

  it("refuses a masked secret while none is stored: it stands for nothing", async () => {
    for (const field of ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const) {
      for (const value of ["••••••••", "••••••••oken"]) {
        const response = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, [field]: value } });
        expect(response.status).toBe(400);
        expect((await response.json()).error).toBe(maskRefused(field));
      }
    }
    expect(await stored()).toBeNull();
  });

  it("requires bot name, token, welcome message and FAQ", async () => {
    const required = { botName: "Bot Name", botToken: "Bot Token", welcomeMessage: "Welcome Message", faqContent: "FAQ Content" } as const;
    for (const [field, label] of Object.entries(required)) {
      const response = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, [field]: "  " } });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe(`${label} is required`);
    }
    expect((await server.request("GET", "/api/bot-settings", { cookie })).status).toBe(200);
    expect(saves).toBe(0);
  });

  it("creates the record, stores secrets encrypted and answers them masked", async () => {
    const created = await server.request("POST", "/api/bot-settings", { cookie, body: SETTINGS });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ ...SETTINGS, ...MASKED, acceptedCurrencies: ["BTC", "XMR"], id: expect.any(String) });
    expect(saves).toBe(1);

    const [raw] = await server.database.db.select().from(botSettings);
    for (const field of ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const) {
      expect(raw![field]).not.toContain(SETTINGS[field]);
      expect(raw![field]).toMatch(/^enc:v1:/);
    }
    expect(raw!.botName).toBe("Shop Bot");

    const read = await server.request("GET", "/api/bot-settings", { cookie });
    expect(await read.json()).toMatchObject({ ...SETTINGS, ...MASKED, acceptedCurrencies: ["BTC", "XMR"], id: body.id });
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
    expect(read).toMatchObject({ id, botName: "Renamed", botToken: MASKED.botToken, nowpaymentsApiKey: null });
    expect(await stored()).toMatchObject({ botToken: SETTINGS.botToken, nowpaymentsApiKey: null, nowpaymentsIpnSecret: SETTINGS.nowpaymentsIpnSecret });
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
    expect((await malformed.json()).error).toBe("ID must be a valid id");
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
      expect(await saved.json()).toMatchObject({ botToken: "••••••••gain", nowpaymentsApiKey: MASKED.nowpaymentsApiKey });
      expect(await stored()).toMatchObject({ botToken: "123456:typed-again", nowpaymentsApiKey: SETTINGS.nowpaymentsApiKey });
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
      expect((await response.json()).error).toMatch(/^Underpayment tolerance must be from 0 to 15/);
    }
    const read = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    expect(read.underpaymentTolerancePercent).toBe(1);
  });

  it("offers languages (English alone at first), a default among them, and welcome and FAQ translations (issue 26)", async () => {
    const { id } = await (await server.request("GET", "/api/bot-settings", { cookie })).json();
    const put = (body: Record<string, unknown>) => server.request("PUT", `/api/bot-settings/${id}`, { cookie, body });
    const read = async () => (await server.request("GET", "/api/bot-settings", { cookie })).json();

    // A record saved before languages existed: English alone, no translations.
    expect(await read()).toMatchObject({ languages: ["en"], defaultLanguage: "en", welcomeMessageTranslations: {}, faqContentTranslations: {} });

    const saved = await put({
      ...SETTINGS,
      languages: ["de", "en", "de"],
      defaultLanguage: "de",
      // Blank ones are dropped; a hostile one is stored as text.
      welcomeMessageTranslations: { de: "  Willkommen!  ", fr: "   " },
      faqContentTranslations: { de: "<script>alert(1)</script>'; drop table bot_settings; --" },
    });
    expect(saved.status).toBe(200);
    const expected = {
      languages: ["en", "de"],
      defaultLanguage: "de",
      welcomeMessageTranslations: { de: "Willkommen!" },
      faqContentTranslations: { de: "<script>alert(1)</script>'; drop table bot_settings; --" },
    };
    expect(await saved.json()).toMatchObject(expected);
    expect(await read()).toMatchObject(expected);

    // A save leaving them out (an older form) keeps them.
    expect((await put(SETTINGS)).status).toBe(200);
    expect(await read()).toMatchObject(expected);

    const refusal = async (body: Record<string, unknown>) => {
      const response = await put({ ...SETTINGS, ...body });
      expect(response.status).toBe(400);
      return (await response.json()).error as string;
    };
    const NOT_OFFERED = "The default language must be one of the languages offered";
    expect(await refusal({ languages: ["en"], defaultLanguage: "de" })).toBe(NOT_OFFERED);
    // Either left out: checked against the stored one.
    expect(await refusal({ languages: ["en", "fr"] })).toBe(NOT_OFFERED);
    expect(await refusal({ defaultLanguage: "fr" })).toBe(NOT_OFFERED);
    expect(await refusal({ languages: [] })).toBe("Offer at least one language");
    expect(await refusal({ languages: ["en", "xx"] })).toBe("Language must be one of en, de, es, fr, ru, uk");
    expect(await refusal({ welcomeMessageTranslations: { xx: "Hi" } })).toBe(
      'Welcome message translations has "xx", which is not a language the bot speaks (en, de, es, fr, ru, uk)',
    );
    expect(await refusal({ faqContentTranslations: { de: "x".repeat(4097) } })).toBe("FAQ translations (Deutsch) can be at most 4,096 characters");
    expect(await read()).toMatchObject(expected);

    // Back to English alone for the tests after this one.
    expect((await put({ ...SETTINGS, languages: ["en"], defaultLanguage: "en" })).status).toBe(200);
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
  const storedToken = async () => (await getBotSettings(server.deps.db, server.deps.secrets))?.botToken;

  it("refuses a token Telegram does not accept (401), on the botToken field, and saves nothing", async () => {
    telegram.refuseToken("111:refused-token");
    const response = await server.request("POST", "/api/bot-settings", { cookie, body: { ...SETTINGS, botToken: "111:refused-token" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Telegram did not accept this token" });
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
    expect((await response.json()).error).toBe("Telegram did not accept this token");
    expect(await storedToken()).toBe(SETTINGS.botToken);
  });

  it("saves with a warning when Telegram cannot be reached, or fails on its side (5xx)", async () => {
    const { id } = await read();
    telegram.outage("network");
    try {
      const response = await server.request("PUT", `/api/bot-settings/${id}`, { cookie, body: { ...SETTINGS, botToken: "222:while-down" } });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.botToken).toBe("••••••••down");
      expect(body.tokenCheck).toMatchObject({ outcome: "unreachable", botUsername: null });
      expect(body.tokenCheck.warning).toMatch(/^The token could not be checked: Telegram could not be reached .*The settings are saved/);
      expect(body.tokenCheck.warning).not.toContain("222:while-down");
    } finally {
      telegram.outage(null);
    }
    expect(await storedToken()).toBe("222:while-down");

    telegram.failNext("getMe", { error_code: 502, description: "Bad Gateway" });
    const response = await server.request("PUT", `/api/bot-settings/${id}`, { cookie, body: { ...SETTINGS, botToken: "333:telegram-failing" } });
    expect(response.status).toBe(200);
    expect((await response.json()).tokenCheck.warning).toContain("502: Bad Gateway");
    expect(await storedToken()).toBe("333:telegram-failing");
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

describe("bot settings: secrets are answered masked, and a mask sent back keeps the secret", () => {
  // Long enough that the mask shows their last 4 characters (contract/secret-mask.ts).
  const SECRETS = {
    botToken: "7000000031:AAHq7mZ2xK9pLr4TvB8nWc3Jwxyz",
    nowpaymentsApiKey: "NPK7R2Q9-ZX4M8TB-0001",
    nowpaymentsIpnSecret: "qH5vTw2PzL8rNc4JmX7b9876",
  };
  const MASKS = { botToken: "••••••••wxyz", nowpaymentsApiKey: "••••••••0001", nowpaymentsIpnSecret: "••••••••9876" };
  const FIELDS = ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const;
  const BASE = { ...SETTINGS, ...SECRETS, acceptedCurrencies: ["BTC"] };

  // The bot wired as in production, against the fake Telegram: a save rebuilds it from the stored settings.
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let cookie: string;
  let id: string;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithBot({ telegram });
    cookie = await shop.server.login();
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });
  const stored = () => getBotSettings(shop.server.deps.db, shop.server.deps.secrets);
  const get = async () => (await shop.server.request("GET", "/api/bot-settings", { cookie })).json();
  const put = (body: unknown) => shop.server.request("PUT", `/api/bot-settings/${id}`, { cookie, body });

  /**
   * No answer shows more than the last 4 characters of a secret: no 5 characters of one in a row
   * (digits only left out: ids and timestamps may hold them by chance).
   */
  function expectNoSecretIn(text: string) {
    for (const secret of Object.values(SECRETS)) {
      for (let at = 0; at + 5 <= secret.length; at++) {
        const piece = secret.slice(at, at + 5);
        if (!/^\d+$/.test(piece)) expect(text, secret).not.toContain(piece);
      }
    }
  }

  it("answers POST, GET and PUT with each secret as eight bullets and its last 4 characters", async () => {
    const created = await shop.server.request("POST", "/api/bot-settings", { cookie, body: BASE });
    expect(created.status).toBe(201);
    const createdText = await created.text();
    const body = JSON.parse(createdText);
    id = body.id;
    expectNoSecretIn(createdText);
    expect(body).toMatchObject({ ...MASKS, botName: SETTINGS.botName });

    const read = await shop.server.request("GET", "/api/bot-settings", { cookie });
    const readText = await read.text();
    expectNoSecretIn(readText);
    expect(JSON.parse(readText)).toMatchObject(MASKS);

    const updated = await put({ ...BASE, botName: "Masked Bot" });
    expect(updated.status).toBe(200);
    const updatedText = await updated.text();
    expectNoSecretIn(updatedText);
    expect(JSON.parse(updatedText)).toMatchObject({ ...MASKS, botName: "Masked Bot" });
    expect(await stored()).toMatchObject(SECRETS);
  });

  it("keeps the stored secrets when a save sends the masks back, without asking Telegram about the mask", async () => {
    const answer = await get();
    const saved = await put({ ...answer, welcomeMessage: "Welcome, masks!" });
    expect(saved.status).toBe(200);
    expect((await saved.json()).tokenCheck).toEqual({ outcome: "not-checked", botUsername: null, warning: null });
    expect(await stored()).toMatchObject({ ...SECRETS, welcomeMessage: "Welcome, masks!" });
    // POST (a second create updates the record) keeps them the same way.
    const again = await shop.server.request("POST", "/api/bot-settings", { cookie, body: { ...(await get()), botName: "Posted" } });
    expect(again.status).toBe(201);
    expect(await stored()).toMatchObject({ ...SECRETS, botName: "Posted" });
  });

  it("the rebuilt bot still talks to Telegram with the real token", async () => {
    const saved = await put({ ...(await get()), welcomeMessage: "Hello from the real token" });
    expect(saved.status).toBe(200);
    await shop.bot.started();
    // postUpdate sends the webhook secret derived from the stored token: the bot's must match.
    const response = await shop.postUpdate(textUpdate(telegramUser(7031), "/start"));
    expect(response.status).toBe(200);
    expect(telegram.callsOf("sendMessage").at(-1)).toMatchObject({
      token: SECRETS.botToken,
      payload: { chat_id: 7031, text: "Hello from the real token" },
    });
    expect(telegram.calls.filter((call) => call.token.includes("•"))).toEqual([]);
  });

  it("the IPN is still verified with the real IPN secret", async () => {
    await put(await get());
    const ipn = { payment_id: "5550001", payment_status: "finished", order_id: "00000000-0000-4000-8000-000000000031" };
    // Signature accepted: the order is what is missing.
    const real = await postIpn(shop.server.baseUrl, ipn, { secret: SECRETS.nowpaymentsIpnSecret });
    expect(real.status).toBe(404);
    expect((await real.json()).error).toMatch(/^No order matches order_id/);
    const signedWithMask = await postIpn(shop.server.baseUrl, ipn, { secret: MASKS.nowpaymentsIpnSecret });
    expect(signedWithMask.status).toBe(401);
  });

  it("refuses a masked-looking value that is not the mask of the stored secret (400 on its field), and keeps the secret", async () => {
    await shop.bot.started();
    const callsBefore = telegram.calls.length;
    const hostile = [
      "••••••••abcd", // another secret's mask
      "••••••••WXYZ", // case matters
      "••••••••xyz",
      "•••••••wxyz",
      "•••••••••wxyz",
      "••••••••",
      "••••••••wxyz0",
      "x••••••••wxyz",
      "7000000031:AAE-masking-token-•xyz",
      "•",
    ];
    for (const field of FIELDS) {
      const others = FIELDS.filter((other) => other !== field).map((other) => MASKS[other]);
      for (const value of [...hostile, ...others]) {
        const response = await put({ ...(await get()), [field]: value });
        expect(response.status, `${field}: ${value}`).toBe(400);
        expect((await response.json()).error).toBe(maskRefused(field));
      }
    }
    expect(await stored()).toMatchObject(SECRETS);
    // Refused before Telegram is asked anything.
    expect(telegram.calls.length).toBe(callsBefore);
  });

  it("refuses any text holding a bullet that is not the stored secret's mask (generated)", async () => {
    const current = await get();
    const bullet = fc.constantFrom("•", "••••••••");
    const text = fc.string({ maxLength: 12 }).filter((t) => t.trim() === t && !t.includes("\0"));
    const masked = fc.tuple(text, bullet, text).map(([before, dots, after]) => `${before}${dots}${after}`.trim());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIELDS), masked, async (field, value) => {
        fc.pre(value !== MASKS[field] && value.includes("•"));
        const response = await put({ ...current, [field]: value });
        expect(response.status).toBe(400);
        expect((await response.json()).error).toBe(maskRefused(field));
      }),
      { numRuns: 40, seed: 31 },
    );
    expect(await stored()).toMatchObject(SECRETS);
  });

  it("keeps the secrets through parallel saves that send the masks back", async () => {
    const answer = await get();
    const saves = await Promise.all(Array.from({ length: 8 }, (_, n) => put({ ...answer, botName: `Parallel ${n}` })));
    expect(saves.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(await stored()).toMatchObject(SECRETS);
  });

  it("replaces a secret with a new value (the new token checked with Telegram), and clears an optional one when empty", async () => {
    const getMeBefore = telegram.callsOf("getMe").length;
    const newToken = "7000000031:AAE-replaced-token-abcd";
    const replaced = await put({ ...(await get()), botToken: newToken, nowpaymentsIpnSecret: "new-ipn-secret-5678" });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ botToken: "••••••••abcd", nowpaymentsIpnSecret: "••••••••5678", tokenCheck: { outcome: "accepted" } });
    expect(telegram.callsOf("getMe").slice(getMeBefore)).toContainEqual(expect.objectContaining({ token: newToken }));
    expect(await stored()).toMatchObject({ botToken: newToken, nowpaymentsApiKey: SECRETS.nowpaymentsApiKey, nowpaymentsIpnSecret: "new-ipn-secret-5678" });

    const cleared = await put({ ...(await get()), nowpaymentsApiKey: "", nowpaymentsIpnSecret: null });
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toMatchObject({ botToken: "••••••••abcd", nowpaymentsApiKey: null, nowpaymentsIpnSecret: null });
    expect(await stored()).toMatchObject({ botToken: newToken, nowpaymentsApiKey: null, nowpaymentsIpnSecret: null });
    // The token is required, masked or not: empty is refused as before.
    const empty = await put({ ...(await get()), botToken: "" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe("Bot Token is required");
    // Back as the other tests expect.
    expect((await put(BASE)).status).toBe(200);
  });

  it("shows no characters of a secret shorter than 12, and still keeps it when its mask comes back", async () => {
    const short = { nowpaymentsApiKey: "abc", nowpaymentsIpnSecret: "11-chars-ab" };
    expect((await put({ ...(await get()), ...short })).status).toBe(200);
    const answer = await get();
    expect(answer).toMatchObject({ nowpaymentsApiKey: "••••••••", nowpaymentsIpnSecret: "••••••••" });
    expect((await put({ ...answer, botName: "Short secrets" })).status).toBe(200);
    expect(await stored()).toMatchObject({ ...short, botName: "Short secrets" });
    const twelve = "12-chars-abc";
    expect((await put({ ...(await get()), nowpaymentsIpnSecret: twelve })).status).toBe(200);
    expect((await get()).nowpaymentsIpnSecret).toBe("••••••••-abc");
    expect((await put(BASE)).status).toBe(200);
  });
});

describe("bot settings: what each role may change (issue 25)", () => {
  // contract/team.ts: Bot Settings is "bot" (owner, manager); its token is "bot.token" and the
  // NOWPayments keys are "payments", both the owner's alone.
  const SECRETS = {
    botToken: "7000000042:AAHq7mZ2xK9pLr4TvB8nWc3Jtokn",
    nowpaymentsApiKey: "NPK7R2Q9-ZX4M8TB-0042",
    nowpaymentsIpnSecret: "qH5vTw2PzL8rNc4JmX7b4242",
  };
  const BASE = { ...SETTINGS, ...SECRETS, acceptedCurrencies: ["BTC"] };
  let telegram: FakeTelegram;
  let server: TestServer;
  let owner: string;
  let manager: string;
  let id: string;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startTestServer({ config: { telegramApiRoot: telegram.apiRoot }, deps: { bot: idleBot() } });
    owner = await server.login();
    manager = (await server.loginAs("manager")).cookie;
    const created = await server.request("POST", "/api/bot-settings", { cookie: owner, body: BASE });
    expect(created.status).toBe(201);
    id = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await server?.close();
    await telegram?.close();
  });
  const stored = () => getBotSettings(server.deps.db, server.deps.secrets);
  const form = async (cookie: string) => (await (await server.request("GET", "/api/bot-settings", { cookie })).json()) as Record<string, unknown>;
  const put = (cookie: string, body: unknown) => server.request("PUT", `/api/bot-settings/${id}`, { cookie, body });
  const refusal = (permission: string) => ({ error: `Your role (Manager) does not have the "${permission}" permission.` });

  it("lets a manager save the form with the secrets' masks as they came, and keeps the secrets", async () => {
    const answer = await put(manager, { ...(await form(manager)), welcomeMessage: "Hello from the manager" });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(await stored()).toMatchObject({ ...SECRETS, welcomeMessage: "Hello from the manager" });
  });

  it("refuses a manager's new token (bot.token) before Telegram is asked, and changes nothing", async () => {
    const before = await databaseChecksum(server.database.db);
    const getMeBefore = telegram.callsOf("getMe").length;
    const answer = await put(manager, { ...(await form(manager)), botToken: "7000000043:AAHq7mZ2xK9pLr4TvB8nWc3Jnewt" });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual(refusal("bot.token"));
    expect(telegram.callsOf("getMe").length).toBe(getMeBefore);
    const created = await server.request("POST", "/api/bot-settings", { cookie: manager, body: { ...BASE, botToken: "7000000044:AAHq7mZ2xK9pLr4TvB8nWc3Jnewu" } });
    expect(created.status).toBe(403);
    expect(await created.json()).toEqual(refusal("bot.token"));
    expect(await databaseChecksum(server.database.db)).toBe(before);
  });

  it("refuses exactly the manager's saves that change a secret, whatever else the form holds", async () => {
    // Each secret kept as its mask, typed again in full (the same: no change), replaced, or cleared (the keys).
    const choice = (field: keyof typeof SECRETS, options: ("mask" | "same" | "new" | "cleared")[]) =>
      fc.record({ field: fc.constant(field), how: fc.constantFrom(...options) });
    await fc.assert(
      fc.asyncProperty(
        choice("botToken", ["mask", "same", "new"]),
        choice("nowpaymentsApiKey", ["mask", "same", "new", "cleared"]),
        choice("nowpaymentsIpnSecret", ["mask", "same", "new", "cleared"]),
        fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ""),
        async (token, apiKey, ipnSecret, welcomeMessage) => {
          const masked = await form(manager);
          const body: Record<string, unknown> = { ...masked, welcomeMessage };
          for (const { field, how } of [token, apiKey, ipnSecret]) {
            body[field] = { mask: masked[field], same: SECRETS[field], new: `${SECRETS[field]}-changed`, cleared: null }[how];
          }
          const before = await databaseChecksum(server.database.db);
          const answer = await put(manager, body);
          const expected =
            token.how === "new" ? refusal("bot.token") : [apiKey, ipnSecret].some(({ how }) => how === "new" || how === "cleared") ? refusal("payments") : null;
          if (expected) {
            expect([answer.status, await answer.json()]).toEqual([403, expected]);
            expect(await databaseChecksum(server.database.db)).toBe(before);
          } else {
            expect(answer.status, await answer.clone().text()).toBe(200);
            expect(await stored()).toMatchObject({ ...SECRETS, welcomeMessage: welcomeMessage.trim() });
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("asks an owner with two-factor on for a fresh code to change the token or a key, not to change the welcome", async () => {
    const { db } = server.database;
    await db.update(accounts).set({ totpEnabled: true }).where(eq(accounts.role, "owner"));
    try {
      const welcome = await put(owner, { ...(await form(owner)), welcomeMessage: "Owner's welcome" });
      expect(welcome.status).toBe(200);
      for (const change of [{ botToken: "7000000045:AAHq7mZ2xK9pLr4TvB8nWc3Jnewv" }, { nowpaymentsIpnSecret: "another-ipn-secret-4545" }]) {
        const stale = await put(owner, { ...(await form(owner)), ...change });
        expect(stale.status).toBe(403);
        expect(await stale.json()).toEqual({ error: "Enter a fresh two-factor code to do this.", stepUpRequired: true });
      }
      expect(await stored()).toMatchObject(SECRETS);
      // A code proved a minute ago (sign-in or POST /api/auth/step-up) is fresh.
      const ownerId = (await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.role, "owner")))[0]!.id;
      await db.update(sessions).set({ totpAt: new Date(Date.now() - 60_000) }).where(eq(sessions.accountId, ownerId));
      const fresh = await put(owner, { ...(await form(owner)), nowpaymentsIpnSecret: "another-ipn-secret-4545" });
      expect(fresh.status, await fresh.clone().text()).toBe(200);
      expect(await stored()).toMatchObject({ nowpaymentsIpnSecret: "another-ipn-secret-4545" });
    } finally {
      await db.update(accounts).set({ totpEnabled: false }).where(eq(accounts.role, "owner"));
    }
  });

  it("refuses Bot Settings to the roles without \"bot\"", async () => {
    for (const role of ["packer", "support"] as const) {
      const { cookie } = await server.loginAs(role);
      const answer = await server.request("GET", "/api/bot-settings", { cookie });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ error: `Your role (${role === "packer" ? "Packer" : "Support"}) does not have the "bot" permission.` });
    }
  });
});
