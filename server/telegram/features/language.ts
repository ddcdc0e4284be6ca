import { Composer, InlineKeyboard } from "grammy";
import { LANGUAGE_NAMES, LanguageSchema } from "../../../contract";
import { chooseLanguage, offeredLanguages } from "../../shop/languages";
import type { BotContext } from "../context";
import { data, mainMenuKeyboard, say, show } from "../ui";
import { showMainMenu } from "./start";

// /language and "🌐 Language" under About (issue 26): the languages the shop offers, each in its own
// words; the one chosen is stored with the customer and beats their Telegram app's language from now on.

export const languageFeature = new Composer<BotContext>();

function languageScreen(ctx: BotContext): { text: string; keyboard: InlineKeyboard } {
  const offered = offeredLanguages(ctx.settings);
  const keyboard = new InlineKeyboard();
  if (offered.length <= 1) {
    return { text: ctx.t("language-only-one", { language: LANGUAGE_NAMES[offered[0]!] }), keyboard: mainMenuKeyboard(ctx.tr, ctx.deps.config.publicUrl) };
  }
  for (const language of offered) {
    keyboard.text(language === ctx.language ? `✅ ${LANGUAGE_NAMES[language]}` : LANGUAGE_NAMES[language], data(`lang:${language}`)).row();
  }
  keyboard.text(ctx.t("main-menu-button"), data("menu"));
  return { text: ctx.t("language-choose"), keyboard };
}

languageFeature.command("language", async (ctx) => {
  const screen = languageScreen(ctx);
  await say(ctx, screen.text, screen.keyboard);
});

languageFeature.callbackQuery("language", async (ctx) => {
  const screen = languageScreen(ctx);
  await show(ctx, screen.text, screen.keyboard);
});

languageFeature.callbackQuery(/^lang:([a-z]{2})$/, async (ctx) => {
  const parsed = LanguageSchema.safeParse(ctx.match[1]);
  if (!parsed.success || !offeredLanguages(ctx.settings).includes(parsed.data)) {
    const screen = languageScreen(ctx);
    return show(ctx, screen.text, screen.keyboard);
  }
  await chooseLanguage(ctx.deps.db, ctx.customerId, ctx.from.username ?? null, parsed.data, ctx.deps.now());
  ctx.storedLanguage = { language: parsed.data, chosen: true };
  ctx.useLanguage(parsed.data);
  await showMainMenu(ctx, `${ctx.t("language-chosen")}\n\n${ctx.t("main-menu-text")}`);
});
