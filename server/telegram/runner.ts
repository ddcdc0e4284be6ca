import crypto from "node:crypto";
import type { Bot } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import type { Locks } from "../db/leader";
import { getBotSettings } from "../shop/settings";
import { ALLOWED_UPDATES, createBot } from "./bot";
import type { BotContext, BotDeps, BotLogger } from "./context";
import { botIdOf, recordUpdate } from "./update-log";

// Runs the bot the settings describe: by webhook when the server has a public https address
// (PUBLIC_URL), else by long polling, so the shop also works on a laptop. No token: the bot is off
// and the rest of the server runs. Saving the settings rebuilds it (reload).

export const TELEGRAM_WEBHOOK_PATH = "/api/telegram/webhook";

/**
 * How long a webhook call waits for its update to be handled before Telegram is answered anyway
 * (the handling carries on). Telegram re-sends an update it thinks timed out, and a payment
 * gateway may take 15 s: the answer must not wait for it.
 */
export const WEBHOOK_ANSWER_WITHIN_MS = 5_000;

/**
 * The secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token. Derived from the token, so
 * every server instance knows it without storing anything, and it changes with the token.
 */
export function webhookSecretFor(botToken: string): string {
  return crypto.createHmac("sha256", "telegram-webhook-secret").update(botToken).digest("hex");
}

export type BotStatus =
  | { mode: "off"; reason: string }
  | { mode: "webhook" | "polling"; botUsername: string | null; error: string | null };

export type BotRuntime = {
  /** Reads the settings and starts the bot (or leaves it off). Never throws: problems are logged and shown in status(). */
  start(): Promise<void>;
  /** Stops the running bot and starts it again from the settings as saved now. */
  reload(): Promise<void>;
  stop(): Promise<void>;
  status(): BotStatus;
  /** The secret a webhook call must carry, or null when no bot is configured. */
  webhookSecret(): string | null;
  /** Resolves once the current start-up attempt is over (running, or failed and logged). */
  started(): Promise<void>;
  /** The running bot's identity, once Telegram told it. */
  botInfo(): UserFromGetMe | null;
  /**
   * An update received by webhook. Resolves once it is handled, or after answerWithinMs while it
   * goes on in the background (errors logged); false when no bot is running.
   */
  handleUpdate(update: Update): Promise<boolean>;
};

/** grammY types its signals with the abort-controller package's shim; the platform's signal works the same. */
type GrammySignal = NonNullable<Parameters<Bot["init"]>[0]>;
const grammySignal = (signal: AbortSignal) => signal as unknown as GrammySignal;

type Running = {
  bot: Bot<BotContext>;
  secret: string;
  /** Stops a start-up still waiting for Telegram (grammY retries getMe until it answers). */
  abort: AbortController;
  /** Start-up, then (polling) the polling loop; settles once the bot is fully stopped. */
  task: Promise<void>;
  /** Settles when start-up is over. */
  startup: Promise<void>;
  /** Webhook updates still being handled; stopping waits for them. */
  inFlight: Set<Promise<void>>;
  /** The last update queued per chat: a chat's updates are handled one after another, in order. */
  chatQueues: Map<string, Promise<void>>;
};

/** Whose update it is: updates of one customer are handled in the order they came. */
function chatKeyOf(update: Update): string | null {
  const from = update.message?.from ?? update.callback_query?.from;
  return from ? String(from.id) : null;
}

export type BotRunnerOptions = {
  log: BotLogger;
  /** Overrides WEBHOOK_ANSWER_WITHIN_MS (tests). */
  answerWithinMs?: number;
  /**
   * With several server instances, long polling runs on the one holding this lock (db/leader.ts);
   * the others stand by and take over when it goes. Absent: this instance always polls.
   * Webhook mode runs on every instance: Telegram spreads the calls through the load balancer.
   */
  pollingLeader?: Pick<Locks, "acquire">;
};

export function createBotRunner(deps: BotDeps, options: BotRunnerOptions): BotRuntime {
  const { log } = options;
  const answerWithinMs = options.answerWithinMs ?? WEBHOOK_ANSWER_WITHIN_MS;
  let running: Running | null = null;
  let status: BotStatus = { mode: "off", reason: "not started" };
  // start/reload/stop run one at a time, in the order they were asked for.
  let queue: Promise<void> = Promise.resolve();
  const serial = (task: () => Promise<void>) => {
    const next = queue.then(task, task);
    queue = next.catch(() => {});
    return next;
  };

  async function runWebhook(bot: Bot<BotContext>, secret: string, signal: AbortSignal) {
    const url = deps.config.publicUrl + TELEGRAM_WEBHOOK_PATH;
    await bot.init(grammySignal(signal));
    await bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] }, grammySignal(signal));
    status = { mode: "webhook", botUsername: bot.botInfo.username, error: null };
    log.info({ url, bot: bot.botInfo.username }, "Telegram bot running by webhook");
  }

  async function runPolling(bot: Bot<BotContext>, signal: AbortSignal, onStarted: () => void) {
    await bot.init(grammySignal(signal));
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
        if (bot.isRunning()) void bot.stop().catch(() => {});
      });
      try {
        await bot.start({
          allowed_updates: [...ALLOWED_UPDATES],
          onStart: (info) => {
            // Deposed while grammY was still setting up (isRunning() was false then): never poll.
            if (lost) return void bot.stop().catch(() => {});
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
      status = { mode: "off", reason: "No bot token is configured. Add it in Bot Settings." };
      log.info("Telegram bot is off: no bot token in Bot Settings");
      return;
    }
    const bot = createBot(deps, settings, {
      log,
      // Webhook and long polling alike: an update Telegram delivers twice acts once.
      firstDelivery: (updateId) => recordUpdate(deps.db, botIdOf(settings.botToken), updateId, deps.now()),
    });
    const secret = webhookSecretFor(settings.botToken);
    const abort = new AbortController();
    const publicUrl = deps.config.publicUrl;
    const webhook = Boolean(publicUrl?.startsWith("https://"));
    if (publicUrl && !webhook) {
      log.warn({ publicUrl }, "PUBLIC_URL is not https, and Telegram only calls https webhooks: using long polling");
    }
    const mode = webhook ? "webhook" : "polling";
    status = { mode, botUsername: null, error: null };
    let startupOver!: () => void;
    const startup = new Promise<void>((resolve) => (startupOver = resolve));
    const current: Running = { bot, secret, abort, task: Promise.resolve(), startup, inFlight: new Set(), chatQueues: new Map() };
    // Kept as the current bot even if start-up fails: updates that do arrive are handled, and a save retries.
    running = current;
    current.task = (webhook ? runWebhook(bot, secret, abort.signal) : runPolling(bot, abort.signal, startupOver))
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
    if (current.bot.isRunning()) {
      await current.bot.stop().catch((error: unknown) => log.warn({ err: error }, "Telegram bot: stopping long polling"));
    }
    await current.task; // the update in hand finishes before the bot is let go
    await Promise.all([...current.inFlight]);
  }

  /** Handles one webhook update; never rejects (Telegram would only send a failed update again and again). */
  async function handleNow(current: Running, update: Update) {
    try {
      if (!current.bot.isInited()) await current.bot.init(grammySignal(AbortSignal.timeout(10_000)));
      await current.bot.handleUpdate(update);
    } catch (error) {
      log.error({ err: error, updateId: update.update_id }, "Telegram bot: an update failed");
    }
  }

  /** Queues the update behind the same chat's earlier ones; answers when this one is handled. */
  function enqueue(current: Running, update: Update): Promise<void> {
    const key = chatKeyOf(update);
    if (key === null) return handleNow(current, update);
    const previous = current.chatQueues.get(key) ?? Promise.resolve();
    const work = previous.then(() => handleNow(current, update));
    current.chatQueues.set(key, work);
    void work.then(() => {
      if (current.chatQueues.get(key) === work) current.chatQueues.delete(key);
    });
    return work;
  }

  return {
    start: () => serial(launch),
    reload: () =>
      serial(async () => {
        await halt();
        await launch();
      }),
    stop: () => serial(halt),
    status: () => status,
    async started() {
      await queue;
      await running?.startup;
    },
    webhookSecret: () => running?.secret ?? null,
    botInfo: () => (running?.bot.isInited() ? running.bot.botInfo : null),
    async handleUpdate(update) {
      const current = running;
      if (!current) return false;
      const work = enqueue(current, update);
      current.inFlight.add(work);
      void work.then(() => current.inFlight.delete(work));
      // Answer once handled, or after the bound: the rest carries on in the background.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, answerWithinMs)));
      await Promise.race([work, bound]);
      clearTimeout(timer);
      return true;
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
