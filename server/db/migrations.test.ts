import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../project-root";
import type { Database } from "./client";
import { queryRows } from "./rows";
import { accounts, accountSealKeys, ownerSealKeys, privateAddressGrants } from "./schema";
import { createTestDatabase } from "../../test-support/database";

// Migrations that change rows, not tables: each meets a database as a shop at the migration before
// it has it, with the rows it is about, and is applied by drizzle's own migrator, as at a start.

const MIGRATIONS = path.join(projectRoot(import.meta.dirname), "drizzle");

type JournalEntry = { idx: number; when: number; tag: string };
const journal = (JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as { entries: JournalEntry[] }).entries;

function entry(tag: string): JournalEntry {
  const found = journal.find((candidate) => candidate.tag === tag);
  if (!found) throw new Error(`No migration ${tag} in drizzle/meta/_journal.json`);
  return found;
}

/**
 * Makes `database` (migrated to the latest, as every test database is) look like a shop at the
 * migration before `tag`: the records of `tag` and later ones are removed. Only for migrations from
 * `tag` on that change no table, which are then undone by removing their records: a test database
 * holds no rows they could have changed.
 */
async function rewindTo(database: Database, tag: string): Promise<void> {
  await database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at >= ${entry(tag).when}`);
}

/**
 * Applies the migrations up to and including `tag` with drizzle's migrator, which applies those newer
 * than the last one recorded: a folder whose journal ends at `tag`, so later ones (which may change
 * tables) are not applied again.
 */
async function migrateTo(database: Database, tag: string): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-migrations-"));
  try {
    const upTo = journal.filter((candidate) => candidate.idx <= entry(tag).idx);
    fs.mkdirSync(path.join(folder, "meta"));
    fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ version: "7", dialect: "postgresql", entries: upTo }));
    for (const { tag: name } of upTo) fs.copyFileSync(path.join(MIGRATIONS, `${name}.sql`), path.join(folder, `${name}.sql`));
    if (database.kind === "pglite") await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: folder });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describe("migration 0029: sealed-address grants of roles that no longer read addresses", () => {
  const TAG = "0029_drop_stale_address_grants";
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("comes after 0028 in time too, so a shop at 0028 applies it (drizzle applies only what is newer than its last)", () => {
    expect(entry(TAG).idx).toBe(entry("0028_bot_languages").idx + 1);
    expect(entry(TAG).when).toBeGreaterThan(entry("0028_bot_languages").when);
  });

  it("deletes the grants of accounts whose role does not read addresses, and keeps the rest", async () => {
    await rewindTo(database, TAG);
    const { db } = database;
    // A shop at 0028: a packer and a manager with access, a disabled packer (disabling keeps access),
    // and Sam, a packer given access and then made support before a role change revoked grants.
    const team = await db
      .insert(accounts)
      .values([
        { username: "owner", name: "Owner", role: "owner" },
        { username: "pat", name: "Pat", role: "packer" },
        { username: "max", name: "Max", role: "manager" },
        { username: "dee", name: "Dee", role: "packer", disabled: true },
        { username: "sam", name: "Sam", role: "support" },
      ])
      .returning();
    const id = (username: string) => team.find((account) => account.username === username)!.id;
    const staff = ["pat", "max", "dee", "sam"];
    const keyOf = { wrappedPrivateKey: "wrapped", salt: "salt", iterations: 600_000 };
    await db.insert(ownerSealKeys).values([
      { keyId: "owner-old", publicKey: "public-old", ...keyOf, retiredAt: new Date("2026-11-01T00:00:00Z") },
      { keyId: "owner-now", publicKey: "public-now", ...keyOf },
    ]);
    await db.insert(accountSealKeys).values(staff.map((username) => ({ accountId: id(username), publicKey: `public-${username}`, keyId: `key-${username}`, ...keyOf })));
    await db.insert(privateAddressGrants).values(
      staff.flatMap((username) => ["owner-old", "owner-now"].map((ownerKeyId) => ({ accountId: id(username), ownerKeyId, sealedPrivateKey: `sealed-${username}-${ownerKeyId}` }))),
    );

    await migrateTo(database, TAG);

    const grants = await db.select().from(privateAddressGrants).orderBy(asc(privateAddressGrants.sealedPrivateKey));
    expect(grants.map((grant) => grant.sealedPrivateKey)).toEqual([
      "sealed-dee-owner-now",
      "sealed-dee-owner-old",
      "sealed-max-owner-now",
      "sealed-max-owner-old",
      "sealed-pat-owner-now",
      "sealed-pat-owner-old",
    ]);
    // Only grants go: Sam keeps the key (as after a role change), and the owner's keys and the team stay.
    expect((await db.select().from(accountSealKeys)).map((key) => key.keyId).sort()).toEqual(["key-dee", "key-max", "key-pat", "key-sam"]);
    expect(await db.select().from(ownerSealKeys)).toHaveLength(2);
    expect(await db.select().from(accounts)).toHaveLength(5);
    // Recorded, as at a start: the next start applies nothing again.
    const [recorded] = await queryRows<{ last: string }>(db, sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`);
    expect(recorded!.last).toBe(String(entry(TAG).when));
  });
});
