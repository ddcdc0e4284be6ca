import { z } from "zod";
import { CurrencySchema, TimestampSchema } from "./common";
import { IdSchema, MoneyTextSchema } from "./fields";
import { LanguageSchema } from "./languages";
import { MessageTextSchema } from "./messages";
import { OrderStatusSchema, ShippingAddressSchema } from "./orders";

// The storefront inside Telegram (issue 27; docs/decisions/0039-mini-app-storefront.md): the shapes
// of /api/storefront/*, shared by the server and the Mini App (web/storefront/). No admin session:
// every call carries Telegram's signed init data in `Authorization: tma <initData>`, and the
// customer is the user it names. Texts (names, descriptions, statuses) come in the customer's language.

/** The Authorization scheme of every storefront call: `Authorization: tma <raw init data>`. */
export const STOREFRONT_AUTH_SCHEME = "tma";
/** Init data older than this is refused (401): a day, as Telegram's documentation suggests. */
export const INIT_DATA_MAX_AGE_SECONDS = 86_400;
/** Where the Mini App is served, under PUBLIC_URL. */
export const STOREFRONT_PATH = "/shop/";
/** At most this many lines in one storefront order (and one quote). */
export const STOREFRONT_MAX_LINES = 50;

export const STOCK_STATES = ["in_stock", "low_stock", "out_of_stock"] as const;
export const StockStateSchema = z.enum(STOCK_STATES);
export type StockState = z.infer<typeof StockStateSchema>;

export const StorefrontVariantSchema = z
  .object({
    id: IdSchema,
    /** "M / Black"; "" for the hidden default variant of a product without options. */
    label: z.string(),
    optionValues: z.record(z.string(), z.string()),
    /** The unit price before bulk tiers: the variant's own, else the product's. */
    price: MoneyTextSchema,
    stockState: StockStateSchema,
    /** How many are left, only while stock is low (the bot's "Only 2 left"); null otherwise. */
    left: z.int().nullable(),
    imageUrl: z.string().nullable(),
  })
  .meta({ id: "StorefrontVariant" });
export type StorefrontVariant = z.infer<typeof StorefrontVariantSchema>;

export const StorefrontProductSchema = z
  .object({
    id: IdSchema,
    /** In the customer's language, falling back to the shop's default. */
    name: z.string(),
    description: z.string(),
    categoryId: IdSchema.nullable(),
    /** The product's price (its cheapest variant may differ: see variants). */
    price: MoneyTextSchema,
    /** /objects/ paths on this server, the main photo first. */
    imageUrls: z.array(z.string()),
    /** Tiers by ascending minQuantity, counted over all of the product's variants in the cart; null without. */
    bulkPricing: z.array(z.object({ minQuantity: z.int(), price: MoneyTextSchema })).nullable(),
    /** [] for a product sold in one kind (then variants holds its one hidden default variant). */
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    /** The active variants only. */
    variants: z.array(StorefrontVariantSchema),
    /** The product's as a whole: out of stock when every variant is. */
    stockState: StockStateSchema,
  })
  .meta({ id: "StorefrontProduct" });
export type StorefrontProduct = z.infer<typeof StorefrontProductSchema>;

export const StorefrontCategorySchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    /** null for a main category. */
    parentId: IdSchema.nullable(),
  })
  .meta({ id: "StorefrontCategory" });
export type StorefrontCategory = z.infer<typeof StorefrontCategorySchema>;

export const StorefrontPostageSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    description: z.string().nullable(),
    price: MoneyTextSchema,
    estimatedDays: z.int().nullable(),
  })
  .meta({ id: "StorefrontPostage" });
export type StorefrontPostage = z.infer<typeof StorefrontPostageSchema>;

/** GET /api/storefront/catalogue: the active catalogue, and what checkout offers. */
export const StorefrontCatalogueSchema = z
  .object({
    /** The language the texts are in (the customer's, as the bot chooses it). */
    language: LanguageSchema,
    categories: z.array(StorefrontCategorySchema),
    products: z.array(StorefrontProductSchema),
    postageOptions: z.array(StorefrontPostageSchema),
    /** The coins checkout offers now; [] when payments are not available. */
    coins: z.array(CurrencySchema),
    /**
     * The owner's public key while owner-only addresses are on (contract/owner-seal.ts): the Mini App
     * seals the address to it before sending (sealedAddress), so this server never reads it. null when off.
     */
    ownerPublicKey: z.string().nullable(),
  })
  .meta({ id: "StorefrontCatalogue" });
export type StorefrontCatalogue = z.infer<typeof StorefrontCatalogueSchema>;

export const StorefrontLineInputSchema = z.strictObject({
  productId: z.uuid({ message: "must be a valid id" }),
  /** Required when the product has options; left out for a product sold in one kind. */
  variantId: z.uuid({ message: "must be a valid id" }).optional(),
  quantity: z.int("Quantity must be a whole number").min(1, "Quantity must be at least 1").max(999, "Quantity must be at most 999"),
});
export type StorefrontLineInput = z.infer<typeof StorefrontLineInputSchema>;

const storefrontLines = z
  .array(StorefrontLineInputSchema)
  .min(1, "Your cart is empty.")
  .max(STOREFRONT_MAX_LINES, `At most ${STOREFRONT_MAX_LINES} lines in one order`);

const couponCode = z.string().trim().max(64, "Coupon code must be at most 64 characters").optional();

/** POST /api/storefront/quote: what these items cost with this postage and coupon, before ordering. */
export const StorefrontQuoteInputSchema = z.strictObject({
  items: storefrontLines,
  postageOptionId: z.uuid({ message: "must be a valid id" }).nullable(),
  coin: CurrencySchema.optional(),
  couponCode,
});
export type StorefrontQuoteInput = z.input<typeof StorefrontQuoteInputSchema>;

export const StorefrontQuoteSchema = z
  .object({
    lines: z.array(
      z.object({
        productId: IdSchema,
        variantId: IdSchema,
        /** "Acceptance Tee (M / Black)" in the customer's language. */
        name: z.string(),
        quantity: z.int(),
        unitPrice: MoneyTextSchema,
        lineTotal: MoneyTextSchema,
      }),
    ),
    itemsTotal: MoneyTextSchema,
    /** The coupon applied, in capitals, and what it takes off the items; null without. */
    coupon: z.object({ code: z.string(), discount: MoneyTextSchema }).nullable(),
    postage: z.object({ id: IdSchema, name: z.string(), price: MoneyTextSchema }).nullable(),
    /** What will be charged: pass it back as quotedTotal so nothing else is. */
    total: MoneyTextSchema,
    coins: z.array(CurrencySchema),
  })
  .meta({ id: "StorefrontQuote" });
export type StorefrontQuote = z.infer<typeof StorefrontQuoteSchema>;

/**
 * POST /api/storefront/orders. The address is either `address` (checked as in the bot) or, while
 * owner-only addresses are on, `sealedAddress` sealed in the webview to the owner's key and bound
 * to `orderId` (contract/owner-seal.ts sealedAddressBinding). `orderId` is the id the Mini App chose
 * for the order, sent with either: an id already taken is refused (409) and creates nothing, so a
 * retry after a lost answer cannot make a second order.
 */
export const StorefrontOrderInputSchema = z
  .strictObject({
    items: storefrontLines,
    postageOptionId: z.uuid({ message: "must be a valid id" }).nullable(),
    coin: CurrencySchema,
    address: ShippingAddressSchema.optional(),
    sealedAddress: z.string().max(8192).optional(),
    orderId: z.uuid({ message: "must be a valid id" }).optional(),
    couponCode,
    /** The total the customer was shown (the quote's): refused with 409 when it came out different. */
    quotedTotal: MoneyTextSchema.optional(),
  })
  .refine((input) => (input.address === undefined) !== (input.sealedAddress === undefined), {
    message: "Give either address or sealedAddress",
    path: ["address"],
  })
  .refine((input) => input.sealedAddress === undefined || input.orderId !== undefined, {
    message: "A sealed address needs the orderId it is sealed to",
    path: ["orderId"],
  });
export type StorefrontOrderInput = z.input<typeof StorefrontOrderInputSchema>;

/** What to pay: the gateway's address and amount, and where to pay from a wallet. */
export const StorefrontPaymentSchema = z
  .object({
    address: z.string(),
    /** In the coin, as the gateway asked ("0.00012345"). */
    amount: z.string(),
    coin: CurrencySchema,
    expiresAt: TimestampSchema.nullable(),
    /** A wallet link ("bitcoin:…?amount=…") for the QR code and a plain link; null when the coin has none. */
    uri: z.string().nullable(),
    /** The gateway's own checkout page (BTCPay Server); null for NOWPayments. */
    checkoutUrl: z.string().nullable(),
  })
  .meta({ id: "StorefrontPayment" });
export type StorefrontPayment = z.infer<typeof StorefrontPaymentSchema>;

/** One of the customer's orders, as they may see it (no owner-only fields). */
export const StorefrontOrderSchema = z
  .object({
    id: IdSchema,
    /** "#abcd1234", as the bot and the owner name it. */
    reference: z.string(),
    createdAt: TimestampSchema,
    status: OrderStatusSchema,
    /** The status in the customer's words and language, as My Orders in the bot says it. */
    statusText: z.string(),
    total: MoneyTextSchema,
    items: z.array(z.object({ name: z.string(), quantity: z.int(), price: MoneyTextSchema })),
    /** While the order waits for its payment; null once paid, failed or expired. */
    payment: StorefrontPaymentSchema.nullable(),
    trackingNumber: z.string().nullable(),
    carrier: z.string().nullable(),
    trackingUrl: z.string().nullable(),
  })
  .meta({ id: "StorefrontOrder" });
export type StorefrontOrder = z.infer<typeof StorefrontOrderSchema>;

export const StorefrontCheckoutSchema = z
  .object({ order: StorefrontOrderSchema, payment: StorefrontPaymentSchema })
  .meta({ id: "StorefrontCheckout" });
export type StorefrontCheckout = z.infer<typeof StorefrontCheckoutSchema>;

export const StorefrontOrderListSchema = z.object({ orders: z.array(StorefrontOrderSchema) }).meta({ id: "StorefrontOrderList" });
export type StorefrontOrderList = z.infer<typeof StorefrontOrderListSchema>;

export const StorefrontMessageInputSchema = z.strictObject({
  message: MessageTextSchema,
  orderId: z.uuid({ message: "must be a valid id" }).nullable().optional(),
});
export type StorefrontMessageInput = z.input<typeof StorefrontMessageInputSchema>;

export const StorefrontMessageSchema = z
  .object({
    id: IdSchema,
    message: z.string(),
    /** true for the shop's replies, false for the customer's own messages. */
    fromShop: z.boolean(),
    createdAt: TimestampSchema,
  })
  .meta({ id: "StorefrontMessage" });
export type StorefrontMessage = z.infer<typeof StorefrontMessageSchema>;

export const StorefrontMessageListSchema = z.object({ messages: z.array(StorefrontMessageSchema) }).meta({ id: "StorefrontMessageList" });
export type StorefrontMessageList = z.infer<typeof StorefrontMessageListSchema>;
