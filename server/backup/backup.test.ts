import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { seedDemo } from "../../scripts/demo-data";
import { createSecretBox } from "../crypto";
import { openPglite, type Database } from "../db/client";
import { queryRows } from "../db/rows";
import { accounts, accountSealKeys, orders, ownerSealKeys, privateAddressGrants, products, productVariants, sessions } from "../db/schema";
import { getCustomerNote, saveCustomerNote } from "../shop/customers";
import { createBotSettings, getBotSettings } from "../shop/settings";
import { createDiskStorage, type ObjectStorage } from "../storage";
import { createTestDatabase } from "../../test-support/database";
import { CHUNK_BYTES, type BackupRecord } from "./archive";
import { writeBackup } from "./backup";
import { restoreBackup } from "./restore";
import { shopTables } from "./tables";

// A believable shop goes into an archive and comes back out into an empty one: every row of every
// table, every column, and every image byte for byte. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.

const KEY = crypto.randomBytes(32);
const NOW = new Date("2026-11-20T12:00:00.000Z");
/** The owner's note about a customer (encrypted: docs/decisions/0029-customer-notes.md). */
const NOTE = "Likes the marmalade jar wrapped twice 🫙";

const opened: Database[] = [];
const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.close()));
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<Database> {
  const database = await createTestDatabase();
  opened.push(database);
  return database;
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-test-"));
  tempDirs.push(dir);
  return dir;
}

function freshStorage(): ObjectStorage {
  return createDiskStorage(path.join(tempDir(), "objects"));
}

/** The demo shop, bot settings with encrypted secrets, images, and the awkward values a dump can get wrong. */
async function seedShop(database: Database, storage: ObjectStorage): Promise<void> {
  const { db } = database;
  await seedDemo(db, NOW);
  await createBotSettings(db, createSecretBox(KEY), {
    botName: "Lamp & Loaf",
    botToken: "123456789:AAE-secret-token",
    acceptedCurrencies: ["BTC", "LTC"],
    welcomeMessage: "Welcome! Émojis too: 🛍️",
    faqContent: "Line one\nLine two, with a \"quote\" and a tab\t.",
    nowpaymentsApiKey: "NP-API-KEY",
    nowpaymentsIpnSecret: "ipn secret",
    webhookUrl: null,
    underpaymentTolerancePercent: 2.5,
  });
  // A photo larger than one chunk, a small one, and one no product names (uploaded, not yet saved).
  const photo = crypto.randomBytes(CHUNK_BYTES * 2 + 12345);
  await storage.put("photo-large-0001", photo, "image/jpeg");
  await storage.put("photo-small-0002", Buffer.from("\x89PNG\r\n\x1a\n tiny"), "image/png");
  await storage.put("orphan-upload-03", Buffer.alloc(0), "image/webp");
  // As the API writes a photo (issue 23): image_url is the first of image_urls.
  await db.update(products).set({ imageUrl: "/objects/photo-large-0001", imageUrls: ["/objects/photo-large-0001"] }).where(sql`${products.name} = (select min(name) from products)`);
  // Values a dump through JavaScript would bend: microseconds, a bigint beyond 2^53, long jsonb
  // numbers, an empty string, a null in a nullable column.
  await db.execute(sql`
    insert into telegram_updates (bot_id, update_id, received_at)
    values (9007199254740993, 9223372036854775807, '2026-11-20 11:59:59.123456+00')`);
  await db.execute(sql`
    insert into payment_events (order_id, payment_id, payment_status, dedupe_key, payload, received_at)
    values (null, '5077015838', 'finished', '5077015838:finished',
            '{"pay_amount": 0.000612345678901234567890, "n": 12345678901234567890, "note": ""}', '2026-11-20 11:00:00.000001+00')`);
  // The team (issue 25): the owner and a packer with an open invite, a recovery code, and a session each.
  await db.execute(sql`
    insert into accounts (id, username, name, role, password_hash, totp_secret, totp_enabled, totp_last_step) values
      ('00000000-0000-4000-8000-00000000000a', 'owner', 'Owner', 'owner', 'scrypt$hash', 'v1:sealed', true, 59000123),
      ('00000000-0000-4000-8000-00000000000b', 'pat', 'Pat the packer', 'packer', null, null, false, null)`);
  await db.execute(sql`insert into account_invites (token_hash, account_id, expires_at) values ('invite-hash', '00000000-0000-4000-8000-00000000000b', now() + interval '2 days')`);
  await db.execute(sql`insert into account_recovery_codes (account_id, code_hash) values ('00000000-0000-4000-8000-00000000000a', 'code-hash')`);
  await db.execute(sql`
    insert into sessions (token_hash, account_id, created_at, last_seen_at, expires_at, user_agent, ip)
    values ('abc123', '00000000-0000-4000-8000-00000000000a', now(), now(), now() + interval '1 day', 'Mozilla/5.0', '127.0.0.1')`);
  await db.execute(sql`insert into bot_conversations (telegram_user_id, state) values ('5123409876', '{"step": "address", "nested": {"a": [1, 2.50, null]}}')`);
  await db.execute(sql`insert into login_throttle (key, failures, window_started_at) values ('global', 3, now())`);
  await saveCustomerNote(db, await firstCustomer(database), NOTE, NOW);
  // An order placed in the storefront (issue 27), beside the demo's bot orders.
  await db.execute(sql`update orders set placed_from = 'storefront' where id = (select id from orders order by id limit 1)`);
}

async function firstCustomer(database: Database): Promise<string> {
  const [row] = await database.db.select({ telegramUserId: orders.telegramUserId }).from(orders).orderBy(orders.telegramUserId).limit(1);
  return row!.telegramUserId;
}

/** Every row of every table as PostgreSQL prints it: equal means equal in every column. */
async function contents(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of shopTables()) {
    const result = await queryRows<{ row: string }>(
      database.db,
      sql.raw(`select t::text as row from "${table.name}" t order by t::text`),
    );
    out[table.name] = result.map((row) => row.row);
  }
  return out;
}

async function images(storage: ObjectStorage): Promise<Record<string, { contentType: string; sha256: string; size: number }>> {
  const out: Record<string, { contentType: string; sha256: string; size: number }> = {};
  for await (const id of storage.list()) {
    const image = (await storage.get(id))!;
    out[id] = { contentType: image.contentType, sha256: crypto.createHash("sha256").update(image.data).digest("hex"), size: image.data.length };
  }
  return out;
}

/** A seeded shop and its backup file. */
async function backedUpShop() {
  const database = await freshDatabase();
  const storage = freshStorage();
  await seedShop(database, storage);
  const file = path.join(tempDir(), "shop.backup.gz");
  const summary = await writeBackup({ database, storage, out: file, keyId: "k1" });
  return { database, storage, file, summary };
}

/** The columns an archive's table record lists. */
function columnsOf(lines: string[], table: string): string[] {
  for (const line of lines) {
    const record = JSON.parse(line) as { type: string; name?: string; columns?: string[] };
    if (record.type === "table" && record.name === table) return record.columns!;
  }
  return [];
}

/** Rewrites an archive's records (as parsed lines), for archives that are damaged in a precise way. */
function rewriteArchive(from: string, to: string, edit: (lines: string[]) => string[]): void {
  const lines = zlib.gunzipSync(fs.readFileSync(from)).toString("utf8").trimEnd().split("\n");
  fs.writeFileSync(to, zlib.gzipSync(`${edit(lines).join("\n")}\n`));
}

describe("backup and restore", () => {
  it("round-trips a seeded shop: every row, every column, every image byte", async () => {
    const source = await backedUpShop();
    expect(source.summary.images).toBe(3);
    expect(source.summary.tables).toBe(shopTables().length);

    const target = await freshDatabase();
    const targetStorage = freshStorage();
    const summary = await restoreBackup({ database: target, storage: targetStorage, file: source.file, force: false });

    expect(summary).toMatchObject({ images: 3, rows: source.summary.rows, keyId: "k1", botSettings: 1 });
    const restored = await contents(target);
    expect(restored).toEqual(await contents(source.database));
    expect(restored.categories!.some((row) => /,[0-9a-f-]{36},/.test(row))).toBe(true); // subcategories kept their parent
    expect(await queryRows(target.db, sql`select placed_from, count(*)::int as n from orders group by placed_from order by placed_from`)).toEqual([
      { placed_from: "bot", n: expect.any(Number) },
      { placed_from: "storefront", n: 1 },
    ]);
    expect(await images(targetStorage)).toEqual(await images(source.storage));
    // The secrets stayed encrypted in the archive and decrypt with the same key.
    expect((await getBotSettings(target.db, createSecretBox(KEY)))?.botToken).toBe("123456789:AAE-secret-token");
    expect(zlib.gunzipSync(fs.readFileSync(source.file)).toString()).not.toContain("AAE-secret-token");
    // The owner's note came back, still encrypted in the archive, and opens with the same key.
    expect(restored.customer_notes).toHaveLength(1);
    expect((await getCustomerNote(target.db, await firstCustomer(target))).note).toBe(NOTE);
    expect(zlib.gunzipSync(fs.readFileSync(source.file)).toString()).not.toContain("marmalade");
  });

  it("restores a PGlite backup into the test database (PostgreSQL with TEST_DATABASE_URL)", async () => {
    const pglite = await openPglite(undefined);
    opened.push(pglite);
    const storage = freshStorage();
    await seedShop(pglite, storage);
    const file = path.join(tempDir(), "from-pglite.gz");
    await writeBackup({ database: pglite, storage, out: file, keyId: null });

    const target = await freshDatabase();
    await restoreBackup({ database: target, storage: freshStorage(), file, force: false });
    expect(await contents(target)).toEqual(await contents(pglite));
  });

  it("refuses a target that holds any row, and says how to replace it", async () => {
    const source = await backedUpShop();
    const target = await freshDatabase();
    await target.db.execute(sql`insert into login_throttle (key, failures, window_started_at) values ('x', 1, now())`);
    const before = await contents(target);

    await expect(restoreBackup({ database: target, storage: freshStorage(), file: source.file, force: false })).rejects.toThrow(
      "The target database is not empty: login_throttle (1). Restore into an empty DATA_DIR or database, or add --force to replace everything in it.",
    );
    expect(await contents(target)).toEqual(before);
  });

  it("--force replaces whatever the target held", async () => {
    const source = await backedUpShop();
    const target = await freshDatabase();
    const targetStorage = freshStorage();
    await seedDemo(target.db, new Date("2025-01-01T00:00:00Z"));

    await restoreBackup({ database: target, storage: targetStorage, file: source.file, force: true });
    expect(await contents(target)).toEqual(await contents(source.database));
  });

  it("a cut-off archive fails cleanly and leaves the database as it was, even with --force", async () => {
    const source = await backedUpShop();
    const bytes = fs.readFileSync(source.file);
    const cut = path.join(tempDir(), "cut.gz");
    // The rows are at the end of the archive: cutting the last bytes breaks it among the tables.
    fs.writeFileSync(cut, bytes.subarray(0, bytes.length - 200));

    const empty = await freshDatabase();
    await expect(restoreBackup({ database: empty, storage: freshStorage(), file: cut, force: false })).rejects.toThrow(
      /cut\.gz is not a complete shop backup \(unexpected end of file\)\./,
    );
    expect(Object.values(await contents(empty)).flat()).toEqual([]);

    // With --force the tables are emptied inside the same transaction: the failure puts them back.
    const full = await freshDatabase();
    await seedDemo(full.db, NOW);
    const before = await contents(full);
    await expect(restoreBackup({ database: full, storage: freshStorage(), file: cut, force: true })).rejects.toThrow(/not a complete shop backup/);
    expect(await contents(full)).toEqual(before);
  });

  it("an archive without its end record, with a bad checksum or with a damaged image restores nothing", async () => {
    const source = await backedUpShop();
    const noEnd = path.join(tempDir(), "no-end.gz");
    rewriteArchive(source.file, noEnd, (lines) => lines.slice(0, -1));
    const target = await freshDatabase();
    await expect(restoreBackup({ database: target, storage: freshStorage(), file: noEnd, force: false })).rejects.toThrow(
      /no-end\.gz is incomplete: it ends before its end record\. Nothing was restored\./,
    );
    expect(Object.values(await contents(target)).flat()).toEqual([]);

    // Whole records, but the gzip checksum at the very end does not match: found before the commit.
    const badCrc = path.join(tempDir(), "bad-crc.gz");
    const bytes = Buffer.from(fs.readFileSync(source.file));
    bytes[bytes.length - 8]! ^= 0xff;
    fs.writeFileSync(badCrc, bytes);
    await expect(restoreBackup({ database: target, storage: freshStorage(), file: badCrc, force: false })).rejects.toThrow(
      /bad-crc\.gz is not a complete shop backup \(incorrect data check\)\./,
    );
    expect(Object.values(await contents(target)).flat()).toEqual([]);

    const badImage = path.join(tempDir(), "bad-image.gz");
    rewriteArchive(source.file, badImage, (lines) =>
      lines.map((line) => (line.startsWith('{"type":"chunk"') ? line.replace(/"data":"(.)/, (_, c) => `"data":"${c === "A" ? "B" : "A"}`) : line)),
    );
    await expect(restoreBackup({ database: target, storage: freshStorage(), file: badImage, force: false })).rejects.toThrow(
      /image photo-large-0001 does not match its checksum/,
    );
    expect(Object.values(await contents(target)).flat()).toEqual([]);
  });

  it("refuses a backup from a newer version, a hand-edited one, and a file that is no backup", async () => {
    const source = await backedUpShop();
    const newer = path.join(tempDir(), "newer.gz");
    rewriteArchive(source.file, newer, (lines) =>
      lines.map((line) => {
        const record = JSON.parse(line) as { type: string; applied?: { hash: string; createdAt: string }[] };
        if (record.type !== "migrations") return line;
        record.applied!.push({ hash: "future", createdAt: "99999999999999" });
        return JSON.stringify(record);
      }),
    );
    const target = await freshDatabase();
    await expect(restoreBackup({ database: target, storage: freshStorage(), file: newer, force: false })).rejects.toThrow(
      /newer version of the shop/,
    );

    // A hand-edited value the column refuses: one sentence naming the table, and nothing kept.
    const edited = path.join(tempDir(), "edited.gz");
    rewriteArchive(source.file, edited, (lines) =>
      lines.map((line) => (line.includes('"Filament Bulbs (E27)"') ? line.replace('"4.50"', '"four fifty"') : line)),
    );
    await expect(restoreBackup({ database: target, storage: freshStorage(), file: edited, force: false })).rejects.toThrow(
      /^.*edited\.gz could not be loaded into products: invalid input syntax for type numeric: "four fifty"\. Nothing was restored\.$/,
    );
    expect(Object.values(await contents(target)).flat()).toEqual([]);

    const text = path.join(tempDir(), "notes.txt");
    fs.writeFileSync(text, "not a backup\n");
    await expect(restoreBackup({ database: target, storage: freshStorage(), file: text, force: false })).rejects.toThrow(
      /notes\.txt is not a complete shop backup \(incorrect header check\)\./,
    );
    expect(Object.values(await contents(target)).flat()).toEqual([]);
  });

  it("checks every table's rows against its count and checksum, and still restores a format-1 archive", async () => {
    const source = await backedUpShop();
    const target = await freshDatabase();
    const lines = zlib.gunzipSync(fs.readFileSync(source.file)).toString("utf8").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "header", version: 2 });
    expect(lines.filter((line) => line.startsWith('{"type":"table-end"'))).toHaveLength(shopTables().length);
    const restoreFails = async (name: string, edit: (lines: string[]) => string[], message: RegExp) => {
      const file = path.join(tempDir(), name);
      rewriteArchive(source.file, file, edit);
      await expect(restoreBackup({ database: target, storage: freshStorage(), file, force: false })).rejects.toThrow(message);
      expect(Object.values(await contents(target)).flat()).toEqual([]);
    };

    // A value the column accepts, changed: only the checksum tells.
    await restoreFails(
      "edited.gz",
      (lines) => lines.map((line) => (line.includes('"Filament Bulbs (E27)"') ? line.replace('"4.50"', '"4.51"') : line)),
      /edited\.gz is damaged: the rows of table products do not match their checksum\. Nothing was restored\.$/,
    );
    // A row gone and both counts lowered to match: the checksum still tells.
    await restoreFails(
      "one-row-less.gz",
      (lines) =>
        lines.map((line) => {
          const record = JSON.parse(line) as BackupRecord;
          if (record.type === "table" && record.name === "products") record.count--;
          else if (record.type === "table-end" && record.name === "products") record.count--;
          else if (record.type === "rows" && record.rows.some((row) => row.includes("Filament Bulbs (E27)"))) {
            record.rows = record.rows.filter((row) => !row.includes("Filament Bulbs (E27)"));
          } else return line;
          return JSON.stringify(record);
        }),
      /one-row-less\.gz is damaged: the rows of table products do not match their checksum\./,
    );
    await restoreFails(
      "wrong-count.gz",
      (lines) => lines.map((line) => (line.startsWith('{"type":"table-end","name":"products"') ? line.replace(/"count":(\d+)/, '"count":1$1') : line)),
      /wrong-count\.gz is damaged: table products should have 1\d+ rows, it has \d+\./,
    );
    await restoreFails(
      "no-table-end.gz",
      (lines) => lines.filter((line) => !line.startsWith('{"type":"table-end","name":"products"')),
      /no-table-end\.gz is damaged: table products has no end-of-table record\./,
    );

    // Format 1 (no table-end records) restores, checked by counts as before.
    const formatOne = path.join(tempDir(), "format-1.gz");
    rewriteArchive(source.file, formatOne, (lines) =>
      lines.filter((line) => !line.startsWith('{"type":"table-end"')).map((line, i) => (i === 0 ? line.replace('"version":2', '"version":1') : line)),
    );
    await restoreBackup({ database: target, storage: freshStorage(), file: formatOne, force: false });
    expect(await contents(target)).toEqual(await contents(source.database));
  });

  it("restores an archive from before variants: each product gets its default variant, carts and waits point at it", async () => {
    const source = await backedUpShop();
    const [someProduct] = await source.database.db.select().from(products).limit(1);
    // A cart line and a restock wait as such a shop had them (variant_id is removed from the archive below).
    await source.database.db.execute(sql`insert into cart_items (telegram_user_id, product_id, variant_id, quantity) values ('777', ${someProduct!.id}, ${someProduct!.id}, 2)`);
    await source.database.db.execute(sql`insert into restock_waits (product_id, variant_id, telegram_user_id) values (${someProduct!.id}, ${someProduct!.id}, '777')`);
    const file = path.join(tempDir(), "with-cart.backup.gz");
    await writeBackup({ database: source.database, storage: source.storage, out: file, keyId: "k1" });
    // Format 1 (no per-table checksums), without the product_variants table and the variant_id columns.
    const old = path.join(tempDir(), "before-variants.gz");
    rewriteArchive(file, old, (lines) => {
      const out: string[] = [];
      let table = "";
      let droppedRows = 0;
      for (const [i, line] of lines.entries()) {
        const record = JSON.parse(line) as { type: string; name?: string; columns?: string[]; rows?: unknown[][]; tables?: number };
        if (i === 0) {
          out.push(line.replace('"version":2', '"version":1'));
          continue;
        }
        if (record.type === "table-end") continue;
        if (record.type === "table") table = record.name!;
        if (record.type === "end") {
          out.push(JSON.stringify({ ...record, tables: record.tables! - 1, rows: (record as unknown as { rows: number }).rows - droppedRows }));
          continue;
        }
        if (table === "product_variants" && (record.type === "table" || record.type === "rows")) {
          droppedRows += record.rows?.length ?? 0;
          continue;
        }
        const drop = ["cart_items", "restock_waits"].includes(table) ? columnsOf(lines, table).indexOf("variant_id") : -1;
        if (drop >= 0 && record.type === "table") record.columns = record.columns!.filter((_, c) => c !== drop);
        if (drop >= 0 && record.type === "rows") record.rows = record.rows!.map((row) => row.filter((_, c) => c !== drop));
        out.push(drop >= 0 ? JSON.stringify(record) : line);
      }
      return out;
    });

    const target = await freshDatabase();
    await restoreBackup({ database: target, storage: freshStorage(), file: old, force: false });
    const restored = await contents(target);
    expect(restored).toEqual(await contents(source.database));
    const variants = await target.db.select().from(productVariants);
    const shelf = await target.db.select().from(products);
    expect(variants.map((v) => [v.id, v.productId, v.label, v.stock]).sort()).toEqual(shelf.map((p) => [p.id, p.id, "", p.stock]).sort());
  });

  it("restores an archive from before accounts: its admin password becomes the owner's account, its sessions the owner's", async () => {
    const source = await backedUpShop();
    const file = path.join(tempDir(), "with-team.backup.gz");
    await writeBackup({ database: source.database, storage: source.storage, out: file, keyId: "k1" });
    // Format 1, as a shop before issue 25 wrote it: no team tables, no account columns, and the one
    // admin password in admin_credentials.
    const teamTables = ["accounts", "account_invites", "account_recovery_codes", "team_settings"];
    const newColumns: Record<string, string[]> = {
      sessions: ["id", "account_id", "user_agent", "ip", "totp_at"],
      audit_log: ["account_id", "account_username"],
      // Nor where an order was placed (migration 0030): all were the bot's.
      orders: ["placed_from"],
    };
    const old = path.join(tempDir(), "before-accounts.gz");
    rewriteArchive(file, old, (lines) => {
      const out: string[] = [];
      let table = "";
      let droppedTables = 0;
      let rowsChange = 0;
      for (const [i, line] of lines.entries()) {
        const record = JSON.parse(line) as { type: string; name?: string; columns?: string[]; rows?: unknown[][]; tables?: number };
        if (i === 0) {
          out.push(line.replace('"version":2', '"version":1'));
          continue;
        }
        if (record.type === "table-end") continue;
        if (record.type === "table") table = record.name!;
        if (record.type === "end") {
          out.push(JSON.stringify({ type: "table", name: "admin_credentials", columns: ["id", "password_hash", "updated_at"], count: 1 }));
          out.push(JSON.stringify({ type: "rows", rows: [["1", "scrypt$legacy-hash", "2026-01-02 03:04:05+00"]] }));
          const end = record as unknown as { tables: number; rows: number };
          out.push(JSON.stringify({ ...record, tables: end.tables - droppedTables + 1, rows: end.rows - rowsChange + 1 }));
          continue;
        }
        if (teamTables.includes(table)) {
          if (record.type === "table") droppedTables++;
          rowsChange += record.rows?.length ?? 0;
          continue;
        }
        const drop = (newColumns[table] ?? []).map((name) => columnsOf(lines, table).indexOf(name));
        if (drop.length > 0 && record.type === "table") record.columns = record.columns!.filter((_, c) => !drop.includes(c));
        if (drop.length > 0 && record.type === "rows") record.rows = record.rows!.map((row) => row.filter((_, c) => !drop.includes(c)));
        out.push(drop.length > 0 ? JSON.stringify(record) : line);
      }
      return out;
    });

    const target = await freshDatabase();
    await restoreBackup({ database: target, storage: freshStorage(), file: old, force: false });
    const team = await target.db.select().from(accounts);
    expect(team.map((a) => [a.username, a.name, a.role, a.passwordHash, a.totpEnabled])).toEqual([["owner", "Owner", "owner", "scrypt$legacy-hash", false]]);
    const restoredSessions = await target.db.select().from(sessions);
    expect(restoredSessions.map((s) => [s.tokenHash, s.accountId])).toEqual([["abc123", team[0]!.id]]);
    expect(await queryRows(target.db, sql`select distinct placed_from from orders`)).toEqual([{ placed_from: "bot" }]);
    // The temporary table went with the restore's transaction.
    expect(await queryRows(target.db, sql`select to_regclass('admin_credentials') as t`)).toEqual([{ t: null }]);
  });

  it("restores an archive from before migration 0029 without the grants of a role that no longer reads addresses", async () => {
    // Such a shop: Pat (packer) and Sam (packer made support before a role change revoked grants)
    // both hold the owner's key, sealed to their own.
    const source = await freshDatabase();
    const keyOf = { wrappedPrivateKey: "wrapped", salt: "salt", iterations: 600_000 };
    const team = await source.db
      .insert(accounts)
      .values([
        { username: "pat", name: "Pat", role: "packer" },
        { username: "sam", name: "Sam", role: "support" },
      ])
      .returning();
    await source.db.insert(ownerSealKeys).values({ keyId: "owner-key", publicKey: "public", ...keyOf });
    await source.db.insert(accountSealKeys).values(team.map((account) => ({ accountId: account.id, publicKey: `public-${account.username}`, keyId: `key-${account.username}`, ...keyOf })));
    await source.db.insert(privateAddressGrants).values(team.map((account) => ({ accountId: account.id, ownerKeyId: "owner-key", sealedPrivateKey: `sealed-${account.username}` })));
    const file = path.join(tempDir(), "stale-grant.backup.gz");
    await writeBackup({ database: source, storage: freshStorage(), out: file, keyId: null });

    const target = await freshDatabase();
    await restoreBackup({ database: target, storage: freshStorage(), file, force: false });
    expect((await target.db.select().from(privateAddressGrants)).map((grant) => grant.sealedPrivateKey)).toEqual(["sealed-pat"]);
    expect((await target.db.select().from(accountSealKeys)).map((key) => key.keyId).sort()).toEqual(["key-pat", "key-sam"]);
  });

  it("never overwrites an existing file", async () => {
    const source = await backedUpShop();
    await expect(writeBackup({ database: source.database, storage: source.storage, out: source.file, keyId: null })).rejects.toThrow(
      /already exists/,
    );
  });
});
