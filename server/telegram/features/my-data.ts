import { Composer, InlineKeyboard } from "grammy";
import { describeCustomerData, forgetCustomer, getPrivacySettings } from "../../shop/privacy";
import type { BotContext } from "../context";
import { data, MAIN_MENU_BUTTON, say, show } from "../ui";

// "My data" under About, and /forgetme (issue 15, item 4): the customer sees what the shop keeps
// about them and can have it erased, after a confirmation. The rules are in shop/privacy/privacy.ts.

export const MY_DATA_BUTTON = "🔒 My data";
export const FORGET_BUTTON = "🗑 Erase my data";
export const CONFIRM_FORGET_BUTTON = "Yes, erase my data";

const many = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;

export const myDataFeature = new Composer<BotContext>();

myDataFeature.callbackQuery("mydata", async (ctx) => {
  const [kept, settings] = await Promise.all([describeCustomerData(ctx.deps.db, ctx.customerId), getPrivacySettings(ctx.deps.db)]);
  const facts = [
    `• Your Telegram id${kept.username ? ` and username @${kept.username}` : ""}, to answer you here`,
    `• ${many(kept.orders, "order", "orders")}: amounts, items and status` +
      (kept.addresses > 0 ? `, ${many(kept.addresses, "with a delivery address", "with delivery addresses")}` : ""),
    `• ${many(kept.messages, "support message", "support messages")}`,
    ...(kept.note ? ["• A note the shop keeps about you, to serve you"] : []),
    ...(kept.broadcasts === null ? [] : [`• Announcements: ${kept.broadcasts ? "on (send /stop to turn them off)" : "off (send /start to turn them on)"}`]),
  ];
  const retention =
    settings.addressRetentionDays > 0
      ? `Delivery addresses are erased ${many(settings.addressRetentionDays, "day", "days")} after an order is completed or cancelled.`
      : "Delivery addresses are kept with their orders.";
  const text = [
    "My data",
    `What this shop keeps about you:\n${facts.join("\n")}`,
    retention,
    "Send /forgetme, or tap below, to erase your addresses, messages and username now. Amounts stay for the shop's accounts.",
  ].join("\n\n");
  await show(ctx, text, forgetKeyboard());
});

function forgetKeyboard() {
  return new InlineKeyboard().text(FORGET_BUTTON, data("forget")).row().text("« About", data("about")).text(MAIN_MENU_BUTTON, data("menu"));
}

export const FORGET_CONFIRM_TEXT =
  "Erase your data?\n\nThis erases your delivery addresses (an order still on its way keeps its address until it is dispatched), " +
  "your support messages and your username from this shop. Your orders' amounts stay for the shop's accounts. This cannot be undone.";

const confirmKeyboard = () => new InlineKeyboard().text(CONFIRM_FORGET_BUTTON, data("forget:yes")).row().text("Cancel", data("mydata"));

myDataFeature.command("forgetme", (ctx) => say(ctx, FORGET_CONFIRM_TEXT, confirmKeyboard()));
myDataFeature.callbackQuery("forget", (ctx) => show(ctx, FORGET_CONFIRM_TEXT, confirmKeyboard()));

myDataFeature.callbackQuery("forget:yes", async (ctx) => {
  const result = await forgetCustomer(ctx.deps.db, ctx.customerId, ctx.deps.now(), "customer");
  const lines = [
    "Done: your data is erased.",
    `${many(result.addressesErased, "address", "addresses")} and ${many(result.messagesErased, "message", "messages")} erased.`,
    ...(result.addressesKept > 0
      ? [`The address on ${many(result.addressesKept, "order", "orders")} still to be sent is kept until it is dispatched, then erased.`]
      : []),
  ];
  await show(ctx, lines.join("\n\n"), new InlineKeyboard().text(MAIN_MENU_BUTTON, data("menu")));
});
