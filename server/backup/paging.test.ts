import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, type Database } from "../db/client";
import { queryRows } from "../db/rows";
import { createDiskStorage } from "../storage";
import { createTestDatabase } from "../../test-support/database";
import { type BackupRecord } from "./archive";
import { writeBackup, writeTable } from "./backup";
import { restoreBackup } from "./restore";
import { shopTables, type TableInfo } from "./tables";

// Backups page through every table by its primary key (server/backup/backup.ts writeTable). Keys of
// every type and length, on several pages, go into an archive and come back out row for row: on
// PGlite, and on PostgreSQL too with TEST_DATABASE_URL. A page here is 7 rows, so a few dozen rows
// cross several page boundaries (the issue: update ids 9 and 10 sorted as text, compared as numbers).

const PAGE = 7;
const TRILLION = 10 ** 12;
const INT_MAX = 2 ** 31 - 1;
const AT = "2026-11-20 12:00:00.123456+00";

/** Whole numbers from 1 to `max`, every length in digits as likely as any other: 9, 10, 99, 100 ... */
const spanning = (max: number) =>
  fc
    .integer({ min: 1, max: String(max).length })
    .chain((digits) => fc.integer({ min: 10 ** (digits - 1), max: Math.min(10 ** digits - 1, max) }));
/** Text keys: Telegram user ids (digits of every length) and hostile strings (quotes, escapes, emoji; PostgreSQL text holds no NUL). */
const textKey = fc.oneof(
  spanning(TRILLION).map(String),
  fc.string({ unit: "binary", minLength: 1, maxLength: 8 }).filter((text) => !text.includes("\0")),
);
/** A few keys (at least one row in the table) or several pages of them. */
const few = <T>(arbitrary: fc.Arbitrary<T>, selector?: (value: T) => unknown) =>
  fc.uniqueArray(arbitrary, { minLength: 1, maxLength: 12, ...(selector ? { selector } : {}) });
const pages = <T>(arbitrary: fc.Arbitrary<T>, selector?: (value: T) => unknown) =>
  fc.uniqueArray(arbitrary, { minLength: 2 * PAGE + 1, maxLength: 6 * PAGE, ...(selector ? { selector } : {}) });
/** A timestamp with microseconds, 1970 to 2200. */
const timestamp = fc
  .tuple(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), fc.integer({ min: 0, max: 999 }))
  .map(([ms, micro]) => `${new Date(ms).toISOString().slice(0, 23)}${String(micro).padStart(3, "0")}Z`);
/** A jsonb payload (no \u0000: jsonb refuses it). */
const payload = fc.option(
  fc.jsonValue({ maxDepth: 2 }).filter((value) => !JSON.stringify(value).includes("\\u0000")),
  { nil: null },
);

const shopArbitrary = fc.record({
  // The issue's table: a composite bigint key, bots whose ids differ in length, update ids from 1 to 10^12.
  telegramUpdates: pages(
    fc.record({ bot: fc.constantFrom(5, 10, 123456789012), update: spanning(TRILLION), receivedAt: timestamp, payload }),
    (row) => `${row.bot}:${row.update}`,
  ),
  accounts: few(fc.uuid()),
  accountInvites: few(textKey),
  accountRecoveryCodes: few(fc.uuid()),
  privateAddressGrants: few(fc.tuple(fc.nat(), fc.nat())),
  simulatorMessages: pages(spanning(INT_MAX)),
  broadcasts: few(fc.uuid()),
  broadcastRecipients: pages(fc.tuple(fc.nat(), textKey)),
  products: few(fc.uuid()),
  productVariants: few(fc.uuid()),
  restockWaits: pages(fc.tuple(fc.nat(), textKey)),
  postageOptions: pages(fc.uuid()),
  coupons: few(fc.uuid()),
  loginThrottle: pages(textKey),
  auditLog: few(fc.uuid()),
  botSettings: few(fc.uuid()),
  categories: few(fc.uuid()),
  cartItems: few(fc.uuid()),
  orders: few(fc.uuid()),
  orderEvents: few(fc.uuid()),
  orderItems: few(fc.uuid()),
  customerMessages: few(fc.uuid()),
  customerNotes: few(textKey),
  paymentEvents: few(fc.uuid()),
  blockedCustomers: few(textKey),
  botConversations: few(textKey),
  botCustomers: few(textKey),
  dataKeys: few(textKey),
  erasureRequests: few(textKey),
  jobRuns: few(textKey),
  keyChecks: few(textKey),
  ownerSealKeys: few(textKey),
  sessions: few(textKey),
  telegramFileCache: few(textKey),
  uploadTokens: few(textKey),
});
type Shop = typeof shopArbitrary extends fc.Arbitrary<infer T> ? T : never;
type Row = Record<string, string | null>;

/** Pairs of (parent picked by index, key), without the pairs that land on the same parent and key. */
function underParents(parents: string[], pairs: [number, string][]): [string, string][] {
  const unique = new Map<string, [string, string]>();
  if (parents.length === 0) return [];
  for (const [index, key] of pairs) {
    const pair: [string, string] = [parents[index % parents.length]!, key];
    unique.set(JSON.stringify(pair), pair);
  }
  return [...unique.values()];
}

/** Rows for every table of the shop, as the text values the tables take (their constraints kept). */
function shopRows(shop: Shop): Record<string, Row[]> {
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  return {
    // Staff accounts (issue 25): one owner, usernames unique and lower-case; invites and recovery codes under them.
    accounts: shop.accounts.map((id, i) => ({ id, username: `staff${i}`, name: `Staff ${i}`, role: i === 0 ? "owner" : "packer", password_hash: i % 2 ? null : `scrypt$${i}` })),
    account_invites: shop.accountInvites.map((key, i) => ({ token_hash: key, account_id: pick(shop.accounts, i), expires_at: AT })),
    account_recovery_codes: shop.accountRecoveryCodes.map((id, i) => ({ id, account_id: pick(shop.accounts, i), code_hash: `sha256$${i}` })),
    // Staff keys for sealed addresses (docs/decisions/0037): one per account; grants under them, one per
    // owner key, held by the packers only (a restore drops those of a role that does not read addresses).
    account_seal_keys: shop.accounts.map((id, i) => ({ account_id: id, public_key: "pk", wrapped_private_key: "wk", salt: "salt", iterations: "600000", key_id: `staff-key-${i}` })),
    private_address_grants: underParents(
      shop.accounts.slice(1),
      shop.privateAddressGrants.map(([account, key]) => [account, pick(shop.ownerSealKeys, key)] as [number, string]),
    ).map(([account, ownerKey]) => ({ account_id: account, owner_key_id: ownerKey, sealed_private_key: "owner-seal:v1:sealed" })),
    team_settings: [{ id: "1", require_two_factor: "true" }],
    audit_log: shop.auditLog.map((id) => ({ id, action: "product.update", summary: "price 4.50 -> 4.75" })),
    blocked_customers: shop.blockedCustomers.map((key) => ({ telegram_user_id: key })),
    bot_conversations: shop.botConversations.map((key) => ({ telegram_user_id: key, state: '{"step": "address", "n": [1, 2.50]}' })),
    bot_customers: shop.botCustomers.map((key, i) => ({ telegram_user_id: key, telegram_username: i % 2 ? null : `user_${i}` })),
    bot_settings: shop.botSettings.map((id) => ({
      id,
      bot_name: "Lamp & Loaf",
      bot_token: "v1:encrypted",
      accepted_currencies: '["BTC", "LTC"]',
      welcome_message: "Welcome!\n🛍️",
      // Every character JSON escapes, and some it does not: the database's checksum must escape them as JavaScript does.
      faq_content: 'A "quote", a \\, a tab\t, \b\f\n\r, \u0001\u001f\u007f\u2028\u2029 and 😀.',
    })),
    broadcasts: shop.broadcasts.map((id) => ({ id, text: "Sale", audience: '{"kind": "all"}', total: "3" })),
    broadcast_recipients: underParents(shop.broadcasts, shop.broadcastRecipients).map(([broadcast, key]) => ({
      broadcast_id: broadcast,
      telegram_user_id: key,
    })),
    // Every other category is a subcategory of the one before.
    categories: shop.categories.map((id, i) => ({ id, name: `Category ${i}`, parent_id: i % 2 ? shop.categories[i - 1]! : null })),
    products: shop.products.map((id, i) => ({
      id,
      name: `Product ${i}`,
      description: "",
      price: "4.50",
      stock: String(i),
      category_id: pick(shop.categories, i),
      // The photo list (issue 23) as PostgreSQL writes an array: elements with commas, quotes, braces and NULL round-trip.
      image_url: i % 3 === 0 ? null : `/objects/p${i}`,
      image_urls: i % 3 === 0 ? "{}" : `{"/objects/p${i}","a,b \\"q\\" {x}","NULL",""}`,
    })),
    // Beside the default variant each product is born with (its own id, drizzle/0024): sizes with prices, SKUs and switched off.
    product_variants: shop.productVariants
      .filter((id) => !shop.products.includes(id))
      .map((id, i) => ({
        id,
        product_id: pick(shop.products, i),
        option_values: JSON.stringify({ Size: `S${i}`, "Colour \"x\"": "Black, White" }),
        label: `S${i} / Black, White`,
        sku: i % 2 ? null : `SKU-${i}`,
        price: i % 2 ? null : "5.25",
        stock: String(i),
        is_active: i % 3 ? "true" : "false",
        position: String(i),
      })),
    restock_waits: underParents(shop.products, shop.restockWaits).map(([product, key]) => ({ product_id: product, telegram_user_id: key })),
    cart_items: shop.cartItems.map((id, i) => ({ id, telegram_user_id: `user ${i}`, product_id: shop.products[0]!, quantity: "2" })),
    orders: shop.orders.map((id) => ({ id, telegram_user_id: "42", total_amount: "10.00", currency: "GBP" })),
    order_events: shop.orderEvents.map((id, i) => ({ id, order_id: pick(shop.orders, i), actor: "admin", action: "note" })),
    order_items: shop.orderItems.map((id, i) => ({
      id,
      order_id: pick(shop.orders, i),
      product_id: shop.products[0]!,
      quantity: "1",
      price: "4.50",
    })),
    customer_messages: shop.customerMessages.map((id, i) => ({
      id,
      telegram_user_id: "42",
      message: "v1:encrypted",
      is_from_customer: "false",
      order_id: i % 2 ? pick(shop.orders, i) : null,
    })),
    customer_notes: shop.customerNotes.map((key) => ({ telegram_user_id: key, note: "sk1:k:nonce:sealed", updated_at: AT })),
    payment_events: shop.paymentEvents.map((id, i) => ({
      id,
      payment_id: `p${i}`,
      payment_status: "finished",
      dedupe_key: `p${i}:finished`,
      payload: '{"pay_amount": 0.000612345678901234567890, "n": 12345678901234567890}',
    })),
    postage_options: shop.postageOptions.map((id) => ({ id, name: "Post", price: "3.20" })),
    coupons: shop.coupons.map((id, i) => ({ id, code: `CODE-${i}`, kind: i % 2 ? "fixed" : "percent", value: "12.50", min_subtotal: i % 2 ? "20.00" : null })),
    data_keys: shop.dataKeys.map((id, i) => ({ id, wrapped: i === 0 ? "mk1:wrapped" : null, state: i === 0 ? "current" : "retired" })),
    erasure_requests: shop.erasureRequests.map((key) => ({ telegram_user_id: key, requested_at: AT })),
    job_runs: shop.jobRuns.map((key) => ({ name: key, last_run_at: AT })),
    key_check: shop.keyChecks.map((key) => ({ id: key, proof: "kc1:proof", created_at: AT })),
    login_throttle: shop.loginThrottle.map((key, i) => ({ key, failures: String(i), window_started_at: AT })),
    owner_alert_settings: [{ id: "true", chat_id: "-100123" }],
    owner_seal_keys: shop.ownerSealKeys.map((key, i) => ({
      key_id: key,
      public_key: "pk",
      wrapped_private_key: "wk",
      salt: "salt",
      iterations: "600000",
      retired_at: i === 0 ? null : AT,
    })),
    privacy_settings: [{ id: "1", address_retention_days: "30" }],
    // The one row of the payment gateways (issue 24): secrets as the SecretBox writes them, the coin map as jsonb.
    payment_gateway_settings: [
      {
        id: "default",
        btcpay_server_url: "https://btcpay.example.com",
        btcpay_store_id: "Store_1",
        btcpay_api_key: "v1:encrypted",
        btcpay_webhook_secret: "v1:encrypted",
        coin_gateways: '{"BTC": "btcpay", "LTC": "nowpayments"}',
      },
    ],
    sessions: shop.sessions.map((key) => ({ token_hash: key, expires_at: AT })),
    simulator_messages: shop.simulatorMessages.map((id) => ({ message_id: String(id), from_customer: "true", text: "hi" })),
    telegram_file_cache: shop.telegramFileCache.map((key) => ({ image_path: key, file_id: "file" })),
    telegram_updates: shop.telegramUpdates.map((row) => ({
      bot_id: String(row.bot),
      update_id: String(row.update),
      received_at: row.receivedAt,
      payload: row.payload === null ? null : JSON.stringify(row.payload),
    })),
    upload_tokens: shop.uploadTokens.map((key) => ({ token_hash: key, object_id: "object-0001", expires_at: AT })),
  };
}

/** One INSERT per table, every value cast from its text as the column's type. */
async function insertRows(database: Database, table: TableInfo, rows: Row[]): Promise<void> {
  const columns = Object.keys(rows[0]!);
  const values = columns.map((column, i) => sql`(r->>${sql.raw(String(i))})::${sql.raw(table.columns.get(column)!)}`);
  const json = JSON.stringify(rows.map((row) => columns.map((column) => row[column])));
  await database.db.execute(
    sql`insert into ${sql.identifier(table.name)} (${sql.join(
      columns.map((column) => sql.identifier(column)),
      sql`, `,
    )}) select ${sql.join(values, sql`, `)} from json_array_elements(${json}::json) as r`,
  );
}

async function emptyAll(database: Database): Promise<void> {
  await database.db.execute(sql`truncate ${sql.join(shopTables().map((table) => sql.identifier(table.name)), sql`, `)}`);
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

const engines: { name: string; open: () => Promise<Database> }[] = [
  { name: "PGlite", open: () => openPglite(undefined) },
  ...(process.env.TEST_DATABASE_URL ? [{ name: "PostgreSQL", open: createTestDatabase }] : []),
];

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-paging-"));
const storage = createDiskStorage(path.join(tempDir, "objects"));
afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));

describe.each(engines)("backup paging on $name", ({ name, open }) => {
  let source: Database;
  let target: Database;
  beforeAll(async () => {
    [source, target] = await Promise.all([open(), open()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it("every table, keys of every type and length over several pages: restored row for row", { timeout: 300_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(shopArbitrary, async (shop) => {
        await Promise.all([emptyAll(source), emptyAll(target)]);
        const rows = shopRows(shop);
        // Every table the backup writes gets rows, so every one is paged through and compared.
        expect(Object.keys(rows).sort()).toEqual(shopTables().map((table) => table.name).sort());
        for (const table of shopTables()) await insertRows(source, table, rows[table.name]!);

        const file = path.join(tempDir, `${name}-${run++}.backup.gz`);
        const written = await writeBackup({ database: source, storage, out: file, keyId: null, rowsPerBatch: PAGE });
        // Plus the default variant each product was born with (drizzle/0024's trigger).
        const total = Object.values(rows).reduce((sum, list) => sum + list.length, 0) + rows.products!.length;
        expect(written.rows).toBe(total);
        const restored = await restoreBackup({ database: target, storage, file, force: false });
        expect(restored.rows).toBe(total);
        expect(await contents(target)).toEqual(await contents(source));
        fs.rmSync(file);
      }),
      // No shrinking: each run takes a second or two, and the first failure already names the table and the rows it lost.
      { seed: 20, numRuns: 5, endOnFailure: true },
    );
  });

  it("a read that skips one row and reads another twice fails the backup, though the count is right", { timeout: 120_000 }, async () => {
    await emptyAll(source);
    const table = shopTables().find((candidate) => candidate.name === "telegram_updates")!;
    await source.db.execute(sql`insert into telegram_updates (bot_id, update_id) select 5, n from generate_series(1, 20) as n`);
    // The second page comes back with the first page's last row in place of its own first row:
    // what the text-ordered pages did, where a skipped row and a doubled one cancel out in the count.
    const pagesRead: Record<string, unknown>[][] = [];
    const faulty = {
      execute: (async (query: Parameters<Database["db"]["execute"]>[0]) => {
        const rows = await queryRows<Record<string, unknown>>(source.db, query);
        if (rows.length > 0 && "update_id" in rows[0]!) {
          pagesRead.push(rows);
          if (pagesRead.length === 2) rows[0] = { ...pagesRead[0]!.at(-1)! };
        }
        return { rows };
      }) as unknown as Database["db"]["execute"],
    };
    const records: BackupRecord[] = [];
    const writer = { write: async (record: BackupRecord) => void records.push(record), finish: async () => {}, abort: async () => {} };

    await expect(writeTable(writer, faulty, table, PAGE)).rejects.toThrow("telegram_updates: the 20 rows read do not match the table's checksum");
    expect(records.some((record) => record.type === "table-end")).toBe(false);

    // The same table read right: its end-of-table record carries the count and the checksum.
    records.length = 0;
    await expect(writeTable(writer, source.db, table, PAGE)).resolves.toBe(20);
    expect(records.at(-1)).toEqual({ type: "table-end", name: "telegram_updates", count: 20, checksum: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });
});
