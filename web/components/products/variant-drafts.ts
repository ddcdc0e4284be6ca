import { type Product, type ProductVariantsInput, ProductVariantsInputSchema, variantLabel } from "../../../contract";

// The "Options & variants" editor's state (issue 23, docs/decisions/0034-product-variants.md) and how
// it becomes the body of PUT /api/products/{id}/variants. Kept apart from the dialog's markup so the
// rules read in one place:
// - the table holds every combination of the options' values, in the options' order, unless the owner
//   removed a row;
// - a row is the same variant as the server's when its option values are the same (names and values,
//   whatever their case), as the server matches them; such a row sends the stock it showed as
//   expectedStock, so an untouched row keeps the database's count and a stale change is refused (409);
// - a row's typed values are kept by combination for the whole visit, so an option renamed and renamed
//   back, or a value removed and added again, gets its row back as it was.

export type OptionDraft = {
  /** React's key: stays while the name is retyped. */
  key: string;
  name: string;
  values: string[];
};

export type VariantDraft = {
  optionValues: Record<string, string>;
  sku: string;
  /** "" sells it at the product's price. */
  price: string;
  stock: string;
  imageUrl: string | null;
  isActive: boolean;
  /** The stock the server had when it was loaded into the editor; null for a combination it does not hold. */
  shownStock: number | null;
};

export type VariantsDraft = {
  options: OptionDraft[];
  /** Every row typed into during this visit, by combination (combinationKey). */
  rows: Record<string, VariantDraft>;
  /** Combinations the owner removed from the table. */
  removed: string[];
};

let nextOptionKey = 0;
export const newOptionKey = () => `option-${++nextOptionKey}`;

/** The same option values whatever order or case their keys came in: the server's own matching rule. */
export function combinationKey(optionValues: Record<string, string>): string {
  return JSON.stringify(
    Object.entries(optionValues)
      .map(([name, value]) => [name.trim().toLowerCase(), value.trim().toLowerCase()])
      .sort(),
  );
}

/** The editor as the product has it on the server (a product without options: no options, no rows). */
export function draftOf(product: Pick<Product, "options" | "variants"> | null): VariantsDraft {
  const options = (product?.options ?? []).map((option) => ({ key: newOptionKey(), name: option.name, values: [...option.values] }));
  const rows: Record<string, VariantDraft> = {};
  if (options.length > 0) {
    for (const variant of product?.variants ?? []) {
      rows[combinationKey(variant.optionValues)] = {
        optionValues: { ...variant.optionValues },
        sku: variant.sku ?? "",
        price: variant.price ?? "",
        stock: String(variant.stock),
        imageUrl: variant.imageUrl,
        isActive: variant.isActive,
        shownStock: variant.stock,
      };
    }
  }
  // A combination the server does not hold (a value added by another editor's save) starts removed,
  // so loading never adds variants by itself.
  const removed = combinationsOf(options)
    .map(combinationKey)
    .filter((key) => rows[key] === undefined);
  return { options, rows, removed };
}

/** Options that take part: a blank option just added (no name, no values) is ignored. */
export function usedOptions(options: OptionDraft[]): OptionDraft[] {
  return options.filter((option) => option.name.trim() !== "" || option.values.length > 0);
}

/** Every combination of the options' values, the first option varying slowest ("S / Black", "S / White", "M / Black"...). */
export function combinationsOf(options: OptionDraft[]): Record<string, string>[] {
  const used = usedOptions(options);
  if (used.length === 0) return [];
  return used.reduce<Record<string, string>[]>(
    (combinations, option) => combinations.flatMap((combination) => option.values.map((value) => ({ ...combination, [option.name.trim()]: value }))),
    [{}],
  );
}

export type VariantRow = VariantDraft & { key: string; label: string };

/** The table's rows: each combination not removed, with what was typed into it (or a fresh row). */
export function rowsOf(draft: VariantsDraft): VariantRow[] {
  const named = usedOptions(draft.options).map((option) => ({ name: option.name.trim() }));
  return combinationsOf(draft.options)
    .map((optionValues) => ({ optionValues, key: combinationKey(optionValues) }))
    .filter(({ key }) => !draft.removed.includes(key))
    .map(({ optionValues, key }) => ({
      ...(draft.rows[key] ?? freshRow()),
      optionValues,
      key,
      label: variantLabel(named, optionValues),
    }));
}

function freshRow(): VariantDraft {
  return { optionValues: {}, sku: "", price: "", stock: "0", imageUrl: null, isActive: true, shownStock: null };
}

/** The stock typed into a row: a whole number, anything else 0 (as the product's own Stock field, docs/product.md §5). */
export function stockOf(text: string): number {
  const n = parseInt(text, 10);
  return Number.isNaN(n) ? 0 : n;
}

/** What the product's read-only Stock field shows while it has options: the active rows' stock added up (as the server's trigger does). */
export function stockSum(rows: VariantRow[]): number {
  return rows.filter((row) => row.isActive).reduce((sum, row) => sum + stockOf(row.stock), 0);
}

/** Sets one row's fields, keeping the others. */
export function withRow(draft: VariantsDraft, row: VariantRow, change: Partial<VariantDraft>): VariantsDraft {
  const { key, label: _label, ...fields } = row;
  return { ...draft, rows: { ...draft.rows, [key]: { ...fields, ...change } } };
}

/** Sets the same fields on every row of the table. */
export function withEveryRow(draft: VariantsDraft, rows: VariantRow[], change: Partial<VariantDraft>): VariantsDraft {
  return rows.reduce((next, row) => withRow(next, row, change), draft);
}

/**
 * The PUT body. Without options it is the product's one hidden default variant with `defaultStock`
 * (the owner took the options away: the product is sold in one kind again).
 */
export function variantsInputOf(draft: VariantsDraft, defaultStock: number): ProductVariantsInput {
  const options = usedOptions(draft.options).map((option) => ({ name: option.name.trim(), values: option.values }));
  if (options.length === 0) return { options: [], variants: [{ optionValues: {}, stock: defaultStock }] };
  return {
    options,
    variants: rowsOf(draft).map((row) => ({
      optionValues: row.optionValues,
      sku: row.sku.trim() === "" ? null : row.sku.trim(),
      price: row.price.trim() === "" ? null : row.price.trim(),
      stock: stockOf(row.stock),
      imageUrl: row.imageUrl,
      isActive: row.isActive,
      ...(row.shownStock !== null ? { expectedStock: row.shownStock } : {}),
    })),
  };
}

/** What the editor would save, to tell whether anything changed since it was loaded. */
export function fingerprint(draft: VariantsDraft): string {
  return JSON.stringify(variantsInputOf(draft, 0));
}

/**
 * The first reason the set would be refused, in the owner's words (the contract's own check, run
 * before anything is sent), or null. A row is named by its label rather than its place in the list.
 */
export function variantsProblem(draft: VariantsDraft, input: ProductVariantsInput): string | null {
  const result = ProductVariantsInputSchema.safeParse(input);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  const [where, index, field] = issue.path;
  if (where === "variants" && typeof index === "number") {
    const row = rowsOf(draft)[index];
    const name = row?.label ?? `Variant ${index + 1}`;
    if (field === "price") return `Price of ${name} must be an amount such as 4.99`;
    // A SKU's refusal names the SKU already ("SKU TEE-1 is given to two variants"; the input caps its length).
    if (field === "stock" || field === "imageUrl") return `${name}: ${issue.message}`;
    return issue.message;
  }
  if (where === "options" && typeof index === "number") {
    const option = usedOptions(draft.options)[index];
    const name = option?.name.trim() || `Option ${index + 1}`;
    return issue.message.startsWith("Option") || issue.message.startsWith("Every") || issue.message.startsWith("An option")
      ? `${name}: ${issue.message}`
      : issue.message;
  }
  return issue.message;
}

/**
 * After a 409, takes the server's current stock into the rows it still holds (as the new stock
 * shown and expected); every other edit stays.
 */
export function withServerStock(draft: VariantsDraft, product: Pick<Product, "variants">): VariantsDraft {
  const rows = { ...draft.rows };
  for (const variant of product.variants) {
    const key = combinationKey(variant.optionValues);
    const row = rows[key];
    if (row) rows[key] = { ...row, stock: String(variant.stock), shownStock: variant.stock };
  }
  // Rows the server no longer holds are new ones now: sent without expectedStock, they are created.
  for (const [key, row] of Object.entries(rows)) {
    if (!product.variants.some((variant) => combinationKey(variant.optionValues) === key)) rows[key] = { ...row, shownStock: null };
  }
  return { ...draft, rows };
}
