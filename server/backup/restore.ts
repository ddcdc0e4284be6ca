import crypto from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Database, Tx } from "../db/client";
import type { ObjectStorage } from "../storage";
import {
  BackupError,
  createRowsChecksum,
  FORMAT,
  readArchive,
  VERSION,
  type BackupRecord,
  type HeaderRecord,
  type TableRecord,
} from "./archive";
import { appliedMigrations, nonEmptyTables, shopTables, type TableInfo } from "./tables";
import { ensureDefaultVariants } from "../shop/catalogue";
import { deleteStaleAddressGrants } from "../shop/vaults";
import { queryRows } from "../db/rows";

/** The object ids ObjectStorage accepts (server/storage). */
const OBJECT_ID = /^[A-Za-z0-9_-]{8,100}$/;

export type RestoreSummary = {
  tables: number;
  rows: number;
  images: number;
  /** The archive's key fingerprint (null when the backed-up shop had no key yet). */
  keyId: string | null;
  /** Rows in bot_settings: their secrets need the key the backup was made with. */
  botSettings: number;
};

/**
 * Loads an archive written by writeBackup into `database` (already migrated by openDatabase) and `storage`.
 * Refuses a database with any row in any shop table unless `force`, which empties every table first.
 * The rows go in in one transaction, so a damaged archive leaves the database as it was. Images are
 * written before that transaction (never inside it); a failed restore may leave some of them behind,
 * which is harmless (nothing names them) and a retry overwrites them.
 */
export async function restoreBackup(options: {
  database: Database;
  storage: ObjectStorage;
  file: string;
  force: boolean;
}): Promise<RestoreSummary> {
  const { database, storage, file, force } = options;
  const tables = new Map(shopTables().map((table) => [table.name, table]));
  const records = readArchive(file)[Symbol.asyncIterator]();
  const next = async (): Promise<BackupRecord> => {
    const { value, done } = await records.next();
    if (done) throw new BackupError(`${file} is incomplete: it ends before its end record. Nothing was restored.`);
    return value;
  };

  try {
    const header = await next();
    if (header.type !== "header" || (header as HeaderRecord).format !== FORMAT) {
      throw new BackupError(`${file} is not a shop backup.`);
    }
    if (header.version > VERSION) {
      throw new BackupError(`${file} was written by a newer version of the shop (format ${header.version}); update before restoring.`);
    }
    const migrations = await next();
    if (migrations.type !== "migrations" || !Array.isArray(migrations.applied)) throw new BackupError(`${file} is damaged: its migration level is missing.`);
    await checkMigrationLevel(database, migrations.applied);

    if (!force) await refuseNonEmpty(database.db, [...tables.values()]);

    // Images, before the transaction: file or network I/O never runs inside one.
    let record = await next();
    let images = 0;
    while (record.type === "image") {
      // The ids came from storage.list(); anything else in their place is damage (or mischief: a path).
      if (!OBJECT_ID.test(record.id) || !Number.isSafeInteger(record.size) || record.size < 0 || typeof record.contentType !== "string") {
        throw new BackupError(`${file} is damaged: an image record is not valid.`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      while (size < record.size) {
        const chunk = await next();
        if (chunk.type !== "chunk") throw new BackupError(`${file} is damaged: image ${record.id} is cut short.`);
        const bytes = Buffer.from(chunk.data, "base64");
        chunks.push(bytes);
        size += bytes.length;
      }
      const data = Buffer.concat(chunks);
      const sha256 = crypto.createHash("sha256").update(data).digest("hex");
      if (data.length !== record.size || sha256 !== record.sha256) {
        throw new BackupError(`${file} is damaged: image ${record.id} does not match its checksum.`);
      }
      await storage.put(record.id, data, record.contentType);
      images++;
      record = await next();
    }

    const first = record;
    const result = await database.db.transaction(async (tx) => {
      if (force) {
        // One statement for all tables: the foreign keys between them do not get in the way.
        await tx.execute(sql`truncate ${sql.join([...tables.keys()].map((name) => sql.identifier(name)), sql`, `)}`);
      } else {
        // Checked again inside the transaction: a server may have started writing since the first check.
        await refuseNonEmpty(tx, [...tables.values()]);
      }
      // The variants come from the archive, not from the trigger that gives a new product its default one
      // (drizzle/0024); an archive from before variants gets them afterwards.
      await tx.execute(sql`select set_config('shop.restoring', 'on', true)`);
      // Format 1 archives have no per-table checksum: their tables are checked by count alone.
      const loaded = await loadTables(tx, tables, first, next, file, header.version >= 2);
      await ensureDefaultVariants(tx);
      await ownerFromLegacyAdmin(tx);
      // A backup from before migration 0029 may hold grants of accounts whose role no longer reads
      // addresses: they go as that migration removed them (docs/decisions/0037, "Amended").
      await deleteStaleAddressGrants(tx);
      await tx.execute(sql`select set_config('shop.restoring', 'off', true)`);
      if (loaded.images !== images) throw new BackupError(`${file} is damaged: it lists ${loaded.images} images but holds ${images}.`);
      // Read to the very end before committing: that is where gzip checks its CRC of the whole archive.
      const extra = await records.next();
      if (!extra.done) throw new BackupError(`${file} has records after its end record.`);
      return loaded;
    });
    return { ...result, keyId: header.keyId };
  } finally {
    // Closes the file when we stopped early.
    await records.return?.(undefined);
  }
}

async function checkMigrationLevel(database: Database, archived: { hash: string; createdAt: string }[]): Promise<void> {
  const applied = await appliedMigrations(database.db);
  const level = (list: { createdAt: string }[]) => list.reduce((max, m) => (BigInt(m.createdAt) > max ? BigInt(m.createdAt) : max), 0n);
  // drizzle applies every migration newer than the last one recorded, so the last one is the level.
  if (level(archived) > level(applied)) {
    throw new BackupError(
      "This backup was made by a newer version of the shop (its database has migrations this code does not know). " +
        "Update the shop, then restore.",
    );
  }
}

async function refuseNonEmpty(db: Database["db"] | Tx, tables: TableInfo[]): Promise<void> {
  const found = await nonEmptyTables(db, tables);
  if (found.length === 0) return;
  const list = found.map((table) => `${table.name} (${table.rows})`).join(", ");
  throw new BackupError(
    `The target database is not empty: ${list}. Restore into an empty DATA_DIR or database, or add --force to replace everything in it.`,
  );
}

/** The clear address column of backups made before encryption at rest. */
const LEGACY_ADDRESS_COLUMN = "shipping_address";
const LEGACY_ADMIN_TABLE = "admin_credentials";

/**
 * After loading a backup from before accounts: its admin password becomes the owner's account (as
 * migration 0026 does for a running shop), and its sessions, which were the owner's, stay the owner's.
 */
async function ownerFromLegacyAdmin(tx: Tx): Promise<void> {
  const [legacy] = await queryRows<{ present: boolean }>(tx, sql`select to_regclass('pg_temp.admin_credentials') is not null as present`);
  if (!legacy?.present) return;
  await tx.execute(sql`
    insert into accounts (username, name, role, password_hash)
    select 'owner', 'Owner', 'owner', password_hash from pg_temp.admin_credentials where id = 1
    and not exists (select 1 from accounts where role = 'owner')`);
  await tx.execute(sql`update sessions set account_id = (select id from accounts where role = 'owner') where account_id is null`);
}

type Loaded = { tables: number; rows: number; images: number; botSettings: number };

/**
 * Inserts every "table"/"rows" record up to the "end" record; throws (rolling back) on anything amiss.
 * With `checksums` (format 2 on) every table must close with its table-end record, whose count and
 * checksum must match the rows read (archive.ts createRowsChecksum).
 */
async function loadTables(
  tx: Tx,
  tables: Map<string, TableInfo>,
  first: BackupRecord,
  next: () => Promise<BackupRecord>,
  file: string,
  checksums: boolean,
): Promise<Loaded> {
  const loaded: Loaded = { tables: 0, rows: 0, images: 0, botSettings: 0 };
  let current: {
    record: TableRecord;
    table: TableInfo;
    inserted: number;
    links: (string | null)[][];
    checksum: ReturnType<typeof createRowsChecksum>;
  } | null = null;
  const refuseUnclosed = () => {
    if (current && checksums) throw new BackupError(`${file} is damaged: table ${current.record.name} has no end-of-table record.`);
  };

  const finishTable = async () => {
    if (!current) return;
    if (current.inserted !== current.record.count) {
      throw new BackupError(`${file} is damaged: table ${current.record.name} should have ${current.record.count} rows, it has ${current.inserted}.`);
    }
    const { table, links } = current;
    await explained(table.name, file, () => linkSelfReferences(tx, table, links));
    if (current.table.name === "bot_settings") loaded.botSettings = current.inserted;
    loaded.tables++;
    loaded.rows += current.inserted;
    current = null;
  };

  for (let record = first; ; record = await next()) {
    if (record.type === "table") {
      refuseUnclosed();
      await finishTable();
      let table = tables.get(record.name);
      // A backup from before accounts (issue 25) holds the admin password in admin_credentials: it is
      // loaded into a table that lasts this transaction, and becomes the owner's account after the load.
      if (!table && record.name === LEGACY_ADMIN_TABLE) {
        await tx.execute(sql`create temporary table admin_credentials (id integer primary key, password_hash text not null, updated_at timestamptz) on commit drop`);
        table = { name: LEGACY_ADMIN_TABLE, columns: new Map([["id", "integer"], ["password_hash", "text"], ["updated_at", "timestamptz"]]), primaryKey: ["id"], selfReferences: [] };
      }
      if (!table) throw new BackupError(`The backup has a table "${record.name}" that this version of the shop does not have.`);
      if (!Array.isArray(record.columns)) throw new BackupError(`${file} is damaged: table ${record.name} has no column list.`);
      // A backup from before encryption at rest (issue 15) holds addresses in clear: they go back into
      // the clear column the server encrypts and drops at its next start (shop/privacy/encrypt-existing.ts).
      if (record.name === "orders" && record.columns.includes(LEGACY_ADDRESS_COLUMN) && !table.columns.has(LEGACY_ADDRESS_COLUMN)) {
        await tx.execute(sql`alter table orders add column if not exists shipping_address jsonb`);
        table = { ...table, columns: new Map([...table.columns, [LEGACY_ADDRESS_COLUMN, "jsonb"]]) };
      }
      for (const column of record.columns) {
        if (!table.columns.has(column)) {
          throw new BackupError(`The backup has a column "${record.name}.${column}" that this version of the shop does not have.`);
        }
      }
      current = { record, table, inserted: 0, links: [], checksum: createRowsChecksum() };
    } else if (record.type === "rows") {
      if (!current || !Array.isArray(record.rows)) throw new BackupError(`${file} is damaged: rows outside a table.`);
      await explained(current.table.name, file, () => insertRows(tx, current!.table, current!.record.columns, record.rows, current!.links));
      current.inserted += record.rows.length;
      for (const row of record.rows) current.checksum.add(row);
    } else if (record.type === "table-end" && checksums) {
      if (!current || record.name !== current.record.name) throw new BackupError(`${file} is damaged: an end-of-table record outside its table.`);
      if (record.count !== current.inserted) {
        throw new BackupError(`${file} is damaged: table ${current.record.name} should have ${record.count} rows, it has ${current.inserted}.`);
      }
      if (record.checksum !== current.checksum.value()) {
        throw new BackupError(`${file} is damaged: the rows of table ${current.record.name} do not match their checksum. Nothing was restored.`);
      }
      await finishTable();
    } else if (record.type === "end") {
      refuseUnclosed();
      await finishTable();
      if (record.tables !== loaded.tables || record.rows !== loaded.rows) {
        throw new BackupError(`${file} is damaged: it should hold ${record.rows} rows in ${record.tables} tables.`);
      }
      loaded.images = record.images;
      return loaded;
    } else {
      throw new BackupError(`${file} is damaged: an unexpected "${record.type}" record among the tables.`);
    }
  }
}

/**
 * One INSERT per batch: the rows travel as one JSON parameter and each value is cast from its text
 * form to the column's type, as PostgreSQL parses it (the same on PGlite and PostgreSQL).
 * Columns that point into the same table (a subcategory's parent) are left null here and set by
 * linkSelfReferences once all rows exist, so the archive's row order does not matter.
 */
async function insertRows(
  tx: Tx,
  table: TableInfo,
  columns: string[],
  rows: (string | null)[][],
  links: (string | null)[][],
): Promise<void> {
  if (rows.length === 0) return;
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== columns.length) throw new BackupError(`A row of ${table.name} has the wrong number of values.`);
  }
  const values = columns.map((column, i) =>
    table.selfReferences.includes(column)
      ? sql`null::${sql.raw(table.columns.get(column)!)}`
      : sql`(r->>${sql.raw(String(i))})::${sql.raw(table.columns.get(column)!)}`,
  );
  await tx.execute(
    sql`insert into ${sql.identifier(table.name)} (${identifiers(columns)}) select ${sql.join(values, sql`, `)} from json_array_elements(${JSON.stringify(rows)}::json) as r`,
  );
  if (table.selfReferences.length > 0) {
    const keep = [...table.primaryKey, ...table.selfReferences].map((column) => columns.indexOf(column));
    if (keep.some((index) => index < 0)) throw new BackupError(`The backup of ${table.name} lacks its key columns.`);
    for (const row of rows) {
      const link = keep.map((index) => row[index]!);
      if (link.slice(table.primaryKey.length).some((value) => value !== null)) links.push(link);
    }
  }
}

async function linkSelfReferences(tx: Tx, table: TableInfo, links: (string | null)[][]): Promise<void> {
  const cast = (column: string, i: number) => sql`(r->>${sql.raw(String(i))})::${sql.raw(table.columns.get(column)!)}`;
  const keys = table.primaryKey.length;
  for (let start = 0; start < links.length; start += 500) {
    const batch = links.slice(start, start + 500);
    const set = sql.join(
      table.selfReferences.map((column, i) => sql`${sql.identifier(column)} = ${cast(column, keys + i)}`),
      sql`, `,
    );
    const match = sql.join(
      table.primaryKey.map((column, i) => sql`t.${sql.identifier(column)} = ${cast(column, i)}`),
      sql` and `,
    );
    await tx.execute(
      sql`update ${sql.identifier(table.name)} as t set ${set} from json_array_elements(${JSON.stringify(batch)}::json) as r where ${match}`,
    );
  }
}

/** A value the database refuses (a damaged or hand-edited archive) as one sentence naming the table. */
async function explained(table: string, file: string, load: () => Promise<void>): Promise<void> {
  try {
    await load();
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const reason = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new BackupError(`${file} could not be loaded into ${table}: ${reason.split("\n")[0]}. Nothing was restored.`);
  }
}

const identifiers = (names: string[]): SQL =>
  sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
