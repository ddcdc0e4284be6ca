import { eq } from "drizzle-orm";
import { Api, GrammyError, HttpError, InlineKeyboard, InputFile } from "grammy";
import type { Config } from "../config";
import type { SecretBox } from "../crypto";
import type { Db } from "../db/client";
import { telegramFileCache } from "../db/schema";
import { abandonDeadClaims, BROADCAST_RATE_PER_SECOND, claimNextRecipient, markBlockedBot, markFailed, markSent, queueRestockAlerts, RATE_WINDOW_MS, retryLater, type ClaimedRecipient } from "../shop/customers";
import { unavailable } from "../shop/common";
import { getBotSettings } from "../shop/settings";
import type { ObjectStorage } from "../storage";
import { localizedText, translatorFor } from "../shop/languages";
import type { BotLogger } from "./context";
import { objectIdOf } from "./product-photo";

// Sends what the broadcast queue holds (shop/customers/broadcasts.ts; docs/decisions/0019-broadcast-queue.md).
// Runs on every server instance: the queue's claims keep the limits for all of them together, and
// a recipient is claimed by one of them only. Telegram's 429 holds back this sender for retry_after;
// a 403 (the customer blocked the bot) marks the customer unreachable.

/** How long one call to Telegram may take; a claim older than STALE_CLAIM_MS is therefore dead. */
const CALL_TIMEOUT_SECONDS = 20;
const STALE_CLAIM_MS = 60_000;
/** With nothing to send, how often the queue is looked at (another instance, or a restock, may add to it). */
const IDLE_POLL_MS = 1_000;
/** Sends in flight at once: enough for 25 a second with Telegram answering in up to ~1 s. */
const MAX_IN_FLIGHT = 25;
/** How often products back in stock are looked for, to tell the customers waiting for them (issue 14, item 4). */
const RESTOCK_LOOK_MS = 1_000;
/** How long the token read from Bot Settings is trusted before it is read again (a save changes it). */
const TOKEN_CHECK_MS = 5_000;

export type BroadcastSenderDeps = {
  db: Db;
  secrets: SecretBox;
  storage: ObjectStorage;
  config: Pick<Config, "telegramApiRoot">;
};

export type BroadcastSenderOptions = {
  log: BotLogger;
  /** No other process can use the database (PGlite): every claim found at start is a crashed run's. */
  soleInstance?: boolean;
  /** Overall messages a second (shop/customers/broadcasts.ts BROADCAST_RATE_PER_SECOND by default); tests raise it. */
  ratePerSecond?: number;
  idlePollMs?: number;
};

export type BroadcastSender = {
  start(): void;
  /** Look at the queue now (a broadcast was just queued). */
  kick(): void;
  /** Stops claiming, and waits for the sends in flight to be marked. */
  stop(): Promise<void>;
};

/** The error Telegram gives when the customer blocked the bot, or their account is gone. */
function isUnreachable(error: GrammyError) {
  return error.error_code === 403;
}

/** A network error that surely happened before Telegram got the request: safe to try again. */
function surelyNotSent(error: HttpError) {
  const codes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);
  let cause: unknown = error.error;
  for (let depth = 0; cause && depth < 4; depth++) {
    if (typeof cause === "object" && "code" in cause && codes.has(String((cause as { code: unknown }).code))) return true;
    cause = typeof cause === "object" && "cause" in cause ? (cause as { cause: unknown }).cause : undefined;
  }
  return false;
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/**
 * A photo with its caption, by the file_id Telegram gave for this image before (telegram_file_cache,
 * as product photos) or else uploaded from storage; an image deleted since leaves the words alone.
 */
async function sendPhoto(deps: Pick<BroadcastSenderDeps, "db" | "storage">, bot: Api, chatId: string, imageUrl: string, caption: string, keyboard: InlineKeyboard | undefined) {
  const options = { caption, reply_markup: keyboard };
  const [cached] = await deps.db.select({ fileId: telegramFileCache.fileId }).from(telegramFileCache).where(eq(telegramFileCache.imagePath, imageUrl));
  if (cached) return bot.sendPhoto(chatId, cached.fileId, options);
  const objectId = objectIdOf(imageUrl);
  const object = objectId ? await deps.storage.get(objectId) : null;
  // The image was deleted since: the words still go out.
  if (!object) return bot.sendMessage(chatId, caption, { reply_markup: keyboard });
  const sent = await bot.sendPhoto(chatId, new InputFile(object.data, `broadcast.${EXTENSIONS[object.contentType] ?? "jpg"}`), options);
  const fileId = sent.photo?.at(-1)?.file_id;
  if (fileId) {
    await deps.db
      .insert(telegramFileCache)
      .values({ imagePath: imageUrl, fileId })
      .onConflictDoUpdate({ target: telegramFileCache.imagePath, set: { fileId, createdAt: new Date() } });
  }
  return sent;
}

/**
 * "Send a test to me" (issue 22, item 2): the broadcast's text and image, as customers will get them,
 * sent at once to the owner's chat only (shop/customers ownerChatForTest). Not queued: it is one
 * message, the owner waits for the answer, and a failure is told to them rather than counted.
 */
export async function sendBroadcastTest(
  deps: Pick<BroadcastSenderDeps, "db" | "secrets" | "storage" | "config">,
  chatId: string,
  message: { text: string; imageUrl: string | null },
): Promise<void> {
  const settings = await getBotSettings(deps.db, deps.secrets);
  if (!settings?.botToken) throw unavailable("No Telegram bot token is configured. Add it in Bot Settings.");
  const bot = new Api(settings.botToken, { apiRoot: deps.config.telegramApiRoot, timeoutSeconds: CALL_TIMEOUT_SECONDS });
  try {
    if (message.imageUrl) await sendPhoto(deps, bot, chatId, message.imageUrl, message.text, undefined);
    else await bot.sendMessage(chatId, message.text);
  } catch (error) {
    if (error instanceof GrammyError) throw unavailable(`Telegram refused the test message: ${error.description}`);
    if (error instanceof HttpError) throw unavailable("Telegram could not be reached. Please try again.");
    throw error;
  }
}

export function createBroadcastSender(deps: BroadcastSenderDeps, options: BroadcastSenderOptions): BroadcastSender {
  const { log } = options;
  let running = false;
  let loop: Promise<void> | null = null;
  const inFlight = new Set<Promise<void>>();
  let wake: (() => void) | null = null;
  let kicked = false;
  /** 429: nothing is claimed before this moment. */
  let pausedUntil = 0;
  let api: { token: string; api: Api; checkedAt: number } | null = null;
  const rate = options.ratePerSecond ?? BROADCAST_RATE_PER_SECOND;
  /**
   * This sender's own recent claims. The database's count is what holds for all instances together;
   * this one spares it a query that would only answer "wait" while this instance is at the limit.
   */
  let recentClaims: number[] = [];
  /** An image's Telegram file_id, uploaded once per broadcast image (telegram_file_cache, as product photos). */
  const uploads = new Map<string, Promise<string | null>>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (kicked || !running) {
        kicked = false;
        return resolve();
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  async function currentApi(): Promise<Api | null> {
    if (api && Date.now() - api.checkedAt < TOKEN_CHECK_MS) return api.api;
    const settings = await getBotSettings(deps.db, deps.secrets);
    if (!settings?.botToken) return null;
    if (api?.token !== settings.botToken) {
      api = { token: settings.botToken, api: new Api(settings.botToken, { apiRoot: deps.config.telegramApiRoot, timeoutSeconds: CALL_TIMEOUT_SECONDS }), checkedAt: Date.now() };
      uploads.clear();
    }
    api.checkedAt = Date.now();
    return api.api;
  }

  const photoFor = (bot: Api, chatId: string, imageUrl: string, caption: string, keyboard: InlineKeyboard | undefined) =>
    sendPhoto(deps, bot, chatId, imageUrl, caption, keyboard);

  async function deliver(bot: Api, claimed: ClaimedRecipient) {
    // Each customer gets the text in the language stored for them, else the broadcast's own (the default language's).
    const tr = translatorFor(claimed.language);
    const recipient = { ...claimed, text: claimed.language ? localizedText(claimed.text, claimed.textTranslations, claimed.language) : claimed.text };
    const keyboard = recipient.productId ? new InlineKeyboard().text(tr.t("broadcast-view-product"), `prod:${recipient.productId}:1`) : undefined;
    if (!recipient.imageUrl) {
      await bot.sendMessage(recipient.telegramUserId, recipient.text, { reply_markup: keyboard });
      return;
    }
    // The first recipient uploads the image; the others wait for its file_id rather than uploading it again.
    const imageUrl = recipient.imageUrl;
    if (!uploads.has(imageUrl)) {
      const first = photoFor(bot, recipient.telegramUserId, imageUrl, recipient.text, keyboard).then(
        (sent) => ("photo" in sent ? (sent.photo?.at(-1)?.file_id ?? null) : null),
        (error: unknown) => {
          uploads.delete(imageUrl);
          throw error;
        },
      );
      uploads.set(imageUrl, first);
      await first;
      return;
    }
    const fileId = await uploads.get(imageUrl)!.catch(() => null);
    if (fileId) await bot.sendPhoto(recipient.telegramUserId, fileId, { caption: recipient.text, reply_markup: keyboard });
    else await photoFor(bot, recipient.telegramUserId, imageUrl, recipient.text, keyboard);
  }

  /** One recipient: send, then mark what happened. Never throws. */
  async function send(bot: Api, recipient: ClaimedRecipient) {
    try {
      await deliver(bot, recipient);
      await markSent(deps.db, recipient);
    } catch (error) {
      try {
        if (error instanceof GrammyError && error.error_code === 429) {
          const seconds = error.parameters.retry_after ?? 1;
          // Telegram's flood limit is for the whole bot: everything waits, and this one goes back in the queue.
          pausedUntil = Math.max(pausedUntil, Date.now() + seconds * 1000);
          log.warn({ retryAfter: seconds }, "broadcast: Telegram asked to slow down (429); waiting");
          await retryLater(deps.db, recipient, seconds * 1000);
        } else if (error instanceof GrammyError && isUnreachable(error)) {
          await markBlockedBot(deps.db, recipient);
        } else if (error instanceof GrammyError) {
          await markFailed(deps.db, recipient, `Telegram refused the message: ${error.description}`);
        } else if (error instanceof HttpError && surelyNotSent(error)) {
          pausedUntil = Math.max(pausedUntil, Date.now() + 5_000);
          log.warn({ err: error.message }, "broadcast: Telegram could not be reached; trying again in 5 s");
          await retryLater(deps.db, recipient, 5_000);
        } else {
          // A timeout or a broken connection: Telegram may have delivered it. At most once: not sent again.
          log.warn({ err: error instanceof Error ? error.message : String(error) }, "broadcast: a send's outcome is unknown; not sent again");
          await markFailed(deps.db, recipient, "Telegram did not answer; the message may or may not have arrived, and is not sent again.");
        }
      } catch (markError) {
        // The database refused the mark: the row stays claimed and becomes failed once its claim is stale.
        log.error({ err: markError }, "broadcast: could not record a send's outcome");
      }
    }
  }

  async function run() {
    try {
      const dead = await abandonDeadClaims(deps.db, options.soleInstance ? null : STALE_CLAIM_MS);
      if (dead > 0) log.warn({ count: dead }, "broadcast: messages in flight when a server stopped are marked failed, not sent again");
    } catch (error) {
      log.error({ err: error }, "broadcast: could not look for a stopped server's claims");
    }
    let lastSweep = Date.now();
    let lastRestockLook = 0;
    while (running) {
      try {
        const now = Date.now();
        if (pausedUntil > now) {
          await sleep(pausedUntil - now);
          continue;
        }
        if (inFlight.size >= MAX_IN_FLIGHT) {
          await Promise.race(inFlight);
          continue;
        }
        if (!options.soleInstance && now - lastSweep > STALE_CLAIM_MS / 2) {
          lastSweep = now;
          await abandonDeadClaims(deps.db, STALE_CLAIM_MS);
        }
        if (now - lastRestockLook >= RESTOCK_LOOK_MS) {
          lastRestockLook = now;
          await queueRestockAlerts(deps.db, new Date());
        }
        const bot = await currentApi();
        if (!bot) {
          await sleep(options.idlePollMs ?? IDLE_POLL_MS);
          continue;
        }
        // Evenly spaced rather than in bursts of `rate`: a burst's calls would reach Telegram bunched
        // together with the next one's; and the pause lets the sends already started go out.
        recentClaims = recentClaims.filter((at) => at > now - RATE_WINDOW_MS);
        const spacing = RATE_WINDOW_MS / rate;
        const last = recentClaims.at(-1);
        if (recentClaims.length >= rate || (last !== undefined && now - last < spacing)) {
          await sleep(recentClaims.length >= rate ? recentClaims[0]! + RATE_WINDOW_MS - now : last! + spacing - now);
          continue;
        }
        const claim = await claimNextRecipient(deps.db, { ratePerSecond: rate });
        if (claim.kind === "idle") await sleep(options.idlePollMs ?? IDLE_POLL_MS);
        else if (claim.kind === "wait") await sleep(claim.ms);
        else {
          recentClaims.push(Date.now());
          const task = send(bot, claim.recipient).finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
      } catch (error) {
        log.error({ err: error }, "broadcast: the queue could not be read; trying again");
        await sleep(1_000);
      }
    }
    await Promise.all(inFlight);
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
  };
}
