import crypto from "node:crypto";
import pg from "pg";
import { openPglite, openPostgres, type Database } from "../server/db/client";
import { useMasterKey } from "../server/shop/vaults";

/** The master key of in-process tests: secrets and data keys. */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7);

/**
 * A fresh, migrated database for one test file: PGlite in memory, or, when TEST_DATABASE_URL is
 * set, a new PostgreSQL database created on that server and dropped at close.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  // The tests' master key (the one startTestServer's secrets use too); a server process loads its own.
  useMasterKey(TEST_MASTER_KEY);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openPglite(undefined);
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString());
  return {
    ...database,
    /** Where a second server instance can connect to the same database. */
    url: target.toString(),
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
