import crypto from "node:crypto";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { variantLabel, type ProductVariant, type ProductVariantsValues } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { cartItems, products, productVariants, restockWaits } from "../../db/schema";
import { conflict, notFound } from "../common";
import { formatPence, toPence } from "./pricing";

// A product's options and variants (issue 23; docs/decisions/0034-product-variants.md). Every product
// has at least one variant: without options, a hidden default one whose id is the product's id. Stock
// lives on the variants; products.stock is the sum over the active ones (the product_variants_stock
// trigger, drizzle/0024), so every reader of a product's stock keeps working.

export type VariantRow = typeof productVariants.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
/** A product as the API answers it, before serialisation: its row plus its variants. */
export type ProductWithVariants = ProductRow & { variants: ProductVariant[] };

export function toVariant(row: VariantRow): ProductVariant {
  return {
    id: row.id,
    optionValues: row.optionValues,
    label: row.label,
    sku: row.sku,
    price: row.price === null ? null : formatPence(toPence(row.price)),
    stock: row.stock,
    imageUrl: row.imageUrl,
    isActive: row.isActive,
  };
}

/** The variants of these products, each product's in the editor's order. */
export async function variantsByProduct(db: DbOrTx, productIds: string[]): Promise<Map<string, VariantRow[]>> {
  const found = new Map<string, VariantRow[]>();
  if (productIds.length === 0) return found;
  const rows = await db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  for (const row of rows) {
    const list = found.get(row.productId) ?? [];
    list.push(row);
    found.set(row.productId, list);
  }
  return found;
}

/** Products with their variants, as every product answer of the API carries them. */
export async function withVariants(db: DbOrTx, rows: ProductRow[]): Promise<ProductWithVariants[]> {
  const variants = await variantsByProduct(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, variants: (variants.get(row.id) ?? []).map(toVariant) }));
}

export async function getProduct(db: DbOrTx, id: string): Promise<ProductWithVariants> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  if (!row) throw notFound("Product not found.");
  return (await withVariants(db, [row]))[0]!;
}

/** A product's variants in order (the bot's product card). */
export async function listVariants(db: DbOrTx, productId: string): Promise<VariantRow[]> {
  return (await variantsByProduct(db, [productId])).get(productId) ?? [];
}

/** A variant by its id, whichever product it belongs to (an old bot button, a cart line's "view" button). */
export async function findVariant(db: DbOrTx, variantId: string): Promise<{ productId: string; optionValues: Record<string, string> } | null> {
  const [row] = await db
    .select({ productId: productVariants.productId, optionValues: productVariants.optionValues })
    .from(productVariants)
    .where(eq(productVariants.id, variantId));
  return row ?? null;
}

/** The same option values whatever order their keys came in. */
function combinationKey(optionValues: Record<string, string>): string {
  return JSON.stringify(
    Object.entries(optionValues)
      .map(([name, value]) => [name.toLowerCase(), value.toLowerCase()])
      .sort(),
  );
}

const variantName = (label: string) => (label === "" ? "The stock" : `The stock of ${label}`);

/**
 * PUT /api/products/{id}/variants: the product's options and variants become exactly these, in one
 * transaction. A variant is the same one as before when it has the same option values (its id, the
 * carts holding it and its restock waits stay). Stock is written as for a product (docs/decisions/0007):
 * a variant sent with expectedStock equal to its stock (the owner did not touch it) keeps the count
 * the database holds; one whose stock was changed is set only while the database still holds
 * expectedStock, else 409 and nothing changes. Variants left out are deleted with their cart lines and
 * restock waits; orders keep their label and SKU.
 */
export async function replaceVariants(db: DbOrTx, productId: string, values: ProductVariantsValues, now: Date): Promise<ProductWithVariants> {
  return db.transaction(async (tx) => {
    // The product's row lock queues two editors of the same product one after the other.
    const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for("update");
    if (!product) throw notFound("Product not found.");
    const current = await tx.select().from(productVariants).where(eq(productVariants.productId, productId)).for("update");
    const byCombination = new Map(current.map((row) => [combinationKey(row.optionValues), row]));

    const planned = values.variants.map((variant, position) => {
      const existing = byCombination.get(combinationKey(variant.optionValues));
      const label = variantLabel(values.options, variant.optionValues);
      let stock = variant.stock;
      if (variant.expectedStock !== undefined) {
        if (!existing) throw conflict(`${label || "This variant"} was removed meanwhile. Reload the variants before changing them.`);
        if (variant.stock === variant.expectedStock) stock = existing.stock;
        else if (existing.stock !== variant.expectedStock) {
          throw conflict(`${variantName(label)} changed meanwhile: it is now ${existing.stock}. Reload the variants before changing them.`);
        }
      }
      const optionValues = Object.fromEntries(values.options.map((option) => [option.name, variant.optionValues[option.name]!]));
      return {
        existing,
        columns: {
          optionValues,
          label,
          sku: variant.sku,
          price: variant.price,
          stock,
          imageUrl: variant.imageUrl,
          isActive: variant.isActive,
          position,
          updatedAt: now,
        },
      };
    });

    const kept = planned.flatMap((plan) => (plan.existing ? [plan.existing.id] : []));
    const gone = current.filter((row) => !kept.includes(row.id)).map((row) => row.id);
    if (gone.length > 0) {
      await tx.delete(cartItems).where(inArray(cartItems.variantId, gone));
      await tx.delete(restockWaits).where(inArray(restockWaits.variantId, gone));
      await tx.delete(productVariants).where(inArray(productVariants.id, gone));
    }
    for (const plan of planned) {
      if (plan.existing) {
        await tx.update(productVariants).set(plan.columns).where(eq(productVariants.id, plan.existing.id));
      } else {
        // The hidden default variant's id is the product's (docs/decisions/0034-product-variants.md).
        const id = values.options.length === 0 ? productId : crypto.randomUUID();
        await tx.insert(productVariants).values({ id, productId, ...plan.columns, createdAt: now });
      }
    }
    await tx.update(products).set({ options: values.options, updatedAt: now }).where(eq(products.id, productId));
    return getProduct(tx, productId);
  });
}

/**
 * A product that has no variant (restored from a backup made before variants) gets its hidden
 * default variant holding its stock; cart lines and restock waits of such a backup point at it already
 * (their variant id is the product's, drizzle/0024), and an order line without a variant id means it
 * (orders/stock.ts). Run after a restore; does nothing otherwise.
 */
export async function ensureDefaultVariants(db: DbOrTx): Promise<number> {
  const made = await db.execute(sql`
    insert into ${productVariants} (id, product_id, stock, is_active, created_at, updated_at)
    select p.id, p.id, p.stock, true, p.created_at, p.updated_at from ${products} p
     where not exists (select 1 from ${productVariants} v where v.product_id = p.id)
    returning id`);
  return (made as unknown as { rows: unknown[] }).rows.length;
}
