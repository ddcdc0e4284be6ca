import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, type MiddlewareFn } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { BotSettings } from "../../contract";
import { getConversation, saveConversation } from "../shop/conversations";
import { ShopError } from "../shop/errors";
import { getBotSettings } from "../shop/settings";
import type { BotContext, BotDeps, BotLogger } from "./context";
import { aboutFeature } from "./features/about";
import { cartFeature } from "./features/cart";
import { catalogueFeature } from "./features/catalogue";
import { checkoutFeature } from "./features/checkout";
import { fallbackFeature } from "./features/fallback";
import { ordersFeature } from "./features/orders";
import { startFeature } from "./features/start";
import { supportFeature } from "./features/support";
import { mainMenuKeyboard, notice } from "./ui";

/** The updates the bot handles; Telegram is asked for these only. */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;

export type CreateBotOptions = {
  log: BotLogger;
  /** Known bot info (skips getMe), e.g. for the Bot Preview tester. */
  botInfo?: UserFromGetMe;
  /** Retry Telegram's 429 answers after retry_after (on for a real bot). */
  retry?: boolean;
  /**
   * Records an update as received, answering false for one seen before: that update is then
   * skipped. Set for updates from Telegram; the Bot Preview tester (made-up ids) leaves it out.
   */
  firstDelivery?: (updateId: number) => Promise<boolean>;
};

/**
 * Every update goes through here first: errors become a sentence for the customer (never silence),
 * and every button press is answered, so Telegram's spinner on the button always stops.
 */
function guard(log: BotLogger): MiddlewareFn<BotContext> {
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
      if (error instanceof ShopError) {
        if (ctx.callbackQuery && !answered) await notice(ctx, error.message, true).catch(() => {});
        else await ctx.reply(error.message, { reply_markup: mainMenuKeyboard() }).catch(() => {});
      } else {
        log.error({ err: error, updateId: ctx.update.update_id }, "the bot could not handle an update");
        await ctx
          .reply("Sorry, something went wrong. Please try again.", { reply_markup: mainMenuKeyboard() })
          .catch(() => {});
      }
    } finally {
      if (ctx.callbackQuery && !answered) {
        await ctx.answerCallbackQuery().catch((error: unknown) => log.warn({ err: error }, "answerCallbackQuery failed"));
      }
    }
  };
}

/** Who the customer is, the settings as saved now, and the customer's stored conversation step. */
function loadCustomer(deps: BotDeps, snapshot: BotSettings, log: BotLogger): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    if (!ctx.from) return;
    const customerId = String(ctx.from.id);
    ctx.deps = deps;
    ctx.log = log;
    ctx.customerId = customerId;
    ctx.settings = (await getBotSettings(deps.db, deps.secrets)) ?? snapshot;
    ctx.conversation = await getConversation(deps.db, customerId);
    ctx.setConversation = async (state) => {
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

  const firstDelivery = options.firstDelivery;
  if (firstDelivery) {
    bot.use(async (ctx, next) => {
      if (await firstDelivery(ctx.update.update_id)) await next();
    });
  }

  // The shop talks to customers one to one; groups and channels are ignored.
  const shop = bot.chatType("private");
  shop.use(guard(options.log));
  shop.use(loadCustomer(deps, settings, options.log));
  shop.use(startFeature, checkoutFeature, supportFeature, catalogueFeature, cartFeature, ordersFeature, aboutFeature);
  shop.use(fallbackFeature);
  return bot;
}
