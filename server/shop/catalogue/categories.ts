import { asc, count, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { CategoryInputSchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { categories } from "../../db/schema";
import { FOREIGN_KEY_VIOLATION, pgErrorCode, conflict, invalid, notFound } from "../common";

// Categories have two levels (docs/product.md §4): a main category (parentId null) and its subcategories.

export type CategoryValues = z.output<typeof CategoryInputSchema>;
export type CategoryRow = typeof categories.$inferSelect;

const HAS_SUBCATEGORIES = "This category has subcategories: delete or move its subcategories first.";

/** Main categories and subcategories together, by name (case-insensitive, the same on every database). */
export function listCategories(db: DbOrTx): Promise<CategoryRow[]> {
  return db
    .select()
    .from(categories)
    .orderBy(sql`lower(${categories.name})`, asc(categories.name), asc(categories.id));
}

async function lockCategory(tx: DbOrTx, id: string): Promise<CategoryRow | undefined> {
  const [row] = await tx.select().from(categories).where(eq(categories.id, id)).for("update");
  return row;
}

async function countSubcategories(tx: DbOrTx, id: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(categories).where(eq(categories.parentId, id));
  return row?.n ?? 0;
}

/**
 * A parent must exist and be a main category, so the tree stays two levels deep. The parent row is
 * locked until the transaction ends, so it cannot become a subcategory meanwhile.
 */
async function checkParent(tx: DbOrTx, parentId: string | null): Promise<void> {
  if (!parentId) return;
  const parent = await lockCategory(tx, parentId);
  if (!parent) throw invalid("The chosen parent category does not exist.");
  if (parent.parentId) {
    throw invalid(`"${parent.name}" is a subcategory; subcategories can only be placed under a main category.`);
  }
}

function parentGone(error: unknown): never {
  // The parent was deleted between our check and the write.
  if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw invalid("The chosen parent category does not exist.");
  throw error;
}

export function createCategory(db: DbOrTx, values: CategoryValues): Promise<CategoryRow> {
  return db
    .transaction(async (tx) => {
      await checkParent(tx, values.parentId);
      const [row] = await tx.insert(categories).values(values).returning();
      return row!;
    })
    .catch(parentGone);
}

export function updateCategory(db: DbOrTx, id: string, values: CategoryValues): Promise<CategoryRow> {
  return db
    .transaction(async (tx) => {
      const current = await lockCategory(tx, id);
      if (!current) throw notFound("Category not found.");
      if (values.parentId === id) throw invalid("A category cannot be its own parent.");
      if (values.parentId && (await countSubcategories(tx, id)) > 0) {
        throw conflict(
          `"${current.name}" has subcategories, so it cannot become a subcategory: move or delete its subcategories first.`,
        );
      }
      await checkParent(tx, values.parentId);
      const [row] = await tx
        .update(categories)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(categories.id, id))
        .returning();
      return row!;
    })
    .catch(parentGone);
}

/** docs/product.md rule 5: refused while it has subcategories; its products become uncategorised (FK set null). */
export async function deleteCategory(db: DbOrTx, id: string): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const current = await lockCategory(tx, id);
      if (!current) throw notFound("Category not found.");
      if ((await countSubcategories(tx, id)) > 0) throw conflict(HAS_SUBCATEGORIES);
      await tx.delete(categories).where(eq(categories.id, id));
    });
  } catch (error) {
    // A subcategory was added meanwhile: the foreign key (on delete restrict) refused the delete.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw conflict(HAS_SUBCATEGORIES);
    throw error;
  }
}
