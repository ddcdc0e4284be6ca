import { z } from "zod";
import { DateTimestampSchema } from "./common";
import { IdSchema, MAX_MONEY, MoneyTextSchema } from "./fields";

// Discount codes (issue 23). The rules that apply them live in server/shop/ordering/ (coupons); these
// are the shapes the owner's Coupons screen and the API share.

export const COUPON_KINDS = ["percent", "fixed"] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** Letters, digits, "-" and "_": a code a customer can type into a Telegram chat without surprises. */
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** Codes are unique whatever their case: "summer10" and "SUMMER10" are one code, kept in capitals. */
export const normaliseCouponCode = (code: string) => code.trim().toUpperCase();

const code = z
  .string({ error: "Code is required" })
  .trim()
  .min(1, "Code is required")
  .refine((text) => COUPON_CODE_PATTERN.test(text), "Code must be 3 to 32 letters, digits, - or _")
  .transform(normaliseCouponCode);

/** An amount of pounds (number or text, at most two decimals), as the owner types it; "" or null is "none". */
const optionalAmount = (field: string) =>
  z
    .union([z.number(), z.string().trim(), z.null()], { error: `${field} must be an amount such as 4.99` })
    .optional()
    .transform((value, ctx) => {
      if (value == null || value === "") return null;
      const text = String(value);
      if (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) > MAX_MONEY) {
        ctx.addIssue({ code: "custom", message: `${field} must be an amount such as 4.99` });
        return z.NEVER;
      }
      return Number(text).toFixed(2);
    });

/** A whole number of at least 1, or none ("" or null). */
const optionalCount = (field: string) =>
  z
    .union([z.number(), z.string().trim(), z.null()], { error: `${field} must be a whole number of at least 1` })
    .optional()
    .transform((value, ctx) => {
      if (value == null || value === "") return null;
      const n = typeof value === "string" && !/^\d+$/.test(value) ? NaN : Number(value);
      if (!Number.isSafeInteger(n) || n < 1) {
        ctx.addIssue({ code: "custom", message: `${field} must be a whole number of at least 1` });
        return z.NEVER;
      }
      return n;
    });

const optionalMoment = (field: string) =>
  z
    .union([z.iso.datetime({ offset: true }), z.literal(""), z.null()], { error: `${field} must be a date and time such as 2026-12-01T00:00:00Z` })
    .optional()
    .transform((value) => (value ? new Date(value) : null));

const couponValue = z
  .union([z.number(), z.string().trim()], { error: "Value must be a number such as 10 or 4.99" })
  .transform((value) => String(value))
  .refine((text) => /^\d+(\.\d{1,2})?$/.test(text) && Number(text) > 0, "Value must be more than 0, with at most two decimals")
  .transform((text) => Number(text).toFixed(2));

const couponFields = {
  code,
  kind: z.enum(COUPON_KINDS, { error: "Kind must be percent or fixed" }),
  /** A percentage (0-100] for "percent", GBP for "fixed". */
  value: couponValue,
  minSubtotal: optionalAmount("Minimum subtotal"),
  maxDiscount: optionalAmount("Maximum discount"),
  startsAt: optionalMoment("Start"),
  endsAt: optionalMoment("End"),
  usageLimit: optionalCount("Usage limit"),
  perCustomerLimit: optionalCount("Uses per customer"),
  firstOrderOnly: z.boolean({ error: "First order only must be true or false" }).default(false),
  /** Empty: every product is eligible (unless categoryIds narrows it). */
  productIds: z.array(IdSchema, { error: "Products must be a list of product ids" }).max(500).default([]),
  /** Empty: every category is eligible (unless productIds narrows it). Products in either list are eligible. */
  categoryIds: z.array(IdSchema, { error: "Categories must be a list of category ids" }).max(500).default([]),
  isActive: z.boolean({ error: "Active must be true or false" }).default(true),
};

type CouponShape = { kind?: CouponKind; value?: string; startsAt?: Date | null; endsAt?: Date | null };
const percentAtMost100 = (coupon: CouponShape) => coupon.kind !== "percent" || coupon.value === undefined || Number(coupon.value) <= 100;
const endAfterStart = (coupon: CouponShape) => !coupon.startsAt || !coupon.endsAt || coupon.endsAt > coupon.startsAt;
const fixedValueInRange = (coupon: CouponShape) => coupon.kind !== "fixed" || coupon.value === undefined || Number(coupon.value) <= MAX_MONEY;

export const CouponInputSchema = z
  .object(couponFields)
  .refine(percentAtMost100, { message: "A percentage can be at most 100", path: ["value"] })
  .refine(fixedValueInRange, { message: "Value is too large", path: ["value"] })
  .refine(endAfterStart, { message: "End must be after the start", path: ["endsAt"] });
export type CouponInput = z.input<typeof CouponInputSchema>;

/**
 * A change to some fields. The server checks the percentage and the dates against the coupon as it
 * is stored (a patch of `value` alone may turn a fixed coupon's 150 into an invalid 150 %).
 */
export const CouponPatchSchema = z
  .object({
    code: couponFields.code,
    kind: couponFields.kind,
    value: couponFields.value,
    minSubtotal: couponFields.minSubtotal,
    maxDiscount: couponFields.maxDiscount,
    startsAt: couponFields.startsAt,
    endsAt: couponFields.endsAt,
    usageLimit: couponFields.usageLimit,
    perCustomerLimit: couponFields.perCustomerLimit,
    firstOrderOnly: z.boolean({ error: "First order only must be true or false" }),
    productIds: z.array(IdSchema, { error: "Products must be a list of product ids" }).max(500),
    categoryIds: z.array(IdSchema, { error: "Categories must be a list of category ids" }).max(500),
    isActive: z.boolean({ error: "Active must be true or false" }),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, "Nothing to update");
export type CouponPatch = z.input<typeof CouponPatchSchema>;

/** Where a coupon stands now, as the Coupons screen shows it. */
export const COUPON_STATES = ["active", "scheduled", "expired", "used-up", "off"] as const;
export type CouponState = (typeof COUPON_STATES)[number];
export const COUPON_STATE_LABELS: Record<CouponState, string> = {
  active: "Active",
  scheduled: "Scheduled",
  expired: "Expired",
  "used-up": "Used up",
  off: "Off",
};

export const CouponSchema = z
  .object({
    id: IdSchema,
    code: z.string(),
    kind: z.enum(COUPON_KINDS),
    value: MoneyTextSchema.meta({ description: 'Percent ("15.00") or GBP ("4.99") by kind' }),
    minSubtotal: MoneyTextSchema.nullable(),
    maxDiscount: MoneyTextSchema.nullable(),
    startsAt: DateTimestampSchema.nullable(),
    endsAt: DateTimestampSchema.nullable(),
    usageLimit: z.int().nullable(),
    perCustomerLimit: z.int().nullable(),
    firstOrderOnly: z.boolean(),
    productIds: z.array(IdSchema),
    categoryIds: z.array(IdSchema),
    isActive: z.boolean(),
    /** Uses counted: orders paid with the coupon. */
    timesUsed: z.int(),
    /** Uses held by orders created and not yet paid, expired or cancelled. */
    timesHeld: z.int(),
    state: z.enum(COUPON_STATES),
    createdAt: DateTimestampSchema,
    updatedAt: DateTimestampSchema,
  })
  .meta({ id: "Coupon" });
export type Coupon = z.input<typeof CouponSchema>;
export const CouponListSchema = z.array(CouponSchema);
