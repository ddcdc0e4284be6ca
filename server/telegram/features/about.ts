import { Composer, InlineKeyboard } from "grammy";
import { localizedText, offeredLanguages } from "../../shop/languages";
import type { BotContext } from "../context";
import { data, show } from "../ui";

export const aboutFeature = new Composer<BotContext>();

aboutFeature.callbackQuery("about", async (ctx) => {
  const own = ctx.settings.faqContent?.trim();
  const faq = own ? localizedText(own, ctx.settings.faqContentTranslations, ctx.language) : ctx.t("about-empty");
  const keyboard = new InlineKeyboard().text(ctx.t("my-data-button"), data("mydata")).row();
  // With one language offered there is nothing to choose: no button.
  if (offeredLanguages(ctx.settings).length > 1) keyboard.text(ctx.t("language-button"), data("language")).row();
  await show(ctx, `${ctx.t("menu-about")}\n\n${faq}`, keyboard.text(ctx.t("main-menu-button"), data("menu")));
});
