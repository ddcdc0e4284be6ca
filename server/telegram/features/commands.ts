import { Composer } from "grammy";
import type { Message } from "grammy/types";
import { IDLE } from "../../shop/customers";
import type { BotContext } from "../context";
import { type Translator, translatorFor } from "../../shop/languages";
import { type Language, LANGUAGES } from "../../../contract";
import { EN, mainMenuKeyboard, say } from "../ui";
import { cancelCheckout } from "./checkout";
import { showMainMenu } from "./start";

// Commands come before any conversation step (issue 20): a command is always the command, in
// Contact Support and at every step of the checkout alike. The rule, the same for every command:
// - a command leaves the step the customer was in (support, or the checkout's typed or button step),
//   so their next message is not taken for a support message or an answer to a prompt they no longer
//   see. The cart is kept (it is not part of the step); the checkout draft, the address being typed,
//   is dropped with the step, and the checkout starts again from the cart.
// - a message Telegram marks as a command (a bot_command entity at its start, as grammY's command()
//   reads it) that the bot does not know, or one addressed to another bot, is never stored as a
//   support message or taken for an answer either: it leaves the step too and gets the fallback
//   answer, as it would outside any conversation. Text that merely starts with "/" ("/ hello") is not
//   a command: in Contact Support it is a message like any other.
// /link (owner-link.ts) is the owner's and is handled before the shop; it leaves the step the same way.

/** Every command the shop's bot answers a customer, with what it does: /help lists them. */
const COMMANDS = ["start", "menu", "help", "language", "cancel", "stop", "forgetme"] as const;

/** Each command with what it does, in a language (locale key command-<name>). */
export function shopCommands(tr: Translator): { command: (typeof COMMANDS)[number]; description: string }[] {
  return COMMANDS.map((command) => ({ command, description: tr.t(`command-${command}`) }));
}

/** Every command the shop's bot answers a customer, in English: /help lists them. */
export const SHOP_COMMANDS = shopCommands(EN);

/** The commands as Telegram's command menu lists them (setMyCommands), each description capitalised. */
export function commandMenu(tr: Translator = EN): { command: string; description: string }[] {
  return shopCommands(tr).map(({ command, description }) => ({ command, description: description[0]!.toUpperCase() + description.slice(1) }));
}

/** One command menu as setMyCommands takes it: for an app language (languageCode), or for every other (null). */
export type CommandMenu = { languageCode: Language | null; commands: { command: string; description: string }[] };

/**
 * Telegram's command menus for the languages a shop offers: one per offered language, by its
 * language_code, and the one for every other app language (no language_code) in the shop's default
 * language. `withdrawn` are the shipped languages the shop does not offer: their menus, published
 * while it did, are deleted (deleteMyCommands), or a customer whose app speaks one would see commands
 * described in a language the bot then does not answer in.
 */
export function commandMenus(offered: readonly Language[], defaultLanguage: Language): { published: CommandMenu[]; withdrawn: Language[] } {
  return {
    published: [
      { languageCode: null, commands: commandMenu(translatorFor(defaultLanguage)) },
      ...offered.map((language) => ({ languageCode: language, commands: commandMenu(translatorFor(language)) })),
    ],
    withdrawn: LANGUAGES.filter((language) => !offered.includes(language)),
  };
}

export type ShopCommand = (typeof COMMANDS)[number];

export function helpText(tr: Translator): string {
  return [
    tr.t("help-title"),
    tr.t("help-intro"),
    `${tr.t("help-commands")}\n${shopCommands(tr).map((c) => `/${c.command}: ${c.description}`).join("\n")}`,
  ].join("\n\n");
}

export const HELP_TEXT = helpText(EN);
export const LEFT_SUPPORT_TEXT = EN.t("left-support");
export const NOTHING_TO_CANCEL_TEXT = EN.t("nothing-to-cancel");

/** As grammY's command() reads a message: a bot_command entity at the very start of its text. */
export function startsWithCommand(message: Message): boolean {
  return message.text !== undefined && (message.entities ?? []).some((e) => e.type === "bot_command" && e.offset === 0);
}

export const commandsFeature = new Composer<BotContext>();

// /cancel answers by the step it leaves, so it is handled here, before the step is left below.
commandsFeature.command("cancel", async (ctx) => {
  switch (ctx.conversation.step) {
    case "checkout":
      return cancelCheckout(ctx);
    case "support":
      return showMainMenu(ctx, ctx.t("left-support"));
    case "idle":
      return showMainMenu(ctx, ctx.t("nothing-to-cancel"));
  }
});

commandsFeature.on("message", async (ctx, next) => {
  if (startsWithCommand(ctx.message)) await ctx.setConversation(IDLE);
  await next();
});

commandsFeature.command("help", (ctx) => say(ctx, helpText(ctx.tr), mainMenuKeyboard(ctx.tr, ctx.deps.config.publicUrl)));
