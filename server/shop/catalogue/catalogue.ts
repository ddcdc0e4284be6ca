import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { categories, products } from "../../db/schema";
import type { NameTranslations } from "../../../contract";

// What a customer can browse in the bot: categories two levels deep and the active products in them.

export type CatalogueCategory = { id: string; name: string; parentId: string | null; translations?: NameTranslations };
export type CatalogueProduct = typeof products.$inferSelect;
export type Page<T> = { items: T[]; page: number; pageCount: number; total: number };

const byName = [asc(categories.name), asc(categories.id)];

export async function listMainCategories(db: DbOrTx): Promise<CatalogueCategory[]> {
  return db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentId, translations: categories.translations })
    .from(categories)
    .where(isNull(categories.parentId))
    .orderBy(...byName);
}

export async function listSubcategories(db: DbOrTx, parentId: string): Promise<CatalogueCategory[]> {
  return db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentId, translations: categories.translations })
    .from(categories)
    .where(eq(categories.parentId, parentId))
    .orderBy(...byName);
}

export async function getCategory(db: DbOrTx, id: string): Promise<CatalogueCategory | null> {
  const [row] = await db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentId, translations: categories.translations })
    .from(categories)
    .where(eq(categories.id, id));
  return row ?? null;
}

/** Active products of a category (null: products without a category), by name, one page at a time. */
export async function listActiveProducts(
  db: DbOrTx,
  categoryId: string | null,
  page: number,
  pageSize: number,
): Promise<Page<CatalogueProduct>> {
  const where = and(eq(products.isActive, true), categoryId ? eq(products.categoryId, categoryId) : isNull(products.categoryId));
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(products).where(where);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(0, page), pageCount - 1);
  const items = await db
    .select()
    .from(products)
    .where(where)
    .orderBy(asc(products.name), asc(products.id))
    .limit(pageSize)
    .offset(current * pageSize);
  return { items, page: current, pageCount, total };
}

export async function countActiveUncategorised(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(products)
    .where(and(eq(products.isActive, true), isNull(products.categoryId)));
  return row?.total ?? 0;
}

/** An active product, or null when it is unknown or was switched off. */
export async function getActiveProduct(db: DbOrTx, id: string): Promise<CatalogueProduct | null> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.isActive, true)));
  return row ?? null;
}
