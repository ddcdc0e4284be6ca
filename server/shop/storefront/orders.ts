import { asc, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  CURRENCIES,
  type Currency,
  itemDisplayName,
  type Language,
  type StorefrontCheckout,
  type StorefrontOrder,
  type StorefrontOrderInputSchema,
  type StorefrontPayment,
  type StorefrontQuote,
  type StorefrontQuoteInputSchema,
  trackingUrl,
} from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { orderItems } from "../../db/schema";
import { formatPence, listPostageOptions, toPence } from "../catalogue";
import { notFound, shortOrderId } from "../common";
import { localizedName, translatorFor, type Translator } from "../languages";
import { amountDueOf, type CustomerOrder, getCustomerOrder, listCustomerOrders, orderStatusText, paymentDeadline, paymentUri } from "../orders";
import { assertMayOrderMore, checkout, type CheckoutDeps, quoteCheckout } from "../ordering";
import type { StorefrontCustomer } from "./customer";

type QuoteInput = z.output<typeof StorefrontQuoteInputSchema>;
type OrderInput = z.output<typeof StorefrontOrderInputSchema>;

// The storefront's orders (issue 27): priced and placed by the bot's own checkout (shop/ordering),
// from the lines the Mini App sends instead of the bot's cart, and shown as My Orders shows them.

/** How many of their orders the storefront lists, newest first. */
export const STOREFRONT_ORDERS_SHOWN = 20;

const isCurrency = (coin: string): coin is Currency => (CURRENCIES as readonly string[]).includes(coin);

function paymentView(payment: { coin: string; address: string; amount: string; deadline: Date; checkoutUrl: string | null }): StorefrontPayment | null {
  const coin = payment.coin.toUpperCase();
  if (!isCurrency(coin)) return null;
  return {
    address: payment.address,
    amount: payment.amount,
    coin,
    expiresAt: payment.deadline.toISOString(),
    uri: paymentUri(coin, payment.address, payment.amount),
    checkoutUrl: payment.checkoutUrl,
  };
}

/**
 * What to pay while the order waits for its payment: the whole amount, or after a short payment the
 * rest (as the bot's "Payment details"); null once paid, failed or expired, and while a payment seen
 * is being confirmed.
 */
function awaitedPayment(order: CustomerOrder): StorefrontPayment | null {
  if (order.status !== "pending" || !order.payAddress || !order.payAmount) return null;
  const amount = amountDueOf({ ...order, payAmount: order.payAmount });
  if (amount === null) return null;
  return paymentView({
    coin: order.payCurrency ?? order.paymentMethod ?? "",
    address: order.payAddress,
    amount,
    deadline: paymentDeadline(order),
    checkoutUrl: order.paymentCheckoutUrl,
  });
}

type ItemRow = Pick<typeof orderItems.$inferSelect, "orderId" | "productName" | "shownName" | "variantLabel" | "quantity" | "price">;

async function itemsOf(db: DbOrTx, orderIds: string[]): Promise<Map<string, ItemRow[]>> {
  const found = new Map<string, ItemRow[]>();
  if (orderIds.length === 0) return found;
  const rows = await db
    .select({
      orderId: orderItems.orderId,
      productName: orderItems.productName,
      shownName: orderItems.shownName,
      variantLabel: orderItems.variantLabel,
      quantity: orderItems.quantity,
      price: orderItems.price,
    })
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    // As getOrderItems orders an order's lines (shop/orders): inserted together, so by name.
    .orderBy(asc(orderItems.createdAt), sql`nullif(${orderItems.productName}, '') asc nulls last`, asc(orderItems.id));
  for (const row of rows) found.set(row.orderId, [...(found.get(row.orderId) ?? []), row]);
  return found;
}

function orderView(order: CustomerOrder, items: ItemRow[], tr: Translator): StorefrontOrder {
  return {
    id: order.id,
    reference: `#${shortOrderId(order.id)}`,
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    statusText: tr.say(orderStatusText(order)),
    total: formatPence(toPence(order.totalAmount)),
    // Each line under the name the customer saw when buying (shown_name), as My Orders lists it.
    items: items.map((item) => ({
      name: itemDisplayName(item.shownName ?? item.productName ?? tr.t("order-item-unlisted"), item.variantLabel),
      quantity: item.quantity,
      price: formatPence(toPence(item.price)),
    })),
    payment: awaitedPayment(order),
    trackingNumber: order.trackingNumber,
    carrier: order.carrier,
    trackingUrl: trackingUrl(order.carrier, order.trackingNumber),
  };
}

/** The customer's latest orders, newest first. */
export async function listStorefrontOrders(db: DbOrTx, telegramUserId: string, language: Language): Promise<StorefrontOrder[]> {
  const orders = await listCustomerOrders(db, telegramUserId, STOREFRONT_ORDERS_SHOWN);
  const items = await itemsOf(
    db,
    orders.map((order) => order.id),
  );
  const tr = translatorFor(language);
  return orders.map((order) => orderView(order, items.get(order.id) ?? [], tr));
}

/** One of the customer's own orders; someone else's is "not found", exactly as an unknown id. */
export async function getStorefrontOrder(db: DbOrTx, telegramUserId: string, orderId: string, language: Language): Promise<StorefrontOrder> {
  const order = await getCustomerOrder(db, telegramUserId, orderId);
  if (!order) throw notFound("That order was not found.", { key: "refusal-order-not-found" });
  const items = await itemsOf(db, [order.id]);
  return orderView(order, items.get(order.id) ?? [], translatorFor(language));
}

/** The chosen postage option's name in the customer's language, as the bot's summary names it. */
async function postageName(db: DbOrTx, id: string, name: string, language: Language): Promise<string> {
  const option = (await listPostageOptions(db)).find((candidate) => candidate.id === id);
  return option ? localizedName(option, language) : name;
}

/**
 * What these lines cost now with this postage and coupon: the bot's summary, priced by the same
 * quoteCheckout. A customer who may not order more (docs/decisions/0040) hears it here, as the
 * checkout screen opens, rather than after typing their address.
 */
export async function quoteStorefrontOrder(
  deps: { db: DbOrTx; secrets: CheckoutDeps["secrets"]; now: () => Date },
  customer: StorefrontCustomer,
  input: QuoteInput,
  language: Language,
): Promise<StorefrontQuote> {
  await assertMayOrderMore(deps.db, customer.telegramUserId);
  const quote = await quoteCheckout(deps, {
    telegramUserId: customer.telegramUserId,
    items: input.items,
    postageOptionId: input.postageOptionId,
    coin: input.coin,
    couponCode: input.couponCode || null,
    language,
  });
  return {
    lines: quote.lines.map((line) => ({
      productId: line.productId,
      variantId: line.variantId,
      name: itemDisplayName(localizedName({ name: line.productName, translations: line.productTranslations }, language), line.variantLabel),
      quantity: line.quantity,
      unitPrice: formatPence(line.unitPence),
      lineTotal: formatPence(line.linePence),
    })),
    itemsTotal: formatPence(quote.itemsPence),
    coupon: quote.coupon ? { code: quote.coupon.code, discount: formatPence(quote.coupon.discountPence) } : null,
    postage: quote.postage
      ? { id: quote.postage.id, name: await postageName(deps.db, quote.postage.id, quote.postage.name, language), price: formatPence(quote.postage.pricePence) }
      : null,
    total: formatPence(quote.totalPence),
    coins: quote.coins,
  };
}

/**
 * The order and its payment, by the bot's checkout (shop/ordering/checkout.ts): the same stock
 * reservation, bulk tiers, coupon hold, gateway and quoted-total check; the bot's cart is left alone.
 * A sealed address is stored as it came (the server never reads it); a plain one is kept as the bot
 * keeps it, sealed by the server to the owner's key while private addresses are on.
 */
export async function placeStorefrontOrder(
  deps: CheckoutDeps,
  customer: StorefrontCustomer,
  input: OrderInput,
  language: Language,
): Promise<StorefrontCheckout> {
  const result = await checkout(deps, {
    telegramUserId: customer.telegramUserId,
    telegramUsername: customer.username,
    ...(input.sealedAddress !== undefined ? { sealedAddress: input.sealedAddress } : { shippingAddress: input.address }),
    ...(input.orderId !== undefined ? { orderId: input.orderId } : {}),
    items: input.items,
    postageOptionId: input.postageOptionId,
    coin: input.coin,
    couponCode: input.couponCode || null,
    ...(input.quotedTotal !== undefined ? { quotedTotalPence: toPence(input.quotedTotal) } : {}),
    language,
  });
  const order = await getStorefrontOrder(deps.db, customer.telegramUserId, result.order.id, language);
  const payment = paymentView({
    coin: input.coin,
    address: result.payment.payAddress,
    amount: result.payment.payAmount,
    deadline: paymentDeadline({ createdAt: new Date(result.order.createdAt), paymentExpiresAt: result.payment.expiresAt ? new Date(result.payment.expiresAt) : null }),
    checkoutUrl: result.payment.checkoutUrl ?? null,
  })!;
  return { order, payment };
}
