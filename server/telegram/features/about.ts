import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../context";
import { MY_DATA_BUTTON } from "./my-data";
import { data, MAIN_MENU_BUTTON, show } from "../ui";

export const aboutFeature = new Composer<BotContext>();

aboutFeature.callbackQuery("about", async (ctx) => {
  const faq = ctx.settings.faqContent?.trim() || "No information has been added yet.";
  await show(ctx, `About\n\n${faq}`, new InlineKeyboard().text(MY_DATA_BUTTON, data("mydata")).row().text(MAIN_MENU_BUTTON, data("menu")));
});
