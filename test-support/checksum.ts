import { getTableName, is, sql, Table } from "drizzle-orm";
import type { DbOrTx } from "../server/db/client";
import * as schema from "../server/db/schema";
import { queryRows } from "../server/db/rows";

/**
 * Tables that change on every authenticated request or login attempt, whatever its answer (the
 * audit log records failed logins on purpose, issue 13).
 */
const VOLATILE = new Set(["sessions", "login_throttle", "audit_log"]);

const CHECKED_TABLES = Object.values(schema)
  .filter((value) => is(value, Table))
  .map((table) => getTableName(table as Table))
  .filter((name) => !VOLATILE.has(name))
  .sort();

/**
 * Every table's hash in one statement, one column per table: the fuzz test takes two checksums per
 * case, some 2,000 in all, and a round trip per table made them most of its time (docs/PERFORMANCE.md).
 * The hashes are the ones a query per table gave: the same rows, in the same order.
 */
const CHECKSUM_QUERY = sql.raw(
  `select ${CHECKED_TABLES.map(
    (name, index) => `(select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) from "${name}" t) as h${index}`,
  ).join(", ")}`,
);

/**
 * One hash over the content of every table (but the volatile ones): equal before and after a
 * request means the request changed nothing.
 */
export async function databaseChecksum(db: DbOrTx): Promise<string> {
  const [row] = await queryRows<Record<string, string>>(db, CHECKSUM_QUERY);
  return CHECKED_TABLES.map((name, index) => `${name}:${row![`h${index}`]}`).join(" ");
}
