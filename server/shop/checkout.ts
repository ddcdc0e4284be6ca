import { asc, eq, inArray } from "drizzle-orm";
import { CURRENCIES, ShippingAddressSchema, type Currency, type Order, type OrderItem } from "../../contract";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { cartItems, orderItems, orders, postageOptions, products } from "../db/schema";
import type { PayCoin } from "../payments/gateway";
import { consoleLogger, type PaymentLogger } from "../payments/ipn";
import { NOT_CONFIGURED_MESSAGE, paymentGatewayFor, type GatewayDeps } from "../payments/nowpayments";
import { conflict, invalid, ShopError, unavailable } from "./errors";
import { formatPence, toPence, unitPricePence } from "./pricing";
import { isUuid, shortOrderId } from "./ids";
import { toOrder } from "./orders";
import { getBotSettings } from "./settings";
import { releaseOrderStock, reserveStock } from "./stock";

// Checkout (DESIGN decisions 1-3): the order, its items, the stock reservation and the emptied
// cart are created in one transaction; then the payment is created at the gateway. If the
// gateway refuses, the order fails at once and its stock goes back on the shelf.

export const PAYMENT_WEBHOOK_PATH = "/api/payments/webhook";

export type CheckoutDeps = GatewayDeps & {
  db: Db;
  config: Pick<Config, "publicUrl" | "nowpaymentsApiUrl">;
  now: () => Date;
  logger?: PaymentLogger;
};

export type CheckoutInput = {
  telegramUserId: string;
  telegramUsername?: string | null;
  shippingAddress: { name: string; streetAddress: string; postcode: string; contact?: string | null };
  postageOptionId: string | null;
  coin: Currency;
};

export type CheckoutPayment = { payAddress: string; payAmount: string; payCurrency: string; expiresAt: string | null };
export type CheckoutResult = { order: Order; items: OrderItem[]; payment: CheckoutPayment };

/** numeric(10,2) holds at most 99,999,999.99. */
const MAX_TOTAL_PENCE = 9_999_999_999;

function toOrderItem(row: typeof orderItems.$inferSelect): OrderItem {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export async function checkout(deps: CheckoutDeps, input: CheckoutInput): Promise<CheckoutResult> {
  const { db } = deps;
  const logger = deps.logger ?? consoleLogger;

  // Everything that can be refused without touching stock is checked first.
  const address = ShippingAddressSchema.safeParse(input.shippingAddress);
  if (!address.success) throw invalid(`Please check the shipping address: ${address.error.issues[0]!.message}.`);
  if (!(CURRENCIES as readonly string[]).includes(input.coin)) throw invalid("Please choose BTC, LTC or XMR to pay with.");

  const gateway = paymentGatewayFor(deps);
  const settings = await getBotSettings(db, deps.secrets);
  if (!settings || !(await gateway.isConfigured())) throw unavailable(NOT_CONFIGURED_MESSAGE);
  if (!settings.acceptedCurrencies.includes(input.coin)) {
    throw invalid(`${input.coin} is not accepted. Please pay with ${settings.acceptedCurrencies.join(", ")}.`);
  }

  let postagePence = 0;
  if (input.postageOptionId !== null) {
    const [postage] = isUuid(input.postageOptionId)
      ? await db.select().from(postageOptions).where(eq(postageOptions.id, input.postageOptionId))
      : [];
    if (!postage || !postage.isActive) throw invalid("That postage option is no longer available. Please choose another.");
    postagePence = toPence(postage.price);
  }

  const coin = input.coin.toLowerCase() as PayCoin;
  const now = deps.now();
  const created = await db.transaction(async (tx) => {
    const cart = await tx
      .select({
        productId: cartItems.productId,
        quantity: cartItems.quantity,
        product: { name: products.name, price: products.price, bulkPricing: products.bulkPricing, isActive: products.isActive },
      })
      .from(cartItems)
      .innerJoin(products, eq(products.id, cartItems.productId))
      .where(eq(cartItems.telegramUserId, input.telegramUserId))
      .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
    if (cart.length === 0) throw invalid("Your cart is empty.");

    const lines = cart.map(({ productId, quantity, product }) => {
      if (!product.isActive) throw conflict(`${product.name} is no longer available. Please check your cart.`);
      return { productId, productName: product.name, quantity, unitPence: unitPricePence(product, quantity) };
    });
    const itemsPence = lines.reduce((sum, line) => sum + line.unitPence * line.quantity, 0);
    const totalPence = itemsPence + postagePence;
    if (totalPence > MAX_TOTAL_PENCE) throw invalid("This order is too large to pay in one go. Please split it into smaller orders.");

    const [order] = await tx
      .insert(orders)
      .values({
        telegramUserId: input.telegramUserId,
        telegramUsername: input.telegramUsername ?? null,
        status: "pending",
        paymentStatus: "waiting",
        currency: "GBP",
        totalAmount: formatPence(totalPence),
        paymentMethod: coin,
        shippingAddress: address.data,
        postageOptionId: input.postageOptionId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const items = await tx
      .insert(orderItems)
      .values(
        lines.map((line) => ({
          orderId: order!.id,
          productId: line.productId,
          productName: line.productName,
          quantity: line.quantity,
          price: formatPence(line.unitPence),
          createdAt: now,
        })),
      )
      .returning();
    // Conditional decrements: a line that cannot be had throws, naming the product, and the
    // transaction takes back everything above.
    await reserveStock(tx, lines);
    await tx.delete(cartItems).where(eq(cartItems.telegramUserId, input.telegramUserId));
    return { order: order!, items, totalPence, cart };
  });

  const { order, items } = created;
  const description = `Order #${shortOrderId(order.id)}: ${items.map((item) => `${item.quantity} x ${item.productName}`).join(", ")}`;
  let payment;
  try {
    payment = await gateway.createPayment({
      orderId: order.id,
      pricePence: created.totalPence,
      coin,
      description: description.length > 200 ? `${description.slice(0, 197)}...` : description,
      // Without a public address no IPN can reach us; the rescue sweep (payments/jobs.ts) then
      // settles the payment by polling the gateway instead.
      callbackUrl: deps.config.publicUrl ? deps.config.publicUrl + PAYMENT_WEBHOOK_PATH : undefined,
    });
  } catch (error) {
    await failUnpaidOrder(db, order.id, input.telegramUserId, created.cart, deps.now());
    if (error instanceof ShopError) {
      throw unavailable(`${error.message} Your order was cancelled and your cart kept, so you can try again.`);
    }
    logger.error({ orderId: order.id, err: error instanceof Error ? error.message : String(error) }, "creating the payment failed");
    throw error;
  }

  const [stored] = await db
    .update(orders)
    .set({
      paymentId: payment.paymentId,
      payAddress: payment.payAddress,
      payAmount: payment.payAmount,
      payCurrency: payment.payCurrency ?? coin,
      paymentExpiresAt: payment.expiresAt,
      updatedAt: deps.now(),
    })
    .where(eq(orders.id, order.id))
    .returning();
  return {
    order: toOrder(stored!),
    items: items.map(toOrderItem),
    payment: {
      payAddress: payment.payAddress!,
      payAmount: payment.payAmount!,
      payCurrency: payment.payCurrency ?? coin,
      expiresAt: payment.expiresAt?.toISOString() ?? null,
    },
  };
}

/** The gateway refused: the order fails, its stock goes back, and the cart is as it was. */
async function failUnpaidOrder(
  db: Db,
  orderId: string,
  telegramUserId: string,
  cart: { productId: string; quantity: number }[],
  now: Date,
) {
  await db.transaction(async (tx) => {
    await tx.update(orders).set({ status: "failed", paymentStatus: "failed", updatedAt: now }).where(eq(orders.id, orderId));
    await releaseOrderStock(tx, orderId, now);
    const stillSold = await tx
      .select({ id: products.id })
      .from(products)
      .where(inArray(products.id, cart.map((line) => line.productId)));
    const present = new Set(stillSold.map((row) => row.id));
    const restore = cart.filter((line) => present.has(line.productId));
    if (restore.length > 0) {
      await tx
        .insert(cartItems)
        .values(restore.map((line) => ({ telegramUserId, productId: line.productId, quantity: line.quantity })))
        .onConflictDoNothing();
    }
  });
}
