import { Composer, InlineKeyboard } from "grammy";
import { itemDisplayName } from "../../../contract";
import { awaitingPayment, getOrderItems, getPaymentDetails, listCustomerOrders, type OrderLine, orderStatusText, parcelLinesIn } from "../../shop/orders";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import { toPence } from "../../shop/catalogue";
import type { BotContext } from "../context";
import { sendPaymentRequest } from "../payment-message";
import type { Translator } from "../../shop/languages";
import { data, say, shortId, show } from "../ui";

// My Orders: the customer's recent orders, where each one is, and for every order awaiting
// payment a "Payment details" button that sends the address, amount due and QR code again.

const RECENT_ORDERS = 10;
/** Items listed per order; the rest are counted, so ten orders fit in one message. */
const ITEMS_SHOWN = 3;

/**
 * "• 2 × Acceptance Tee (M / Black)": each line as bought, with the variant it was bought as (issue 23),
 * under the name the customer saw when buying (shown_name: their language's), else the product's own.
 */
export function itemLines(items: readonly Pick<OrderLine, "quantity" | "productName" | "shownName" | "variantLabel">[], tr: Translator): string[] {
  const shown = items.slice(0, ITEMS_SHOWN).map((item) => {
    const name = item.shownName ?? item.productName ?? tr.t("order-item-unlisted");
    return tr.t("order-item", { quantity: item.quantity, name: itemDisplayName(name, item.variantLabel) });
  });
  const more = items.length - ITEMS_SHOWN;
  return more > 0 ? [...shown, tr.t("order-more-items", { count: more })] : shown;
}

export const ordersFeature = new Composer<BotContext>();

export async function showOrders(ctx: BotContext): Promise<void> {
  const orders = await listCustomerOrders(ctx.deps.db, ctx.customerId, RECENT_ORDERS);
  const keyboard = new InlineKeyboard();
  for (const order of awaitingPayment(orders)) {
    keyboard.text(ctx.t("orders-payment-button", { order: shortId(order.id) }), data(`paydet:${order.id}`)).row();
  }
  keyboard.text(ctx.t("menu-browse"), data("cats:0")).text(ctx.t("main-menu-button"), data("menu"));
  if (orders.length === 0) {
    await show(ctx, `${ctx.t("menu-orders")}\n\n${ctx.t("orders-none")}`, keyboard);
    return;
  }
  const timeZone = ctx.deps.config.timeZone;
  // An order deleted since the list was read (the retention job) lists no items rather than failing the screen.
  const items = await Promise.all(
    orders.map((order) =>
      getOrderItems(ctx.deps.db, order.id).catch((error: unknown) => {
        if (error instanceof ShopError && error.kind === "not_found") return [];
        throw error;
      }),
    ),
  );
  const blocks = orders.map((order, i) =>
    [
      ctx.t("order-heading", { order: shortId(order.id), date: ctx.tr.date(order.createdAt, timeZone) }),
      ctx.t("order-total", { amount: ctx.tr.price(toPence(order.totalAmount)) }),
      ctx.t("order-status", { status: ctx.tr.say(orderStatusText(order)) }),
      ...parcelLinesIn(order, ctx.tr),
      ...itemLines(items[i]!, ctx.tr),
    ].join("\n"),
  );
  await show(ctx, [ctx.t("orders-recent"), ...blocks].join("\n\n"), keyboard);
}

ordersFeature.callbackQuery("orders", (ctx) => showOrders(ctx));

/** Sent as a new message, so the order list stays where it is and the details stay in the chat. */
ordersFeature.callbackQuery(new RegExp(`^paydet:(${UUID_SOURCE})$`), async (ctx) => {
  const details = await getPaymentDetails(ctx.deps.db, ctx.customerId, ctx.match[1]!);
  const heading = ctx.t("payment-heading-total", { order: shortId(details.orderId), total: ctx.tr.price(toPence(details.totalAmount)) });
  if (details.amountDue === null) {
    await say(
      ctx,
      `${heading}\n\n${ctx.t("payment-seen", { amount: details.payAmount, coin: details.coin })}`,
    );
    return;
  }
  const partly = details.paymentStatus === "partially_paid";
  await sendPaymentRequest(ctx, {
    heading: partly
      ? `${heading}\n${ctx.t("payment-send-rest", { paid: details.actuallyPaid ?? ctx.t("payment-part"), amount: details.payAmount, coin: details.coin })}`
      : heading,
    coin: details.coin,
    amount: details.amountDue,
    address: details.payAddress,
    deadline: details.deadline,
    checkoutUrl: details.checkoutUrl,
  });
});
