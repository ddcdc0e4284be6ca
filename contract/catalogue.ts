import { z } from "zod";
import { DateTimestampSchema, MoneySchema, OBJECT_PATH_PATTERN, wholeNumber } from "./common";
import { IdSchema, listSort, MAX_MONEY, MoneyTextSchema, optionalText, searchText, uuidOrNull } from "./fields";
import { NameTranslationsSchema, SavedNameTranslationsSchema } from "./languages";
import { PageQuerySchema } from "./paging";

// The catalogue: categories, products, their images, and the product list's query.

export const MAX_IMAGE_BYTES = 5_242_880;
/** A product's photos at most (issue 23): Telegram's album holds 10. */
export const MAX_PRODUCT_IMAGES = 10;

// --- Categories ---
export const CategoryInputSchema = z.object({
  name: z.string().trim().min(1, "Category Name is required").max(200),
  description: optionalText,
  icon: optionalText,
  parentId: uuidOrNull,
  /** Issue 26: the name and description in other languages; left out on an edit, kept as they are. */
  translations: NameTranslationsSchema.optional(),
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
    translations: SavedNameTranslationsSchema,
    createdAt: DateTimestampSchema,
    updatedAt: DateTimestampSchema,
  })
  .meta({ id: "Category" });
/** A category as the API answers it (JSON). */
export type Category = z.input<typeof CategorySchema>;

// --- Products ---
export const BulkPricingTierSchema = z.object({
  minQuantity: wholeNumber("Minimum quantity", 2),
  // A number with at most two decimals (pence); "4.50" is accepted too and stored as 4.5.
  price: z
    .union([z.number(), z.string().trim()], { error: "Tier price must be an amount such as 4.99" })
    .transform((value, ctx) => {
      const text = typeof value === "number" ? String(value) : value;
      if (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) > MAX_MONEY) {
        ctx.addIssue({ code: "custom", message: "Tier price must be an amount from 0 to 99999999.99 with at most two decimals" });
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
  /**
   * Left out: 0 for a new product, unchanged by an edit. A product with options has the sum of its
   * variants' stock, which an edit cannot set (PUT /api/products/{id}/variants sets each variant's).
   */
  stock: wholeNumber("Stock", 0).optional(),
  categoryId: uuidOrNull,
  // Only an image this server stored: never a script URL or a tracking pixel on another site.
  imageUrl: optionalText.refine((value) => value === null || OBJECT_PATH_PATTERN.test(value), {
    message: "must be an /objects/ path from this server (upload the image first)",
  }),
  /**
   * The photos in order, the first the main one (issue 23). Wins over imageUrl when both are sent;
   * left out, imageUrl alone says what the main photo is (docs/decisions/0033-product-photos.md).
   */
  imageUrls: z
    .array(
      z.string().trim().regex(OBJECT_PATH_PATTERN, { message: "must each be an /objects/ path from this server (upload the images first)" }),
    )
    .max(MAX_PRODUCT_IMAGES, { message: `can be at most ${MAX_PRODUCT_IMAGES} per product` })
    .refine((paths) => new Set(paths).size === paths.length, { message: "must not hold the same image twice" })
    .optional(),
  bulkPricing: z
    .array(BulkPricingTierSchema)
    .max(20)
    .nullish()
    .transform((tiers) => (tiers && tiers.length > 0 ? [...tiers].sort((a, b) => a.minQuantity - b.minQuantity) : null)),
  isActive: z.boolean().default(true),
  /**
   * The dashboard's Low Stock card and the "Low stock" filter count a product whose stock is at or below this.
   * Left out: LOW_STOCK_DEFAULT for a new product, unchanged by an edit (the first version's clients, docs/product.md §7, do not send it).
   */
  lowStockThreshold: wholeNumber("Low stock alert", 0, 100_000).optional(),
  /**
   * PUT only: the stock the edit form showed. An unchanged stock is then left as the database has it,
   * and a change made from a stale form answers 409 (docs/product.md rule 2, docs/decisions/0007).
   */
  expectedStock: wholeNumber("Stock shown in the form", 0).optional(),
  /** Issue 26: the name and description in other languages; left out on an edit, kept as they are. */
  translations: NameTranslationsSchema.optional(),
});
export type ProductInput = z.input<typeof ProductInputSchema>;
// --- Options and variants (issue 23; docs/decisions/0034-product-variants.md) ---
/** Options a product has at most (Size, Colour, Material). */
export const MAX_PRODUCT_OPTIONS = 3;
/** Values one option has at most. */
export const MAX_OPTION_VALUES = 20;
/** Variants a product has at most. */
export const MAX_PRODUCT_VARIANTS = 100;

const optionWord = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} is required`)
    .max(40, `${field} can be at most 40 characters`)
    // The label joins values with " / " and the bot's buttons show them: no line breaks or slashes.
    .refine((text) => !/[\n\r\t/]/.test(text), { message: `${field} cannot hold a slash or a line break` });

export const ProductOptionSchema = z.object({
  name: optionWord("Option name"),
  values: z
    .array(optionWord("Option value"))
    .min(1, "Every option needs at least one value")
    .max(MAX_OPTION_VALUES, `An option can have at most ${MAX_OPTION_VALUES} values`)
    .refine((values) => new Set(values.map((v) => v.toLowerCase())).size === values.length, {
      message: "An option cannot list the same value twice",
    }),
});
export type ProductOption = z.infer<typeof ProductOptionSchema>;

export const ProductVariantInputSchema = z.object({
  /** One value per option, by option name: { "Size": "M", "Colour": "Black" }; {} without options. */
  optionValues: z.record(z.string(), z.string().trim()).default({}),
  sku: optionalText.pipe(z.string().max(64, "SKU can be at most 64 characters").nullable()),
  /** null: the product's price. */
  price: MoneySchema.nullish().transform((value) => value ?? null),
  stock: wholeNumber("Stock", 0),
  imageUrl: optionalText.refine((value) => value === null || OBJECT_PATH_PATTERN.test(value), {
    message: "must be an /objects/ path from this server (upload the image first)",
  }),
  isActive: z.boolean().default(true),
  /**
   * The stock the editor showed (docs/decisions/0034-product-variants.md): with stock changed, a
   * variant whose stock is no longer this is refused with 409 and nothing changes; with stock equal to
   * it (untouched), the database's count is kept.
   */
  expectedStock: wholeNumber("Stock shown in the form", 0).optional(),
});
export type ProductVariantInput = z.input<typeof ProductVariantInputSchema>;

/** "M / Black": the option values in the options' order; "" for the hidden default variant. */
export function variantLabel(options: readonly { name: string }[], optionValues: Record<string, string>): string {
  return options.map((option) => optionValues[option.name] ?? "").join(" / ");
}

/** "Acceptance Tee (M / Black)", or the product's name alone for a product without options. */
export function itemDisplayName(productName: string, label: string | null | undefined): string {
  return label ? `${productName} (${label})` : productName;
}

/** PUT /api/products/{id}/variants: the whole set of options and variants, replaced in one transaction. */
export const ProductVariantsInputSchema = z
  .object({
    options: z
      .array(ProductOptionSchema)
      .max(MAX_PRODUCT_OPTIONS, `A product can have at most ${MAX_PRODUCT_OPTIONS} options`)
      .default([]),
    variants: z
      .array(ProductVariantInputSchema)
      .min(1, "A product needs at least one variant")
      .max(MAX_PRODUCT_VARIANTS, `A product can have at most ${MAX_PRODUCT_VARIANTS} variants`),
  })
  .superRefine((input, ctx) => {
    const names = input.options.map((option) => option.name.toLowerCase());
    if (new Set(names).size !== names.length) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "Two options cannot have the same name" });
      return;
    }
    if (input.options.length === 0 && input.variants.length > 1) {
      ctx.addIssue({ code: "custom", path: ["variants"], message: "A product without options has exactly one variant" });
      return;
    }
    const seen = new Set<string>();
    const skus = new Set<string>();
    input.variants.forEach((variant, index) => {
      const keys = Object.keys(variant.optionValues);
      const unknown = keys.find((key) => !input.options.some((option) => option.name === key));
      if (unknown !== undefined) {
        ctx.addIssue({ code: "custom", path: ["variants", index, "optionValues"], message: `Variant ${index + 1} names an option the product does not have` });
        return;
      }
      for (const option of input.options) {
        const value = variant.optionValues[option.name];
        if (value === undefined || !option.values.includes(value)) {
          ctx.addIssue({
            code: "custom",
            path: ["variants", index, "optionValues"],
            message: `Variant ${index + 1} needs a ${option.name} from ${option.values.join(", ")}`,
          });
          return;
        }
      }
      const label = variantLabel(input.options, variant.optionValues).toLowerCase();
      if (seen.has(label)) {
        ctx.addIssue({ code: "custom", path: ["variants", index, "optionValues"], message: `Two variants are both ${variantLabel(input.options, variant.optionValues)}` });
      }
      seen.add(label);
      if (variant.sku !== null) {
        if (skus.has(variant.sku.toLowerCase())) {
          ctx.addIssue({ code: "custom", path: ["variants", index, "sku"], message: `SKU ${variant.sku} is given to two variants` });
        }
        skus.add(variant.sku.toLowerCase());
      }
    });
  });
export type ProductVariantsInput = z.input<typeof ProductVariantsInputSchema>;
export type ProductVariantsValues = z.output<typeof ProductVariantsInputSchema>;

export const ProductVariantSchema = z
  .object({
    id: IdSchema,
    optionValues: z.record(z.string(), z.string()),
    /** "M / Black"; "" for the hidden default variant of a product without options. */
    label: z.string(),
    sku: z.string().nullable(),
    /** null: sold at the product's price. */
    price: MoneyTextSchema.nullable(),
    stock: z.int(),
    imageUrl: z.string().nullable(),
    isActive: z.boolean(),
  })
  .meta({ id: "ProductVariant" });
export type ProductVariant = z.input<typeof ProductVariantSchema>;

export const ProductSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    description: z.string(),
    price: MoneyTextSchema,
    stock: z.int(),
    categoryId: IdSchema.nullable(),
    /** An /objects/ path on this server: the main photo, always imageUrls[0] (or null without photos). */
    imageUrl: z.string().nullable(),
    /** The product's photos in order (issue 23), at most 10. */
    imageUrls: z.array(z.string()),
    /** Tiers by ascending minQuantity; null when the product has none. */
    bulkPricing: z.array(z.object({ minQuantity: z.int(), price: z.number() })).nullable(),
    isActive: z.boolean(),
    /** Low stock when stock is at or below this (issue 13). */
    lowStockThreshold: z.int(),
    /** The product's options (issue 23): [] for a product sold in one kind. */
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    /**
     * Its variants in the editor's order: one hidden default variant (label "") without options.
     * With options, stock is the sum of the active variants' stock.
     */
    variants: z.array(ProductVariantSchema),
    translations: SavedNameTranslationsSchema,
    createdAt: DateTimestampSchema,
    updatedAt: DateTimestampSchema,
  })
  .meta({ id: "Product" });
/** A product as the API answers it (JSON). */
export type Product = z.input<typeof ProductSchema>;

// --- Uploads ---
export const ProductImageInputSchema = z.object({ imageURL: z.string().trim().min(1, "Image is required") });
/** POST /api/objects/upload: where the browser PUTs the image bytes next (a one-time path on this server). */
export const UploadUrlSchema = z.object({ uploadURL: z.string() }).meta({ id: "UploadUrl" });
/** The stored image's path, which becomes a product's imageUrl. */
export const ObjectPathSchema = z.object({ objectPath: z.string() }).meta({ id: "ObjectPath" });

// --- The product list's query (paged lists: contract/paging.ts) ---
export const PRODUCT_STATUS_FILTERS = ["all", "in-stock", "out-of-stock", "low-stock", "active", "inactive"] as const;
export type ProductStatusFilter = (typeof PRODUCT_STATUS_FILTERS)[number];
export const ProductListQuerySchema = PageQuerySchema.extend({
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
