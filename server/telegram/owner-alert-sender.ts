import { Api, GrammyError } from "grammy";
import type { Config } from "../config";
import type { SecretBox } from "../crypto";
import type { Db } from "../db/client";
import { claimNextAlert, finishAlert, getOwnerAlertSettings, ownerAlertText, pruneAlerts, releaseAlertClaims, retryAlertLater, skipReason, type ClaimedAlert } from "../shop/customers";
import { reasonOf } from "../shop/common";
import type { ChangeFeed } from "../shop/catalogue";
import { getBotSettings } from "../shop/settings";
import type { BotLogger } from "./context";

// Sends the owner alerts' outbox (shop/customers/owner-alerts.ts; docs/decisions/0020-owner-alerts-outbox.md).
// Runs on every server instance: an alert is claimed by one sender at a time (claimed_until), so
// several instances send it once. A claim outlives a call to Telegram (CALL_TIMEOUT_SECONDS) with
// room to spare; a crashed sender's alert is taken again when its claim runs out.

const CALL_TIMEOUT_SECONDS = 20;
const CLAIM_MS = 60_000;
/** Without a change notice (one lost, a retry coming due), how often the outbox is looked at. */
const POLL_MS = 2_000;
/** A failed send is tried again after these waits, then marked failed. */
const RETRY_DELAYS_MS = [2_000, 10_000, 30_000, 60_000];
/** How long the token read from Bot Settings is trusted before it is read again (a save changes it). */
const TOKEN_CHECK_MS = 5_000;
/** Finished alerts are kept this long (to look into what was sent), then deleted. */
const KEEP_DONE_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export type OwnerAlertSenderDeps = {
  db: Db;
  secrets: SecretBox;
  config: Pick<Config, "telegramApiRoot" | "publicUrl">;
  /** The database's change notices: a new alert wakes the sender at once. Without it, it polls. */
  changes?: ChangeFeed;
};

export type OwnerAlertSenderOptions = {
  log: BotLogger;
  /** No other process can use the database (PGlite): every claim found at start is a crashed run's. */
  soleInstance?: boolean;
  pollMs?: number;
  /** The waits between tries of a failing send; one more try than waits. Tests shorten them. */
  retryDelaysMs?: number[];
};

export type OwnerAlertSender = {
  start(): void;
  /** Look at the outbox now. */
  kick(): void;
  /** Stops claiming and waits for the alert in hand to be marked. */
  stop(): Promise<void>;
};

export function createOwnerAlertSender(deps: OwnerAlertSenderDeps, options: OwnerAlertSenderOptions): OwnerAlertSender {
  const { log } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const retryDelays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let kicked = false;
  let watch: ReturnType<ChangeFeed["watchChanges"]> | null = null;
  let api: { token: string; api: Api; checkedAt: number } | null = null;

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

  const kick = () => {
    kicked = true;
    wake?.();
  };

  async function currentApi(): Promise<Api | null> {
    if (api && Date.now() - api.checkedAt < TOKEN_CHECK_MS) return api.api;
    const settings = await getBotSettings(deps.db, deps.secrets);
    if (!settings?.botToken) return (api = null);
    if (api?.token !== settings.botToken) {
      api = {
        token: settings.botToken,
        api: new Api(settings.botToken, { apiRoot: deps.config.telegramApiRoot, timeoutSeconds: CALL_TIMEOUT_SECONDS }),
        checkedAt: Date.now(),
      };
    }
    api.checkedAt = Date.now();
    return api.api;
  }

  /** One claimed alert: skip, send or schedule a retry, and record it. */
  async function handle(bot: Api, alert: ClaimedAlert) {
    // Read at each alert: a switch turned off or an Unlink holds back what is still queued.
    const settings = await getOwnerAlertSettings(deps.db);
    const reason = skipReason(settings, alert);
    if (reason) return finishAlert(deps.db, alert.id, "skipped", reason);
    const message = await ownerAlertText(deps.db, alert, deps.config.publicUrl);
    if (message === null) return finishAlert(deps.db, alert.id, "skipped", "what it is about no longer exists");
    try {
      await bot.sendMessage(settings!.chatId!, message, { link_preview_options: { is_disabled: true } });
    } catch (error) {
      const description = error instanceof GrammyError ? `Telegram refused the alert: ${error.description}` : `Telegram could not be reached: ${String(error)}`;
      // 4xx but 429: the chat is gone, the bot was removed from the group, the owner blocked it. Trying again changes nothing.
      if (error instanceof GrammyError && error.error_code >= 400 && error.error_code < 500 && error.error_code !== 429) {
        log.warn({ alert: alert.id, err: error.description }, "owner alert: Telegram refused it");
        return finishAlert(deps.db, alert.id, "failed", description);
      }
      if (alert.attempts > retryDelays.length) {
        log.warn({ alert: alert.id, err: description }, "owner alert: given up after retries");
        return finishAlert(deps.db, alert.id, "failed", description);
      }
      const retryAfter = error instanceof GrammyError ? (error.parameters.retry_after ?? 0) * 1000 : 0;
      return retryAlertLater(deps.db, alert.id, Math.max(retryAfter, retryDelays[alert.attempts - 1]!), description);
    }
    await finishAlert(deps.db, alert.id, "sent");
  }

  async function run() {
    if (options.soleInstance) {
      await releaseAlertClaims(deps.db).catch((error: unknown) => log.error({ err: error }, "owner alert: could not free a stopped run's claims"));
    }
    let lastPrune = 0;
    while (running) {
      try {
        if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          await pruneAlerts(deps.db, KEEP_DONE_MS);
        }
        const bot = await currentApi();
        // No bot token: nothing can be sent; the alerts wait (a token saved later sends them).
        if (!bot) {
          await sleep(pollMs);
          continue;
        }
        const alert = await claimNextAlert(deps.db, CLAIM_MS);
        if (!alert) {
          await sleep(pollMs);
          continue;
        }
        await handle(bot, alert);
      } catch (error) {
        // The claim (if any) runs out and the alert is taken again.
        log.error({ err: error }, "owner alert: the outbox could not be read or marked; trying again");
        await sleep(1_000);
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      if (deps.changes) {
        watch = deps.changes.watchChanges((table, reason) => {
          if (table === null && running) log.warn({ reason: reason ?? "unknown" }, "owner alert: change notices may have been lost; looking at the outbox now");
          if (table === "owner_alerts" || table === null) kick();
        });
        // Opens the listening connection on PostgreSQL; until it is up, the poll finds new alerts.
        watch.ready().catch((error: unknown) =>
          log.warn({ reason: reasonOf(error) }, "owner alert: could not listen for new alerts; the poll finds them meanwhile"),
        );
      }
      loop = run();
    },
    kick,
    async stop() {
      running = false;
      watch?.stop();
      watch = null;
      wake?.();
      await loop;
      loop = null;
    },
  };
}
