import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dumpMigratedPglite, openPglite, type Database } from "../server/db/client";
import { categories, products, sessions } from "../server/db/schema";
import { databaseChecksum } from "./checksum";
import { migratedDataDir } from "./data-dir-template";
import { createPostgresTemplate, createTestDatabase, refuseUnselectedTestFile } from "./database";
import { TEST_POSTGRES_URL } from "./postgres";

// The test databases start as copies of one migrated template per run (test-support/global-setup.ts):
// a copy must be as good as a freshly migrated database, and a template must never hide a migration.

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS = (JSON.parse(fs.readFileSync(path.join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;

async function appliedMigrations(database: Database): Promise<number> {
  const result = (await database.db.execute(sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`)) as unknown as {
    rows: Array<{ count: number }>;
  };
  return result.rows[0]!.count;
}

/** The file vitest says is running, as createTestDatabase sees it in a beforeAll (where most tests call it). */
let testFileInHook: string | undefined;

describe("test databases from the run's template", () => {
  const databases: Database[] = [];
  beforeAll(async () => {
    testFileInHook = expect.getState().testPath;
    databases.push(await createTestDatabase(), await createTestDatabase());
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.close()));
  });

  it("are copied from a migrated template made once for the run", () => {
    if (process.env.TEST_DATABASE_URL) expect(inject("postgresTemplate")).toMatch(/^test_template_[0-9a-f]{12}$/);
    else expect(fs.existsSync(inject("pgliteTemplate") ?? "")).toBe(true);
  });

  it("have every migration applied, and are apart from each other", async () => {
    const [first, second] = databases as [Database, Database];
    expect(await appliedMigrations(first)).toBe(MIGRATIONS);
    expect(await appliedMigrations(second)).toBe(MIGRATIONS);
    await first.db.insert(products).values({ name: "Only in the first", description: "", price: "1.00", stock: 1 });
    expect(await first.db.select().from(products)).toHaveLength(1);
    expect(await second.db.select().from(products)).toHaveLength(0);
  });

  it("have a checksum that any row of a shop's table changes, and a session or throttle row does not", async () => {
    const [first, second] = databases as [Database, Database];
    // (The first holds a product from the test above; the second is empty.)
    const empty = await databaseChecksum(second.db);
    expect(await databaseChecksum(first.db)).not.toBe(empty);
    await second.db.insert(sessions).values({ tokenHash: "a-session", expiresAt: new Date(Date.now() + 60_000) });
    expect(await databaseChecksum(second.db)).toBe(empty);
    await second.db.insert(categories).values({ name: "Tea" });
    const withCategory = await databaseChecksum(second.db);
    expect(withCategory).not.toBe(empty);
    expect(withCategory.split(" ").filter((part) => !empty.split(" ").includes(part))).toEqual([expect.stringMatching(/^categories:[0-9a-f]{32}$/)]);
    await second.db.update(categories).set({ name: "Green tea" });
    expect(await databaseChecksum(second.db)).not.toBe(withCategory);
    await second.db.delete(categories);
    await second.db.delete(sessions);
    expect(await databaseChecksum(second.db)).toBe(empty);
  });
});

describe("the DATA_DIR the real server processes of the tests start from", () => {
  it("holds a copy of the run's migrated database, apart from the template and from other copies", async () => {
    const [one, two] = [migratedDataDir("shop-template-test-"), migratedDataDir("shop-template-test-")];
    try {
      const first = await openPglite(one);
      expect(await appliedMigrations(first)).toBe(MIGRATIONS);
      await first.db.insert(products).values({ name: "Only in one", description: "", price: "1.00", stock: 1 });
      await first.close();
      const second = await openPglite(two);
      expect(await appliedMigrations(second)).toBe(MIGRATIONS);
      expect(await second.db.select().from(products)).toHaveLength(0);
      await second.close();
    } finally {
      for (const dir of [one, two]) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a template older than the code", () => {
  it("PGlite: the migrations it lacks are applied when a database is opened from it", async () => {
    // The oldest possible template: the run's, emptied of every migration (cheaper than a new initdb).
    // (The PostgreSQL leg's set-up makes no PGlite template: one is made here then.)
    const runs = inject("pgliteTemplate");
    const migrated = runs ? new Blob([fs.readFileSync(runs)]) : await dumpMigratedPglite();
    const client = new PGlite({ loadDataDir: migrated, startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] });
    await client.exec("DROP SCHEMA drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
    const template = await client.dumpDataDir("none");
    await client.close();
    const database = await openPglite(undefined, { template });
    try {
      expect(await appliedMigrations(database)).toBe(MIGRATIONS);
      await database.db.insert(products).values({ name: "Tables are back", description: "", price: "1.00", stock: 1 });
    } finally {
      await database.close();
    }
  });
});

describe("the PostgreSQL template", () => {
  it("takes no connection, so copying it never fails on one, and is dropped at the end", async () => {
    const template = await createPostgresTemplate(TEST_POSTGRES_URL);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${template.name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await expect(client.connect()).rejects.toThrow(/not currently accepting connections/);
    await template.drop();
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const left = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template.name]);
      expect(left.rowCount).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

describe("a database test the PostgreSQL leg would miss", () => {
  it("this file is on the list the run's set-up made, and createTestDatabase knows it is this file", () => {
    expect(inject("databaseTestFiles")).toContain("test-support/database.test.ts");
    expect(testFileInHook).toBe(import.meta.filename);
    expect(() => refuseUnselectedTestFile(expect.getState().testPath, inject("databaseTestFiles"))).not.toThrow();
  });

  it("is refused: createTestDatabase throws in a file not on the list", () => {
    const selected = ["server/shop/cart.test.ts"];
    expect(() => refuseUnselectedTestFile(path.join(ROOT, "server/shop/pricing.test.ts"), selected)).toThrow(
      /server\/shop\/pricing\.test\.ts opens a test database, but the PostgreSQL leg of CI would not run it/,
    );
    expect(() => refuseUnselectedTestFile(path.join(ROOT, "server/shop/cart.test.ts"), selected)).not.toThrow();
  });
});
