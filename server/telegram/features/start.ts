import { Composer } from "grammy";
import { isStartRecorded, recordBotStart, IDLE } from "../../shop/customers";
import { DEFAULT_WELCOME_MESSAGE } from "../../shop/settings";
import type { BotContext } from "../context";
import { mainMenuKeyboard, say, show } from "../ui";

// /start, the main menu, and the buttons that only need an answer.

export const MAIN_MENU_TEXT = "Main menu: what would you like to do?";

/** Said after the welcome when /start follows a /stop (issue 14). */
export const OPTED_IN_REPLY = "You will receive our announcements again. Send /stop to turn them off.";

export function welcomeText(ctx: BotContext): string {
  return ctx.settings.welcomeMessage?.trim() || DEFAULT_WELCOME_MESSAGE;
}

/** Back to the main menu, leaving any checkout or support conversation. */
export async function showMainMenu(ctx: BotContext, text = MAIN_MENU_TEXT): Promise<void> {
  await ctx.setConversation(IDLE);
  await show(ctx, text, mainMenuKeyboard());
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
  await say(ctx, wasOptedOut ? `${welcomeText(ctx)}\n\n${OPTED_IN_REPLY}` : welcomeText(ctx), mainMenuKeyboard());
});

startFeature.command("menu", (ctx) => showMainMenu(ctx));
startFeature.callbackQuery("menu", (ctx) => showMainMenu(ctx));

// Page counters and other labels are buttons too; pressing them does nothing but must be answered.
startFeature.callbackQuery("noop", (ctx) => ctx.answerCallbackQuery());
