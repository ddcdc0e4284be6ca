import { Composer, InlineKeyboard } from "grammy";
import { recordCustomerMessage } from "../../shop/customers";
import type { BotContext } from "../context";
import { data, MAIN_MENU_BUTTON, MENU, say, show } from "../ui";

// Contact Support: while the customer is in support mode, every text they send is stored as a
// customer message for the admin's Messages screen; the admin's replies arrive in this chat.

export const supportFeature = new Composer<BotContext>();

const leaveKeyboard = () => new InlineKeyboard().text(MAIN_MENU_BUTTON, data("menu"));

supportFeature.callbackQuery("support", async (ctx) => {
  await ctx.setConversation({ step: "support" });
  await show(
    ctx,
    `${MENU.support}\n\nType your message and send it here. Our team will reply in this chat.`,
    leaveKeyboard(),
  );
});

supportFeature.on("message", async (ctx, next) => {
  if (ctx.conversation.step !== "support") return next();
  // Commands never get here (features/commands.ts leaves support first); text that merely starts
  // with "/" ("/ hello") is a message like any other.
  const text = ctx.message.text?.trim();
  if (!text) {
    await say(ctx, "Please send your message to support as text.", leaveKeyboard());
    return;
  }
  await recordCustomerMessage(
    ctx.deps.db,
    { telegramUserId: ctx.customerId, telegramUsername: ctx.from?.username ?? null, message: text },
    ctx.deps.now(),
  );
  await say(
    ctx,
    "Thank you, your message has been sent to our support team. We'll reply here. You can send more messages, or go back to the menu.",
    leaveKeyboard(),
  );
});
