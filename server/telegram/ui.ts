import { GrammyError, InlineKeyboard } from "grammy";
import { STOREFRONT_PATH } from "../../contract";
import { type Translator, translatorFor } from "../shop/languages";
import type { BotContext } from "./context";

// How the bot shows things: Telegram's limits, money, the main menu, and "show this screen"
// (edit the message the button sat on when possible, else send a new one).

/** Telegram's limits: message text 4096 characters, photo captions 1024, callback data 64 bytes. */
export const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;
export const MAX_CALLBACK_BYTES = 64;

/** Cuts text to fit a Telegram limit, marking the cut. */
export function fit(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

export const COIN_NAMES: Record<string, string> = { BTC: "Bitcoin", LTC: "Litecoin", XMR: "Monero" };
export const coinLabel = (coin: string) => `${COIN_NAMES[coin] ?? coin} (${coin})`;

export { shortOrderId as shortId } from "../shop/common";


/** Callback data is limited to 64 bytes; every button goes through here so a too-long one fails loudly in tests. */
export function data(value: string): string {
  if (Buffer.byteLength(value, "utf8") > MAX_CALLBACK_BYTES) throw new Error(`callback data too long: ${value}`);
  return value;
}

/** Button labels longer than this are cut, so rows stay readable on a phone. */
export const label = (text: string, max = 40) => fit(text.replace(/\s+/g, " ").trim(), max);

// The main menu's entries are docs/product.md §2's Bot Preview feature list, word for word (in English).
/** The English texts, for the constants the tests and other modules name ("« Main menu"). */
export const EN = translatorFor("en");

export const MAIN_MENU_BUTTON = EN.t("main-menu-button");

/**
 * Where the storefront Mini App opens (docs/decisions/0039-mini-app-storefront.md): PUBLIC_URL + /shop/,
 * only when PUBLIC_URL is https, as the server then runs by webhook. Telegram opens no other page
 * in a Mini App (and refuses a whole message whose web_app button is not https), so null otherwise:
 * the customer then has the chat flow only.
 */
export function storefrontUrlFor(publicUrl: string | undefined): string | null {
  return publicUrl?.startsWith("https://") ? publicUrl + STOREFRONT_PATH : null;
}

/** The main menu; `publicUrl` (the server's PUBLIC_URL) adds "🛍 Open shop" on top when the storefront can open. */
export function mainMenuKeyboard(tr: Translator, publicUrl: string | undefined): InlineKeyboard {
  const storefrontUrl = storefrontUrlFor(publicUrl);
  const keyboard = storefrontUrl ? new InlineKeyboard().webApp(tr.t("menu-open-shop"), storefrontUrl).row() : new InlineKeyboard();
  return keyboard
    .text(tr.t("menu-browse"), data("cats:0"))
    .text(tr.t("menu-cart"), data("cart"))
    .row()
    .text(tr.t("menu-orders"), data("orders"))
    .text(tr.t("menu-support"), data("support"))
    .row()
    .text(tr.t("menu-about"), data("about"));
}

/** Adds pager buttons when there is more than one page; `target(page)` makes their callback data. */
export function addPager(tr: Translator, keyboard: InlineKeyboard, page: number, pageCount: number, target: (page: number) => string) {
  if (pageCount <= 1) return keyboard;
  if (page > 0) keyboard.text(tr.t("pager-previous"), data(target(page - 1)));
  keyboard.text(tr.t("pager-page", { page: page + 1, pages: pageCount }), data("noop"));
  if (page < pageCount - 1) keyboard.text(tr.t("pager-next"), data(target(page + 1)));
  return keyboard.row();
}

function isNotModified(error: unknown) {
  return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/** The message the pressed button sat on, when the update is a button press. */
function pressedMessage(ctx: BotContext) {
  const message = ctx.callbackQuery?.message;
  return message && "date" in message && message.date !== 0 ? message : undefined;
}

/**
 * Shows a text screen: replaces the text message whose button was pressed, or sends a new message
 * (a photo card is deleted first, since a photo cannot become text).
 */
export async function show(ctx: BotContext, text: string, keyboard?: InlineKeyboard): Promise<void> {
  const body = fit(text, MAX_TEXT);
  const pressed = pressedMessage(ctx);
  if (pressed && "text" in pressed && pressed.text !== undefined) {
    try {
      await ctx.api.editMessageText(pressed.chat.id, pressed.message_id, body, { reply_markup: keyboard });
      return;
    } catch (error) {
      if (isNotModified(error)) return;
      if (!(error instanceof GrammyError)) throw error;
      // Too old or gone: fall through and send it anew.
    }
  } else if (pressed) {
    await ctx.api.deleteMessage(pressed.chat.id, pressed.message_id).catch(() => {});
  }
  await ctx.reply(body, { reply_markup: keyboard });
}

/** Sends a new text message (answers to typed input, notices that must not replace a screen). */
export async function say(ctx: BotContext, text: string, keyboard?: InlineKeyboard): Promise<void> {
  await ctx.reply(fit(text, MAX_TEXT), { reply_markup: keyboard });
}

/** Answers a button press with a short notice (or an alert box), once. */
export async function notice(ctx: BotContext, text: string, alert = false): Promise<void> {
  if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: fit(text, 200), show_alert: alert });
}

export { isNotModified, pressedMessage };
