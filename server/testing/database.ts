import crypto from "node:crypto";
import pg from "pg";
import { openPglite, openPostgres, type Database } from "../db/client";

/**
 * A fresh, migrated database for one test file: PGlite in memory, or, when TEST_DATABASE_URL is
 * set, a new PostgreSQL database created on that server and dropped at close.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
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
