import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProductInputSchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { categories, products } from "../../db/schema";
import { FOREIGN_KEY_VIOLATION, pgErrorCode, conflict, invalid, notFound } from "../common";

export type ProductValues = z.output<typeof ProductInputSchema>;
export type ProductRow = typeof products.$inferSelect;

const NO_SUCH_CATEGORY = "The selected category does not exist.";

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

export async function createProduct(db: DbOrTx, values: ProductValues): Promise<ProductRow> {
  await checkCategory(db, values.categoryId);
  // expectedStock only means something to an edit.
  const { expectedStock: _ignored, imageUrl: _main, imageUrls: _photos, ...columns } = values;
  const [row] = await db
    .insert(products)
    .values({ ...columns, ...photoColumns(values, false) })
    .returning()
    .catch(categoryGone);
  return row!;
}

/**
 * docs/product.md rule 2 (docs/decisions/0007): an edit never writes back stock it did not mean to change.
 * The form sends the stock it showed as `expectedStock`:
 * - stock equal to it: the owner did not touch stock, so the database's count (maybe lowered by a
 *   sale since the form opened) stays; the other fields save;
 * - stock different: it is set only while the database still holds expectedStock, in the same
 *   UPDATE, so a checkout taking stock at that moment is never overwritten; otherwise 409 and
 *   nothing is saved.
 * Without expectedStock (other API clients) stock is set as given.
 */
export async function updateProduct(db: DbOrTx, id: string, values: ProductValues): Promise<ProductRow> {
  await checkCategory(db, values.categoryId);
  const { expectedStock, stock, imageUrl: _main, imageUrls: _photos, ...fields } = values;
  const keepStock = expectedStock !== undefined && stock === expectedStock;
  const guardStock = expectedStock !== undefined && stock !== expectedStock;
  const [row] = await db
    .update(products)
    .set({ ...fields, ...photoColumns(values, true), ...(keepStock ? {} : { stock }), updatedAt: new Date() })
    .where(guardStock ? and(eq(products.id, id), eq(products.stock, expectedStock)) : eq(products.id, id))
    .returning()
    .catch(categoryGone);
  if (row) return row;

  const [current] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, id));
  if (!current) throw notFound("Product not found.");
  throw conflict(`Stock changed meanwhile: it is now ${current.stock}. Reload it before changing it.`);
}

/**
 * docs/product.md rule 5: the product leaves every cart (FK cascade); past order items keep its id and
 * name snapshot, since order_items has no foreign key to products.
 */
export async function deleteProduct(db: DbOrTx, id: string): Promise<void> {
  const deleted = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  if (deleted.length === 0) throw notFound("Product not found.");
}
