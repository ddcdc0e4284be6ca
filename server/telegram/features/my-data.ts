import { Composer, InlineKeyboard } from "grammy";
import { describeCustomerData, forgetCustomer, getPrivacySettings } from "../../shop/privacy";
import type { BotContext } from "../context";
import { data, EN, say, show } from "../ui";

// "My data" under About, and /forgetme (issue 15, item 4): the customer sees what the shop keeps
// about them and can have it erased, after a confirmation. The rules are in shop/privacy/privacy.ts.

export const MY_DATA_BUTTON = EN.t("my-data-button");
export const FORGET_BUTTON = EN.t("forget-button");
export const CONFIRM_FORGET_BUTTON = EN.t("forget-confirm-button");

export const myDataFeature = new Composer<BotContext>();

myDataFeature.callbackQuery("mydata", async (ctx) => {
  const [kept, settings] = await Promise.all([describeCustomerData(ctx.deps.db, ctx.customerId), getPrivacySettings(ctx.deps.db)]);
  const t = ctx.t;
  const facts = [
    kept.username ? t("my-data-telegram-id-username", { username: kept.username }) : t("my-data-telegram-id"),
    kept.addresses > 0 ? t("my-data-orders-addresses", { count: kept.orders, addresses: kept.addresses }) : t("my-data-orders", { count: kept.orders }),
    t("my-data-messages", { count: kept.messages }),
    ...(kept.note ? [t("my-data-note")] : []),
    ...(kept.broadcasts === null ? [] : [t(kept.broadcasts ? "my-data-broadcasts-on" : "my-data-broadcasts-off")]),
  ];
  const retention =
    settings.addressRetentionDays > 0 ? t("my-data-retention", { days: settings.addressRetentionDays }) : t("my-data-kept-with-orders");
  const text = [t("my-data-title"), `${t("my-data-kept")}\n${facts.join("\n")}`, retention, t("my-data-forget-hint")].join("\n\n");
  await show(ctx, text, forgetKeyboard(ctx));
});

function forgetKeyboard(ctx: BotContext) {
  return new InlineKeyboard()
    .text(ctx.t("forget-button"), data("forget"))
    .row()
    .text(ctx.t("about-back-button"), data("about"))
    .text(ctx.t("main-menu-button"), data("menu"));
}

const forgetConfirmText = (ctx: { t: BotContext["t"] }) => `${ctx.t("forget-confirm")}\n\n${ctx.t("forget-confirm-details")}`;
export const FORGET_CONFIRM_TEXT = forgetConfirmText(EN);

const confirmKeyboard = (ctx: BotContext) =>
  new InlineKeyboard().text(ctx.t("forget-confirm-button"), data("forget:yes")).row().text(ctx.t("cancel-button"), data("mydata"));

myDataFeature.command("forgetme", (ctx) => say(ctx, forgetConfirmText(ctx), confirmKeyboard(ctx)));
myDataFeature.callbackQuery("forget", (ctx) => show(ctx, forgetConfirmText(ctx), confirmKeyboard(ctx)));

myDataFeature.callbackQuery("forget:yes", async (ctx) => {
  const result = await forgetCustomer(ctx.deps.db, ctx.customerId, ctx.deps.now(), "customer");
  const lines = [
    ctx.t("forget-done"),
    ctx.t("forget-erased", { addresses: result.addressesErased, messages: result.messagesErased }),
    ...(result.addressesKept > 0 ? [ctx.t("forget-kept", { orders: result.addressesKept })] : []),
  ];
  await show(ctx, lines.join("\n\n"), new InlineKeyboard().text(ctx.t("main-menu-button"), data("menu")));
});
