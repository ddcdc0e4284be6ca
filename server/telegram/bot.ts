import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, type MiddlewareFn } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import type { BotSettings } from "../../contract";
import { readStoredLanguage, rememberLanguage, resolveLanguage, translatorFor } from "../shop/languages";
import { getConversation, openConversation, saveConversation, isBlocked } from "../shop/customers";
import { ShopError } from "../shop/common";
import { isTestCustomer } from "../shop/simulator";
import { cachedReads } from "../shop/catalogue";
import type { BotContext, BotDeps, BotLogger } from "./context";
import { aboutFeature } from "./features/about";
import { cartFeature } from "./features/cart";
import { catalogueFeature } from "./features/catalogue";
import { checkoutFeature } from "./features/checkout";
import { commandsFeature } from "./features/commands";
import { fallbackFeature } from "./features/fallback";
import { myDataFeature } from "./features/my-data";
import { optOutFeature } from "./features/opt-out";
import { ownerLinkFeature } from "./features/owner-link";
import { ordersFeature } from "./features/orders";
import { startFeature } from "./features/start";
import { supportFeature } from "./features/support";
import type { ClaimedUpdate } from "./inbox";
import { mainMenuKeyboard, notice } from "./ui";
import { languageFeature } from "./features/language";

/** The updates the bot handles; Telegram is asked for these only. */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

export type CreateBotOptions = {
  log: BotLogger;
  /** Known bot info (skips getMe), e.g. for the Bot Preview tester. */
  botInfo?: UserFromGetMe;
  /** Retry Telegram's 429 answers after retry_after (on for a real bot). */
  retry?: boolean;
  /**
   * Bot Preview's chat simulator (simulator.ts): the one bot that serves the test customer. Any other
   * bot ignores an update from that id: Telegram never sends one, so it can only be forged.
   */
  servesTestCustomer?: boolean;
};

/**
 * Every update goes through here first: errors become a sentence for the customer (never silence),
 * and every button press is answered, so Telegram's spinner on the button always stops.
 */
function guard(log: BotLogger, publicUrl: string | undefined): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    let answered = false;
    if (ctx.callbackQuery) {
      const answer = ctx.answerCallbackQuery.bind(ctx);
      ctx.answerCallbackQuery = (...args: Parameters<typeof answer>) => {
        answered = true;
        return answer(...args);
      };
    }
    try {
      await next();
    } catch (error) {
      // Before the customer's language is known (loadCustomer), the shop's default language.
      const tr = ctx.tr ?? translatorFor(null);
      if (error instanceof ShopError) {
        if (ctx.callbackQuery && !answered) await notice(ctx, tr.refusal(error), true).catch(() => {});
        else await ctx.reply(tr.refusal(error), { reply_markup: mainMenuKeyboard(tr, publicUrl) }).catch(() => {});
      } else {
        log.error({ err: error, updateId: ctx.update.update_id }, "the bot could not handle an update");
        await ctx.reply(tr.t("error-generic"), { reply_markup: mainMenuKeyboard(tr, publicUrl) }).catch(() => {});
      }
    } finally {
      if (ctx.callbackQuery && !answered) {
        await ctx.answerCallbackQuery().catch((error: unknown) => log.warn({ err: error }, "answerCallbackQuery failed"));
      }
    }
  };
}

/** What the inbox read of a customer with their update (inbox.ts claimUpdates). */
export type StoredCustomer = Pick<ClaimedUpdate, "conversation" | "startRecord">;

/** The customer state read with an update from the inbox, so the bot need not read it again. */
const storedCustomers = new WeakMap<Update, StoredCustomer>();

/**
 * Handles an update whose customer's conversation state (null: none stored) and broadcast record
 * were read with it; the bot reads them from the database for any other update (the Bot Preview
 * tester's, the tests').
 */
export async function handleWithStoredCustomer(bot: Bot<BotContext>, update: Update, stored: StoredCustomer): Promise<void> {
  storedCustomers.set(update, stored);
  await bot.handleUpdate(update);
}

/** What a customer the owner blocked gets, whatever they send or press (issue 13). */
export const BLOCKED_CUSTOMER_REPLY = translatorFor("en").t("blocked");

/**
 * A blocked customer gets the refusal and nothing else: no screen, no cart, no stored message. Before
 * the customer's conversation is read, so a blocked customer costs no more than this check (a cached read).
 */
function refuseBlocked(deps: BotDeps, snapshot: BotSettings): MiddlewareFn<BotContext> {
  const reads = cachedReads(deps);
  return async (ctx, next) => {
    if (ctx.from && (await isBlocked(deps, String(ctx.from.id)))) {
      // In their Telegram app's language when the shop offers it: no more is read for a blocked customer.
      const refusal = translatorFor(resolveLanguage(null, ctx.from.language_code, (await reads.settings()) ?? snapshot)).t("blocked");
      // A press is answered with the refusal as a notice (the guard sees it answered); anything else gets it as a message.
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: refusal, show_alert: true });
      else await ctx.reply(refusal);
      return;
    }
    await next();
  };
}

/** Who the customer is, the settings as saved now, and the customer's stored conversation step. */
function loadCustomer(deps: BotDeps, snapshot: BotSettings, log: BotLogger): MiddlewareFn<BotContext> {
  const reads = cachedReads(deps);
  return async (ctx, next) => {
    if (!ctx.from) return;
    const customerId = String(ctx.from.id);
    ctx.deps = deps;
    ctx.log = log;
    ctx.customerId = customerId;
    ctx.reads = reads;
    ctx.settings = (await reads.settings()) ?? snapshot;
    const stored = storedCustomers.get(ctx.update);
    ctx.conversation = stored ? await openConversation(deps.db, customerId, stored.conversation) : await getConversation(deps.db, customerId);
    ctx.startRecord = stored?.startRecord;
    // The customer's language: stored with them (read with the update by the inbox), else read here.
    const record = stored?.startRecord;
    ctx.storedLanguage = record !== undefined ? (record ? { language: record.language ?? null, chosen: record.languageChosen === true } : null) : await readStoredLanguage(deps.db, customerId);
    ctx.useLanguage = (language) => {
      ctx.language = language;
      ctx.tr = translatorFor(language);
      ctx.t = ctx.tr.t;
    };
    ctx.useLanguage(resolveLanguage(ctx.storedLanguage, ctx.from.language_code, ctx.settings));
    // A customer on record whose language changed (their Telegram app's, or the shop's offer) keeps the new one.
    if (ctx.storedLanguage && ctx.storedLanguage.language !== ctx.language) {
      await rememberLanguage(deps.db, customerId, ctx.storedLanguage, ctx.language);
      ctx.storedLanguage = { ...ctx.storedLanguage, language: ctx.language };
    }
    ctx.setConversation = async (state) => {
      // Most taps leave the step as it was (/start, the menu, browsing): no write for those. Safe because
      // one customer's updates run one at a time (telegram/inbox.ts), so ctx.conversation is what is stored.
      if (JSON.stringify(state) === JSON.stringify(ctx.conversation)) return;
      await saveConversation(deps.db, customerId, state);
      ctx.conversation = state;
    };
    await next();
  };
}

/**
 * The shop's bot for one set of settings. No side effects: nothing is sent or started here
 * (see runner.ts for that); tests and the Bot Preview tester build their own.
 */
export function createBot(deps: BotDeps, settings: BotSettings, options: CreateBotOptions): Bot<BotContext> {
  const bot = new Bot<BotContext>(settings.botToken, {
    botInfo: options.botInfo,
    client: { apiRoot: deps.config.telegramApiRoot },
  });
  if (options.retry !== false) {
    // 429: wait retry_after and try again; give up after a few tries so an update is never stuck for long.
    bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60, rethrowHttpErrors: true }));
  }
  bot.catch((error) => options.log.error({ err: error.error }, "the bot could not handle an update"));

  if (!options.servesTestCustomer) {
    bot.use(async (ctx, next) => {
      if (isTestCustomer(ctx.from?.id) || isTestCustomer(ctx.chat?.id)) {
        options.log.warn({ updateId: ctx.update.update_id }, "an update from the simulator's test customer reached a real bot; ignored");
        return;
      }
      await next();
    });
  }
  // The owner's /link (issue 14, item 5) works in groups too: before the shop, which ignores them.
  // Not for the simulator's test customer: its chat is no place for the owner's alerts.
  if (!options.servesTestCustomer) bot.use(ownerLinkFeature(deps, options.log));
  // The shop talks to customers one to one; groups and channels are ignored.
  const shop = bot.chatType("private");
  shop.use(guard(options.log, deps.config.publicUrl));
  shop.use(refuseBlocked(deps, settings));
  shop.use(loadCustomer(deps, settings, options.log));
  // Commands first: each one is itself in every conversation step, and leaves the step (features/commands.ts).
  shop.use(commandsFeature);
  shop.use(startFeature, languageFeature, optOutFeature, checkoutFeature, supportFeature, catalogueFeature, cartFeature, ordersFeature, aboutFeature, myDataFeature);
  shop.use(fallbackFeature);
  return bot;
}
