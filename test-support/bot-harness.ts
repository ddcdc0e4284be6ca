import type { Logger } from "pino";
import { expect } from "vitest";
import type { Config } from "../server/config";
import type { Database } from "../server/db/client";
import type { AppDeps } from "../server/http/deps";
import { createTelegramNotifier } from "../server/telegram/notifier";
import { recordMessageToTestCustomer } from "../server/shop/simulator";
import { createBotRunner, webhookSecretFor, type BotRuntime } from "../server/telegram/runner";
import { createBotSettings, getBotSettings } from "../server/shop/settings";
import { startTestServer, type TestServer } from "./app";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "./payments-setup";
import {
  callbackUpdate,
  findButton,
  telegramUser,
  textUpdate,
  type FakeMessage,
  type FakeTelegram,
  type TelegramUser,
} from "./fake-telegram";

// The shop with its bot wired as in production (server/main.ts), Telegram being the fake one:
// updates are posted to /api/telegram/webhook as Telegram would, and what the bot sends lands in
// the fake. `customer()` plays a person tapping through the bot.

export const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

export type ShopWithBot = {
  server: TestServer;
  bot: BotRuntime;
  telegram: FakeTelegram;
  /**
   * Posts an update to the webhook with Telegram's secret header (or `secret` when given). The
   * webhook answers once the update is stored; by default this then waits until the bot handled
   * it (the inbox is drained), so its answers are in the fake Telegram. `waitForBot: false` does not.
   */
  postUpdate(update: unknown, secret?: string | null, options?: { waitForBot?: boolean }): Promise<Response>;
  customer(id: number, username?: string): Customer;
  close(): Promise<void>;
};

export async function startShopWithBot(options: {
  telegram: FakeTelegram;
  database?: Database;
  config?: Partial<Config>;
  deps?: Partial<AppDeps>;
  /** The server's and the bot's logger (silent by default), for tests of what gets logged. */
  logger?: Logger;
}): Promise<ShopWithBot> {
  const { telegram } = options;
  const server = await startTestServer({
    database: options.database,
    config: { telegramApiRoot: telegram.apiRoot, publicUrl: "https://shop.example", ...options.config },
    deps: options.deps,
    app: options.logger ? { loggerInstance: options.logger } : undefined,
  });
  const deps = server.deps;
  if (!options.deps?.notifier) {
    deps.notifier = createTelegramNotifier({
      apiRoot: telegram.apiRoot,
      getToken: async () => (await getBotSettings(deps.db, deps.secrets))?.botToken,
      toTestCustomer: (text) => recordMessageToTestCustomer(deps.db, text, deps.now()),
    });
  }
  // Wired as server/services.ts does, on the test server's database and fakes. (The server reads
  // deps.bot per request, so handing it over after the server started is safe here.)
  // Saves through the API rebuild the bot at once (settingsSaved); the periodic look for another
  // instance's save would rebuild it at a moment of its own, in the middle of a test that wrote the
  // settings itself and reloaded: tests that need it call bot.settingsSaved() or reload().
  const runtime = createBotRunner(deps, { log: options.logger ?? silentLog, settingsCheckMs: 60 * 60 * 1000 });
  deps.bot = runtime;
  await runtime.start();

  const shop: ShopWithBot = {
    server,
    bot: runtime,
    telegram,
    async postUpdate(update, secret, { waitForBot = true } = {}) {
      const settings = await getBotSettings(deps.db, deps.secrets);
      const header = secret === undefined ? (settings ? webhookSecretFor(settings.botToken) : null) : secret;
      const response = await server.request("POST", "/api/telegram/webhook", {
        body: update,
        headers: header === null ? {} : { "x-telegram-bot-api-secret-token": header },
      });
      if (waitForBot && response.ok) await runtime.drained();
      return response;
    },
    customer: (id, username) => new Customer(shop, telegramUser(id, username)),
    async close() {
      await runtime.stop();
      await server.close();
    },
  };
  return shop;
}

/**
 * The shop with its bot already set up from the database's side (as an owner's earlier save left
 * it) and started: for the bot's tests that need settings but not the settings screen.
 */
export async function startShopWithConfiguredBot(options: {
  telegram: FakeTelegram;
  botToken: string;
  welcomeMessage?: string;
  faqContent?: string;
  withPayments?: boolean;
}): Promise<ShopWithBot> {
  const shop = await startShopWithBot({ telegram: options.telegram });
  const { deps } = shop.server;
  await createBotSettings(deps.db, deps.secrets, {
    botName: "Shop",
    botToken: options.botToken,
    acceptedCurrencies: ["BTC"],
    welcomeMessage: options.welcomeMessage ?? "Welcome!",
    faqContent: options.faqContent ?? "FAQ",
    nowpaymentsApiKey: options.withPayments === false ? null : TEST_NOWPAYMENTS_API_KEY,
    nowpaymentsIpnSecret: options.withPayments === false ? null : TEST_IPN_SECRET,
    webhookUrl: null,
  });
  await shop.bot.reload();
  await shop.bot.started();
  return shop;
}

export class Customer {
  constructor(
    private readonly shop: ShopWithBot,
    readonly user: TelegramUser,
  ) {}

  get id(): string {
    return String(this.user.id);
  }

  /** The message the customer sees last (sent or edited most recently). */
  screen(): FakeMessage {
    const screen = this.shop.telegram.screen(this.user.id);
    if (!screen) throw new Error("The bot has not sent this customer anything yet");
    return screen;
  }

  /** The text (or photo caption) on the last screen. */
  text(): string {
    const screen = this.screen();
    return screen.text ?? screen.caption ?? "";
  }

  buttons(): string[] {
    return (this.screen().reply_markup?.inline_keyboard ?? []).flat().map((b) => b.text);
  }

  async send(text: string): Promise<void> {
    const response = await this.shop.postUpdate(textUpdate(this.user, text));
    expect(response.status).toBe(200);
  }

  /** Taps a button on the last screen; `waitForBot: false` returns once Telegram got its answer, before the bot acted. */
  async press(label: string | RegExp, options: { waitForBot?: boolean } = {}): Promise<void> {
    const screen = this.screen();
    // Telegram refuses callback data over 64 bytes (the whole message would not be sent).
    for (const b of screen.reply_markup?.inline_keyboard?.flat() ?? []) {
      expect(Buffer.byteLength(b.callback_data ?? "", "utf8")).toBeLessThanOrEqual(64);
    }
    const button = findButton(screen, label);
    if (options.waitForBot === false) {
      const response = await this.shop.postUpdate(callbackUpdate(this.user, button.callback_data!, screen), undefined, { waitForBot: false });
      expect(response.status).toBe(200);
      return;
    }
    await this.pressData(button.callback_data!, screen);
  }

  /** Taps a button with this callback data (an old or made-up one). */
  async pressData(data: string, message: FakeMessage = this.screen()): Promise<void> {
    const from = this.shop.telegram.calls.length;
    const response = await this.shop.postUpdate(callbackUpdate(this.user, data, message));
    expect(response.status).toBe(200);
    // Every button press is answered, so the spinner on the button stops.
    expect(this.shop.telegram.calls.slice(from).some((c) => c.method === "answerCallbackQuery")).toBe(true);
  }

  /** The notices (answerCallbackQuery texts) shown to the customer since call index `from`. */
  notices(from = 0): string[] {
    return this.shop.telegram.calls
      .slice(from)
      .filter((c) => c.method === "answerCallbackQuery" && typeof c.payload.text === "string")
      .map((c) => String(c.payload.text));
  }
}
