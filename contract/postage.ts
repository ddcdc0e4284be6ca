import { z } from "zod";
import { DateTimestampSchema } from "./common";
import { IdSchema, MAX_MONEY, MoneyTextSchema, optionalText } from "./fields";
import { NameTranslationsSchema, SavedNameTranslationsSchema } from "./languages";

// Postage options, as the owner sets them and checkout offers them.

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
  /** Issue 26: the name and description in other languages. */
  translations: NameTranslationsSchema.optional(),
});
export const PostageOptionPatchSchema = z
  .object({
    name: z.string().trim().min(1, "Service name is required").max(200),
    description: optionalText,
    price: postagePrice,
    estimatedDays,
    isActive: z.boolean(),
    translations: NameTranslationsSchema,
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
    translations: SavedNameTranslationsSchema,
    createdAt: DateTimestampSchema,
  })
  .meta({ id: "PostageOption" });
/** A postage option as the API answers it (JSON). */
export type PostageOption = z.input<typeof PostageOptionSchema>;
