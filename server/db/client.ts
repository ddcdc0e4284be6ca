import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; the domain functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
};

const migrationsFolder = path.resolve(import.meta.dirname, "../../drizzle");

export class DatabaseLockedError extends Error {}

/**
 * PGlite does not lock its folder, and two processes writing one folder corrupt it.
 * A lock file with our pid refuses a second process; a lock left by a dead process is taken over.
 */
function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, "server.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DatabaseLockedError(
          `The database in ${dir} is already in use by another server process (pid ${pid}). ` +
            `Stop that process, or point DATA_DIR at another folder.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not lock the database folder ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Opens PGlite in `dataDir` (or in memory when dataDir is undefined) and applies the migrations. */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  let unlock = () => {};
  let client: PGlite;
  if (dataDir) {
    const dbDir = path.join(dataDir, "pglite");
    fs.mkdirSync(dbDir, { recursive: true });
    unlock = lockDataDir(dataDir);
    client = new PGlite(dbDir);
  } else {
    client = new PGlite();
  }
  try {
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: "pglite",
      async close() {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    await client.close().catch(() => {});
    unlock();
    throw error;
  }
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection the server closes (a restart, an administrator's terminate) emits "error" on its
  // client. A running query gets the error through its own promise and the pool drops broken
  // clients, so the event itself must not crash the process.
  pool.on("connect", (client) => client.on("error", () => {}));
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema });
  try {
    await migratePg(db, { migrationsFolder });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db: db as unknown as Db, kind: "postgres", close: () => pool.end() };
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}
