import { z } from "zod";

// The API's shapes (docs/product.md §3, §5, §7), shared by the server and the web forms.
// Depends on zod only.

export const CURRENCIES = ["BTC", "LTC", "XMR"] as const;
export const CurrencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof CurrencySchema>;

export const ORDER_STATUSES = ["pending", "processing", "dispatched", "completed", "failed"] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

export const MESSAGE_MAX_LENGTH = 4096;
export const MAX_IMAGE_BYTES = 5_242_880;
export const EXPIRED_ORDER_AGE_MS = 2 * 60 * 60 * 1000;

const MAX_MONEY = 99_999_999.99; // numeric(10,2)
/** PostgreSQL's integer column. */
export const MAX_INT = 2_147_483_647;

/**
 * A whole number sent as a JSON number. Strings, booleans and arrays are refused rather than
 * coerced ("1e2" is not 100, false is not 0), with the field named in the message.
 */
export const wholeNumber = (field: string, min: number, max = MAX_INT) =>
  z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** The path of an image this server stored (PUT /api/product-images answers it). */
export const OBJECT_PATH_PATTERN = /^\/objects\/[A-Za-z0-9_-]{1,100}$/;

/** Empty or blank text means "not given" and is stored as null. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value == null || value.trim() === "" ? null : value.trim()));

const uuidOrNull = z
  .union([z.uuid({ message: "must be a valid id" }), z.literal(""), z.null()])
  .optional()
  .transform((value) => (value ? value : null));

/** A GBP amount given as a string or number; answered as a two-decimal string ("4.99"). */
export const MoneySchema = z
  .union([z.string().trim(), z.number()], {
    error: (issue) => (issue.input == null ? "is required" : "must be an amount such as 4.99"),
  })
  .transform((value, ctx) => {
    const text = typeof value === "number" ? String(value) : value;
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "is required" });
      return z.NEVER;
    }
    if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > MAX_MONEY) {
      ctx.addIssue({ code: "custom", message: "must be an amount between 0 and 99999999.99" });
      return z.NEVER;
    }
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({ code: "custom", message: "must have at most two decimals" });
      return z.NEVER;
    }
    return Number(text).toFixed(2);
  });

/** The `:id` of a resource path; a malformed id is refused before it reaches the database. */
export const IdParamsSchema = z.object({ id: z.uuid({ message: "must be a valid id" }) });

// --- Answers ---
// The response schemas below describe what the server answers, for the OpenAPI document
// (server/http/openapi.ts) and each route's serialiser. fastify-type-provider-zod *encodes* an
// answer through its schema, so they hold no one-way transforms, and an object schema drops keys it
// does not name: every field a route answers is listed. Where a route answers a database row, its
// timestamps are Dates, encoded to ISO text by DateTimestampSchema; the type on the wire is then
// the schema's z.input (its z.output is what the handler hands over).

/** A database id (a uuid). */
const IdSchema = z.guid();
/** A moment answered as ISO 8601 text in UTC ("2026-11-22T08:12:41.000Z"). */
export const TimestampSchema = z.iso.datetime();
/** A moment the server holds as a Date (a database row), answered as ISO 8601 text. */
export const DateTimestampSchema = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});
/** A GBP amount as numeric(10,2) text, e.g. "4.99". */
const MoneyTextSchema = z.string().meta({ description: 'A GBP amount with two decimals, e.g. "4.99"', examples: ["4.99"] });

/** Every error answer (docs/product.md rule 8): 400 names the invalid field; also 401, 403, 404, 409, 413, 415, 429, 5xx. */
export const ApiErrorSchema = z
  .object({ error: z.string().meta({ description: "A sentence for a person", examples: ["Invalid price: is required"] }) })
  .meta({ id: "ApiError", description: "Refused or failed, with a sentence saying why" });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** The answer of a delete, a logout or a notice sent. */
export const SuccessSchema = z.object({ success: z.literal(true) }).meta({ id: "Success" });
export const HealthSchema = z.object({ status: z.literal("ok") }).meta({ id: "Health" });

// --- Auth ---
export const LoginInputSchema = z.object({ password: z.string().min(1, "Password is required") });
export type LoginInput = z.infer<typeof LoginInputSchema>;
export const AuthStatusSchema = z.object({ authenticated: z.boolean() }).meta({ id: "AuthStatus" });
export type AuthStatus = z.infer<typeof AuthStatusSchema>;

// --- Bot settings ---
export const BotSettingsInputSchema = z.object({
  botName: z.string().trim().min(1, "Bot Name is required"),
  botToken: z.string().trim().min(1, "Bot Token is required"),
  acceptedCurrencies: z
    .array(CurrencySchema)
    .min(1, "Select at least one cryptocurrency")
    .transform((list) => CURRENCIES.filter((c) => list.includes(c))),
  welcomeMessage: z.string().trim().min(1, "Welcome Message is required"),
  faqContent: z.string().trim().min(1, "FAQ Content is required"),
  nowpaymentsApiKey: optionalText,
  nowpaymentsIpnSecret: optionalText,
  webhookUrl: optionalText,
  /** A paid status short of the amount due by more than this percentage is a short payment (docs/product.md rule 3). */
  underpaymentTolerancePercent: z
    .union([z.number(), z.string().trim()], { error: "Underpayment tolerance must be from 0 to 15" })
    .transform((value, ctx) => {
      const text = typeof value === "number" ? String(value) : value;
      if (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) > 15) {
        ctx.addIssue({ code: "custom", message: "Underpayment tolerance must be from 0 to 15, with at most two decimals" });
        return z.NEVER;
      }
      return Number(text);
    })
    .default(1),
});
export type BotSettingsInput = z.input<typeof BotSettingsInputSchema>;
/**
 * The single settings record. As the API answers it, the secrets are masked (contract/secret-mask.ts):
 * "••••••••" and their last 4 characters, "" or null when unset; sending a mask back keeps the secret.
 * Inside the server (shop/settings.ts) the same shape holds them decrypted.
 */
const MASKED = "Masked in every answer: \"••••••••\" and the last 4 characters (no characters under 12); sent back unchanged, the stored secret is kept";
export const BotSettingsSchema = z
  .object({
    id: IdSchema,
    botName: z.string(),
    botToken: z.string().meta({ description: `${MASKED}. "" when it cannot be read`, examples: ["••••••••wxyz"] }),
    acceptedCurrencies: z.array(CurrencySchema),
    welcomeMessage: z.string(),
    faqContent: z.string(),
    nowpaymentsApiKey: z.string().nullable().meta({ description: `${MASKED}. null when unset` }),
    nowpaymentsIpnSecret: z.string().nullable().meta({ description: `${MASKED}. null when unset` }),
    webhookUrl: z.string().nullable(),
    underpaymentTolerancePercent: z.number(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: "BotSettings" });
export type BotSettings = z.infer<typeof BotSettingsSchema>;

// --- Categories ---
export const CategoryInputSchema = z.object({
  name: z.string().trim().min(1, "Category Name is required").max(200),
  description: optionalText,
  icon: optionalText,
  parentId: uuidOrNull,
});
export type CategoryInput = z.input<typeof CategoryInputSchema>;
export const CategorySchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    /** null for a main category. */
    parentId: IdSchema.nullable(),
    createdAt: DateTimestampSchema,
    updatedAt: DateTimestampSchema,
  })
  .meta({ id: "Category" });
/** A category as the API answers it (JSON). */
export type Category = z.input<typeof CategorySchema>;

// --- Products ---
export const BulkPricingTierSchema = z.object({
  minQuantity: wholeNumber("min quantity", 2),
  // A number with at most two decimals (pence); "4.50" is accepted too and stored as 4.5.
  price: z
    .union([z.number(), z.string().trim()], { error: "tier price must be an amount such as 4.99" })
    .transform((value, ctx) => {
      const text = typeof value === "number" ? String(value) : value;
      if (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) > MAX_MONEY) {
        ctx.addIssue({ code: "custom", message: "tier price must be an amount from 0 to 99999999.99 with at most two decimals" });
        return z.NEVER;
      }
      return Number(text);
    }),
});
export type BulkPricingTier = z.infer<typeof BulkPricingTierSchema>;

/** A product's low-stock threshold when none is given (products.low_stock_threshold's default). */
export const LOW_STOCK_DEFAULT = 3;

export const ProductInputSchema = z.object({
  name: z.string().trim().min(1, "Product name is required").max(200),
  description: z.string().trim().max(4000).default(""),
  price: MoneySchema,
  stock: wholeNumber("stock", 0).default(0),
  categoryId: uuidOrNull,
  // Only an image this server stored: never a script URL or a tracking pixel on another site.
  imageUrl: optionalText.refine((value) => value === null || OBJECT_PATH_PATTERN.test(value), {
    message: "must be an /objects/ path from this server (upload the image first)",
  }),
  bulkPricing: z
    .array(BulkPricingTierSchema)
    .max(20)
    .nullish()
    .transform((tiers) => (tiers && tiers.length > 0 ? [...tiers].sort((a, b) => a.minQuantity - b.minQuantity) : null)),
  isActive: z.boolean().default(true),
  /**
   * The dashboard's Low Stock card and the "Low stock" filter count a product whose stock is at or below this.
   * Left out: LOW_STOCK_DEFAULT for a new product, unchanged by an edit (clients written to docs/product.md §7 do not know it).
   */
  lowStockThreshold: wholeNumber("Low stock alert", 0, 100_000).optional(),
  /**
   * PUT only: the stock the edit form showed. An unchanged stock is then left as the database has it,
   * and a change made from a stale form answers 409 (docs/product.md rule 2, docs/decisions/0007).
   */
  expectedStock: wholeNumber("expectedStock", 0).optional(),
});
export type ProductInput = z.input<typeof ProductInputSchema>;
export const ProductSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    description: z.string(),
    price: MoneyTextSchema,
    stock: z.int(),
    categoryId: IdSchema.nullable(),
    /** An /objects/ path on this server. */
    imageUrl: z.string().nullable(),
    /** Tiers by ascending minQuantity; null when the product has none. */
    bulkPricing: z.array(z.object({ minQuantity: z.int(), price: z.number() })).nullable(),
    isActive: z.boolean(),
    /** Low stock when stock is at or below this (issue 13). */
    lowStockThreshold: z.int(),
    createdAt: DateTimestampSchema,
    updatedAt: DateTimestampSchema,
  })
  .meta({ id: "Product" });
/** A product as the API answers it (JSON). */
export type Product = z.input<typeof ProductSchema>;

// --- Postage ---
export const POSTAGE_PRICE_PATTERN = /^\d+(\.\d{1,2})?$/;
/** What the price input lets through while typing: empty, or digits with an optional point and two decimals. */
export const POSTAGE_PRICE_TYPING_PATTERN = /^(\d+(\.\d{0,2})?)?$/;

const estimatedDays = z
  .union([z.number(), z.string().trim(), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value == null || value === "") return null;
    const n = typeof value === "string" && !/^\d+$/.test(value) ? NaN : Number(value);
    if (Number.isInteger(n) && n > 365) {
      ctx.addIssue({ code: "custom", message: "Estimated days must be at most 365" });
      return z.NEVER;
    }
    if (!Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: "custom", message: "Estimated days must be a whole number of at least 1" });
      return z.NEVER;
    }
    return n;
  });

const postagePrice = z
  .union([z.string().trim(), z.number().transform(String)], {
    // A missing price (absent or null) gets docs/product.md §5's sentence rather than zod's type message.
    error: (issue) => (issue.input == null ? "Price is required" : "Please enter a valid price (e.g., 4.99)"),
  })
  .refine((value) => value !== "", "Price is required")
  .refine((value) => value === "" || POSTAGE_PRICE_PATTERN.test(value), "Please enter a valid price (e.g., 4.99)")
  .refine((value) => Number(value) <= MAX_MONEY, "Price is too large")
  .transform((value) => Number(value).toFixed(2));

export const PostageOptionInputSchema = z.object({
  name: z.string().trim().min(1, "Service name is required").max(200),
  description: optionalText,
  price: postagePrice,
  estimatedDays,
  isActive: z.boolean().default(true),
});
export const PostageOptionPatchSchema = z
  .object({
    name: z.string().trim().min(1, "Service name is required").max(200),
    description: optionalText,
    price: postagePrice,
    estimatedDays,
    isActive: z.boolean(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, "Nothing to update");
export type PostageOptionInput = z.input<typeof PostageOptionInputSchema>;
export const PostageOptionSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    description: z.string().nullable(),
    price: MoneyTextSchema,
    estimatedDays: z.int().nullable(),
    isActive: z.boolean(),
    createdAt: DateTimestampSchema,
  })
  .meta({ id: "PostageOption" });
/** A postage option as the API answers it (JSON). */
export type PostageOption = z.input<typeof PostageOptionSchema>;

// --- Orders ---
export const ShippingAddressSchema = z.object({
  name: z.string().trim().min(1, "name is required").max(200),
  streetAddress: z.string().trim().min(1, "street address is required").max(500),
  postcode: z.string().trim().min(1, "postcode is required").max(20),
  contact: optionalText,
});
export type ShippingAddress = z.output<typeof ShippingAddressSchema>;

/**
 * Carriers whose tracking page the dispatch message links to (issue 13); the links themselves are
 * the shop's rule (server/shop/carriers.ts). Any other carrier may be typed; it just gets no link.
 */
export const KNOWN_CARRIERS = ["Royal Mail", "DPD", "Evri", "UPS", "DHL"] as const;
export type KnownCarrier = (typeof KNOWN_CARRIERS)[number];
export const TRACKING_NUMBER_MAX_LENGTH = 100;
export const CARRIER_MAX_LENGTH = 50;

export const OrderStatusUpdateSchema = z.object({
  status: OrderStatusSchema,
  // Both optional, usually given with a dispatch; absent keeps the current one, empty or null clears it.
  // They reach the customer's Telegram message and a tracking link, so only what such values are made
  // of is accepted: no line breaks or other control characters, no markup.
  trackingNumber: z
    .string({ error: "Tracking number must be text" })
    .trim()
    .max(TRACKING_NUMBER_MAX_LENGTH, `Tracking number must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters`)
    .regex(/^[A-Za-z0-9 -]*$/, "Tracking number may contain only letters, digits, spaces and hyphens")
    .nullish(),
  carrier: z
    .string({ error: "Carrier must be text" })
    .trim()
    .max(CARRIER_MAX_LENGTH, `Carrier must be at most ${CARRIER_MAX_LENGTH} characters`)
    .regex(/^[\p{L}\p{N} .&'()-]*$/u, "Carrier may contain only letters, digits, spaces and . & ' ( ) -")
    .nullish(),
});
export type OrderStatusUpdate = z.input<typeof OrderStatusUpdateSchema>;

export const ORDER_ADMIN_FLAGS = ["refund_due", "refunded_after_dispatch"] as const;
export const OrderAdminFlagSchema = z.enum(ORDER_ADMIN_FLAGS);
export type OrderAdminFlag = z.infer<typeof OrderAdminFlagSchema>;

export const OrderSchema = z
  .object({
    id: IdSchema,
    telegramUserId: z.string(),
    telegramUsername: z.string().nullable(),
    status: OrderStatusSchema,
    totalAmount: MoneyTextSchema,
    currency: z.string(),
    paymentMethod: z.string().nullable(),
    paymentStatus: z.string().nullable(),
    paymentId: z.string().nullable(),
    transactionHash: z.string().nullable(),
    shippingAddress: z
      .object({ name: z.string(), streetAddress: z.string(), postcode: z.string(), contact: z.string().nullable() })
      .nullable(),
    /**
     * The address sealed to the owner's key (private addresses, contract/owner-seal.ts): the server
     * cannot read it, the owner's browser opens it after unlocking. Then shippingAddress is null.
     */
    sealedShippingAddress: z.string().nullable(),
    /** When the shipping address was erased (retention, or the customer asked to be forgotten); null while kept. */
    addressErasedAt: TimestampSchema.nullable(),
    postageOptionId: IdSchema.nullable(),
    /** The postage as it was at checkout (name and price); null for orders without postage or older than snapshots. */
    postageName: z.string().nullable(),
    postagePrice: MoneyTextSchema.nullable(),
    trackingNumber: z.string().nullable(),
    /** Who carries the parcel, as given at dispatch; a known carrier is spelt as in KNOWN_CARRIERS. */
    carrier: z.string().nullable(),
    /** The carrier's tracking page for this parcel; null unless the carrier is known and a tracking number is set. */
    trackingUrl: z.string().nullable(),
    payAddress: z.string().nullable(),
    payAmount: z.string().nullable(),
    payCurrency: z.string().nullable(),
    paymentExpiresAt: TimestampSchema.nullable(),
    actuallyPaid: z.string().nullable(),
    /** What is still missing of payAmount after a short payment (crypto, decimal text); null when nothing is. */
    shortfall: z.string().nullable(),
    /** When the payment was confirmed in full or accepted by the owner; revenue counts by it. */
    paidAt: TimestampSchema.nullable(),
    /** Something the owner must act on. */
    adminFlag: OrderAdminFlagSchema.nullable(),
    /** An order of Bot Preview's test customer: paid by simulation, not revenue, deletable whatever its status. */
    isTest: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: "Order" });
export type Order = z.infer<typeof OrderSchema>;

/** One line of an order's audit trail (GET /api/orders/{id}/events), oldest first. */
export const OrderEventSchema = z
  .object({
    id: IdSchema,
    orderId: IdSchema,
    actor: z.enum(["admin", "gateway", "system", "customer"]),
    action: z.string(),
    detail: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: "OrderEvent" });
export type OrderEvent = z.infer<typeof OrderEventSchema>;

export const OrderItemSchema = z
  .object({
    id: IdSchema,
    orderId: IdSchema,
    productId: IdSchema,
    productName: z.string().nullable(),
    quantity: z.int(),
    price: MoneyTextSchema,
    createdAt: TimestampSchema,
  })
  .meta({ id: "OrderItem" });
export type OrderItem = z.infer<typeof OrderItemSchema>;

/** POST /api/orders/cleanup-expired: the orders that failed by expiry just now. */
export const ExpiredOrdersSchema = z.object({ expiredOrderIds: z.array(IdSchema) }).meta({ id: "ExpiredOrders" });

// --- Messages ---
export const MessageInputSchema = z.object({
  telegramUserId: z.union([z.string(), z.number().transform(String)]).pipe(z.string().trim().min(1, "telegramUserId is required")),
  telegramUsername: optionalText,
  message: z
    .string()
    .trim()
    .min(1, "Message cannot be empty")
    .max(MESSAGE_MAX_LENGTH, `Message must be at most ${MESSAGE_MAX_LENGTH} characters`),
  isFromCustomer: z.literal(false).default(false),
  orderId: uuidOrNull,
  isRead: z.boolean().optional(),
});
export type MessageInput = z.input<typeof MessageInputSchema>;
export const CustomerMessageSchema = z
  .object({
    id: IdSchema,
    telegramUserId: z.string(),
    telegramUsername: z.string().nullable(),
    message: z.string(),
    isFromCustomer: z.boolean(),
    isRead: z.boolean(),
    orderId: IdSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: "CustomerMessage" });
export type CustomerMessage = z.infer<typeof CustomerMessageSchema>;
export const UnreadCountSchema = z.object({ count: z.int() }).meta({ id: "UnreadCount" });

// --- Uploads ---
export const ProductImageInputSchema = z.object({ imageURL: z.string().trim().min(1, "imageURL is required") });
/** POST /api/objects/upload: where the browser PUTs the image bytes next (a one-time path on this server). */
export const UploadUrlSchema = z.object({ uploadURL: z.string() }).meta({ id: "UploadUrl" });
/** The stored image's path, which becomes a product's imageUrl. */
export const ObjectPathSchema = z.object({ objectPath: z.string() }).meta({ id: "ObjectPath" });

// --- Dashboard ---
export const DashboardStatsSchema = z
  .object({
    totalProducts: z.int(),
    pendingOrders: z.int(),
    processingOrders: z.int(),
    unreadMessages: z.int(),
    /** Paid orders since local midnight, over the last 7 days and over all time (docs/product.md rule 6). */
    dailyRevenue: MoneyTextSchema,
    weeklyRevenue: MoneyTextSchema,
    totalRevenue: MoneyTextSchema,
    /** Active products whose stock is at or below their lowStockThreshold. */
    lowStockProducts: z.int(),
  })
  .meta({ id: "DashboardStats" });
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

/** GET /api/dashboard/revenue: the chart's range, either `days` (daily points) or `months` (monthly points). */
export const RevenueQuerySchema = z
  .object({
    days: z.coerce
      .number({ error: "days must be a whole number" })
      .int("days must be a whole number")
      .min(1, "days must be at least 1")
      .max(366, "days must be at most 366")
      .optional()
      .meta({ description: "Daily points for the last N days including today (default 30 when months is not given)" }),
    months: z.coerce
      .number({ error: "months must be a whole number" })
      .int("months must be a whole number")
      .min(1, "months must be at least 1")
      .max(36, "months must be at most 36")
      .optional()
      .meta({ description: "Monthly points for the last N months including this one" }),
  })
  .refine((query) => query.days === undefined || query.months === undefined, { message: "give either days or months, not both" });
export type RevenueQuery = z.output<typeof RevenueQuerySchema>;

export const RevenuePointSchema = z.object({
  /** YYYY-MM-DD for a day, YYYY-MM for a month, in the shop's time zone. */
  date: z.string(),
  /** Paid, non-refunded orders by the time the payment was confirmed (docs/product.md rule 6), GBP. */
  revenue: MoneyTextSchema,
  orders: z.int(),
});
export type RevenuePoint = z.infer<typeof RevenuePointSchema>;

export const RevenueReportSchema = z
  .object({
    unit: z.enum(["day", "month"]),
    /** Every day or month of the range, oldest first, empty ones included. */
    series: z.array(RevenuePointSchema),
    /** Top 5 products by quantity sold in the range's revenue orders. */
    bestSellers: z.array(z.object({ productId: IdSchema, name: z.string(), quantity: z.int(), revenue: MoneyTextSchema })),
    /** Orders placed in the range, by status (every status, zeros included). */
    ordersByStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.int() })),
  })
  .meta({ id: "RevenueReport" });
export type RevenueReport = z.infer<typeof RevenueReportSchema>;

// --- Webhooks ---
/** POST /api/payments/webhook: what the IPN did. */
export const PaymentWebhookAnswerSchema = z
  .object({
    ok: z.literal(true),
    /** applied: the order changed; duplicate: this status was seen before; stale: it would move the order back. */
    outcome: z.enum(["applied", "duplicate", "stale"]),
    orderStatus: z.string(),
  })
  .meta({ id: "PaymentWebhookAnswer" });
/**
 * POST /api/telegram/webhook: `{ ok: true }` to Telegram; to the admin's Bot Preview tester, also
 * the Bot API calls the bot would have made (method plus its parameters), instead of making them.
 */
export const TelegramWebhookAnswerSchema = z
  .object({ ok: z.literal(true), replies: z.array(z.looseObject({ method: z.string() })).optional() })
  .meta({ id: "TelegramWebhookAnswer" });

// --- Paged lists (issue 12) ---
// GET /api/orders, /api/messages, /api/products and /api/messages/conversations take these query
// parameters. Without `limit` the first three answer every matching row, as docs/product.md §7's lists always
// did; with it they answer one page (still a JSON array) plus `X-Total-Count` (rows matching the
// filters) and, unless it is the last page, `Link: <...>; rel="next"`, whose `cursor` asks for the next
// page. Pages are keyset pages: a row added meanwhile neither repeats nor hides another.

export const PAGE_LIMIT_MAX = 200;
const LIMIT_MESSAGE = `must be a whole number from 1 to ${PAGE_LIMIT_MAX}`;

const pageLimit = z
  .string({ error: LIMIT_MESSAGE })
  .regex(/^\d{1,4}$/, LIMIT_MESSAGE)
  .transform(Number)
  .refine((n) => n >= 1 && n <= PAGE_LIMIT_MAX, LIMIT_MESSAGE)
  .optional()
  .meta({ description: `Answer one page of at most this many rows (1 to ${PAGE_LIMIT_MAX})` });

const pageCursor = z
  .string({ error: "must be the cursor of a Link header" })
  .max(1000, "must be the cursor of a Link header")
  .optional()
  .meta({ description: "The next page's cursor, from the previous page's Link header (opaque)" });

/** Free text to look for; blank means no search. Matched literally: % and _ are not wildcards. */
const searchText = (description: string) =>
  z
    .string({ error: "must be text" })
    .max(200, "must be at most 200 characters")
    .transform((text) => text.trim())
    .optional()
    .meta({ description });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = "must be a date (2026-03-10) or a date and time (2026-03-10T12:00:00Z)";
const isoDateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: false })], { error: DATE_MESSAGE });

/** `from`: the first moment included; a bare date means its midnight (UTC). */
const fromDate = z
  .string({ error: DATE_MESSAGE })
  .pipe(isoDateOrTime)
  .transform((text) => new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text))
  .optional()
  .meta({ description: "Created at or after this moment; a bare date means its start (UTC)" });

/**
 * `to`: the last moment included; a bare date includes that whole day (UTC), as someone choosing
 * "to 10 March" means. Answered as the exclusive bound just after it.
 */
const toDate = z
  .string({ error: DATE_MESSAGE })
  .pipe(isoDateOrTime)
  .transform((text) =>
    DATE_ONLY.test(text) ? new Date(Date.parse(`${text}T00:00:00Z`) + 24 * 60 * 60 * 1000) : new Date(Date.parse(text) + 1),
  )
  .optional()
  .meta({ description: "Created at or before this moment; a bare date includes that whole day (UTC)" });

/** `from` after `to` finds nothing by definition: said rather than answered with an empty page. */
const datesInOrder = (query: { from?: Date; to?: Date }) => !query.from || !query.to || query.from < query.to;
const DATES_MESSAGE = { message: "must not be before from", path: ["to"] };

export const ORDER_SORTS = ["newest", "oldest", "total-desc", "total-asc"] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const ORDER_STATUS_FILTERS = ["all", ...ORDER_STATUSES] as const;

export const OrderListQuerySchema = z
  .object({
    limit: pageLimit,
    cursor: pageCursor,
    status: z
      .enum(ORDER_STATUS_FILTERS, { error: `must be one of ${ORDER_STATUS_FILTERS.join(", ")}` })
      .optional()
      .meta({ description: "Only orders in this status (all: every status)" }),
    q: searchText(
      "Case-insensitive; matches the start of the order id (# optional), the @username, the customer's name or the " +
        "postcode (spaces ignored), or the whole Telegram user id",
    ),
    from: fromDate,
    to: toDate,
    sort: z
      .enum(ORDER_SORTS, { error: `must be one of ${ORDER_SORTS.join(", ")}` })
      .default("newest")
      .meta({ description: "newest (default), oldest, total-desc or total-asc; ties by id" }),
  })
  .refine(datesInOrder, DATES_MESSAGE);
export type OrderListQuery = z.output<typeof OrderListQuerySchema>;

export const LIST_SORTS = ["newest", "oldest"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
const listSort = z
  .enum(LIST_SORTS, { error: `must be one of ${LIST_SORTS.join(", ")}` })
  .default("newest")
  .meta({ description: "newest (default) or oldest; ties by id" });

const booleanFlag = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((text) => text === "true")
  .optional();

export const MESSAGE_SENDERS = ["customer", "admin"] as const;

export const MessageListQuerySchema = z
  .object({
    limit: pageLimit,
    cursor: pageCursor,
    q: searchText("Case-insensitive; matches within the message text, or the start of the @username"),
    telegramUserId: z
      .string({ error: "must be a Telegram user id" })
      .trim()
      .min(1, "must be a Telegram user id")
      .max(64, "must be at most 64 characters")
      .optional()
      .meta({ description: "Only this customer's messages" }),
    sender: z
      .enum(MESSAGE_SENDERS, { error: `must be one of ${MESSAGE_SENDERS.join(", ")}` })
      .optional()
      .meta({ description: "Only messages the customers sent, or only the admin's replies" }),
    unread: booleanFlag.meta({ description: "true: only customer messages not read yet; false: only the others" }),
    from: fromDate,
    to: toDate,
    sort: listSort,
  })
  .refine(datesInOrder, DATES_MESSAGE);
export type MessageListQuery = z.output<typeof MessageListQuerySchema>;

export const PRODUCT_STATUS_FILTERS = ["all", "in-stock", "out-of-stock", "low-stock", "active", "inactive"] as const;
export type ProductStatusFilter = (typeof PRODUCT_STATUS_FILTERS)[number];

export const ProductListQuerySchema = z.object({
  limit: pageLimit,
  cursor: pageCursor,
  q: searchText("Case-insensitive; matches within the name or the description"),
  categoryId: z
    .uuid({ message: "must be a valid id" })
    .optional()
    .meta({ description: "Only products in this category; a main category includes its subcategories" }),
  status: z
    .enum(PRODUCT_STATUS_FILTERS, { error: `must be one of ${PRODUCT_STATUS_FILTERS.join(", ")}` })
    .optional()
    .meta({ description: "in-stock (stock above 0), out-of-stock, low-stock (stock at or below the product's lowStockThreshold), active or inactive (the bot hides inactive ones)" }),
  sort: listSort,
});
export type ProductListQuery = z.output<typeof ProductListQuerySchema>;

export const ConversationListQuerySchema = z.object({
  limit: pageLimit,
  cursor: pageCursor,
  unread: booleanFlag.meta({ description: "true: only customers with unread messages" }),
});
export type ConversationListQuery = z.output<typeof ConversationListQuerySchema>;

/** One customer's conversation, as the Messages screen lists it (GET /api/messages/conversations). */
export const ConversationSchema = z
  .object({
    telegramUserId: z.string(),
    /** The latest username the customer's messages carry; null when none has one. */
    telegramUsername: z.string().nullable(),
    lastMessage: z.string(),
    lastMessageAt: TimestampSchema,
    /** Whether the customer sent the last message (false: the admin's reply). */
    lastIsFromCustomer: z.boolean(),
    unreadCount: z.int(),
    totalMessages: z.int(),
  })
  .meta({ id: "Conversation" });
export type Conversation = z.infer<typeof ConversationSchema>;
export * from "./customers";
export * from "./audit";
export * from "./events";
export * from "./bot-status";
export * from "./broadcasts";
export * from "./owner-alerts";
export * from "./privacy";
export * from "./simulator";
export * from "./private-addresses";
export * from "./secret-mask";
