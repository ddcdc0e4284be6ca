import { and, asc, count, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import type { Order, OrderListQuery, OrderSort } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { orders } from "../../db/schema";
import { ordersOf } from "./orders";
import { addressSearchCondition } from "../vaults";
import { afterKey, decodeCursor, escapeLike, type KeyPart, keyText, type Page, pageFromRows } from "../common";

// The Orders screen's list on the server (issue 12): filters, search and sorts, each answered by an
// index (server/db/schema.ts), paged by keyset.

/** The filters, without the paging. */
export type OrderFilters = Omit<OrderListQuery, "limit" | "cursor">;

/**
 * What a search may look at. Without `byAddress` the text is not looked up as a name or postcode: a
 * caller that may not see addresses (the support role, contract/team.ts) would otherwise learn them
 * by guessing ("does anyone at SW1A 1AA order from us?"). Ids, @usernames and Telegram ids still match.
 */
export type SearchScope = { byAddress: boolean };
const SEARCH_ALL: SearchScope = { byAddress: true };

const SORT_KEYS: Record<OrderSort, { parts: KeyPart[]; direction: "asc" | "desc" }> = {
  newest: { parts: [{ column: orders.createdAt, kind: "moment" }, { column: orders.id, kind: "uuid" }], direction: "desc" },
  oldest: { parts: [{ column: orders.createdAt, kind: "moment" }, { column: orders.id, kind: "uuid" }], direction: "asc" },
  "total-desc": { parts: [{ column: orders.totalAmount, kind: "decimal" }, { column: orders.id, kind: "uuid" }], direction: "desc" },
  "total-asc": { parts: [{ column: orders.totalAmount, kind: "decimal" }, { column: orders.id, kind: "uuid" }], direction: "asc" },
};

// The expression the username search index is built on (schema.ts): a query must spell it the same way.
export const usernameSearchKey = sql`lower(${orders.telegramUsername})`;

const UUID_TEMPLATE = [8, 4, 4, 4, 12];
const asUuid = (hex: string) => {
  let at = 0;
  return UUID_TEMPLATE.map((length) => hex.slice(at, (at += length))).join("-");
};

/**
 * An order-id prefix as the range of ids that start with it: the primary key answers a range, while
 * `id::text LIKE 'ab%'` would read every order. Null when the text cannot start an id.
 */
function idPrefixRange(text: string): { low: string; high: string } | null {
  const prefix = text.replace(/^#/, "").toLowerCase();
  if (!/^[0-9a-f-]{1,36}$/.test(prefix)) return null;
  const hex = prefix.replaceAll("-", "");
  if (hex.length === 0 || hex.length > 32) return null;
  const low = asUuid(hex.padEnd(32, "0"));
  // Dashes only where an id has them ("abcd1234-ab"), else it is not the start of an id.
  if (!low.startsWith(prefix)) return null;
  return { low, high: asUuid(hex.padEnd(32, "f")) };
}

/**
 * Orders whose id or @username starts with `q`, whose Telegram user id is `q`, or whose address has `q`
 * as its postcode, outward code, name or a word of the name (through the blind index: exact, not a
 * prefix, since no clear name or postcode is stored; docs/decisions/0024-encryption-at-rest.md).
 */
async function searchCondition(db: DbOrTx, q: string, scope: SearchScope): Promise<SQL> {
  const matches: SQL[] = [eq(orders.telegramUserId, q)];
  const range = idPrefixRange(q);
  if (range) matches.push(sql`${orders.id} between ${range.low}::uuid and ${range.high}::uuid`);
  // "@ann" looks for usernames only; "ann" for usernames and names.
  const username = q.startsWith("@") ? q.slice(1) : q;
  if (username !== "") matches.push(sql`${usernameSearchKey} like lower(${escapeLike(username)}) || '%' escape '\\'`);
  if (scope.byAddress && !q.startsWith("@")) {
    const address = await addressSearchCondition(db, q);
    if (address) matches.push(address);
  }
  return or(...matches)!;
}

export async function filterConditions(db: DbOrTx, filters: OrderFilters, scope: SearchScope = SEARCH_ALL): Promise<SQL[]> {
  const conditions: SQL[] = [];
  if (filters.status && filters.status !== "all") conditions.push(eq(orders.status, filters.status));
  if (filters.q) conditions.push(await searchCondition(db, filters.q, scope));
  if (filters.from) conditions.push(gte(orders.createdAt, filters.from));
  if (filters.to) conditions.push(lt(orders.createdAt, filters.to));
  return conditions;
}

/**
 * The rows of one page (one more than `limit`, to tell whether another page follows); EXPLAIN reads it
 * too. `filters` are the query's filterConditions.
 */
export function orderPageQuery(db: DbOrTx, query: OrderListQuery, filters: SQL[]) {
  const { parts, direction } = SORT_KEYS[query.sort];
  const conditions = [...filters];
  if (query.cursor) conditions.push(afterKey(parts, decodeCursor(query.cursor, query.sort, parts), direction));
  const order = direction === "desc" ? desc : asc;
  const select = db
    .select({ order: orders, key0: keyText(parts[0]!), key1: keyText(parts[1]!) })
    .from(orders)
    .where(and(...conditions))
    .orderBy(...parts.map((part) => order(part.column)));
  return query.limit === undefined ? select : select.limit(query.limit + 1);
}

/** Every order matching the filters, in the chosen order (the list without `limit`, as docs/product.md §7 has it). */
export async function listOrdersMatching(db: DbOrTx, filters: OrderFilters, scope: SearchScope = SEARCH_ALL): Promise<Order[]> {
  const query = { ...filters, limit: undefined, cursor: undefined };
  const rows = await orderPageQuery(db, query, await filterConditions(db, query, scope));
  return ordersOf(
    db,
    rows.map((row) => row.order),
  );
}

/** One page of the orders matching the filters, and how many match in all. */
export async function listOrderPage(db: DbOrTx, query: OrderListQuery & { limit: number }, scope: SearchScope = SEARCH_ALL): Promise<Page<Order>> {
  const conditions = await filterConditions(db, query, scope);
  const [rows, [counted]] = await Promise.all([
    orderPageQuery(db, query, conditions),
    db.select({ total: count() }).from(orders).where(and(...conditions)),
  ]);
  const page = pageFromRows(rows, query.limit, counted?.total ?? 0, { sort: query.sort, key: (row) => [row.key0, row.key1] }, (row) => row.order);
  return { ...page, rows: await ordersOf(db, page.rows) };
}
