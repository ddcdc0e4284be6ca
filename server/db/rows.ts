import type { SQLWrapper } from "drizzle-orm";

// The shop's Db is typed over both of its drivers (PGlite and node-postgres), so drizzle types what
// db.execute answers as unknown. Both answer an object whose `rows` are the result's rows: this says
// so in one place, instead of a cast at every raw query.

/** What runs raw SQL: a Db or a transaction. */
type Executes = { execute(query: SQLWrapper | string): PromiseLike<unknown> };

/** The rows of a raw SQL query, as `Row`: the query's select list must match it (nothing checks it). */
export async function queryRows<Row>(db: Executes, query: SQLWrapper | string): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}
