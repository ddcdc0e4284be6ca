import { sql } from "drizzle-orm";
import type { Database, DbOrTx } from "./client";
import type { Locks } from "./leader";
import { queryRows } from "./rows";

// The database's own housekeeping, when nobody else does it. PostgreSQL's autovacuum removes dead row
// versions, keeps each table's visibility map (which lets an index answer alone: the dashboard's
// counts, shop/insights/stats.ts) and refreshes the planner's statistics as tables grow. PGlite runs no
// autovacuum at all (one process, no background workers), and a PostgreSQL server can have it
// switched off (this project's test machine does). Without it the dashboard's numbers went from
// ~4 ms to ~25 ms at 100,000 orders (every counted order read from the table), tables only grow,
// and the planner keeps the statistics of the day the shop opened. So the shop runs
// VACUUM (ANALYZE) itself, table by table, on such databases: soon after start, then every hour.
// A pass over tables that did not change is quick (the visibility map skips their pages); on
// PGlite it holds the database while it runs, as every query there does.

export const UPKEEP_FIRST_AFTER_MS = 30_000;
export const UPKEEP_INTERVAL_MS = 60 * 60_000;

/** PGlite always; PostgreSQL only when its autovacuum is off. */
export async function upkeepNeeded(database: Pick<Database, "db" | "kind">): Promise<boolean> {
  if (database.kind === "pglite") return true;
  const result = await queryRows<{ autovacuum: string }>(database.db, sql`select current_setting('autovacuum') as autovacuum`);
  return result[0]?.autovacuum !== "on";
}

/** One pass: VACUUM (ANALYZE) of each of the shop's tables in turn; a table someone holds locked is skipped this time. */
export async function runUpkeep(db: DbOrTx): Promise<{ tables: number }> {
  const result = await queryRows<{ tablename: string }>(db, sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  for (const { tablename } of result) {
    await db.execute(sql`vacuum (analyze, skip_locked) ${sql.identifier(tablename)}`);
  }
  return { tables: result.length };
}

export type UpkeepLogger = {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
};

export type DatabaseUpkeep = {
  /** Runs a pass now (after one in progress), whatever the timer says. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
};

/**
 * Starts the timer; each pass first asks whether the database needs it (upkeepNeeded: a PostgreSQL
 * server's autovacuum can be switched on or off while the shop runs) and does nothing when not. With
 * several instances on one PostgreSQL, a pass runs on one of them at a time (an advisory lock).
 */
export function startDatabaseUpkeep(options: {
  database: Pick<Database, "db" | "kind">;
  locks: Pick<Locks, "runExclusive">;
  log: UpkeepLogger;
  firstAfterMs?: number;
  intervalMs?: number;
}): DatabaseUpkeep {
  const { database, locks, log } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function pass() {
    try {
      if (!(await upkeepNeeded(database))) return;
      const started = Date.now();
      let tables = 0;
      const ran = await locks.runExclusive("upkeep", async () => {
        ({ tables } = await runUpkeep(database.db));
      });
      if (!ran) return; // another instance is doing it
      log.info({ tables, ms: Date.now() - started }, "database upkeep: tables vacuumed and analysed");
    } catch (error) {
      log.error({ err: error instanceof Error ? error.message : String(error) }, "database upkeep failed; trying again at the next pass");
    }
  }

  const runNow = () => (running = running.then(pass));
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runNow().then(() => schedule(options.intervalMs ?? UPKEEP_INTERVAL_MS));
    }, ms);
    timer.unref();
  };
  schedule(options.firstAfterMs ?? UPKEEP_FIRST_AFTER_MS);

  return {
    runNow,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
