import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBotSettings, DEFAULT_WELCOME_MESSAGE } from "../shop/settings";
import { silentLog, startShopWithBot, type ShopWithBot } from "../../test-support/bot-harness";
import { findButton, startFakeTelegram, telegramUser, textUpdate, type Button, type FakeTelegram, type MenuButton } from "../../test-support/fake-telegram";
import { startTestServer } from "../../test-support/app";
import { createBotRunner, webhookSecretFor } from "./runner";
import { storefrontUrlFor } from "./ui";
import { HELP_TEXT, SHOP_COMMANDS } from "./features/commands";
import { LANGUAGES, type Language } from "../../contract";

const TOKEN = "123456:webhook-test-token";
const STOREFRONT_BUTTON = { type: "web_app", text: "🛍 Open shop", web_app: { url: "https://shop.example/shop/" } } as const;

/** Sets the bot's menu button straight at Telegram, as an earlier run or the owner with BotFather did. */
async function setMenuButtonBeforehand(telegram: FakeTelegram, token: string, menuButton: MenuButton) {
  const response = await fetch(`${telegram.apiRoot}/bot${token}/setChatMenuButton`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ menu_button: menuButton }),
  });
  expect(response.status).toBe(200);
}

describe("Telegram webhook", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithBot({ telegram });
    const cookie = await shop.server.login();
    const saved = await shop.server.request("POST", "/api/bot-settings", {
      cookie,
      body: {
        botName: "Corner Shop",
        botToken: TOKEN,
        acceptedCurrencies: ["BTC", "LTC"],
        welcomeMessage: "Hello and welcome to the Corner Shop!",
        faqContent: "We ship within 2 days.\nPayments in BTC or LTC.",
      },
    });
    expect(saved.status).toBeLessThan(300);
    await shop.bot.started();
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  it("sets the webhook with a secret token and only the update types the bot handles, once settings are saved", async () => {
    const call = telegram.callsOf("setWebhook").find((c) => c.token === TOKEN)!;
    expect(call.payload).toMatchObject({
      url: "https://shop.example/api/telegram/webhook",
      secret_token: webhookSecretFor(TOKEN),
      allowed_updates: ["message", "callback_query"],
    });
    expect(shop.bot.status()).toMatchObject({ mode: "webhook", botUsername: "test_shop_bot", error: null });
  });

  it("publishes the shop's commands as Telegram's command menu, the same list /help answers", async () => {
    const call = telegram.callsOf("setMyCommands").find((c) => c.token === TOKEN && c.payload.language_code === undefined)!;
    const menu = call.payload.commands as { command: string; description: string }[];
    expect(menu.map((c) => c.command)).toEqual(SHOP_COMMANDS.map((c) => c.command));
    for (const { command, description } of menu) {
      expect(HELP_TEXT.toLowerCase()).toContain(`/${command}: ${description.toLowerCase()}`);
    }
  });

  /** The language codes of the calls of `method` with this test's token since call number `from`, sorted (null: no language_code). */
  const languageCodesOf = (method: string, from = 0) =>
    telegram.calls
      .slice(from)
      .filter((c) => c.method === method && c.token === TOKEN)
      .map((c) => (c.payload.language_code as string | undefined) ?? null)
      .sort();
  const SHIPPED_BUT_ENGLISH = LANGUAGES.filter((language) => language !== "en");

  it("publishes the command menu only in the languages the shop offers, and deletes the other shipped languages' menus", async () => {
    // A shop saved without languages offers English alone.
    expect(languageCodesOf("setMyCommands")).toEqual(["en", null]);
    expect(languageCodesOf("deleteMyCommands")).toEqual([...SHIPPED_BUT_ENGLISH].sort());
    expect(telegram.commandMenu(TOKEN).map((c) => c.command)).toEqual(SHOP_COMMANDS.map((c) => c.command));
    expect(telegram.commandMenu(TOKEN, "en")).toEqual(telegram.commandMenu(TOKEN));
    for (const language of SHIPPED_BUT_ENGLISH) expect(telegram.commandMenu(TOKEN, language)).toEqual([]);
  });

  it("publishes German's menu once the owner offers German, and deletes it again when the languages are narrowed", async () => {
    const cookie = await shop.server.login();
    const current = await (await shop.server.request("GET", "/api/bot-settings", { cookie })).json();
    const save = async (languages: Language[], defaultLanguage: Language) => {
      const from = telegram.calls.length;
      // The masked token sent back keeps the stored one: the same bot, rebuilt by the save (settings-watch.ts).
      const saved = await shop.server.request("PUT", `/api/bot-settings/${current.id}`, { cookie, body: { ...current, languages, defaultLanguage } });
      expect(saved.status).toBe(200);
      await shop.bot.started();
      return from;
    };

    const widened = await save(["en", "de"], "de");
    expect(languageCodesOf("setMyCommands", widened)).toEqual(["de", "en", null]);
    expect(languageCodesOf("deleteMyCommands", widened)).toEqual(["es", "fr", "ru", "uk"]);
    const german = telegram.commandMenu(TOKEN, "de");
    expect(german.map((c) => c.command)).toEqual(SHOP_COMMANDS.map((c) => c.command));
    expect(german).toContainEqual({ command: "language", description: "Die Sprache wählen, in der ich schreibe" });
    expect(german).toContainEqual({ command: "help", description: "Diese Liste" });
    // The menu for every other app language is the default language's.
    expect(telegram.commandMenu(TOKEN)).toEqual(german);
    expect(telegram.commandMenu(TOKEN, "en")).toContainEqual({ command: "help", description: "This list" });

    const narrowed = await save(["en"], "en");
    expect(languageCodesOf("setMyCommands", narrowed)).toEqual(["en", null]);
    expect(languageCodesOf("deleteMyCommands", narrowed)).toEqual([...SHIPPED_BUT_ENGLISH].sort());
    expect(telegram.commandMenu(TOKEN, "de")).toEqual([]);
    expect(telegram.commandMenu(TOKEN)).toContainEqual({ command: "help", description: "This list" });
  });

  it("keeps the bot and the other menus when Telegram refuses one menu's call, and logs which", async () => {
    const warnings: { details: unknown; message: string }[] = [];
    const log = { ...silentLog, warn: (details: unknown, message?: string) => void warnings.push({ details, message: message ?? "" }) };
    const from = telegram.calls.length;
    telegram.failNext("setMyCommands", { error_code: 400, description: "Bad Request: BOT_COMMAND_INVALID" });
    telegram.failNext("deleteMyCommands", { error_code: 400, description: "Bad Request: something went wrong" });
    // A second server instance starting publishes the same menus (the calls are idempotent).
    const instance = createBotRunner(shop.server.deps, { log, settingsCheckMs: 60 * 60 * 1000 });
    try {
      await instance.start();
      await instance.started();
      expect(instance.status()).toMatchObject({ mode: "webhook", error: null });
      expect(telegram.calls.slice(from).filter((c) => c.method === "setWebhook" && c.token === TOKEN)).toHaveLength(1);
      // Every language's call was made, the refused ones included, and none was tried again.
      expect(languageCodesOf("setMyCommands", from)).toEqual(["en", null]);
      expect(languageCodesOf("deleteMyCommands", from)).toEqual([...SHIPPED_BUT_ENGLISH].sort());
      expect(warnings.map((w) => w.message).sort()).toEqual([
        "Telegram bot: could not delete the command menu",
        "Telegram bot: could not publish the command menu",
      ]);
      const refusedDelete = warnings.find((w) => w.message.includes("delete"))!.details as { languageCode: string; err: string };
      expect(SHIPPED_BUT_ENGLISH).toContain(refusedDelete.languageCode);
      expect(refusedDelete.err).toMatch(/something went wrong/);
    } finally {
      await instance.stop();
    }
  });

  it("sets the menu button of every chat to open the storefront, labelled in the shop's default language", async () => {
    const call = telegram.callsOf("setChatMenuButton").find((c) => c.token === TOKEN)!;
    // No chat_id: the default button, which every private chat with the bot shows.
    expect(call.payload).toEqual({ menu_button: STOREFRONT_BUTTON });
    expect(telegram.menuButton(TOKEN)).toEqual(STOREFRONT_BUTTON);
  });

  it("keeps the bot running when Telegram refuses the menu button, and logs why", async () => {
    const warnings: string[] = [];
    const log = { ...silentLog, warn: (_details: unknown, message?: string) => void warnings.push(message ?? "") };
    const webhooksBefore = telegram.callsOf("setWebhook").length;
    telegram.failNext("setChatMenuButton", { error_code: 400, description: "Bad Request: BUTTON_URL_INVALID" });
    // A second server instance starting: the first one's bot is left as it is.
    const instance = createBotRunner(shop.server.deps, { log, settingsCheckMs: 60 * 60 * 1000 });
    try {
      await instance.start();
      await instance.started();
      expect(instance.status()).toMatchObject({ mode: "webhook", error: null });
      expect(telegram.callsOf("setWebhook")).toHaveLength(webhooksBefore + 1);
      expect(warnings).toEqual(["Telegram bot: could not set the menu button"]);
    } finally {
      await instance.stop();
    }
  });

  it("refuses an update with a wrong or missing secret token, and sends nothing", async () => {
    const before = telegram.calls.length;
    const user = telegramUser(4242);
    const wrong = await shop.postUpdate(textUpdate(user, "/start"), "not-the-secret");
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toMatch(/secret token/i);
    const missing = await shop.postUpdate(textUpdate(user, "/start"), null);
    expect(missing.status).toBe(401);
    const oldToken = await shop.postUpdate(textUpdate(user, "/start"), webhookSecretFor("123456:an-old-token"));
    expect(oldToken.status).toBe(401);
    expect(telegram.calls.length).toBe(before);
  });

  it("answers /start with the welcome message from settings and the main menu", async () => {
    const customer = shop.customer(5001, "alice");
    await customer.send("/start");
    expect(customer.text()).toBe("Hello and welcome to the Corner Shop!");
    expect(customer.buttons()).toEqual(["🛍 Open shop", "Browse Products", "My Cart", "My Orders", "Contact Support", "About"]);
    // A Mini App button: Telegram opens the storefront in the chat, the bot gets no press.
    expect(findButton(customer.screen(), "🛍 Open shop")).toEqual({ text: "🛍 Open shop", web_app: { url: "https://shop.example/shop/" } });
  });

  it("shows the FAQ under About, with a way back", async () => {
    const customer = shop.customer(5002);
    await customer.send("/start");
    await customer.press("About");
    expect(customer.text()).toBe("About\n\nWe ship within 2 days.\nPayments in BTC or LTC.");
    await customer.press("« Main menu");
    expect(customer.buttons()).toContain("Browse Products");
  });

  it("brings the main menu back for an unknown message or a stale button", async () => {
    const customer = shop.customer(5003);
    await customer.send("what is this?");
    expect(customer.text()).toMatch(/didn't understand/);
    expect(customer.buttons()).toContain("Browse Products");
    const from = telegram.calls.length;
    await customer.pressData("prod:00000000-0000-4000-8000-000000000000:1");
    expect(customer.notices(from).join(" ")).toMatch(/no longer available/);
    await customer.pressData("some-old-button");
    expect(customer.notices(from).join(" ")).toMatch(/no longer valid/);
    expect(customer.buttons()).toContain("My Orders");
  });

  it("runs an update for a logged-in admin (Bot Preview) and answers what the bot did, without sending it", async () => {
    const cookie = await shop.server.login();
    const before = telegram.calls.length;
    const response = await shop.server.request("POST", "/api/telegram/webhook", {
      cookie,
      body: textUpdate(telegramUser(6001, "previewer"), "/start"),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.ok).toBe(true);
    expect(body.replies).toHaveLength(1);
    expect(body.replies[0]).toMatchObject({ method: "sendMessage", chat_id: 6001, text: "Hello and welcome to the Corner Shop!" });
    expect(body.replies[0].reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text)).toContain("Browse Products");
    expect(telegram.calls.length).toBe(before);

    // Typed by hand, without the command entity Telegram adds: still a /start.
    const typed = textUpdate(telegramUser(6002), "/start") as { message: Record<string, unknown> };
    delete typed.message.entities;
    const typedAnswer = await shop.server.request("POST", "/api/telegram/webhook", { cookie, body: typed });
    expect((await typedAnswer.json()).replies[0].text).toBe("Hello and welcome to the Corner Shop!");
    // The tester's made-up update ids are not Telegram's: the same one again runs again.
    const again = await shop.server.request("POST", "/api/telegram/webhook", { cookie, body: typed });
    expect((await again.json()).replies[0].text).toBe("Hello and welcome to the Corner Shop!");
  });

  it("rebuilds the bot when the settings are saved with a new token", async () => {
    const cookie = await shop.server.login();
    const current = await (await shop.server.request("GET", "/api/bot-settings", { cookie })).json();
    const newToken = "123456:a-new-token";
    const saved = await shop.server.request("PUT", `/api/bot-settings/${current.id}`, {
      cookie,
      body: { ...current, botToken: newToken, welcomeMessage: "Welcome back!" },
    });
    expect(saved.status).toBe(200);
    await shop.bot.started();
    expect(telegram.callsOf("setWebhook").at(-1)).toMatchObject({ token: newToken, payload: { secret_token: webhookSecretFor(newToken) } });

    const user = telegramUser(5009);
    expect((await shop.postUpdate(textUpdate(user, "/start"), webhookSecretFor(TOKEN))).status).toBe(401);
    expect((await shop.postUpdate(textUpdate(user, "/start"), webhookSecretFor(newToken))).status).toBe(200);
    const reply = telegram.callsOf("sendMessage").at(-1)!;
    expect(reply).toMatchObject({ token: newToken, payload: { chat_id: 5009, text: "Welcome back!" } });

    // Back as it was for the other tests (the answer's token is masked: it is typed again).
    const back = await shop.server.request("PUT", `/api/bot-settings/${current.id}`, { cookie, body: { ...current, botToken: TOKEN } });
    expect(back.status).toBe(200);
    await shop.bot.started();
  });

  it("answers the tester 400 for an update that is not a JSON object", async () => {
    const cookie = await shop.server.login();
    const notObject = await shop.server.request("POST", "/api/telegram/webhook", { cookie, body: [1, 2] });
    expect(notObject.status).toBe(400);
    expect((await notObject.json()).error).toMatch(/JSON object/);
    const broken = await fetch(shop.server.baseUrl + "/api/telegram/webhook", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: "{ not json",
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toMatch(/JSON/);
  });
});

describe("Telegram webhook without bot settings", () => {
  it("keeps the bot off, the server up, and tells the tester to configure the bot first", async () => {
    const telegram = await startFakeTelegram();
    const shop = await startShopWithBot({ telegram });
    try {
      expect(shop.bot.status()).toMatchObject({ mode: "off" });
      expect((await shop.server.request("GET", "/api/health")).status).toBe(200);
      const refused = await shop.postUpdate(textUpdate(telegramUser(1), "/start"), webhookSecretFor(TOKEN));
      expect(refused.status).toBe(401);
      const cookie = await shop.server.login();
      const preview = await shop.server.request("POST", "/api/telegram/webhook", {
        cookie,
        body: textUpdate(telegramUser(1), "/start"),
      });
      expect(preview.status).toBe(409);
      expect(await preview.json()).toEqual({ error: "No bot settings found. Please configure your bot settings first." });
      expect(telegram.calls).toEqual([]);
    } finally {
      await shop.close();
      await telegram.close();
    }
  });

  it("uses the default welcome text of docs/product.md §2 in the preview when settings have none", async () => {
    // The settings form requires a welcome message; an older record may still have an empty one.
    const server = await startTestServer();
    try {
      await createBotSettings(server.deps.db, server.deps.secrets, {
        botName: "Shop",
        botToken: TOKEN,
        acceptedCurrencies: ["BTC"],
        welcomeMessage: " ",
        faqContent: "FAQ",
        nowpaymentsApiKey: null,
        nowpaymentsIpnSecret: null,
        webhookUrl: null,
      });
      const cookie = await server.login();
      const response = await server.request("POST", "/api/telegram/webhook", {
        cookie,
        body: textUpdate(telegramUser(7), "/start"),
      });
      expect((await response.json()).replies[0].text).toBe(DEFAULT_WELCOME_MESSAGE);
    } finally {
      await server.close();
    }
  });
});

describe("the storefront's address", () => {
  it("is PUBLIC_URL + /shop/ for an https PUBLIC_URL only: Telegram opens no other Mini App", () => {
    expect(storefrontUrlFor("https://shop.example")).toBe("https://shop.example/shop/");
    expect(storefrontUrlFor("http://shop.example")).toBeNull();
    expect(storefrontUrlFor("http://localhost:3000")).toBeNull();
    expect(storefrontUrlFor(undefined)).toBeNull();
  });
});

describe("long polling, when there is no PUBLIC_URL", () => {
  it("takes updates from getUpdates and answers them, and offers no storefront", async () => {
    const telegram = await startFakeTelegram();
    const shop = await startShopWithBot({ telegram, config: { publicUrl: undefined } });
    try {
      // A storefront button an earlier run by webhook left (the same token, now on a laptop): it would open a shop not running here.
      await setMenuButtonBeforehand(telegram, TOKEN, STOREFRONT_BUTTON);
      await createBotSettings(shop.server.deps.db, shop.server.deps.secrets, {
        botName: "Shop",
        botToken: TOKEN,
        acceptedCurrencies: ["BTC"],
        welcomeMessage: "Hello from polling!",
        faqContent: "FAQ",
        nowpaymentsApiKey: null,
        nowpaymentsIpnSecret: null,
        webhookUrl: null,
      });
      await shop.bot.reload();
      await shop.bot.started();
      expect(shop.bot.status()).toMatchObject({ mode: "polling", botUsername: "test_shop_bot" });
      expect(telegram.callsOf("setWebhook")).toEqual([]);
      expect(telegram.callsOf("deleteWebhook")).toHaveLength(1);

      const start = textUpdate(telegramUser(3001), "/start");
      telegram.pushUpdate(start);
      const reply = await telegram.waitForCall((c) => c.method === "sendMessage" && c.payload.chat_id === 3001);
      expect(reply.payload.text).toBe("Hello from polling!");
      const replyButtons = (reply.payload.reply_markup as { inline_keyboard: Button[][] }).inline_keyboard.flat();
      expect(replyButtons.map((b) => b.text)).toEqual(["Browse Products", "My Cart", "My Orders", "Contact Support", "About"]);
      expect(replyButtons.filter((b) => b.web_app)).toEqual([]);
      expect(telegram.menuButton(TOKEN)).toEqual({ type: "commands" });
      expect(telegram.callsOf("getUpdates")[0]!.payload.allowed_updates).toEqual(["message", "callback_query"]);

      // The owner's own Mini App, set with BotFather, is not the bot's to take back.
      const ownersApp: MenuButton = { type: "web_app", text: "Our app", web_app: { url: "https://owner.example/app" } };
      await setMenuButtonBeforehand(telegram, TOKEN, ownersApp);
      const menuButtonsSet = telegram.callsOf("setChatMenuButton").length;

      // After a restart Telegram may hand out an update again: it is skipped.
      await shop.bot.reload();
      await shop.bot.started();
      expect(telegram.menuButton(TOKEN)).toEqual(ownersApp);
      expect(telegram.callsOf("setChatMenuButton")).toHaveLength(menuButtonsSet);
      const from = telegram.calls.length;
      telegram.pushUpdate(start);
      telegram.pushUpdate(textUpdate(telegramUser(3001), "/start"));
      await telegram.waitForCall((c) => c.method === "sendMessage" && c.payload.chat_id === 3001, { from });
      const replies = telegram.calls.filter((c) => c.method === "sendMessage" && c.payload.chat_id === 3001);
      expect(replies).toHaveLength(2);
    } finally {
      await shop.close();
      await telegram.close();
    }
    expect(shop.bot.status()).toMatchObject({ mode: "off" });
  });
});
