import { Composer, InlineKeyboard } from "grammy";
import { itemDisplayName, type OrderItem } from "../../../contract";
import { parcelLines, awaitingPayment, describeOrderStatus, getOrderItems, getPaymentDetails, listCustomerOrders } from "../../shop/orders";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import { toPence } from "../../shop/catalogue";
import type { BotContext } from "../context";
import { sendPaymentRequest } from "../payment-message";
import { data, formatDate, gbp, MAIN_MENU_BUTTON, MENU, say, shortId, show } from "../ui";

// My Orders: the customer's recent orders, where each one is, and for every order awaiting
// payment a "Payment details" button that sends the address, amount due and QR code again.

const RECENT_ORDERS = 10;
/** Items listed per order; the rest are counted, so ten orders fit in one message. */
const ITEMS_SHOWN = 3;

/** "• 2 × Acceptance Tee (M / Black)": each line as bought, with the variant it was bought as (issue 23). */
export function itemLines(items: readonly OrderItem[]): string[] {
  const shown = items
    .slice(0, ITEMS_SHOWN)
    .map((item) => `• ${item.quantity} × ${itemDisplayName(item.productName ?? "A product no longer listed", item.variantLabel)}`);
  const more = items.length - ITEMS_SHOWN;
  return more > 0 ? [...shown, `• and ${more} more ${more === 1 ? "item" : "items"}`] : shown;
}

export const ordersFeature = new Composer<BotContext>();

export async function showOrders(ctx: BotContext): Promise<void> {
  const orders = await listCustomerOrders(ctx.deps.db, ctx.customerId, RECENT_ORDERS);
  const keyboard = new InlineKeyboard();
  for (const order of awaitingPayment(orders)) {
    keyboard.text(`💳 Payment details #${shortId(order.id)}`, data(`paydet:${order.id}`)).row();
  }
  keyboard.text(MENU.browse, data("cats:0")).text(MAIN_MENU_BUTTON, data("menu"));
  if (orders.length === 0) {
    await show(ctx, `${MENU.orders}\n\nYou have no orders yet.`, keyboard);
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
      `Order #${shortId(order.id)} · ${formatDate(order.createdAt, timeZone)}`,
      `Total: ${gbp(toPence(order.totalAmount))}`,
      `Status: ${describeOrderStatus(order)}`,
      ...parcelLines(order),
      ...itemLines(items[i]!),
    ].join("\n"),
  );
  await show(ctx, [`${MENU.orders} (most recent first)`, ...blocks].join("\n\n"), keyboard);
}

ordersFeature.callbackQuery("orders", (ctx) => showOrders(ctx));

/** Sent as a new message, so the order list stays where it is and the details stay in the chat. */
ordersFeature.callbackQuery(new RegExp(`^paydet:(${UUID_SOURCE})$`), async (ctx) => {
  const details = await getPaymentDetails(ctx.deps.db, ctx.customerId, ctx.match[1]!);
  const heading = `Payment for order #${shortId(details.orderId)} (total ${gbp(toPence(details.totalAmount))})`;
  if (details.amountDue === null) {
    await say(
      ctx,
      `${heading}\n\nYour payment of ${details.payAmount} ${details.coin} was seen and is being confirmed. ` +
        `There is nothing more to send; we'll message you here once it is confirmed.`,
    );
    return;
  }
  const partly = details.paymentStatus === "partially_paid";
  await sendPaymentRequest(ctx, {
    heading: partly
      ? `${heading}\nWe received ${details.actuallyPaid ?? "part"} of ${details.payAmount} ${details.coin}. Please send the rest.`
      : heading,
    coin: details.coin,
    amount: details.amountDue,
    address: details.payAddress,
    deadline: details.deadline,
    checkoutUrl: details.checkoutUrl,
  });
});
