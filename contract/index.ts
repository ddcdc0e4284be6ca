import { z } from "zod";

// The API's shapes (SPEC §3, §5, §7), shared by the server and the web forms.
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

// --- Auth ---
export const LoginInputSchema = z.object({ password: z.string().min(1, "Password is required") });
export type LoginInput = z.infer<typeof LoginInputSchema>;
export const AuthStatusSchema = z.object({ authenticated: z.boolean() });
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
  /** A paid status short of the amount due by more than this percentage is a short payment (DESIGN decision 3). */
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
export type BotSettings = z.output<typeof BotSettingsInputSchema> & {
  id: string;
  createdAt: string;
  updatedAt: string;
};

// --- Categories ---
export const CategoryInputSchema = z.object({
  name: z.string().trim().min(1, "Category Name is required").max(200),
  description: optionalText,
  icon: optionalText,
  parentId: uuidOrNull,
});
export type CategoryInput = z.input<typeof CategoryInputSchema>;
export type Category = z.output<typeof CategoryInputSchema> & { id: string; createdAt: string; updatedAt: string };

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
   * PUT only: the stock the edit form showed. An unchanged stock is then left as the database has it,
   * and a change made from a stale form answers 409 (DESIGN decision 2, docs/decisions/0007).
   */
  expectedStock: wholeNumber("expectedStock", 0).optional(),
});
export type ProductInput = z.input<typeof ProductInputSchema>;
export type Product = z.output<typeof ProductInputSchema> & { id: string; createdAt: string; updatedAt: string };

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
    // A missing price (absent or null) gets SPEC §5's sentence rather than zod's type message.
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
export type PostageOption = z.output<typeof PostageOptionInputSchema> & { id: string; createdAt: string };

// --- Orders ---
export const ShippingAddressSchema = z.object({
  name: z.string().trim().min(1, "name is required").max(200),
  streetAddress: z.string().trim().min(1, "street address is required").max(500),
  postcode: z.string().trim().min(1, "postcode is required").max(20),
  contact: optionalText,
});
export type ShippingAddress = z.output<typeof ShippingAddressSchema>;

export const OrderStatusUpdateSchema = z.object({
  status: OrderStatusSchema,
  // Optional, usually given with a dispatch; absent keeps the current one, empty or null clears it.
  trackingNumber: z.string().trim().max(100, "Tracking number must be at most 100 characters").nullish(),
});
export type OrderStatusUpdate = z.input<typeof OrderStatusUpdateSchema>;

export type Order = {
  id: string;
  telegramUserId: string;
  telegramUsername: string | null;
  status: OrderStatus;
  totalAmount: string;
  currency: string;
  paymentMethod: string | null;
  paymentStatus: string | null;
  paymentId: string | null;
  transactionHash: string | null;
  shippingAddress: ShippingAddress | null;
  postageOptionId: string | null;
  /** The postage as it was at checkout (name and price); null for orders without postage or older than snapshots. */
  postageName: string | null;
  postagePrice: string | null;
  trackingNumber: string | null;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string | null;
  paymentExpiresAt: string | null;
  actuallyPaid: string | null;
  /** What is still missing of payAmount after a short payment (crypto, decimal text); null when nothing is. */
  shortfall: string | null;
  /** When the payment was confirmed in full or accepted by the owner; revenue counts by it. */
  paidAt: string | null;
  /** Something the owner must act on. */
  adminFlag: OrderAdminFlag | null;
  createdAt: string;
  updatedAt: string;
};

export const ORDER_ADMIN_FLAGS = ["refund_due", "refunded_after_dispatch"] as const;
export type OrderAdminFlag = (typeof ORDER_ADMIN_FLAGS)[number];

/** One line of an order's audit trail (GET /api/orders/{id}/events), oldest first. */
export type OrderEvent = {
  id: string;
  orderId: string;
  actor: "admin" | "gateway" | "system" | "customer";
  action: string;
  detail: string | null;
  createdAt: string;
};

export type OrderItem = {
  id: string;
  orderId: string;
  productId: string;
  productName: string | null;
  quantity: number;
  price: string;
  createdAt: string;
};

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
export type CustomerMessage = {
  id: string;
  telegramUserId: string;
  telegramUsername: string | null;
  message: string;
  isFromCustomer: boolean;
  isRead: boolean;
  orderId: string | null;
  createdAt: string;
};

// --- Uploads ---
export const ProductImageInputSchema = z.object({ imageURL: z.string().trim().min(1, "imageURL is required") });

// --- Dashboard ---
export type DashboardStats = {
  totalProducts: number;
  pendingOrders: number;
  processingOrders: number;
  unreadMessages: number;
  dailyRevenue: string;
  weeklyRevenue: string;
  totalRevenue: string;
};

export type ApiError = { error: string };
