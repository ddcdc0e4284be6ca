import { Composer } from "grammy";
import { isStartRecorded, recordBotStart, IDLE } from "../../shop/customers";
import { localizedText, rememberLanguage } from "../../shop/languages";
import type { BotContext } from "../context";
import { EN, mainMenuKeyboard, say, show } from "../ui";

// /start, the main menu, and the buttons that only need an answer.

export const MAIN_MENU_TEXT = EN.t("main-menu-text");

/** Said after the welcome when /start follows a /stop (issue 14). */
export const OPTED_IN_REPLY = EN.t("opted-in");

/** The owner's welcome message in the customer's language (else the owner's own), or the shop's default one. */
export function welcomeText(ctx: BotContext): string {
  const own = ctx.settings.welcomeMessage?.trim();
  return own ? localizedText(own, ctx.settings.welcomeMessageTranslations, ctx.language) : ctx.t("welcome-default");
}

/** Back to the main menu, leaving any checkout or support conversation. */
export async function showMainMenu(ctx: BotContext, text?: string): Promise<void> {
  await ctx.setConversation(IDLE);
  await show(ctx, text ?? ctx.t("main-menu-text"), mainMenuKeyboard(ctx.tr, ctx.deps.config.publicUrl));
}

export const startFeature = new Composer<BotContext>();

startFeature.command("start", async (ctx) => {
  await ctx.setConversation(IDLE);
  // Whoever starts the bot is one of "all customers" for broadcasts, and opts back in after /stop.
  // A customer already recorded as they are now (the inbox read it with the update) costs no statement.
  const username = ctx.from?.username ?? null;
  const { wasOptedOut } = isStartRecorded(ctx.startRecord, username)
    ? { wasOptedOut: false }
    : await recordBotStart(ctx.deps.db, ctx.customerId, username, ctx.deps.now());
  // Now on record: the language the bot speaks to them is kept with them (shop/languages).
  if (!ctx.storedLanguage) {
    await rememberLanguage(ctx.deps.db, ctx.customerId, null, ctx.language);
    ctx.storedLanguage = { language: ctx.language, chosen: false };
  }
  await say(ctx, wasOptedOut ? `${welcomeText(ctx)}\n\n${ctx.t("opted-in")}` : welcomeText(ctx), mainMenuKeyboard(ctx.tr, ctx.deps.config.publicUrl));
});

startFeature.command("menu", (ctx) => showMainMenu(ctx));
startFeature.callbackQuery("menu", (ctx) => showMainMenu(ctx));

// Page counters and other labels are buttons too; pressing them does nothing but must be answered.
startFeature.callbackQuery("noop", (ctx) => ctx.answerCallbackQuery());
