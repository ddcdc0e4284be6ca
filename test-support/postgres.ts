import crypto from "node:crypto";
import pg from "pg";

// A throwaway PostgreSQL database for tests that need a real server (several processes, advisory
// locks): on TEST_DATABASE_URL when set, else on the PostgreSQL every machine of this project runs
// (127.0.0.1:5432, CI included).
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type ThrowawayDatabase = { url: string; drop(): Promise<void> };

export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
