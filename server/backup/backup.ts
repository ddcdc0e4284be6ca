import crypto from "node:crypto";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { queryRows } from "../db/rows";
import type { ObjectStorage } from "../storage";
import { BackupError, checksumText, CHUNK_BYTES, createArchiveWriter, createRowsChecksum, FORMAT, VERSION, type ArchiveWriter } from "./archive";
import { appliedMigrations, shopTables, type TableInfo } from "./tables";

/** Rows per "rows" record and per query: bounded memory, few round trips. */
export const ROWS_PER_BATCH = 500;

export type BackupSummary = { tables: number; rows: number; images: number; bytes: number };

/**
 * Writes the whole shop (every table of the schema and every stored image) into one archive at `out`.
 * The rows come from one read-only repeatable-read transaction, so they are a consistent snapshot even
 * while a server is running on PostgreSQL. The file appears under its name only once it is complete.
 */
export async function writeBackup(options: {
  database: Database;
  storage: ObjectStorage;
  out: string;
  /** keyFingerprint() of the encryption key in use, when there is one. */
  keyId: string | null;
  now?: Date;
  /** Rows per page and per "rows" record (ROWS_PER_BATCH); tests make it small to page through few rows. */
  rowsPerBatch?: number;
}): Promise<BackupSummary> {
  const { database, storage, out } = options;
  if (fs.existsSync(out)) throw new BackupError(`${out} already exists; choose another file name (a backup never overwrites one).`);
  const partial = `${out}.partial`;
  fs.rmSync(partial, { force: true });
  const writer = createArchiveWriter(partial);
  const summary: BackupSummary = { tables: 0, rows: 0, images: 0, bytes: 0 };
  try {
    await database.db.transaction(
      async (tx) => {
        // The text form of a timestamp depends on DateStyle; ISO (with its offset) parses back exactly anywhere.
        await tx.execute(sql`set local datestyle to 'ISO, YMD'`);
        // The first query fixes the snapshot; images are listed after it, so every image a row of the
        // snapshot names was stored before it and is in the archive.
        const applied = await appliedMigrations(tx);
        await writer.write({
          type: "header",
          format: FORMAT,
          version: VERSION,
          createdAt: (options.now ?? new Date()).toISOString(),
          database: database.kind,
          keyId: options.keyId,
        });
        await writer.write({ type: "migrations", applied });
        for await (const id of storage.list()) {
          const image = await storage.get(id);
          if (!image) continue; // deleted since it was listed
          await writeImage(writer, id, image.data, image.contentType);
          summary.images++;
          summary.bytes += image.data.length;
        }
        for (const table of shopTables()) {
          summary.rows += await writeTable(writer, tx, table, options.rowsPerBatch ?? ROWS_PER_BATCH);
          summary.tables++;
        }
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    await writer.write({ type: "end", tables: summary.tables, rows: summary.rows, images: summary.images });
    await writer.finish();
    fs.renameSync(partial, out);
    return summary;
  } catch (error) {
    await writer.abort();
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

async function writeImage(writer: ArchiveWriter, id: string, data: Buffer, contentType: string): Promise<void> {
  const sha256 = crypto.createHash("sha256").update(data).digest("hex");
  await writer.write({ type: "image", id, contentType, size: data.length, sha256 });
  for (let offset = 0; offset < data.length; offset += CHUNK_BYTES) {
    await writer.write({ type: "chunk", data: data.subarray(offset, offset + CHUNK_BYTES).toString("base64") });
  }
}

type Executor = { execute: Database["db"]["execute"] };

/**
 * Dumps one table in primary-key order, a batch at a time (keyset pagination: no OFFSET rescans),
 * then checks what it wrote against the table itself, in the same snapshot: the row count and the
 * rows' checksum (archive.ts createRowsChecksum), so a row skipped and another read twice fail the
 * backup instead of writing an archive that only looks whole.
 */
export async function writeTable(writer: ArchiveWriter, tx: Executor, table: TableInfo, rowsPerBatch: number): Promise<number> {
  const columns = [...table.columns.keys()];
  const expected = await tableChecksum(tx, table.name, columns);
  await writer.write({ type: "table", name: table.name, columns, count: expected.count });

  // The table is aliased and every column qualified: ORDER BY "col" would sort by the text alias of
  // the select list (PostgreSQL prefers an output column's name), so 10 came before 9 while the next
  // page compared numbers. The order and the comparison below use the columns' own types.
  const column = (name: string) => sql`t.${sql.identifier(name)}`;
  // Every value as the database's own text (null stays null): exact for every type, engine-independent.
  const selectList = sql.join(
    columns.map((name) => sql`${column(name)}::text as ${sql.identifier(name)}`),
    sql`, `,
  );
  const keyList = sql.join(table.primaryKey.map(column), sql`, `);
  const keyIndexes = table.primaryKey.map((name) => columns.indexOf(name));
  const checksum = createRowsChecksum();
  let written = 0;
  let last: (string | null)[] | null = null;
  for (;;) {
    const after = last
      ? sql`where (${keyList}) > (${sql.join(
          table.primaryKey.map((name, i) => sql`${last![keyIndexes[i]!]}::${sql.raw(table.columns.get(name)!)}`),
          sql`, `,
        )})`
      : sql``;
    // Annotated rather than queryRows<...>: its type would otherwise be inferred in a circle (`after` reads `last`).
    const result: Record<string, string | null>[] = await queryRows(
      tx,
      sql`select ${selectList} from ${sql.identifier(table.name)} as t ${after} order by ${keyList} limit ${rowsPerBatch}`,
    );
    if (result.length === 0) break;
    const rows = result.map((row) => columns.map((name) => row[name] ?? null));
    await writer.write({ type: "rows", rows });
    for (const row of rows) checksum.add(row);
    written += rows.length;
    last = rows[rows.length - 1]!;
    if (rows.length < rowsPerBatch) break;
  }
  if (written !== expected.count) throw new Error(`${table.name}: counted ${expected.count} rows but read ${written}`);
  if (checksum.value() !== expected.checksum) {
    throw new Error(`${table.name}: the ${written} rows read do not match the table's checksum`);
  }
  await writer.write({ type: "table-end", name: table.name, count: written, checksum: expected.checksum });
  return written;
}

/**
 * The row count and createRowsChecksum of a whole table, computed by the database in one pass: each
 * row as the JSON array of its columns' text values (to_json of a text escapes as JSON.stringify does),
 * the first 8 bytes of its SHA-256 as a signed bigint, summed.
 */
async function tableChecksum(tx: Executor, name: string, columns: string[]): Promise<{ count: number; checksum: string }> {
  const values = columns.map((column) => sql`coalesce(to_json(t.${sql.identifier(column)}::text)::text, 'null')`);
  const rowJson = sql`'[' || ${sql.join(values, sql` || ',' || `)} || ']'`;
  const digest = sql`('x' || encode(substr(sha256(convert_to(${rowJson}, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint`;
  const result = await queryRows<{ n: number; sum: string }>(
    tx,
    sql`select count(*)::int as n, coalesce(sum(${digest}), 0)::text as sum from ${sql.identifier(name)} as t`,
  );
  return { count: Number(result[0]!.n), checksum: checksumText(BigInt(result[0]!.sum)) };
}

/**
 * A fingerprint of the encryption key: equal fingerprints mean the same key. A hash of 32 random
 * bytes reveals nothing of them, so it may sit in the archive where the key itself must not. (For a
 * weak SECRET_KEY it allows guessing offline, but so do the encrypted secrets in the same archive.)
 */
export function keyFingerprint(key: Buffer): string {
  return crypto.createHash("sha256").update("shop-backup key id\n").update(key).digest("hex").slice(0, 16);
}
