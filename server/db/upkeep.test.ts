import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./client";
import { createLocks } from "./leader";
import { queryRows } from "./rows";
import { orders } from "./schema";
import { createTestDatabase } from "../../test-support/database";
import { runUpkeep, startDatabaseUpkeep, upkeepNeeded } from "./upkeep";

// The shop's own VACUUM (ANALYZE) where no autovacuum runs (db/upkeep.ts): what it leaves behind is
// what the dashboard's index-only counts need (the visibility map) and what the planner needs (row
// counts), on PGlite and on PostgreSQL alike.

type Rel = { relallvisible: number; reltuples: number };

describe("database upkeep", () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      id: crypto.randomUUID(),
      telegramUserId: String(500_000 + (i % 300)),
      status: i % 2 ? "pending" : "processing",
      totalAmount: "12.50",
      currency: "GBP",
    }));
    for (let start = 0; start < rows.length; start += 500) await database.db.insert(orders).values(rows.slice(start, start + 500));
  });
  afterAll(async () => {
    await database?.close();
  });

  const ordersRel = async () =>
    (await queryRows<Rel>(database.db, sql`select relallvisible, reltuples from pg_class where relname = 'orders'`))[0]!;

  it("is needed on PGlite always, and on PostgreSQL exactly when its autovacuum is off", async () => {
    if (database.kind === "pglite") {
      expect(await upkeepNeeded(database)).toBe(true);
    } else {
      const setting = await queryRows<{ autovacuum: string }>(database.db, sql`show autovacuum`);
      expect(await upkeepNeeded(database)).toBe(setting[0]!.autovacuum === "off");
    }
  });

  it("vacuums and analyses every table: the visibility map set, the row counts known", async () => {
    const before = await ordersRel();
    expect(Number(before.relallvisible)).toBe(0);
    const { tables } = await runUpkeep(database.db);
    expect(tables).toBeGreaterThan(20);
    const after = await ordersRel();
    expect(Number(after.relallvisible)).toBeGreaterThan(0);
    expect(Number(after.reltuples)).toBe(3_000);
  });

  it("runs on its timer and once more on demand, and stops cleanly; a failure is logged, not thrown", async () => {
    const infos: object[] = [];
    const errors: object[] = [];
    const log = { info: (object: object) => infos.push(object), error: (object: object) => errors.push(object) };
    // Whether this database needs it is its own business: the pass is forced to need it here.
    const needing = { ...database, kind: "pglite" as const };
    const upkeep = startDatabaseUpkeep({ database: needing, locks: createLocks({ databaseUrl: undefined }), log, firstAfterMs: 10, intervalMs: 60_000 });
    await expect.poll(() => infos.length, { timeout: 10_000 }).toBe(1);
    await upkeep.runNow();
    expect(infos).toHaveLength(2);
    expect(infos[0]).toMatchObject({ tables: expect.any(Number) as number });
    await upkeep.stop();

    const broken = { kind: "pglite" as const, db: { execute: () => Promise.reject(new Error("the database went away")) } } as unknown as Database;
    const failing = startDatabaseUpkeep({ database: broken, locks: createLocks({ databaseUrl: undefined }), log, firstAfterMs: 60_000 });
    await failing.runNow();
    await failing.stop();
    expect(errors).toEqual([{ err: "the database went away" }]);
  });
});
