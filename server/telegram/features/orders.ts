import { Composer, InlineKeyboard } from "grammy";
import { describeOrderStatus, listCustomerOrders } from "../../shop/customer-orders";
import { toPence } from "../../shop/pricing";
import type { BotContext } from "../context";
import { data, formatDate, gbp, MAIN_MENU_BUTTON, MENU, shortId, show } from "../ui";

// My Orders: the customer's recent orders and where each one is.

const RECENT_ORDERS = 10;

export const ordersFeature = new Composer<BotContext>();

export async function showOrders(ctx: BotContext): Promise<void> {
  const orders = await listCustomerOrders(ctx.deps.db, ctx.customerId, RECENT_ORDERS);
  const keyboard = new InlineKeyboard().text(MENU.browse, data("cats:0")).text(MAIN_MENU_BUTTON, data("menu"));
  if (orders.length === 0) {
    await show(ctx, `${MENU.orders}\n\nYou have no orders yet.`, keyboard);
    return;
  }
  const timeZone = ctx.deps.config.timeZone;
  const blocks = orders.map((order) =>
    [
      `Order #${shortId(order.id)} · ${formatDate(order.createdAt, timeZone)}`,
      `Total: ${gbp(toPence(order.totalAmount))}`,
      `Status: ${describeOrderStatus(order)}`,
      ...(order.trackingNumber ? [`Tracking number: ${order.trackingNumber}`] : []),
    ].join("\n"),
  );
  await show(ctx, [`${MENU.orders} (most recent first)`, ...blocks].join("\n\n"), keyboard);
}

ordersFeature.callbackQuery("orders", (ctx) => showOrders(ctx));
