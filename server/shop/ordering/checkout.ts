import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, lt } from "drizzle-orm";
import { CURRENCIES, itemDisplayName, ShippingAddressSchema, type BotSettings, type Currency, type Language, type NameTranslations, type Order, type OrderChannel, type OrderItem } from "../../../contract";
import type { Config } from "../../config";
import type { SecretBox } from "../../crypto";
import type { Db, DbOrTx } from "../../db/client";
import { cartItems, orderItems, orders, postageOptions, products, productVariants } from "../../db/schema";
import { DEFAULT_GATEWAY_TIMEOUT_MS, NOT_CONFIGURED_MESSAGE, type PayCoin, type PaymentGateway } from "../payments";
import { conflict, type CustomerText, invalid, ShopError, unavailable, isUuid, shortOrderId, consoleLogger, type CustomerNotifier, pgErrorCode, type ShopLogger, UNIQUE_VIOLATION } from "../common";
import { holdCouponUse, recordOrderEvent, orderOf, paymentMessages, releaseOrderStock, reserveStock } from "../orders";
import { messageLanguageOf, translatorFor } from "../languages";
import { acceptSealedAddress, protectNewAddress } from "../vaults";
import { formatPence, toPence, variantUnitPricePence } from "../catalogue";
import { btcpayConfigured, getBotSettings, getPaymentGatewaySettings, type PaymentGatewaySettings } from "../settings";
import { isTestCustomer, simulationGateway } from "../simulator";
import { applyCoupon, CouponRefusedError } from "./coupons";
import { refusalMessage, refusalText } from "./coupon-rules";
import { MAX_CART_QUANTITY, shownItemName } from "./cart";
import { ensureRoomForUnpaidOrder } from "./unpaid-orders";

// Checkout (docs/product.md rules 1-3): the order, its items, the stock reservation and the emptied
// cart are created in one transaction; then the payment is created at the gateway. If the
// gateway refuses, the order fails at once and its stock goes back on the shelf.
//
// Prices are worked out in one place, priceCheckout: the bot's summary shows its quote, and
// checkout prices again inside its transaction, refusing when the total is not the one shown.

export const PAYMENT_WEBHOOK_PATH = "/api/payments/webhook";
/** Where the owner's BTCPay Server posts its webhook (issue 24; registered from Bot Settings). */
export const BTCPAY_WEBHOOK_PATH = "/api/payments/btcpay/webhook";

/** The product's name as the customer saw it, when their language gave it another (else null: the product's own). */
function shownNameOf(line: { productName: string; productTranslations?: NameTranslations | null }, language: Language | undefined): string | null {
  if (!language) return null;
  const shown = line.productTranslations?.[language]?.name?.trim();
  return shown && shown !== line.productName ? shown : null;
}

export const PAYMENTS_UNAVAILABLE_MESSAGE =
  "Payments are not available right now, so orders cannot be paid. Please try again later.";
/** The same in the customer's language, in the bot. */
export const PAYMENTS_UNAVAILABLE: CustomerText = { key: "refusal-payments-unavailable" };

export type CheckoutDeps = {
  db: Db;
  secrets: SecretBox;
  config: Pick<Config, "publicUrl">;
  /** The one gateway of the server (server/services.ts), or a test's. */
  gateway: PaymentGateway;
  now: () => Date;
  logger?: ShopLogger;
};

/**
 * A line to buy as the storefront sends it (issue 27): a product, and its variant unless the product
 * has no options (then its one hidden default variant, whose id is the product's).
 */
export type OrderLineInput = { productId: string; variantId?: string; quantity: number };

export type CheckoutInput = {
  telegramUserId: string;
  telegramUsername?: string | null;
  /** Required unless `sealedAddress` is given. */
  shippingAddress?: { name: string; streetAddress: string; postcode: string; contact?: string | null };
  /**
   * The address sealed to the owner's key in the customer's browser (the storefront with private
   * addresses on; shop/vaults acceptSealedAddress), stored as it is: the server never reads it.
   */
  sealedAddress?: string;
  /** The order's id, chosen by the storefront (a sealed address is bound to it); taken: 409. Else a new one. */
  orderId?: string;
  /**
   * The lines to buy instead of the customer's cart (the storefront): the cart is then neither read nor
   * emptied, and the order is placed from the storefront (placed_from), so it never goes back to the cart.
   */
  items?: readonly OrderLineInput[];
  postageOptionId: string | null;
  coin: Currency;
  /**
   * The total the customer was shown (quoteCheckout's totalPence). When given, a checkout whose
   * total came out different (a price, bulk tier, postage or stock changed since) creates nothing
   * and throws TotalChangedError, so a customer is never charged an amount they did not see.
   */
  quotedTotalPence?: number;
  /** The coupon the customer typed, if any: refused with CouponRefusedError saying why. */
  couponCode?: string | null;
  /**
   * The language the customer saw the products in (issue 26): a line keeps the name shown when it
   * differs from the product's own, and a refusal in that language (customerText) names it so.
   */
  language?: Language;
};

export type CheckoutPayment = {
  payAddress: string;
  payAmount: string;
  payCurrency: string;
  expiresAt: string | null;
  /** The gateway's own page for paying (BTCPay's invoice checkout link); absent for NOWPayments. */
  checkoutUrl?: string;
};
export type CheckoutResult = { order: Order; items: OrderItem[]; payment: CheckoutPayment };

export type QuoteInput = {
  telegramUserId: string;
  postageOptionId: string | null;
  coin?: Currency;
  couponCode?: string | null;
  /** The lines to price instead of the customer's cart (the storefront, issue 27). */
  items?: readonly OrderLineInput[];
  /** The customer's language (issue 26): a refusal in it (customerText) names a product as their catalogue does. */
  language?: Language;
};
export type QuoteLine = {
  productId: string;
  variantId: string;
  /** "Acceptance Tee (M / Black)": the line as the customer knows it. */
  name: string;
  /** The product's own name, as the order line keeps it. */
  productName: string;
  /** Its names in other languages, for the name an order line was shown under (issue 26). */
  productTranslations?: NameTranslations | null;
  /** The variant's label and SKU, kept on the order as bought (issue 23); "" and null for a product without options. */
  variantLabel: string;
  sku: string | null;
  quantity: number;
  unitPence: number;
  linePence: number;
};
export type CheckoutQuote = {
  lines: QuoteLine[];
  /** The items after their bulk tiers, before the coupon. */
  itemsPence: number;
  /** The coupon applied and what it takes off the items (never the postage). */
  coupon: { id: string; code: string; discountPence: number } | null;
  postage: { id: string; name: string; pricePence: number } | null;
  /** itemsPence - the coupon's discount + postage: what the gateway is asked for. */
  totalPence: number;
  /** The coins the customer may pay with: those accepted in Bot Settings whose gateway can take them (offeredCoins). */
  coins: Currency[];
};

/** The total changed between the summary the customer saw and their Confirm; nothing was created. */
export class TotalChangedError extends ShopError {
  constructor(
    readonly quotedPence: number,
    readonly totalPence: number,
  ) {
    super(
      "conflict",
      `The total changed from £${formatPence(quotedPence)} to £${formatPence(totalPence)} since you saw it ` +
        `(a price, a bulk discount, a coupon, the postage or the stock changed), so nothing was charged. ` +
        `Please check the new total below and confirm again.`,
    );
    this.name = "TotalChangedError";
  }
}

/** numeric(10,2) holds at most 99,999,999.99. */
const MAX_TOTAL_PENCE = 9_999_999_999;

/**
 * A pending order with no payment yet, older than this, was left by a crash between the order's
 * commit and the gateway's answer: a live checkout gives up on the gateway long before.
 */
export const ABANDONED_CHECKOUT_AFTER_MS = Math.max(5 * 60 * 1000, 2 * DEFAULT_GATEWAY_TIMEOUT_MS);

function toOrderItem(row: typeof orderItems.$inferSelect): OrderItem {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/** The coins offered to customers: the accepted ones, in the shop's order. None accepted means none offered. */
export function acceptedCoins(settings: Pick<BotSettings, "acceptedCurrencies"> | null): Currency[] {
  const accepted = settings?.acceptedCurrencies ?? [];
  return CURRENCIES.filter((coin) => accepted.includes(coin));
}

/**
 * The coins offered to customers (issue 24; docs/decisions/0035): the accepted ones, less those given to
 * BTCPay Server while it is not configured. A coin of NOWPayments is offered as before: without its key,
 * checkout answers that payments are not configured yet.
 */
export function offeredCoins(settings: Pick<BotSettings, "acceptedCurrencies"> | null, gateways: PaymentGatewaySettings): Currency[] {
  return acceptedCoins(settings).filter((coin) => gateways.coins[coin] !== "btcpay" || btcpayConfigured(gateways.btcpay));
}

/** offeredCoins with the gateways' settings read now: the coins the bot offers at checkout. */
export async function coinsOnOffer(deps: { db: DbOrTx; secrets: SecretBox }, settings: Pick<BotSettings, "acceptedCurrencies"> | null): Promise<Currency[]> {
  return offeredCoins(settings, await getPaymentGatewaySettings(deps.db, deps.secrets));
}

/** What pricing a line reads of its product and variant, from the cart (readCart) or given (readGivenLines). */
const pricedProductColumns = {
  name: products.name,
  price: products.price,
  bulkPricing: products.bulkPricing,
  isActive: products.isActive,
  categoryId: products.categoryId,
  translations: products.translations,
};
const pricedVariantColumns = { label: productVariants.label, sku: productVariants.sku, price: productVariants.price, isActive: productVariants.isActive };

/** Reads the customer's cart; `lock` holds its rows (FOR UPDATE) until the transaction ends. */
async function readCart(db: DbOrTx, telegramUserId: string, lock: boolean) {
  const query = db
    .select({
      productId: cartItems.productId,
      variantId: cartItems.variantId,
      quantity: cartItems.quantity,
      product: pricedProductColumns,
      variant: pricedVariantColumns,
    })
    .from(cartItems)
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.telegramUserId, telegramUserId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  return lock ? query.for("update", { of: cartItems }) : query;
}

const productGone = () => conflict("That product is no longer available.", { key: "refusal-product-gone" });

/**
 * The storefront's lines (issue 27) read as readCart reads the cart's, in the order given. A line
 * without a variant is its product's hidden default variant, refused when the product has options
 * (they must be chosen); a variant of another product is no product at all. Lines of one variant
 * add up, as "Add to cart" twice does in the bot. Stock is checked here, where the cart's is checked
 * when the cart is shown (getCart): the customer hears of it at the quote, not only at checkout, whose
 * reservation (reserveStock) stays the rule when two buy the last one at once.
 */
async function readGivenLines(db: DbOrTx, items: readonly OrderLineInput[], language: Language | undefined) {
  const wanted = new Map<string, { productId: string; variantId: string; quantity: number; chosen: boolean }>();
  for (const item of items) {
    const variantId = item.variantId ?? item.productId;
    if (!isUuid(item.productId) || !isUuid(variantId)) throw productGone();
    const line = wanted.get(variantId);
    if (line && line.productId !== item.productId) throw productGone();
    wanted.set(variantId, { productId: item.productId, variantId, quantity: (line?.quantity ?? 0) + item.quantity, chosen: item.variantId !== undefined || (line?.chosen ?? false) });
  }
  const lines = [...wanted.values()];
  if (lines.length === 0) return [];
  const rows = await db
    .select({
      productId: productVariants.productId,
      variantId: productVariants.id,
      product: { ...pricedProductColumns, options: products.options },
      variant: { ...pricedVariantColumns, stock: productVariants.stock },
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(productVariants.id, lines.map((line) => line.variantId)));
  const found = new Map(rows.map((row) => [row.variantId, row]));
  // One line after another: a refusal may read the product, and a transaction runs one query at a time.
  const read = [];
  for (const line of lines) {
    const row = found.get(line.variantId);
    if (!row || row.productId !== line.productId || (!line.chosen && row.product.options.length > 0)) {
      if (!line.chosen) {
        // No variant named: a product with options needs its options chosen first.
        const [product] = await db.select({ name: products.name, isActive: products.isActive }).from(products).where(eq(products.id, line.productId));
        if (product?.isActive) throw invalid(`Please choose the options of ${product.name} first.`, { key: "refusal-choose-options" });
      }
      throw productGone();
    }
    const name = itemDisplayName(row.product.name, row.variant.label);
    if (line.quantity > MAX_CART_QUANTITY) throw invalid(`The quantity can be at most ${MAX_CART_QUANTITY}.`, { key: "refusal-quantity-at-most", values: { max: String(MAX_CART_QUANTITY) } });
    // A line no longer sold is refused below, as a cart's is; one sold but short of stock here.
    if (row.product.isActive && row.variant.isActive && line.quantity > row.variant.stock) {
      const shownName = shownItemName(row.product, row.variant.label, language);
      throw row.variant.stock <= 0
        ? conflict(`${name} is out of stock.`, { key: "refusal-out-of-stock", values: { name: shownName } })
        : conflict(`Only ${row.variant.stock} left of ${name}.`, { key: "refusal-only-left", values: { name: shownName, stock: String(row.variant.stock) } });
    }
    read.push({ productId: row.productId, variantId: row.variantId, quantity: line.quantity, product: row.product, variant: row.variant });
  }
  return read;
}

/**
 * The one place an order is priced: lines at their bulk tier, then the coupon on the eligible lines
 * (docs/decisions/0030-coupons.md), postage, total, and the coins on offer.
 */
async function priceCheckout(
  db: DbOrTx,
  settings: BotSettings | null,
  input: QuoteInput,
  options: { lockCart: boolean; now: Date; gateways: PaymentGatewaySettings },
): Promise<CheckoutQuote> {
  const coins = offeredCoins(settings, options.gateways);
  if (coins.length === 0) throw unavailable(PAYMENTS_UNAVAILABLE_MESSAGE, PAYMENTS_UNAVAILABLE);
  if (input.coin !== undefined && !coins.includes(input.coin)) {
    throw invalid(`${input.coin} is not accepted. Please pay with ${coins.join(", ")}.`, { key: "refusal-coin-not-accepted", values: { coin: input.coin, coins: coins.join(", ") } });
  }

  let postage: CheckoutQuote["postage"] = null;
  if (input.postageOptionId !== null) {
    const [option] = isUuid(input.postageOptionId)
      ? await db.select().from(postageOptions).where(eq(postageOptions.id, input.postageOptionId))
      : [];
    if (!option || !option.isActive) throw invalid("That postage option is no longer available. Please choose another.", { key: "refusal-postage-gone" });
    postage = { id: option.id, name: option.name, pricePence: toPence(option.price) };
  }

  const cart = input.items ? await readGivenLines(db, input.items, input.language) : await readCart(db, input.telegramUserId, options.lockCart);
  if (cart.length === 0) throw invalid("Your cart is empty.", { key: "refusal-cart-empty" });
  // Bulk tiers count every variant of a product in the cart (docs/decisions/0034-product-variants.md).
  const perProduct = new Map<string, number>();
  for (const line of cart) perProduct.set(line.productId, (perProduct.get(line.productId) ?? 0) + line.quantity);
  const priced = cart.map(({ productId, variantId, quantity, product, variant }) => {
    const name = itemDisplayName(product.name, variant.label);
    if (!product.isActive || !variant.isActive) {
      throw conflict(`${name} is no longer available. Please check your cart.`, { key: "refusal-item-gone", values: { name: shownItemName(product, variant.label, input.language) } });
    }
    const unitPence = variantUnitPricePence(product, variant.price, perProduct.get(productId)!);
    return {
      productId,
      variantId,
      name,
      productName: product.name,
      productTranslations: product.translations,
      variantLabel: variant.label,
      sku: variant.sku,
      quantity,
      unitPence,
      linePence: unitPence * quantity,
      categoryId: product.categoryId,
    };
  });
  const lines = priced.map(({ categoryId: _categoryId, ...line }) => line);
  const itemsPence = lines.reduce((sum, line) => sum + line.linePence, 0);
  const coupon = input.couponCode
    ? await applyCoupon(db, input.couponCode, { telegramUserId: input.telegramUserId, lines: priced, itemsPence }, options.now)
    : null;
  const totalPence = itemsPence - (coupon?.discountPence ?? 0) + (postage?.pricePence ?? 0);
  if (totalPence > MAX_TOTAL_PENCE) throw invalid("This order is too large to pay in one go. Please split it into smaller orders.", { key: "refusal-order-too-large" });
  return { lines, itemsPence, coupon, postage, totalPence, coins };
}

/**
 * What the customer's cart costs now with this postage (and coin, when chosen): the summary the
 * bot shows before Confirm. Pass its totalPence to checkout as quotedTotalPence.
 */
export async function quoteCheckout(deps: { db: DbOrTx; secrets: SecretBox; now?: () => Date }, input: QuoteInput): Promise<CheckoutQuote> {
  const settings = await getBotSettings(deps.db, deps.secrets);
  const gateways = await getPaymentGatewaySettings(deps.db, deps.secrets);
  return priceCheckout(deps.db, settings, input, { lockCart: false, now: deps.now?.() ?? new Date(), gateways });
}

/** "Order #abcd1234, 3 items": ASCII only, so the gateway's signed echo of it verifies however it is encoded. */
export function orderDescription(orderId: string, itemCount: number): string {
  return `Order #${shortOrderId(orderId)}, ${itemCount} ${itemCount === 1 ? "item" : "items"}`;
}

export async function checkout(deps: CheckoutDeps, input: CheckoutInput): Promise<CheckoutResult> {
  const { db } = deps;
  const logger = deps.logger ?? consoleLogger;

  // Everything that can be refused without touching stock is checked first.
  const address = input.sealedAddress === undefined ? ShippingAddressSchema.safeParse(input.shippingAddress) : null;
  if (address && !address.success) throw invalid(`Please check the shipping address: ${address.error.issues[0]!.message}.`, { key: "refusal-address" });
  const sealedAddress = input.sealedAddress === undefined ? null : await acceptSealedAddress(db, input.sealedAddress);
  if (input.orderId !== undefined && !isUuid(input.orderId)) throw invalid("The order id must be a valid id.");
  if (!(CURRENCIES as readonly string[]).includes(input.coin)) throw invalid("Please choose BTC, LTC or XMR to pay with.", { key: "refusal-choose-coin" });

  // The test customer's checkout is simulated (docs/decisions/0023): its payment never reaches the
  // gateway, and no one else's can be simulated.
  const testOrder = isTestCustomer(input.telegramUserId);
  const gateway = testOrder ? simulationGateway : deps.gateway;
  const settings = await getBotSettings(db, deps.secrets);
  const gateways = await getPaymentGatewaySettings(db, deps.secrets);
  const coin = input.coin.toLowerCase() as PayCoin;
  // The coin's own gateway (issue 24): BTC may go to BTCPay Server while LTC goes to NOWPayments.
  if (!settings || !(await gateway.isConfigured(coin))) throw unavailable(NOT_CONFIGURED_MESSAGE, { key: "refusal-payments-not-configured" });

  const now = deps.now();
  const created = await db.transaction(async (tx) => {
    // First, under a lock on the customer held to the commit: at most MAX_UNPAID_ORDERS orders
    // waiting for their payment (unpaid-orders.ts), however many checkouts they start at once.
    await ensureRoomForUnpaidOrder(tx, input.telegramUserId);
    // The cart rows stay locked until this transaction ends: a second Confirm at the same moment
    // waits here, then finds the cart emptied and creates nothing. (Given items lock nothing: a
    // storefront order sent twice is two orders, unless it names its id, as the Mini App's orders always do.)
    const quote = await priceCheckout(tx, settings, input, { lockCart: true, now, gateways });
    if (input.quotedTotalPence !== undefined && quote.totalPence !== input.quotedTotalPence) {
      throw new TotalChangedError(input.quotedTotalPence, quote.totalPence);
    }

    // The id is chosen here (or by the storefront, so that its retries name one order): the encrypted (or
    // owner-sealed) address is bound to it (address-vault.ts).
    const orderId = input.orderId ?? crypto.randomUUID();
    const [order] = await insertOrder(tx, {
        id: orderId,
        ...(sealedAddress ?? (await protectNewAddress(tx, orderId, address!.data!))),
        telegramUserId: input.telegramUserId,
        telegramUsername: input.telegramUsername ?? null,
        status: "pending",
        paymentStatus: "waiting",
        currency: "GBP",
        totalAmount: formatPence(quote.totalPence),
        paymentMethod: coin,
        postageOptionId: quote.postage?.id ?? null,
        // A snapshot: the order keeps what it was sent with, whatever happens to the option later.
        postageName: quote.postage?.name ?? null,
        postagePrice: quote.postage ? formatPence(quote.postage.pricePence) : null,
        isTest: testOrder,
        // Where its lines came from decides where they go back if it fails without a payment.
        placedFrom: placedFromOf(input),
        couponCode: quote.coupon?.code ?? null,
        discountAmount: formatPence(quote.coupon?.discountPence ?? 0),
        couponId: quote.coupon?.id ?? null,
        couponUse: quote.coupon ? "held" : null,
        createdAt: now,
        updatedAt: now,
      });
    const items = await tx
      .insert(orderItems)
      .values(
        quote.lines.map((line) => ({
          orderId: order!.id,
          productId: line.productId,
          // The product's own name, as before variants; the variant's label and SKU beside it, as bought.
          productName: line.productName,
          shownName: shownNameOf(line, input.language),
          variantId: line.variantId,
          variantLabel: line.variantLabel === "" ? null : line.variantLabel,
          sku: line.sku,
          quantity: line.quantity,
          price: formatPence(line.unitPence),
          createdAt: now,
        })),
      )
      .returning();
    // Conditional decrements: a line that cannot be had throws, naming the product, and the
    // transaction takes back everything above.
    await reserveStock(
      tx,
      quote.lines.map((line) => ({
        ...line,
        productName: line.name,
        shownName: shownItemName({ name: line.productName, translations: line.productTranslations }, line.variantLabel, input.language),
      })),
    );
    // The coupon's use is held last, with one conditional UPDATE of its row: parallel checkouts for
    // its last use queue there, and the ones that find it gone create nothing.
    if (quote.coupon && !(await holdCouponUse(tx, quote.coupon.id, now))) {
      throw new CouponRefusedError({ reason: "used-up", message: refusalMessage("used-up", quote.coupon.code), customerText: refusalText("used-up", quote.coupon.code) });
    }
    if (!input.items) await tx.delete(cartItems).where(eq(cartItems.telegramUserId, input.telegramUserId));
    return { order: order!, items, quote };
  });

  const { order, items, quote } = created;
  const itemCount = quote.lines.reduce((sum, line) => sum + line.quantity, 0);
  let payment;
  try {
    payment = await gateway.createPayment({
      orderId: order.id,
      pricePence: quote.totalPence,
      coin,
      description: orderDescription(order.id, itemCount),
      // Without a public address no IPN can reach us; the rescue sweep (payments/jobs.ts) then
      // settles the payment by polling the gateway instead.
      callbackUrl: deps.config.publicUrl ? deps.config.publicUrl + PAYMENT_WEBHOOK_PATH : undefined,
    });
  } catch (error) {
    await failCheckoutWithoutPayment(db, order.id, deps.now(), "The payment service refused or did not answer, so no payment was created.");
    if (error instanceof ShopError) {
      throw unavailable(`${error.message} Your order was cancelled and your cart kept, so you can try again.`, { key: "refusal-payment-not-created" });
    }
    logger.error({ orderId: order.id, err: error instanceof Error ? error.message : String(error) }, "creating the payment failed");
    throw error;
  }

  // Only while the order still waits for its payment: if the abandoned-checkout sweep gave up on
  // it meanwhile (the gateway took minutes), the order stays failed and the customer tries again.
  const [stored] = await db
    .update(orders)
    .set({
      paymentId: payment.paymentId,
      payAddress: payment.payAddress,
      payAmount: payment.payAmount,
      payCurrency: payment.payCurrency ?? coin,
      paymentExpiresAt: payment.expiresAt,
      // Which gateway to ask about it later (the rescue sweep); a test order's simulated payment has none.
      paymentGateway: payment.gateway ?? null,
      paymentCheckoutUrl: payment.checkoutUrl ?? null,
      updatedAt: deps.now(),
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, "pending"), isNull(orders.paymentId)))
    .returning();
  if (!stored) {
    logger.warn({ orderId: order.id, paymentId: payment.paymentId }, "a payment was created for an order already given up on");
    throw unavailable("Creating your payment took too long, so your order was cancelled and your cart kept. Please try again.", { key: "refusal-payment-too-slow" });
  }
  return {
    order: await orderOf(db, stored),
    items: items.map(toOrderItem),
    payment: {
      payAddress: payment.payAddress!,
      payAmount: payment.payAmount!,
      payCurrency: payment.payCurrency ?? coin,
      expiresAt: payment.expiresAt?.toISOString() ?? null,
      ...(payment.checkoutUrl ? { checkoutUrl: payment.checkoutUrl } : {}),
    },
  };
}

/** Where an order of this checkout is placed: given lines come from the storefront, the cart's from the bot. */
function placedFromOf(input: Pick<CheckoutInput, "items">): OrderChannel {
  return input.items ? "storefront" : "bot";
}

/** What failCheckoutWithoutPayment did, for the one who tells the customer; null when someone else did it first. */
type FailedCheckout = { telegramUserId: string; placedFrom: OrderChannel };

/**
 * An order that never got its payment fails: its stock goes back (once) and, for an order placed in
 * the bot, its items return to the customer's cart. Claimed with one conditional UPDATE, so when the
 * checkout's own failure path and the abandoned-checkout sweep meet, only one of them does this.
 */
async function failCheckoutWithoutPayment(db: Db, orderId: string, now: Date, why: string): Promise<FailedCheckout | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(orders)
      .set({ status: "failed", paymentStatus: "failed", updatedAt: now })
      .where(
        and(eq(orders.id, orderId), eq(orders.status, "pending"), isNull(orders.paymentId), eq(orders.paymentStatus, "waiting")),
      )
      .returning({ telegramUserId: orders.telegramUserId, placedFrom: orders.placedFrom });
    if (!claimed) return null;
    await releaseOrderStock(tx, orderId, now);
    // A storefront order's items were never in the bot's cart: they stay out of it (the Mini App keeps its own).
    if (claimed.placedFrom === "bot") await restoreCart(tx, orderId, claimed.telegramUserId);
    const after =
      claimed.placedFrom === "bot"
        ? "The order failed, its items are back on sale and back in the customer's cart in the bot."
        : "The order failed and its items are back on sale; it was placed in the storefront, so the customer's cart in the bot was left as it was.";
    await recordOrderEvent(tx, { orderId, actor: "system", action: "payment_failed", detail: `${why} ${after}` }, now);
    return claimed;
  });
}

/** Puts an order's items back in the customer's cart; variants deleted since are left out, lines already there kept as they are. */
async function restoreCart(tx: DbOrTx, orderId: string, telegramUserId: string) {
  const items = await tx
    .select({ productId: orderItems.productId, variantId: orderItems.variantId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  if (items.length === 0) return;
  const lines = items.map((item) => ({ ...item, variantId: item.variantId ?? item.productId }));
  const stillSold = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(inArray(productVariants.id, lines.map((item) => item.variantId)));
  const present = new Set(stillSold.map((row) => row.id));
  const restore = lines.filter((item) => present.has(item.variantId));
  if (restore.length > 0) {
    await tx
      .insert(cartItems)
      .values(restore.map((item) => ({ telegramUserId, productId: item.productId, variantId: item.variantId, quantity: item.quantity })))
      .onConflictDoNothing();
  }
}

/** Inserts the new order; an id already taken (the storefront chose it) is refused, not a database error. */
async function insertOrder(tx: DbOrTx, values: typeof orders.$inferInsert) {
  try {
    return await tx.insert(orders).values(values).returning();
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw conflict("An order with this id exists already. Reload the shop and try again.");
    throw error;
  }
}

export type AbandonedCheckoutDeps = {
  db: Db;
  notifier: CustomerNotifier;
  now: () => Date;
  logger?: Pick<ShopLogger, "warn">;
};

/**
 * A crash between the order's commit and the gateway's answer leaves a pending order with no
 * payment, which nothing would ever settle. Such orders older than ABANDONED_CHECKOUT_AFTER_MS
 * fail here: stock released once, a bot order's cart restored, the customer told in their language
 * what to do next where they ordered. Answers their ids.
 */
export async function settleAbandonedCheckouts(deps: AbandonedCheckoutDeps): Promise<string[]> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - ABANDONED_CHECKOUT_AFTER_MS);
  const candidates = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, "pending"), isNull(orders.paymentId), eq(orders.paymentStatus, "waiting"), lt(orders.createdAt, cutoff)));
  const settled: string[] = [];
  for (const order of candidates) {
    const failed = await failCheckoutWithoutPayment(
      deps.db,
      order.id,
      now,
      "The checkout was interrupted before its payment was created, so no payment exists.",
    );
    if (!failed) continue; // settled by someone else meanwhile
    settled.push(order.id);
    // The order stays failed whether or not the customer hears of it; a failure to tell them is logged.
    const tellCustomer = async () => {
      const tr = translatorFor(await messageLanguageOf(deps.db, failed.telegramUserId));
      await deps.notifier.sendMessage(failed.telegramUserId, paymentMessages.checkoutAbandoned({ orderId: order.id, placedFrom: failed.placedFrom }, tr));
    };
    await tellCustomer().catch((error: unknown) => {
      (deps.logger ?? consoleLogger).warn(
        { orderId: order.id, err: error instanceof Error ? error.message : String(error) },
        "the customer could not be told about their order",
      );
    });
  }
  return settled;
}
