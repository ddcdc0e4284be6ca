import { Composer } from "grammy";
import { optOutOfBroadcasts } from "../../shop/customers";
import type { BotContext } from "../context";
import { EN, mainMenuKeyboard, say } from "../ui";

// /stop (issue 14): the customer gets no more broadcasts until they send /start again. Their
// orders, replies and restock alerts they asked for are not broadcasts and still come.

export const OPTED_OUT_REPLY = EN.t("opted-out");

export const optOutFeature = new Composer<BotContext>();

optOutFeature.command("stop", async (ctx) => {
  await optOutOfBroadcasts(ctx.deps.db, ctx.customerId, ctx.from?.username ?? null, ctx.deps.now());
  await say(ctx, ctx.t("opted-out"), mainMenuKeyboard(ctx.tr, ctx.deps.config.publicUrl));
});
