import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, inject } from "vitest";
import { openPglite, openPostgres, type Database } from "../server/db/client";
import { useMasterKey } from "../server/shop/vaults";

/** The master key of in-process tests: secrets and data keys. */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7);

const ROOT = path.resolve(import.meta.dirname, "..");

// What test-support/global-setup.ts makes once per vitest run and hands to every test file.
declare module "vitest" {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data folder (dumpMigratedPglite). */
    pgliteTemplate?: string;
    /** A migrated PostgreSQL database on TEST_DATABASE_URL's server, copied for each test database. */
    postgresTemplate?: string;
    /** The test files the PostgreSQL leg runs (test-support/database-tests.ts). */
    databaseTestFiles?: string[];
  }
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or, when TEST_DATABASE_URL is
 * set, a new PostgreSQL database created on that server and dropped at close. Both start as a copy
 * of the run's migrated template when there is one, and apply the migrations as every start does
 * (a no-op on an up-to-date copy), so a template can never hide a migration.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  refuseUnselectedTestFile(expect.getState().testPath, inject("databaseTestFiles"));
  // The tests' master key (the one startTestServer's secrets use too); a server process loads its own.
  useMasterKey(TEST_MASTER_KEY);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const template = pgliteTemplate();
    return openPglite(undefined, template ? { template } : {});
  }
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const template = inject("postgresTemplate");
  await runOnServer(url, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const target = databaseUrl(url, name);
  const database = await openPostgres(target);
  return {
    ...database,
    /** Where a second server instance can connect to the same database. */
    url: target,
    async close() {
      await database.close();
      await runOnServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

let pgliteTemplateBlob: Blob | undefined;

/** The run's PGlite template, read once per test process (a Blob is never changed by its readers). */
function pgliteTemplate(): Blob | undefined {
  const file = inject("pgliteTemplate");
  if (!file) return undefined;
  pgliteTemplateBlob ??= new Blob([fs.readFileSync(file)]);
  return pgliteTemplateBlob;
}

/**
 * A database test the PostgreSQL leg's rule misses would silently never run on PostgreSQL: the
 * rule (test-support/database-tests.ts) reads imports, and this catches whatever it cannot see.
 * `testFile` is vitest's current file; outside a run of this project's config there is no list.
 */
export function refuseUnselectedTestFile(testFile: string | undefined, selected: string[] | undefined): void {
  if (!testFile || !selected) return;
  const relative = path.relative(ROOT, testFile).split(path.sep).join("/");
  if (selected.includes(relative)) return;
  throw new Error(
    `${relative} opens a test database, but the PostgreSQL leg of CI would not run it: it must import ` +
      `test-support/database.ts (directly or through test-support/app.ts and the like) with a static import ` +
      `(see test-support/database-tests.ts).`,
  );
}

/**
 * A migrated PostgreSQL database to copy (CREATE DATABASE ... TEMPLATE), made once per run. Nobody
 * may stay connected to it, or the copies fail: the migrating connections are closed, and the
 * database then takes no new connections at all.
 */
export async function createPostgresTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `test_template_${crypto.randomBytes(6).toString("hex")}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  const drop = () => runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    const database = await openPostgres(databaseUrl(serverUrl, name));
    await database.close();
    await runOnServer(serverUrl, `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
  return { name, drop };
}

function databaseUrl(serverUrl: string, name: string): string {
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}

async function runOnServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
