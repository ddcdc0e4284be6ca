import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { projectRoot } from "../project-root";
import { withAdvisoryLock } from "./leader";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; the domain functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Calls `listener` with a table's name after each committed write to it (the tables the triggers of
   * drizzle/0006_change_notices.sql watch), on every server instance; with null when notices may have
   * been missed (the listening connection broke), meaning anything may have changed, and then with
   * the reason when one is known (for the log).
   */
  watchChanges(listener: (table: string | null, reason?: string) => void): ChangeWatch;
  close(): Promise<void>;
};

export type ChangeWatch = {
  /**
   * Settles once notices are being received (connecting when needed): before that, a change could
   * go unnoticed. Ask again after a null notice; rejects while the database cannot be reached.
   */
  ready(): Promise<void>;
  stop(): void;
};

/** The channel the change triggers notify on (drizzle/0006_change_notices.sql). */
export const CHANGES_CHANNEL = "shop_changes";

/** Listeners of one database, so a connection is shared by all of them. */
function changeListeners() {
  const listeners = new Set<(table: string | null, reason?: string) => void>();
  return {
    listeners,
    emit(table: string | null, reason?: string) {
      for (const listener of [...listeners]) listener(table, reason);
    },
  };
}

// Named from the project folder: this module also runs bundled as dist/server/main.js.
const migrationsFolder = path.join(projectRoot(import.meta.dirname), "drizzle");

/**
 * PGlite runs Postgres with its default shared_buffers of 128 MB, and Postgres touches all of it at
 * start: most of the server's memory. A small shop's database is a few MB, and a page outside the
 * buffers is one read away in the operating system's file cache, so 16 MB costs no speed here and
 * takes ~130 MB off the process (docs/PERFORMANCE.md).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

export class DatabaseLockedError extends Error {}

/**
 * PGlite does not lock its folder, and two processes writing one folder corrupt it.
 * A lock file naming our process (pid and the time the system started it) refuses a second
 * process. A lock is stale when that process is gone, or when its pid now belongs to another
 * process (pids are reused, e.g. after a reboot or in a container where we are always pid 1):
 * then it is taken over.
 */
function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, "server.lock");
  const ours = lockText(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, ours, { flag: "wx" });
      return () => {
        // Only our own lock is removed (another process may have taken over a lock it found stale).
        if (readLock(lockPath) === ours) fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(lockPath);
      const pid = Number(holder?.split(" ")[0]);
      // A lock of an older version holds only a pid: held while that pid lives, as it was then.
      const sameProcess = holder?.includes(" ") ? lockText(pid) === holder : true;
      if (holder && Number.isInteger(pid) && pid > 0 && holder !== ours && isAlive(pid) && sameProcess) {
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

function readLock(lockPath: string): string | null {
  try {
    return fs.readFileSync(lockPath, "utf8").trim();
  } catch {
    return null;
  }
}

/** "<pid> <start time>": the start time (from /proc on Linux) tells a reused pid from the process that wrote the lock. */
export function lockText(pid: number): string {
  return `${pid} ${processStartTime(pid) ?? "unknown"}`;
}

/** Clock ticks after boot when the process started (field 22 of /proc/<pid>/stat); null where there is no /proc. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: count fields after its closing ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Creates a new PGlite database folder in a short-lived child process. Creating one runs initdb in
 * a second PGlite instance: ~700 MB at its peak, which V8 is slow to give back (a first start still
 * held ~680 MB when idle). In a child, that memory goes back to the system when it exits, and the
 * server opens the folder like any later start.
 */
async function createPgliteFolder(dbDir: string): Promise<void> {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const script = [
    "const module = await import(process.argv[1]);",
    "const { PGlite } = module.PGlite ? module : module.default;",
    "const db = new PGlite(process.argv[2], { startParams: JSON.parse(process.argv[3]) });",
    "await db.waitReady;",
    "await db.close();",
  ].join("\n");
  const args = ["--input-type=module", "-e", script, pglite, dbDir, JSON.stringify(PGLITE_START_PARAMS)];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`Could not create the database in ${dbDir}: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}

/**
 * Opens PGlite in `dataDir` (or in memory when dataDir is undefined) and applies the migrations.
 * `template` (in memory only) starts from a data folder dumped by dumpMigratedPglite instead of an
 * empty one; the migrations still run, so one newer than the template is applied all the same.
 */
export async function openPglite(dataDir: string | undefined, options: { template?: Blob } = {}): Promise<Database> {
  let unlock = () => {};
  let client: PGlite;
  if (dataDir) {
    const dbDir = path.join(dataDir, "pglite");
    fs.mkdirSync(dbDir, { recursive: true });
    unlock = lockDataDir(dataDir);
    if (!fs.existsSync(path.join(dbDir, "PG_VERSION"))) {
      await createPgliteFolder(dbDir).catch((error: unknown) => {
        unlock();
        throw error;
      });
    }
    client = new PGlite(dbDir, { startParams: PGLITE_START_PARAMS });
  } else {
    client = new PGlite({ startParams: PGLITE_START_PARAMS, ...(options.template ? { loadDataDir: options.template } : {}) });
  }
  try {
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    // PGlite runs in this process: a notice reaches the listener as its write commits, before the
    // write's own promise settles, so a change is never seen late.
    const changes = changeListeners();
    const subscribed = client.listen(CHANGES_CHANNEL, (table) => changes.emit(table));
    return {
      db: db as unknown as Db,
      kind: "pglite",
      watchChanges(listener) {
        changes.listeners.add(listener);
        return { ready: () => subscribed.then(() => {}), stop: () => void changes.listeners.delete(listener) };
      },
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

/**
 * An empty database with every migration applied, dumped as a data-folder tarball for openPglite's
 * `template`: the tests build it once per run (test-support/global-setup.ts), as a new PGlite spends
 * ~2 s in initdb and the migrations and loading this takes ~0.4 s. `dataDir`: dumps the database of
 * that DATA_DIR (migrated again first: a no-op when it is up to date) instead of making a new one in
 * memory; nothing else may have it open.
 */
export async function dumpMigratedPglite(dataDir?: string): Promise<Blob> {
  const client = dataDir
    ? new PGlite(path.join(dataDir, "pglite"), { startParams: PGLITE_START_PARAMS })
    : new PGlite({ startParams: PGLITE_START_PARAMS });
  try {
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
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
    // Instances starting together (a deploy of N replicas) apply the migrations one after another.
    await withAdvisoryLock(pool, "migrations", () => migratePg(db, { migrationsFolder }));
  } catch (error) {
    await pool.end();
    throw error;
  }
  const changes = listenOnPostgres(url);
  return {
    db: db as unknown as Db,
    kind: "postgres",
    watchChanges(listener) {
      changes.listeners.add(listener);
      return { ready: changes.ready, stop: () => void changes.listeners.delete(listener) };
    },
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}

/**
 * One connection of its own that LISTENs for change notices, opened on the first watcher. PostgreSQL
 * sends a notice to every listening connection when the writing transaction commits. When the
 * connection breaks, notices sent meanwhile are lost: watchers are told "anything may have changed"
 * (null), and it connects again.
 */
function listenOnPostgres(url: string) {
  const changes = changeListeners();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    client = next;
    // Why the connection broke (an administrator's terminate, a restart, the network) comes as an
    // "error" just before its "end": kept, so the watchers can log it.
    let broken: string | undefined;
    next.on("notification", (message) => changes.emit(message.payload ?? null));
    next.on("error", (error) => (broken = error.message));
    next.on("end", () => {
      if (client !== next || closed) return;
      client = null;
      connecting = null;
      changes.emit(null, broken ?? "the listening connection ended");
      retry = setTimeout(() => void ready().catch(() => {}), 1_000);
      retry.unref();
    });
    return next
      .connect()
      .then(() => next.query(`LISTEN ${CHANGES_CHANNEL}`))
      .then(() => {})
      .catch((error: unknown) => {
        client = null;
        connecting = null;
        void next.end().catch(() => {});
        throw error;
      });
  }

  function ready(): Promise<void> {
    if (closed) return Promise.resolve();
    connecting ??= connect();
    return connecting;
  }

  return {
    listeners: changes.listeners,
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}
