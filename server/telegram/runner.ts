import crypto from "node:crypto";
import { Bot } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import { NO_BOT_TOKEN_REASON, STOREFRONT_PATH, type BotStatusAnswer } from "../../contract";
import type { Locks } from "../db/leader";
import { conflict, unavailable } from "../shop/common";
import { getBotSettings } from "../shop/settings";
import { ALLOWED_UPDATES, createBot, handleWithStoredCustomer, type StoredCustomer } from "./bot";
import type { BotContext, BotDeps, BotLogger } from "./context";
import { watchBotSettings, type SettingsWatch } from "./settings-watch";
import { botIdOf, startInboxWorker, type InboxWorker } from "./inbox";
import { commandMenus } from "./features/commands";
import { defaultLanguageOf, offeredLanguages, translatorFor } from "../shop/languages";
import { storefrontUrlFor } from "./ui";
import type { Language } from "../../contract";
import {
  callTelegram,
  createTelegramActivity,
  decideBotStatus,
  describeCallError,
  recordTelegramCalls,
  webhookInfoOf,
  type TelegramActivity,
  type TelegramActivityLog,
  type TelegramCallResult,
} from "./bot-health";

// Runs the bot the settings describe: by webhook when the server has a public https address
// (PUBLIC_URL), else by long polling, so the shop also works on a laptop. No token: the bot is off
// and the rest of the server runs. Saving the settings rebuilds it: at once on the instance that
// saved them (settingsSaved), within a few seconds on every other one (settings-watch.ts).

export const TELEGRAM_WEBHOOK_PATH = "/api/telegram/webhook";

/**
 * The secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token. Derived from the token, so
 * every server instance knows it without storing anything, and it changes with the token.
 */
export function webhookSecretFor(botToken: string): string {
  return crypto.createHmac("sha256", "telegram-webhook-secret").update(botToken).digest("hex");
}

/** How the runner stands; `error` is why the bot could not start (bot-health.ts tells the rest). */
type RunState =
  | { mode: "off"; reason: string }
  | { mode: "webhook" | "polling"; botUsername: string | null; error: string | null };

/** The run state, plus what the bot saw of Telegram: when it last answered, the last failure, the last update handled. */
export type BotStatus = Extract<RunState, { mode: "off" }> | (Extract<RunState, { mode: "webhook" | "polling" }> & TelegramActivity);

/** The webhook URL the server registers: only an https PUBLIC_URL (Telegram calls nothing else). */
export function webhookUrlFor(publicUrl: string | undefined): string | null {
  return publicUrl?.startsWith("https://") ? publicUrl + TELEGRAM_WEBHOOK_PATH : null;
}

export type BotRuntime = {
  /** Reads the settings and starts the bot (or leaves it off). Never throws: problems are logged and shown in status(). */
  start(): Promise<void>;
  /** Stops the running bot and starts it again from the settings as saved now. */
  reload(): Promise<void>;
  /**
   * Bot Settings were saved through this instance: rebuilds the bot if they changed. Does nothing
   * before start() (a server that runs no bot, such as the browser tests', stays without one).
   */
  settingsSaved(): Promise<void>;
  stop(): Promise<void>;
  status(): BotStatus;
  /**
   * The status the dashboard shows (GET /api/bot/status): asks Telegram for the webhook's state
   * (which also tells whether Telegram answers now) and weighs what the bot saw (bot-health.ts).
   */
  health(): Promise<BotStatusAnswer>;
  /**
   * Sets the webhook to this server's URL and secret now, as start-up does (the Bot Settings
   * button). ShopError conflict without an https PUBLIC_URL or a bot; unavailable when Telegram refuses.
   */
  registerWebhook(): Promise<{ url: string }>;
  /** The secret a webhook call must carry, or null when no bot is configured. */
  webhookSecret(): string | null;
  /** Resolves once the current start-up attempt is over (running, or failed and logged). */
  started(): Promise<void>;
  /** The running bot's identity, once Telegram told it. */
  botInfo(): UserFromGetMe | null;
  /**
   * An update received by webhook: stored in the inbox (inbox.ts) and handled by its worker. Resolves
   * once stored, before it is handled (a redelivered one is acknowledged without effect); false when
   * no bot is running.
   */
  handleUpdate(update: Update): Promise<boolean>;
  /** Resolves once the inbox has nothing waiting or in hand here (tests wait for the bot's answers so). */
  drained(): Promise<void>;
};

/** grammY types its signals with the abort-controller package's shim; the platform's signal works the same. */
type GrammySignal = NonNullable<Parameters<Bot["init"]>[0]>;
const grammySignal = (signal: AbortSignal) => signal as unknown as GrammySignal;

type Running = {
  bot: Bot<BotContext>;
  /** Stored updates are this bot's (a new token is another bot, with its own update ids). */
  botId: number;
  secret: string;
  /** Stops a start-up still waiting for Telegram (grammY retries getMe until it answers). */
  abort: AbortController;
  /** Start-up, then (polling) the polling loop; settles once the bot is fully stopped. */
  task: Promise<void>;
  /** Settles when start-up is over. */
  startup: Promise<void>;
  /** Handles what the inbox holds for this bot; stopping waits for the updates in hand. */
  worker: InboxWorker;
  /** Long polling only: the bot that asks Telegram for updates and stores them in the inbox. */
  receiver: Bot | null;
  /** What this bot saw of Telegram (bot-health.ts): a new token starts afresh. */
  activity: TelegramActivityLog;
  /** The languages the shop offers and its default: the command menus, the menu button's label. */
  languages: MenuLanguages;
};

/** What the menus are published in: the languages the shop offers and its default among them. */
type MenuLanguages = { offered: Language[]; defaultLanguage: Language };

export type BotRunnerOptions = {
  log: BotLogger;
  /** How often the inbox looks for updates another instance stored (inbox.ts INBOX_POLL_MS by default). */
  inboxPollMs?: number;
  /** No other process can use the database (PGlite): the inbox takes back a crashed run's updates at once. */
  soleInstance?: boolean;
  /**
   * With several server instances, long polling runs on the one holding this lock (db/leader.ts);
   * the others stand by and take over when it goes. Absent: this instance always polls.
   * Webhook mode runs on every instance: Telegram spreads the calls through the load balancer.
   */
  pollingLeader?: Pick<Locks, "acquire">;
  /** How often another instance's save is looked for; settings-watch.ts's SETTINGS_CHECK_MS by default. */
  settingsCheckMs?: number;
};

export function createBotRunner(deps: BotDeps, options: BotRunnerOptions): BotRuntime {
  const { log } = options;
  let running: Running | null = null;
  let status: RunState = { mode: "off", reason: "The bot is not started on this server." };
  let settingsWatch: SettingsWatch | null = null;
  // start/reload/stop run one at a time, in the order they were asked for.
  let queue: Promise<void> = Promise.resolve();
  const serial = (task: () => Promise<void>) => {
    const next = queue.then(task, task);
    queue = next.catch(() => {});
    return next;
  };

  /**
   * The menu Telegram shows beside the customer's text field lists the shop's commands (SHOP_COMMANDS,
   * the same list /help answers): one per language the shop offers, which Telegram picks by the
   * customer's app language, and the shop's default language's for any other. The menus of shipped
   * languages the shop does not offer are deleted, so narrowing the languages takes effect (a menu
   * stays at Telegram until replaced or deleted). One call per language, each set or deleted as the
   * settings say, so every instance publishing the same settings leaves the same menus. A failure
   * only costs that language's menu, never the bot or the other menus: it is logged.
   */
  async function publishCommandMenu(bot: Bot<BotContext>, languages: MenuLanguages, signal: AbortSignal) {
    const { published, withdrawn } = commandMenus(languages.offered, languages.defaultLanguage);
    const calls = [
      ...published.map(({ languageCode, commands }) => ({
        action: "publish",
        languageCode,
        done: bot.api.setMyCommands(commands, languageCode ? { language_code: languageCode } : undefined, grammySignal(signal)),
      })),
      ...withdrawn.map((languageCode) => ({
        action: "delete",
        languageCode,
        done: bot.api.deleteMyCommands({ language_code: languageCode }, grammySignal(signal)),
      })),
    ];
    const outcomes = await Promise.allSettled(calls.map(({ done }) => done));
    const failed = outcomes.flatMap((outcome, index) => (outcome.status === "rejected" ? [{ ...calls[index]!, reason: outcome.reason as unknown }] : []));
    // Stopped (or the webhook button's time ran out): the start-up's to handle, not a menu's failure.
    if (signal.aborted && failed.length > 0) throw failed[0]!.reason;
    for (const { action, languageCode, reason } of failed) {
      log.warn({ err: describe(reason), languageCode }, `Telegram bot: could not ${action} the command menu`);
    }
  }

  /**
   * The button left of the customer's text field opens the storefront Mini App
   * (docs/decisions/0039-mini-app-storefront.md). Telegram keeps one for all the bot's chats, so it
   * is labelled in the shop's default language. Without an https PUBLIC_URL there is no storefront
   * to open: a storefront button an earlier run set (the same token, now on a laptop) goes back to
   * the command list, and a button the owner set with BotFather is left as it is. A failure only
   * costs the button, never the bot: it is logged.
   */
  async function publishMenuButton(bot: Bot<BotContext>, defaultLanguage: Language, signal: AbortSignal) {
    try {
      const storefrontUrl = storefrontUrlFor(deps.config.publicUrl);
      if (storefrontUrl) {
        const text = translatorFor(defaultLanguage).t("menu-open-shop");
        await bot.api.setChatMenuButton({ menu_button: { type: "web_app", text, web_app: { url: storefrontUrl } } }, grammySignal(signal));
        return;
      }
      const current = await bot.api.getChatMenuButton({}, grammySignal(signal));
      if (current.type === "web_app" && isStorefrontUrl(current.web_app.url)) {
        await bot.api.setChatMenuButton({ menu_button: { type: "commands" } }, grammySignal(signal));
      }
    } catch (error) {
      if (signal.aborted) throw error;
      log.warn({ err: describe(error) }, "Telegram bot: could not set the menu button");
    }
  }

  /** The command menu and the menu button, side by side: neither waits for the other, and neither failing stops the bot. */
  async function publishMenus(bot: Bot<BotContext>, languages: MenuLanguages, signal: AbortSignal) {
    await Promise.all([publishCommandMenu(bot, languages, signal), publishMenuButton(bot, languages.defaultLanguage, signal)]);
  }

  async function runWebhook({ bot, secret, languages }: Running, signal: AbortSignal) {
    const url = deps.config.publicUrl + TELEGRAM_WEBHOOK_PATH;
    await bot.init(grammySignal(signal));
    await publishMenus(bot, languages, signal);
    await bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] }, grammySignal(signal));
    if (running?.bot === bot) status = { mode: "webhook", botUsername: bot.botInfo.username, error: null };
    log.info({ url, bot: bot.botInfo.username }, "Telegram bot running by webhook");
  }

  /**
   * Long polling feeds the inbox as the webhook does: a second, bare bot on the same token only
   * stores what getUpdates brings (the shop's bot handles it from the inbox). grammY asks Telegram
   * for the next updates only after a batch went through, so an update is never confirmed to
   * Telegram before it is stored: while the database refuses, polling waits and tries again.
   */
  function createReceiver(current: Running, signal: AbortSignal): Bot {
    const receiver = new Bot(current.bot.token, { botInfo: current.bot.botInfo, client: { apiRoot: deps.config.telegramApiRoot } });
    // getUpdates failing (Telegram down, token revoked) is what the status shows as an error.
    receiver.api.config.use(recordTelegramCalls(current.activity, () => signal.aborted));
    receiver.use(async (ctx) => {
      for (;;) {
        try {
          await current.worker.store(ctx.update);
          return;
        } catch (error) {
          if (signal.aborted) throw error;
          log.warn({ err: describe(error), updateId: ctx.update.update_id }, "Telegram bot: could not store an update; trying again");
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
    });
    return receiver;
  }

  async function runPolling(current: Running, signal: AbortSignal, onStarted: () => void) {
    const { bot } = current;
    await bot.init(grammySignal(signal));
    await publishMenus(bot, current.languages, signal);
    const receiver = createReceiver(current, signal);
    current.receiver = receiver;
    const leader = options.pollingLeader;
    while (!signal.aborted) {
      const lease = leader
        ? await leader.acquire("telegramPolling", {
            signal,
            onWaiting: () => {
              // Standing by is a normal state of a healthy instance, not an error.
              status = { mode: "polling", botUsername: bot.botInfo.username, error: null };
              log.info({ bot: bot.botInfo.username }, "Telegram bot: another server instance is polling; this one takes over if it stops");
              onStarted();
            },
          })
        : null;
      if (leader && !lease) return; // stopped while standing by
      let lost = false;
      // The lock went (its connection broke): another instance may poll now, so this one must stop.
      void lease?.lost.then(() => {
        if (signal.aborted) return;
        lost = true;
        log.warn("Telegram bot: lost the polling lock; stopping long polling until it is ours again");
        if (receiver.isRunning()) void receiver.stop().catch(() => {});
      });
      try {
        await receiver.start({
          allowed_updates: [...ALLOWED_UPDATES],
          onStart: (info) => {
            // Deposed while grammY was still setting up (isRunning() was false then): never poll.
            if (lost) return void receiver.stop().catch(() => {});
            status = { mode: "polling", botUsername: info.username, error: null };
            log.info({ bot: info.username }, "Telegram bot running by long polling");
            onStarted();
          },
        });
      } finally {
        await lease?.release();
      }
      if (!lost) return; // stopped (halt), not deposed
    }
  }

  /** Starts the bot in the background: a Telegram that does not answer never holds up the server. */
  async function launch() {
    const settings = await getBotSettings(deps.db, deps.secrets);
    if (!settings?.botToken) {
      status = { mode: "off", reason: NO_BOT_TOKEN_REASON };
      log.info("Telegram bot is off: no bot token in Bot Settings");
      return;
    }
    const bot = createBot(deps, settings, { log });
    const secret = webhookSecretFor(settings.botToken);
    const abort = new AbortController();
    const activity = createTelegramActivity(deps.now);
    bot.api.config.use(recordTelegramCalls(activity, () => abort.signal.aborted));
    const publicUrl = deps.config.publicUrl;
    const webhook = Boolean(publicUrl?.startsWith("https://"));
    if (publicUrl && !webhook) {
      log.warn({ publicUrl }, "PUBLIC_URL is not https, and Telegram only calls https webhooks: using long polling");
    }
    const mode = webhook ? "webhook" : "polling";
    status = { mode, botUsername: null, error: null };
    let startupOver!: () => void;
    const startup = new Promise<void>((resolve) => (startupOver = resolve));
    const botId = botIdOf(settings.botToken);
    const current: Running = {
      bot,
      botId,
      secret,
      abort,
      task: Promise.resolve(),
      startup,
      receiver: null,
      activity,
      languages: { offered: offeredLanguages(settings), defaultLanguage: defaultLanguageOf(settings) },
      // Takes up at once what a previous run of the server left in the inbox.
      worker: startInboxWorker({
        db: deps.db,
        botId,
        handle: (update, stored) => handleNow(bot, update, stored, activity),
        now: deps.now,
        log,
        pollMs: options.inboxPollMs,
        soleInstance: options.soleInstance,
      }),
    };
    // Kept as the current bot even if start-up fails: updates that do arrive are handled, and a save retries.
    running = current;
    current.task = (webhook ? runWebhook(current, abort.signal) : runPolling(current, abort.signal, startupOver))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        if (running === current) status = { mode, botUsername: null, error: describe(error) };
        log.error({ err: error }, `Telegram bot: could not run by ${mode}`);
      })
      .finally(startupOver);
  }

  async function halt() {
    const current = running;
    running = null;
    status = { mode: "off", reason: "stopped" };
    if (!current) return;
    current.abort.abort();
    if (current.receiver?.isRunning()) {
      await current.receiver.stop().catch((error: unknown) => log.warn({ err: error }, "Telegram bot: stopping long polling"));
    }
    await current.task;
    await current.worker.stop(); // the updates in hand finish before the bot is let go
  }

  /**
   * Handles one update from the inbox. The bot's own failures are logged and the update counts as
   * handled (trying it again would fail the same way); a bot that cannot reach Telegram to start
   * rejects, so the update stays in the inbox and is tried again (inbox.ts MAX_ATTEMPTS).
   */
  async function handleNow(bot: Bot<BotContext>, update: Update, stored: StoredCustomer, activity: TelegramActivityLog) {
    if (!bot.isInited()) await bot.init(grammySignal(AbortSignal.timeout(10_000)));
    try {
      await handleWithStoredCustomer(bot, update, stored);
    } catch (error) {
      log.error({ err: error, updateId: update.update_id }, "Telegram bot: an update failed");
    }
    activity.updateHandled();
  }

  function currentStatus(): BotStatus {
    if (status.mode === "off") return status;
    const activity = running?.activity.snapshot() ?? { telegramAnsweredAt: null, lastError: null, lastErrorAt: null, lastUpdateAt: null };
    return { ...status, ...activity };
  }

  /** A plain call with a time limit (bot-health.ts), noted as the bot's own calls are. */
  async function askTelegram(current: Running, method: string): Promise<TelegramCallResult> {
    const call = await callTelegram(deps.config.telegramApiRoot, current.bot.token, method);
    if (call.kind === "unreachable") current.activity.failed(call.message);
    else if (call.answer.ok) current.activity.answered();
    else current.activity.failed(`Call to '${method}' failed! (${call.answer.error_code}: ${call.answer.description})`);
    return call;
  }

  const reload = () =>
    serial(async () => {
      await halt();
      await launch();
    });

  return {
    async start() {
      // Settings saved on any instance rebuild the bot here too; the version in force now is read first.
      if (!settingsWatch) {
        settingsWatch = watchBotSettings({ db: deps.db, onChange: reload, log, intervalMs: options.settingsCheckMs });
        await settingsWatch.ready;
      }
      await serial(launch);
    },
    reload,
    settingsSaved: () => settingsWatch?.checkNow() ?? Promise.resolve(),
    stop() {
      settingsWatch?.stop();
      settingsWatch = null;
      return serial(halt);
    },
    status: currentStatus,
    async health() {
      const current = running;
      let webhook = null;
      if (current) {
        const call = await askTelegram(current, "getWebhookInfo");
        if (call.kind === "answered" && call.answer.ok) webhook = webhookInfoOf(call.answer.result);
      }
      const webhookUrl = webhookUrlFor(deps.config.publicUrl);
      return decideBotStatus({
        runner: currentStatus(),
        configuredMode: webhookUrl ? "webhook" : "polling",
        webhook,
        webhookUrl,
        now: deps.now(),
      });
    },
    async registerWebhook() {
      const url = webhookUrlFor(deps.config.publicUrl);
      if (!url) throw conflict("PUBLIC_URL is not an https address, so the bot uses long polling: Telegram only calls https webhooks.");
      const current = running;
      if (!current) throw conflict("The bot is not running: save a bot token in Bot Settings first.");
      try {
        // As start-up does; it also clears a start-up error once Telegram takes the webhook.
        await runWebhook(current, AbortSignal.any([current.abort.signal, AbortSignal.timeout(10_000)]));
      } catch (error) {
        throw unavailable(`Telegram did not take the webhook: ${describeCallError(error)}`);
      }
      return { url };
    },
    async started() {
      await queue;
      await running?.startup;
    },
    webhookSecret: () => running?.secret ?? null,
    botInfo: () => (running?.bot.isInited() ? running.bot.botInfo : null),
    async handleUpdate(update) {
      const current = running;
      if (!current) return false;
      // Stored, then answered: Telegram never waits for the shop's own calls to Telegram or the gateway.
      // The worker handles it (taken as it was stored when its customer had nothing else waiting).
      await current.worker.store(update);
      return true;
    },
    async drained() {
      await running?.worker.drained();
    },
  };
}

/** A storefront's address, this server's or another's on the same token: its path is the storefront's. */
function isStorefrontUrl(url: string): boolean {
  return URL.canParse(url) && new URL(url).pathname === STOREFRONT_PATH;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
