import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { ProductInputSchema } from "../../contract";
import type { DbOrTx } from "../db/client";
import { categories, products } from "../db/schema";
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from "./db-errors";
import { invalid, notFound } from "./errors";

export type ProductValues = z.output<typeof ProductInputSchema>;
export type ProductRow = typeof products.$inferSelect;

const NO_SUCH_CATEGORY = "The selected category does not exist.";

/** Newest first, as the admin's product list shows them. */
export function listProducts(db: DbOrTx): Promise<ProductRow[]> {
  return db.select().from(products).orderBy(desc(products.createdAt), desc(products.id));
}

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

export async function createProduct(db: DbOrTx, values: ProductValues): Promise<ProductRow> {
  await checkCategory(db, values.categoryId);
  const [row] = await db.insert(products).values(values).returning().catch(categoryGone);
  return row!;
}

export async function updateProduct(db: DbOrTx, id: string, values: ProductValues): Promise<ProductRow> {
  await checkCategory(db, values.categoryId);
  const [row] = await db
    .update(products)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(products.id, id))
    .returning()
    .catch(categoryGone);
  if (!row) throw notFound("Product not found.");
  return row;
}

/**
 * DESIGN decision 5: the product leaves every cart (FK cascade); past order items keep its id and
 * name snapshot, since order_items has no foreign key to products.
 */
export async function deleteProduct(db: DbOrTx, id: string): Promise<void> {
  const deleted = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  if (deleted.length === 0) throw notFound("Product not found.");
}
