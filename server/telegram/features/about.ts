import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../context";
import { data, MAIN_MENU_BUTTON, show } from "../ui";

export const aboutFeature = new Composer<BotContext>();

aboutFeature.callbackQuery("about", async (ctx) => {
  const faq = ctx.settings.faqContent?.trim() || "No information has been added yet.";
  await show(ctx, `About\n\n${faq}`, new InlineKeyboard().text(MAIN_MENU_BUTTON, data("menu")));
});
