import { Composer } from "grammy";
import type { Chat, User } from "grammy/types";
import type { Db } from "../../db/client";
import { clearConversation, redeemLinkCode } from "../../shop/customers";
import { languageOfCode } from "../../../contract";
import { translatorFor } from "../../shop/languages";
import type { BotContext, BotLogger } from "../context";

const EN = translatorFor("en");

// /link 123456 (issue 14, item 5): the owner sends the code Bot Settings shows, and the chat it was
// sent in gets the owner alerts: a private chat links that person, a group the bot is in links the
// group. Registered before the shop's customer middleware (telegram/bot.ts), which ignores groups.

export const LINKED_PRIVATE_REPLY = EN.t("link-private");
export const LINKED_GROUP_REPLY = EN.t("link-group");
export const BAD_CODE_REPLY = EN.t("link-bad-code");
export const NO_CODE_REPLY = EN.t("link-no-code");

/** How the chat is named on the Bot Settings card: the person (and @username), or the group's title. */
function chatTitle(chat: Chat, from: User | undefined): string {
  if (chat.type !== "private") return chat.title;
  const name = [chat.first_name, chat.last_name].filter(Boolean).join(" ") || from?.first_name || "Telegram user";
  const username = chat.username ?? from?.username;
  return username ? `${name} (@${username})` : name;
}

export function ownerLinkFeature(deps: { db: Db; now: () => Date }, log?: BotLogger): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType(["private", "group", "supergroup"]).command("link", async (ctx) => {
    const code = ctx.match.trim();
    // The owner, not a customer: in their Telegram app's language when the bot has it.
    const tr = translatorFor(languageOfCode(ctx.from?.language_code));
    try {
      // In a private chat /link leaves the sender's conversation step, as every command does
      // (features/commands.ts): their next message is not taken for a support message or an address.
      if (ctx.chat.type === "private") await clearConversation(deps.db, String(ctx.chat.id));
      if (!code) {
        await ctx.reply(tr.t("link-no-code"));
        return;
      }
      const linked = await redeemLinkCode(deps.db, code, { id: String(ctx.chat.id), title: chatTitle(ctx.chat, ctx.from) }, deps.now());
      await ctx.reply(tr.t(linked ? (ctx.chat.type === "private" ? "link-private" : "link-group") : "link-bad-code"));
    } catch (error) {
      // Outside the shop's guard (bot.ts): the sender is still told something went wrong, never silence.
      log?.error({ err: error }, "owner link: could not link a chat");
      await ctx.reply(tr.t("error-generic")).catch(() => {});
    }
  });
  return feature;
}
