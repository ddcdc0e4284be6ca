import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProductInputSchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { categories, products, productVariants } from "../../db/schema";
import { FOREIGN_KEY_VIOLATION, pgErrorCode, conflict, invalid, notFound } from "../common";
import { getProduct, type ProductWithVariants } from "./variants";

export type ProductValues = z.output<typeof ProductInputSchema>;
export type { ProductRow } from "./variants";

const NO_SUCH_CATEGORY = "The selected category does not exist.";

/** A product with options has the sum of its variants' stock; an edit of the product cannot set it. */
export const STOCK_OF_VARIANTS =
  "Stock cannot be set on a product with options: it is the sum of its variants' stock. Change each variant's stock under Options & variants.";

async function checkCategory(db: DbOrTx, categoryId: string | null): Promise<void> {
  if (!categoryId) return;
  const [found] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId));
  if (!found) throw invalid(NO_SUCH_CATEGORY);
}

function categoryGone(error: unknown): never {
  // The category was deleted between our check and the write.
  if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw invalid(NO_SUCH_CATEGORY);
  throw error;
}

/**
 * The photo columns a write sets (issue 23, docs/decisions/0033-product-photos.md): image_url is always
 * the first of image_urls. imageUrls wins when both are sent. imageUrl alone (the first version's
 * clients, which know one photo) replaces only the main photo, so an edit from such a client keeps
 * the other photos; null removes them all, as it removed the one photo before.
 */
function photoColumns(values: ProductValues, editing: boolean) {
  if (values.imageUrls !== undefined) return { imageUrl: values.imageUrls[0] ?? null, imageUrls: values.imageUrls };
  const main = values.imageUrl;
  if (main === null) return { imageUrl: null, imageUrls: [] };
  if (!editing) return { imageUrl: main, imageUrls: [main] };
  // In the UPDATE itself, so a concurrent edit of the list is not overwritten with what we read before.
  return {
    imageUrl: main,
    imageUrls: sql<string[]>`array_prepend(${main}::text, array_remove(coalesce(${products.imageUrls}[2:], '{}'::text[]), ${main}::text))`,
  };
}

/** A new product, sold in one kind: its hidden default variant (the product's id) holds its stock. */
export async function createProduct(db: DbOrTx, values: ProductValues): Promise<ProductWithVariants> {
  await checkCategory(db, values.categoryId);
  // expectedStock only means something to an edit.
  const { expectedStock: _ignored, imageUrl: _main, imageUrls: _photos, stock = 0, ...columns } = values;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values({ ...columns, stock, ...photoColumns(values, false) })
      .returning()
      .catch(categoryGone);
    // Its default variant was made with it (the products_default_variant trigger, drizzle/0024).
    return getProduct(tx, row!.id);
  });
}

/**
 * docs/product.md rule 2 (docs/decisions/0007): an edit never writes back stock it did not mean to change.
 * The form sends the stock it showed as `expectedStock`:
 * - stock equal to it: the owner did not touch stock, so the database's count (maybe lowered by a
 *   sale since the form opened) stays; the other fields save;
 * - stock different: it is set only while the database still holds expectedStock, in the same
 *   UPDATE, so a checkout taking stock at that moment is never overwritten; otherwise 409 and
 *   nothing is saved.
 * Without expectedStock (other API clients) stock is set as given; left out, it stays.
 * The stock is the hidden default variant's (issue 23); a product with options refuses a new stock
 * with a 400 (its stock is the sum of its variants').
 */
export async function updateProduct(db: DbOrTx, id: string, values: ProductValues): Promise<ProductWithVariants> {
  await checkCategory(db, values.categoryId);
  const { expectedStock, stock, imageUrl: _main, imageUrls: _photos, ...fields } = values;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(products)
      .set({ ...fields, ...photoColumns(values, true), updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning()
      .catch(categoryGone);
    if (!row) throw notFound("Product not found.");
    const untouched = stock === undefined || (expectedStock !== undefined && stock === expectedStock);
    if (untouched) return getProduct(tx, id);
    if (row.options.length > 0) {
      if (stock === row.stock) return getProduct(tx, id);
      throw invalid(STOCK_OF_VARIANTS);
    }
    const guard = expectedStock === undefined ? sql`true` : eq(productVariants.stock, expectedStock);
    const set = await tx
      .update(productVariants)
      .set({ stock, updatedAt: new Date() })
      .where(and(eq(productVariants.productId, id), eq(productVariants.label, ""), guard))
      .returning({ id: productVariants.id });
    if (set.length === 0) {
      const [current] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, id));
      throw conflict(`Stock changed meanwhile: it is now ${current?.stock ?? 0}. Reload it before changing it.`);
    }
    return getProduct(tx, id);
  });
}

/**
 * docs/product.md rule 5: the product leaves every cart (FK cascade); past order items keep its id and
 * name snapshot, since order_items has no foreign key to products.
 */
export async function deleteProduct(db: DbOrTx, id: string): Promise<void> {
  const deleted = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  if (deleted.length === 0) throw notFound("Product not found.");
}
