import { getTableName, is, sql, Table } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db/client";
import { queryRows } from "../db/rows";
import * as schema from "../db/schema";

/** What backup and restore need to know of one table of the shop. */
export type TableInfo = {
  name: string;
  /** Column name -> its SQL type ("uuid", "numeric(10, 2)", ...), the cast a restored text value goes through. */
  columns: Map<string, string>;
  /** Primary key columns: the order rows are dumped in (keyset pagination). */
  primaryKey: string[];
  /** Columns that reference this same table (categories.parent_id): filled in after the rows exist. */
  selfReferences: string[];
};

/** Every table of server/db/schema.ts, parents before the tables whose foreign keys point at them. */
export function shopTables(): TableInfo[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, Table));
  const byName = new Map(tables.map((table) => [getTableName(table), table]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();

  const place = (name: string) => {
    if (placed.has(name)) return;
    // A cycle between two tables would need deferred constraints; the schema has none, so say so loudly.
    if (visiting.has(name)) throw new Error(`Foreign keys form a cycle through ${name}; backup cannot order the tables`);
    visiting.add(name);
    const config = getTableConfig(byName.get(name)!);
    const selfReferences: string[] = [];
    // Alphabetical, so the order (and the archive) does not depend on how schema.ts lists the tables.
    const parents = new Set<string>();
    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      const parent = getTableName(reference.foreignTable);
      if (parent === name) selfReferences.push(...reference.columns.map((column) => column.name));
      else parents.add(parent);
    }
    for (const parent of [...parents].sort()) place(parent);
    visiting.delete(name);
    placed.add(name);
    const primaryKey = config.columns.filter((column) => column.primary).map((column) => column.name);
    if (primaryKey.length === 0) primaryKey.push(...(config.primaryKeys[0]?.columns.map((column) => column.name) ?? []));
    if (primaryKey.length === 0) throw new Error(`Table ${name} has no primary key; backup cannot page through it`);
    ordered.push({
      name,
      columns: new Map(config.columns.map((column) => [column.name, column.getSQLType()])),
      primaryKey,
      selfReferences,
    });
  };
  for (const name of [...byName.keys()].sort()) place(name);
  return ordered;
}

/** Tables that hold at least one row, with their row counts: a restore target must have none. */
export async function nonEmptyTables(db: DbOrTx, tables: TableInfo[]): Promise<{ name: string; rows: number }[]> {
  const found: { name: string; rows: number }[] = [];
  for (const table of tables) {
    const result = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table.name)}`);
    const rows = Number(result[0]!.n);
    if (rows > 0) found.push({ name: table.name, rows });
  }
  return found;
}

/** The migrations drizzle applied to this database (drizzle.__drizzle_migrations), oldest first. */
export async function appliedMigrations(db: DbOrTx): Promise<{ hash: string; createdAt: string }[]> {
  const result = await queryRows<{ hash: string; created_at: string }>(
    db,
    sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at, id`,
  );
  return result.map((row) => ({ hash: row.hash, createdAt: row.created_at }));
}
