import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, isNotNull, sql } from "drizzle-orm";
import fc from "fast-check";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { seedDemo } from "../../../scripts/demo-data";
import { writeBackup } from "../../backup/backup";
import { restoreBackup } from "../../backup/restore";
import { shopTables } from "../../backup/tables";
import { createSecretBox, type SecretBox } from "../../crypto";
import type { Database, Db } from "../../db/client";
import { queryRows } from "../../db/rows";
import { accountRecoveryCodes, accounts, botSettings, customerMessages, dataKeys, keyCheck, orders, paymentGatewaySettings, sessions } from "../../db/schema";
import { createDiskStorage } from "../../storage";
import { setTestAdminPassword, TEST_STAFF_PASSWORD } from "../../../test-support/admin-password";
import { startTestServer, TEST_PASSWORD } from "../../../test-support/app";
import { createTestDatabase, TEST_MASTER_KEY } from "../../../test-support/database";
import { revealAddress } from "../vaults";
import { ENCRYPTED_SECRETS, replaceStoredValue, storedValuesOf } from "./encrypted-secrets";
import { forgetSecretsOfAnotherKey, whatForgettingLoses } from "./forget-secrets";
import { keyMatches, keyOpensStoredData, requireMatchingKey, WrongSecretKeyError } from "./key-check";
import { revealMessages, UNREADABLE_MESSAGE } from "../vaults/message-vault";
import { coinsOnOffer } from "../ordering";
import {
  createBotSettings,
  getBotSettings,
  getPaymentGatewaySettings,
  saveNowpaymentsKeys,
  savePaymentGatewaySettings,
  updatePaymentGateways,
} from "../settings";
import { saveBtcpayWebhook } from "../settings/payment-gateways";
import { getCustomerNote, saveCustomerNote } from "../customers";
import { beginTwoFactorSetup, findOwner, RECOVERY_CODE_COUNT } from "../team";
import { currentKey, forgetUnwrappedKeys, useMasterKey } from "../vaults/vault";

// The check that the master key is the one of the shop's data (docs/SECURITY.md "The secret key"), the
// way out when it is lost (secrets:forget), the list of every encrypted secret both go by, and a stored
// secret that does not decrypt being reported.
// The server process refusing to start is in server/main.test.ts.

const RIGHT = TEST_MASTER_KEY;
const OTHER = Buffer.alloc(32, 8);
const NOW = new Date("2026-11-20T12:00:00.000Z");
const SETTINGS = {
  botName: "Lamp shop",
  botToken: "123456789:AAE-the-bot-token",
  acceptedCurrencies: ["BTC" as const],
  welcomeMessage: "Hello",
  faqContent: "FAQ",
  nowpaymentsApiKey: "NP-API-KEY-1234",
  nowpaymentsIpnSecret: "the ipn secret",
  webhookUrl: null,
};

// One database for the file (a new one costs seconds), emptied before each test; a second one to restore into.
let shared: Database;
const tempDirs: string[] = [];
beforeAll(async () => {
  shared = await createTestDatabase();
});
afterEach(() => {
  // As a new process would: the right key, nothing unwrapped yet.
  forgetUnwrappedKeys();
  useMasterKey(RIGHT);
});
afterAll(async () => {
  await shared.close();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The shared database with no row in any table. */
async function freshDatabase(): Promise<Database> {
  await shared.db.execute(sql`truncate ${sql.join(shopTables().map((table) => sql.identifier(table.name)), sql`, `)}`);
  return shared;
}

const storedCheck = async (database: Database) => database.db.select().from(keyCheck);

const NOTHING_LOST = { secrets: 0, lost: [], dataKeys: 0, addresses: 0, messages: 0, drafts: 0, notes: 0 };

/** How the report names a lost secret of ENCRYPTED_SECRETS. */
function lostSecret(name: string, count: number, accounts: string[] = []) {
  const secret = ENCRYPTED_SECRETS.find((candidate) => candidate.name === name)!;
  return { name, what: secret.what, whenForgotten: secret.whenForgotten, count, accounts };
}

describe("the key check", () => {
  it("is written at the first start; the same key starts again, any other key is refused and writes nothing", async () => {
    const { db } = await freshDatabase();
    expect(await requireMatchingKey(db, RIGHT)).toEqual({ written: true });
    const [check] = await db.select().from(keyCheck);
    // It names the key without holding it.
    expect(check!.proof).toMatch(/^kc1:[A-Za-z0-9_-]{43}$/);
    expect(check!.proof).not.toContain(RIGHT.toString("base64url"));
    expect(await requireMatchingKey(db, RIGHT)).toEqual({ written: false });

    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (bytes) => {
        const key = Buffer.from(bytes);
        fc.pre(!key.equals(RIGHT));
        await expect(requireMatchingKey(db, key)).rejects.toThrow(WrongSecretKeyError);
      }),
      { numRuns: 40 },
    );
    // One bit off is another key too.
    const flipped = Buffer.from(RIGHT);
    flipped[31]! ^= 1;
    await expect(requireMatchingKey(db, flipped)).rejects.toThrow(/does not open this shop's data[\s\S]*npm run secrets:forget/);
    expect(await db.select().from(keyCheck)).toEqual([check]);
  });

  it("on a shop from before the check, judges the key by the secrets and data keys already stored", async () => {
    // Bot secrets only.
    const withSecrets = await freshDatabase();
    await createBotSettings(withSecrets.db, createSecretBox(RIGHT), SETTINGS);
    await expect(requireMatchingKey(withSecrets.db, OTHER)).rejects.toThrow(WrongSecretKeyError);
    expect(await storedCheck(withSecrets)).toEqual([]);
    expect(await requireMatchingKey(withSecrets.db, RIGHT)).toEqual({ written: true });
    await expect(requireMatchingKey(withSecrets.db, OTHER)).rejects.toThrow(WrongSecretKeyError);

    // Data keys only (what customers typed), no bot settings.
    const withData = await freshDatabase();
    await seedDemo(withData.db, NOW);
    expect((await withData.db.select().from(dataKeys).where(isNotNull(dataKeys.wrapped))).length).toBe(1);
    await expect(requireMatchingKey(withData.db, OTHER)).rejects.toThrow(WrongSecretKeyError);
    expect(await storedCheck(withData)).toEqual([]);
    expect(await requireMatchingKey(withData.db, RIGHT)).toEqual({ written: true });

    // One value that opens is enough: a damaged secret beside it is damage, not a wrong key.
    const damaged = await freshDatabase();
    await createBotSettings(damaged.db, createSecretBox(RIGHT), SETTINGS);
    await damaged.db.update(botSettings).set({ botToken: "enc:v1:AAAA:BBBB:CCCC" });
    expect(await requireMatchingKey(damaged.db, RIGHT)).toEqual({ written: true });

    // Nothing encrypted yet (a token from before encryption is in clear): any key is the shop's key.
    const clear = await freshDatabase();
    await clear.db.insert(botSettings).values({ ...SETTINGS, botToken: "123:in-clear" });
    expect(await requireMatchingKey(clear.db, OTHER)).toEqual({ written: true });
    await expect(requireMatchingKey(clear.db, RIGHT)).rejects.toThrow(WrongSecretKeyError);
  });

  it("lets one key win when several first starts race with different keys", async () => {
    const { db } = await freshDatabase();
    const keys = [RIGHT, OTHER, RIGHT, OTHER, RIGHT, OTHER];
    const results = await Promise.allSettled(keys.map((key) => requireMatchingKey(db, key)));
    const won = keys.filter((_, index) => results[index]!.status === "fulfilled");
    const lost = results.filter((result) => result.status === "rejected");
    expect(won.length).toBe(3);
    expect(new Set(won.map((key) => key.toString("hex"))).size).toBe(1);
    for (const result of lost) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(WrongSecretKeyError);
    expect(await db.select().from(keyCheck)).toHaveLength(1);
  });

  it("travels in the backup: the restored shop opens with its key and refuses another", async () => {
    const source = await freshDatabase();
    await seedDemo(source.db, NOW);
    await createBotSettings(source.db, createSecretBox(RIGHT), SETTINGS);
    await requireMatchingKey(source.db, RIGHT);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-key-check-"));
    tempDirs.push(dir);
    const file = path.join(dir, "shop.backup.gz");
    await writeBackup({ database: source, storage: createDiskStorage(path.join(dir, "from")), out: file, keyId: null });

    const target = await createTestDatabase();
    onTestFinished(() => target.close());
    await restoreBackup({ database: target, storage: createDiskStorage(path.join(dir, "to")), file, force: false });
    expect(await storedCheck(target)).toEqual(await storedCheck(source));
    await expect(requireMatchingKey(target.db, OTHER)).rejects.toThrow(WrongSecretKeyError);
    expect(await requireMatchingKey(target.db, RIGHT)).toEqual({ written: false });
  });
});

describe("secrets:forget (forgetSecretsOfAnotherKey)", () => {
  it("forgets what the key in use cannot open, says what is lost first, and the shop then starts with that key", async () => {
    const database = await freshDatabase();
    const { db } = database;
    await seedDemo(db, NOW);
    await createBotSettings(db, createSecretBox(RIGHT), SETTINGS);
    await requireMatchingKey(db, RIGHT);
    const addresses = (await db.select({ n: orders.id }).from(orders).where(isNotNull(orders.address))).length;
    const messages = (await db.select({ id: customerMessages.id }).from(customerMessages)).length;
    expect(addresses).toBeGreaterThan(0);
    const [noted] = await db.select({ telegramUserId: orders.telegramUserId }).from(orders).limit(1);
    await saveCustomerNote(db, noted!.telegramUserId, "Regular customer", NOW);

    // With the right key there is nothing to lose.
    expect(await keyMatches(db, RIGHT)).toBe(true);
    expect(await whatForgettingLoses(db, RIGHT)).toEqual(NOTHING_LOST);

    // Asking changes nothing.
    expect(await keyMatches(db, OTHER)).toBe(false);
    const expected = {
      secrets: 3,
      lost: ["bot_settings.bot_token", "bot_settings.nowpayments_api_key", "bot_settings.nowpayments_ipn_secret"].map((name) => lostSecret(name, 1)),
      dataKeys: 1,
      addresses,
      messages,
      drafts: 0,
      notes: 1,
    };
    expect(await whatForgettingLoses(db, OTHER)).toEqual(expected);
    await expect(requireMatchingKey(db, OTHER)).rejects.toThrow(WrongSecretKeyError);

    expect(await forgetSecretsOfAnotherKey(db, OTHER)).toEqual(expected);
    await expect(requireMatchingKey(db, RIGHT)).rejects.toThrow(WrongSecretKeyError);
    expect(await requireMatchingKey(db, OTHER)).toEqual({ written: false });

    // The process that starts with the key in use: secrets not set, the rest of the settings kept.
    forgetUnwrappedKeys();
    useMasterKey(OTHER);
    const settings = await getBotSettings(db, createSecretBox(OTHER));
    expect(settings).toMatchObject({ botName: "Lamp shop", botToken: "", nowpaymentsApiKey: null, nowpaymentsIpnSecret: null });
    const [order] = await db.select({ id: orders.id, address: orders.address }).from(orders).where(isNotNull(orders.address)).limit(1);
    expect(await revealAddress(db, order!)).toEqual({ kind: "unreadable" });
    const [message] = await db.select({ id: customerMessages.id, message: customerMessages.message }).from(customerMessages).limit(1);
    expect(await revealMessages(db, [message!])).toEqual([UNREADABLE_MESSAGE]);
    expect(await getCustomerNote(db, noted!.telegramUserId)).toMatchObject({ note: "", unreadable: true });
    // The lost data key is retired, its wrapped copy gone; new values go under a new key this one wraps.
    const keys = await db.select().from(dataKeys);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ state: "retired", wrapped: null });
    const fresh = await currentKey(db);
    expect(fresh.id).not.toBe(keys[0]!.id);
    expect(await whatForgettingLoses(db, OTHER)).toEqual(NOTHING_LOST);
  });
});

describe("secrets:forget and BTCPay Server's secrets (issue 24)", () => {
  it("forgets the API key and webhook secret the key cannot open, and the webhook with its secret", async () => {
    const { db } = await freshDatabase();
    await createBotSettings(db, createSecretBox(RIGHT), SETTINGS);
    await requireMatchingKey(db, RIGHT);
    await savePaymentGatewaySettings(db, createSecretBox(RIGHT), {
      btcpay: { serverUrl: "https://btcpay.example", storeId: "Store1", apiKey: "btcpay-key-0123456789", webhookId: "Hook1", webhookUrl: "https://shop.example/api/payments/btcpay/webhook", webhookSecret: "hook-secret-0123456789" },
      coins: { BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" },
    });
    expect((await whatForgettingLoses(db, RIGHT)).secrets).toBe(0);
    expect((await whatForgettingLoses(db, OTHER)).secrets).toBe(5);
    expect((await forgetSecretsOfAnotherKey(db, OTHER)).secrets).toBe(5);
    expect(await getPaymentGatewaySettings(db, createSecretBox(OTHER))).toEqual({
      btcpay: { serverUrl: "https://btcpay.example", storeId: "Store1", apiKey: null, webhookId: null, webhookUrl: null, webhookSecret: null },
      coins: { BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" },
    });
  });
});

describe("a stored secret that does not decrypt", () => {
  it("reads as not set and is logged once with its field and reason, never its value", async () => {
    const { db } = await freshDatabase();
    const logged: { details: Record<string, unknown>; message: string }[] = [];
    const box = createSecretBox(RIGHT, { log: { error: (details, message) => logged.push({ details, message }) } });
    const saved = await createBotSettings(db, box, SETTINGS);
    const [row] = await db.select().from(botSettings);
    // One character of the ciphertext changed; the IPN secret cut short.
    const tampered = row!.botToken.slice(0, -2) + (row!.botToken.endsWith("A") ? "BB" : "AA");
    const cut = row!.nowpaymentsIpnSecret!.split(":").slice(0, 3).join(":");
    await db.update(botSettings).set({ botToken: tampered, nowpaymentsIpnSecret: cut }).where(eq(botSettings.id, saved.id));

    for (let read = 0; read < 3; read++) {
      expect(await getBotSettings(db, box)).toMatchObject({ botToken: "", nowpaymentsApiKey: "NP-API-KEY-1234", nowpaymentsIpnSecret: null });
    }
    expect(logged.map((entry) => entry.details)).toEqual([
      { field: "botToken", reason: "authentication failed" },
      { field: "nowpaymentsIpnSecret", reason: "malformed" },
    ]);
    expect(logged[0]!.message).toMatch(/^The stored botToken could not be decrypted \(authentication failed\): it counts as not set/);
    const text = JSON.stringify(logged);
    for (const secret of [tampered, cut, SETTINGS.botToken, SETTINGS.nowpaymentsIpnSecret, "AAE-the-bot-token"]) expect(text).not.toContain(secret);

    // Saved again, it reads again.
    await db.update(botSettings).set({ botToken: box.encrypt("123456789:AAE-new-token") });
    expect((await getBotSettings(db, box))?.botToken).toBe("123456789:AAE-new-token");
    expect(logged).toHaveLength(2);
  });
});

// Every secret the secret box writes is in ENCRYPTED_SECRETS (encrypted-secrets.ts): the key check,
// secrets:forget and keys:rotate cover the list, so a column missing from it would be left behind.

/** The files that encrypt with the secret box, and so write the columns of ENCRYPTED_SECRETS. */
const SECRET_WRITERS = [
  "server/shop/privacy/key-rotation.ts",
  "server/shop/settings/payment-gateways.ts",
  "server/shop/settings/settings.ts",
  "server/shop/team/two-factor.ts",
];

/** A secret box that keeps what it encrypted. */
function recordingBox(master: Buffer) {
  const box = createSecretBox(master);
  const written: string[] = [];
  return {
    written,
    box: {
      ...box,
      encrypt(plain: string) {
        const stored = box.encrypt(plain);
        written.push(stored);
        return stored;
      },
    } satisfies SecretBox,
  };
}

/** Every secret the shop stores, each written as the shop writes it (SECRET_WRITERS); answers the owner's id. */
async function storeEverySecret(db: Db, box: SecretBox): Promise<string> {
  const settings = await createBotSettings(db, box, SETTINGS);
  await saveNowpaymentsKeys(db, box, settings.id, { nowpaymentsApiKey: "NP-API-KEY-5678", nowpaymentsIpnSecret: "another ipn secret" });
  await savePaymentGatewaySettings(db, box, {
    btcpay: { serverUrl: "https://btcpay.example", storeId: "Store1", apiKey: "btcpay-key-0123456789", webhookId: null, webhookUrl: null, webhookSecret: null },
    coins: { BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" },
  });
  await saveBtcpayWebhook(db, box, { serverUrl: "https://btcpay.example", storeId: "Store1" }, { id: "Hook1", url: "https://shop.example/api/payments/btcpay/webhook", secret: "hook-secret-0123456789" });
  await setTestAdminPassword(db, TEST_PASSWORD);
  const owner = (await findOwner(db))!;
  await beginTwoFactorSetup(db, box, owner.id);
  await db.update(accounts).set({ totpEnabled: true }).where(eq(accounts.id, owner.id));
  return owner.id;
}

/** Every table.column of the database holding a value of the secret box ("enc:v1:..."). */
async function columnsHoldingSecrets(db: Db): Promise<string[]> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select table_name, column_name from information_schema.columns where table_schema = current_schema() order by table_name, column_name`,
  );
  const found: string[] = [];
  for (const table of new Set(columns.map((column) => column.table_name))) {
    const [any] = await queryRows<{ one: number }>(db, sql`select 1 as one from ${sql.identifier(table)} t where t::text like '%enc:v1:%' limit 1`);
    if (!any) continue;
    for (const { column_name } of columns.filter((column) => column.table_name === table)) {
      const [holds] = await queryRows<{ one: number }>(
        db,
        sql`select 1 as one from ${sql.identifier(table)} where ${sql.identifier(column_name)}::text like '%enc:v1:%' limit 1`,
      );
      if (holds) found.push(`${table}.${column_name}`);
    }
  }
  return found.sort();
}

describe("ENCRYPTED_SECRETS, the list of every encrypted secret", () => {
  it("names every column the secret box writes", async () => {
    // A file that starts encrypting with the secret box must write a column of the list, and join this test.
    const root = path.resolve(import.meta.dirname, "../../..");
    const encrypting = ["server", "scripts"]
      .flatMap((folder) => fs.readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" }).map((file) => path.join(folder, file)))
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => /\.encrypt\(/.test(fs.readFileSync(path.join(root, file), "utf8")))
      .filter((file) => file !== path.join("server", "crypto.ts"))
      .map((file) => file.split(path.sep).join("/"))
      .sort();
    expect(encrypting, "a new writer of the secret box: add its columns to ENCRYPTED_SECRETS and to storeEverySecret").toEqual(SECRET_WRITERS);

    // What they write lands in the list's columns, and nowhere else.
    const { db } = await freshDatabase();
    await seedDemo(db, NOW);
    const { box, written } = recordingBox(RIGHT);
    await storeEverySecret(db, box);
    const listed = ENCRYPTED_SECRETS.map((secret) => secret.name).sort();
    expect(new Set(listed).size).toBe(listed.length);
    expect(await columnsHoldingSecrets(db)).toEqual(listed);
    const stored = new Set<string>();
    for (const secret of ENCRYPTED_SECRETS) for (const value of await storedValuesOf(db, secret)) stored.add(value.stored);
    // Those overwritten since (the first NOWPayments keys, the webhook's first save) are gone; the rest is in the list's columns.
    expect(written.filter((value) => stored.has(value)).length).toBe(stored.size);
    expect([...stored].every((value) => value.startsWith("enc:v1:"))).toBe(true);
  });

  it("lets the key check refuse a wrong key whichever secret is the only one encrypted", async () => {
    for (const only of ENCRYPTED_SECRETS) {
      const database = await freshDatabase();
      await storeEverySecret(database.db, createSecretBox(RIGHT));
      // The others as they were before encryption existed (in clear): they tell nothing of the key.
      for (const other of ENCRYPTED_SECRETS.filter((secret) => secret !== only)) {
        for (const { rowId } of await storedValuesOf(database.db, other)) await replaceStoredValue(database.db, other, rowId, "in clear");
      }
      expect(await keyOpensStoredData(database.db, OTHER), only.name).toBe(false);
      await expect(requireMatchingKey(database.db, OTHER), only.name).rejects.toThrow(WrongSecretKeyError);
      expect(await keyMatches(database.db, OTHER)).toBe(false);
      expect(await storedCheck(database)).toEqual([]);
      expect(await requireMatchingKey(database.db, RIGHT), only.name).toEqual({ written: true });
    }
  });
});

describe("secrets:forget with two-factor accounts and BTCPay Server", () => {
  it("turns two-factor off for whoever had it, so they sign in with their password; BTCPay waits for its key; nothing else changes", { timeout: 60_000 }, async () => {
    const database = await freshDatabase();
    const { db } = database;
    await seedDemo(db, NOW);
    await createBotSettings(db, createSecretBox(RIGHT), SETTINGS);
    await savePaymentGatewaySettings(db, createSecretBox(RIGHT), {
      btcpay: { serverUrl: "https://btcpay.example", storeId: "Store1", apiKey: "btcpay-key-0123456789", webhookId: "Hook1", webhookUrl: "https://shop.example/api/payments/btcpay/webhook", webhookSecret: "hook-secret-0123456789" },
      coins: { BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" },
    });
    await requireMatchingKey(db, RIGHT);

    // The shop as it ran with its key: the owner and a manager set two-factor up, a support account
    // began and did not finish, a packer has none.
    const before = await startTestServer({ database, deps: { secrets: createSecretBox(RIGHT) } });
    const setUpTwoFactor = async (cookie: string) => {
      const setup = (await (await before.request("POST", "/api/auth/totp/setup", { cookie })).json()) as { secret: string };
      const verified = await before.request("POST", "/api/auth/totp/verify", { cookie, body: { code: codeNow(setup.secret) } });
      expect(verified.status).toBe(200);
    };
    let owner: string, manager: string, support: string, packer: string;
    try {
      await setUpTwoFactor(await before.login());
      const alice = await before.loginAs("manager", "alice");
      await setUpTwoFactor(alice.cookie);
      const carol = await before.loginAs("support", "carol");
      expect((await before.request("POST", "/api/auth/totp/setup", { cookie: carol.cookie })).status).toBe(200);
      const bob = await before.loginAs("packer", "bob");
      [owner, manager, support, packer] = [(await findOwner(db))!.id, alice.accountId, carol.accountId, bob.accountId];
      // Two-factor is on: the password alone does not sign in.
      const refused = await before.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ totpRequired: true });
    } finally {
      await before.close();
    }
    expect(await db.select({ id: accountRecoveryCodes.id }).from(accountRecoveryCodes)).toHaveLength(2 * RECOVERY_CODE_COUNT);
    const tablesBefore = await everyTable(db);
    const accountsBefore = await db.select().from(accounts).orderBy(accounts.username);
    const sessionsBefore = await db.select().from(sessions);
    const settingsBefore = await db.select().from(botSettings);
    const gatewaysBefore = await db.select().from(paymentGatewaySettings);

    // The key is lost. Asked first: what would go, who has to set two-factor up again.
    const expected = {
      secrets: 8,
      lost: [
        lostSecret("bot_settings.bot_token", 1),
        lostSecret("bot_settings.nowpayments_api_key", 1),
        lostSecret("bot_settings.nowpayments_ipn_secret", 1),
        lostSecret("payment_gateway_settings.btcpay_api_key", 1),
        lostSecret("payment_gateway_settings.btcpay_webhook_secret", 1),
        lostSecret("accounts.totp_secret", 3, ["alice", "owner"]),
      ],
      dataKeys: 1,
    };
    expect(await whatForgettingLoses(db, OTHER)).toMatchObject(expected);
    expect(await everyTable(db)).toEqual(tablesBefore);
    // Forgetting twice at once (two operators, a retried command): one forgets, the other finds nothing left.
    const reports = await Promise.all([forgetSecretsOfAnotherKey(db, OTHER), forgetSecretsOfAnotherKey(db, OTHER)]);
    const [forgot, second] = reports[0].secrets > 0 ? reports : [reports[1], reports[0]];
    expect(forgot).toMatchObject(expected);
    expect(second).toEqual(NOTHING_LOST);

    // Two-factor off for the owner and the manager, their recovery codes and sessions gone; the support
    // account's setup dropped; the packer untouched.
    const accountsAfter = await db.select().from(accounts).orderBy(accounts.username);
    const off = { totpEnabled: false, totpSecret: null, totpLastStep: null, updatedAt: expect.any(Date) };
    expect(accountsAfter).toEqual(
      accountsBefore.map((account) => ([owner, manager, support].includes(account.id) ? { ...account, ...off } : account)),
    );
    expect(await db.select().from(accountRecoveryCodes)).toEqual([]);
    expect((await db.select().from(sessions)).sort(byId)).toEqual(
      sessionsBefore.filter((session) => session.accountId !== owner && session.accountId !== manager).sort(byId),
    );
    expect(sessionsBefore.some((session) => session.accountId === packer)).toBe(true);
    // The secrets emptied, the rest of their rows kept; BTCPay's webhook goes with its secret.
    expect(await db.select().from(botSettings)).toEqual(
      settingsBefore.map((row) => ({ ...row, botToken: "", nowpaymentsApiKey: null, nowpaymentsIpnSecret: null, updatedAt: expect.any(Date) })),
    );
    expect(await db.select().from(paymentGatewaySettings)).toEqual(
      gatewaysBefore.map((row) => ({ ...row, btcpayApiKey: null, btcpayWebhookSecret: null, btcpayWebhookId: null, btcpayWebhookUrl: null, updatedAt: expect.any(Date) })),
    );
    // Every other table as it was (the data keys and the key check change as in the test above).
    const changed = ["accounts", "account_recovery_codes", "sessions", "bot_settings", "payment_gateway_settings", "data_keys", "key_check"];
    const tablesAfter = await everyTable(db);
    for (const table of Object.keys(tablesBefore).filter((name) => !changed.includes(name))) expect(tablesAfter[table], table).toEqual(tablesBefore[table]);

    // The shop starts again with the key in use.
    forgetUnwrappedKeys();
    useMasterKey(OTHER);
    const secrets = createSecretBox(OTHER);
    const after = await startTestServer({ database, deps: { secrets } });
    try {
      // The owner and the manager sign in with their password alone, and see two-factor off.
      const signedIn = await after.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
      expect(signedIn.status).toBe(200);
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
      expect(await (await after.request("GET", "/api/auth/totp", { cookie })).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
      expect((await after.request("POST", "/api/auth/login", { body: { username: "alice", password: TEST_STAFF_PASSWORD } })).status).toBe(200);

      // BTCPay Server keeps its address and store and waits for its key: its coin is not offered meanwhile.
      const gateways = (await (await after.request("GET", "/api/payment-gateways", { cookie })).json()) as Record<string, Record<string, unknown>>;
      expect(gateways.btcpay).toMatchObject({ serverUrl: "https://btcpay.example", storeId: "Store1", apiKey: null, webhookSecret: null });
      expect(gateways.btcpay!.webhook).toMatchObject({ id: null });
      expect(gateways.coins).toEqual({ BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" });
      const bot = await getBotSettings(db, secrets);
      expect(await coinsOnOffer({ db, secrets }, { ...bot!, acceptedCurrencies: ["BTC", "LTC"] })).toEqual(["LTC"]);
      await updatePaymentGateways({ db, secrets }, { btcpay: { apiKey: "btcpay-key-typed-again" } }, async () => null);
      expect(await coinsOnOffer({ db, secrets }, { ...bot!, acceptedCurrencies: ["BTC", "LTC"] })).toEqual(["BTC", "LTC"]);

      // Two-factor is set up again under the key in use, and asked at the next sign-in.
      const setup = (await (await after.request("POST", "/api/auth/totp/setup", { cookie })).json()) as { secret: string };
      expect((await after.request("POST", "/api/auth/totp/verify", { cookie, body: { code: codeNow(setup.secret) } })).status).toBe(200);
      expect((await after.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } })).status).toBe(401);
      expect(await whatForgettingLoses(db, OTHER)).toEqual(NOTHING_LOST);
    } finally {
      await after.close();
    }
  });
});

/** The code an authenticator app shows now for a secret (base32). */
const codeNow = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();

const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

/** Every table's rows as text, sorted: two snapshots are equal when nothing changed. */
async function everyTable(db: Db): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of shopTables()) {
    const rows = await queryRows<{ row: string }>(db, sql`select t::text as row from ${sql.identifier(table.name)} t order by 1`);
    snapshot[table.name] = rows.map((row) => row.row);
  }
  return snapshot;
}
