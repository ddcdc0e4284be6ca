import { Composer, InlineKeyboard } from "grammy";
import { recordCustomerMessage } from "../../shop/customers";
import type { BotContext } from "../context";
import { data, say, show } from "../ui";

// Contact Support: while the customer is in support mode, every text they send is stored as a
// customer message for the admin's Messages screen; the admin's replies arrive in this chat.

export const supportFeature = new Composer<BotContext>();

const leaveKeyboard = (ctx: BotContext) => new InlineKeyboard().text(ctx.t("main-menu-button"), data("menu"));

supportFeature.callbackQuery("support", async (ctx) => {
  await ctx.setConversation({ step: "support" });
  await show(ctx, `${ctx.t("menu-support")}\n\n${ctx.t("support-intro")}`, leaveKeyboard(ctx));
});

supportFeature.on("message", async (ctx, next) => {
  if (ctx.conversation.step !== "support") return next();
  // Commands never get here (features/commands.ts leaves support first); text that merely starts
  // with "/" ("/ hello") is a message like any other.
  const text = ctx.message.text?.trim();
  if (!text) {
    await say(ctx, ctx.t("support-text-only"), leaveKeyboard(ctx));
    return;
  }
  await recordCustomerMessage(
    ctx.deps.db,
    { telegramUserId: ctx.customerId, telegramUsername: ctx.from?.username ?? null, message: text },
    ctx.deps.now(),
  );
  await say(ctx, ctx.t("support-sent"), leaveKeyboard(ctx));
});
