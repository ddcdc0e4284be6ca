import { getTableName, is, sql, Table } from "drizzle-orm";
import type { DbOrTx } from "../server/db/client";
import * as schema from "../server/db/schema";
import { queryRows } from "../server/db/rows";

/**
 * Tables that change on every authenticated request or login attempt, whatever its answer (the
 * audit log records failed logins on purpose, issue 13).
 */
const VOLATILE = new Set(["sessions", "login_throttle", "audit_log"]);

/**
 * One hash over the content of every table (but the volatile ones): equal before and after a
 * request means the request changed nothing.
 */
export async function databaseChecksum(db: DbOrTx): Promise<string> {
  const names = Object.values(schema)
    .filter((value) => is(value, Table))
    .map((table) => getTableName(table as Table))
    .filter((name) => !VOLATILE.has(name))
    .sort();
  const parts: string[] = [];
  for (const name of names) {
    const result = await queryRows<{ hash: string }>(
      db,
      sql.raw(`select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as hash from "${name}" t`),
    );
    parts.push(`${name}:${result[0]!.hash}`);
  }
  return parts.join(" ");
}
