import { Composer } from "grammy";
import type { Message } from "grammy/types";
import { IDLE } from "../../shop/customers";
import type { BotContext } from "../context";
import { mainMenuKeyboard, say } from "../ui";
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
export const SHOP_COMMANDS = [
  { command: "start", description: "the welcome message and the main menu" },
  { command: "menu", description: "the main menu" },
  { command: "help", description: "this list" },
  { command: "cancel", description: "leave the checkout or Contact Support (your cart is kept)" },
  { command: "stop", description: "no more announcements from the shop" },
  { command: "forgetme", description: "erase your data from this shop" },
] as const;

/** SHOP_COMMANDS as Telegram's command menu lists them (setMyCommands), each description capitalised. */
export function commandMenu(): { command: string; description: string }[] {
  return SHOP_COMMANDS.map(({ command, description }) => ({ command, description: description[0]!.toUpperCase() + description.slice(1) }));
}

export type ShopCommand = (typeof SHOP_COMMANDS)[number]["command"];

export const HELP_TEXT = [
  "Help",
  "Use the buttons of the main menu to browse products, see your cart and orders, or contact us.",
  `Commands:\n${SHOP_COMMANDS.map((c) => `/${c.command}: ${c.description}`).join("\n")}`,
].join("\n\n");

export const LEFT_SUPPORT_TEXT = "You have left Contact Support. What you sent is with our team, and replies still arrive in this chat.";
export const NOTHING_TO_CANCEL_TEXT = "There is nothing to cancel. Main menu: what would you like to do?";

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
      return showMainMenu(ctx, LEFT_SUPPORT_TEXT);
    case "idle":
      return showMainMenu(ctx, NOTHING_TO_CANCEL_TEXT);
  }
});

commandsFeature.on("message", async (ctx, next) => {
  if (startsWithCommand(ctx.message)) await ctx.setConversation(IDLE);
  await next();
});

commandsFeature.command("help", (ctx) => say(ctx, HELP_TEXT, mainMenuKeyboard()));
