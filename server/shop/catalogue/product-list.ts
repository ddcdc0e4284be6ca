import { and, asc, count, desc, eq, gt, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import type { ProductListQuery } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { categories, products } from "../../db/schema";
import { afterKey, decodeCursor, escapeLike, type KeyPart, keyText, type Page, pageFromRows } from "../common";
import { withVariants, type ProductWithVariants } from "./variants";
import { isLowStock } from "../insights";

// The Products screen's list on the server (issue 12): the screen's filters (category with its
// subcategories, in/out of stock, a name search) plus active/inactive, paged by keyset.

export type ProductFilters = Omit<ProductListQuery, "limit" | "cursor">;

const KEY: KeyPart[] = [
  { column: products.createdAt, kind: "moment" },
  { column: products.id, kind: "uuid" },
];

function filterConditions(filters: ProductFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.q) {
    const pattern = `%${escapeLike(filters.q)}%`;
    // docs/product.md §3 (Products): a name search, case-insensitive, anywhere in the name.
    conditions.push(sql`${products.name} ilike ${pattern} escape '\\'`);
  }
  if (filters.categoryId) {
    // As on the screen: a main category shows the products of its subcategories too.
    const children = sql`(select ${categories.id} from ${categories} where ${categories.parentId} = ${filters.categoryId})`;
    conditions.push(or(eq(products.categoryId, filters.categoryId), inArray(products.categoryId, children))!);
  }
  if (filters.status === "in-stock") conditions.push(gt(products.stock, 0));
  if (filters.status === "out-of-stock") conditions.push(lte(products.stock, 0));
  if (filters.status === "low-stock") conditions.push(isLowStock);
  if (filters.status === "active") conditions.push(eq(products.isActive, true));
  if (filters.status === "inactive") conditions.push(eq(products.isActive, false));
  return conditions;
}

export function productPageQuery(db: DbOrTx, query: ProductListQuery) {
  const direction = query.sort === "oldest" ? "asc" : "desc";
  const conditions = filterConditions(query);
  if (query.cursor) conditions.push(afterKey(KEY, decodeCursor(query.cursor, query.sort, KEY), direction));
  const order = direction === "desc" ? desc : asc;
  const select = db
    .select({ product: products, key0: keyText(KEY[0]!) })
    .from(products)
    .where(and(...conditions))
    .orderBy(order(products.createdAt), order(products.id));
  return query.limit === undefined ? select : select.limit(query.limit + 1);
}

export async function listProductsMatching(db: DbOrTx, filters: ProductFilters): Promise<ProductWithVariants[]> {
  const rows = await productPageQuery(db, { ...filters, limit: undefined, cursor: undefined });
  return withVariants(
    db,
    rows.map((row) => row.product),
  );
}

export async function listProductPage(db: DbOrTx, query: ProductListQuery & { limit: number }): Promise<Page<ProductWithVariants>> {
  const [rows, [counted]] = await Promise.all([
    productPageQuery(db, query),
    db.select({ total: count() }).from(products).where(and(...filterConditions(query))),
  ]);
  const page = pageFromRows(
    rows,
    query.limit,
    counted?.total ?? 0,
    { sort: query.sort, key: (row) => [row.key0, row.product.id] },
    (row) => row.product,
  );
  return { ...page, rows: await withVariants(db, page.rows) };
}
