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
  minQuantity: z.coerce.number().int("min quantity must be a whole number").min(2, "min quantity must be at least 2"),
  price: z.coerce.number().min(0, "tier price must be at least 0").max(MAX_MONEY),
});
export type BulkPricingTier = z.infer<typeof BulkPricingTierSchema>;

export const ProductInputSchema = z.object({
  name: z.string().trim().min(1, "Product name is required").max(200),
  description: z.string().trim().max(4000).default(""),
  price: MoneySchema,
  stock: z.coerce.number().int("stock must be a whole number").min(0, "stock must be at least 0").max(1_000_000_000).default(0),
  categoryId: uuidOrNull,
  imageUrl: optionalText,
  bulkPricing: z
    .array(BulkPricingTierSchema)
    .max(20)
    .nullish()
    .transform((tiers) => (tiers && tiers.length > 0 ? [...tiers].sort((a, b) => a.minQuantity - b.minQuantity) : null)),
  isActive: z.boolean().default(true),
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
    const n = Number(value);
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
  trackingNumber: string | null;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string | null;
  paymentExpiresAt: string | null;
  actuallyPaid: string | null;
  createdAt: string;
  updatedAt: string;
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
