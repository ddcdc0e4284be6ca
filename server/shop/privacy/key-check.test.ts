import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, isNotNull, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { seedDemo } from "../../../scripts/demo-data";
import { writeBackup } from "../../backup/backup";
import { restoreBackup } from "../../backup/restore";
import { shopTables } from "../../backup/tables";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { botSettings, customerMessages, dataKeys, keyCheck, orders } from "../../db/schema";
import { createDiskStorage } from "../../storage";
import { createTestDatabase, TEST_MASTER_KEY } from "../../../test-support/database";
import { revealAddress } from "../vaults";
import { forgetSecretsOfAnotherKey, whatForgettingLoses } from "./forget-secrets";
import { keyMatches, requireMatchingKey, WrongSecretKeyError } from "./key-check";
import { revealMessages, UNREADABLE_MESSAGE } from "../vaults/message-vault";
import { createBotSettings, getBotSettings, getPaymentGatewaySettings, savePaymentGatewaySettings } from "../settings";
import { getCustomerNote, saveCustomerNote } from "../customers";
import { currentKey, forgetUnwrappedKeys, useMasterKey } from "../vaults/vault";

// The check that the master key is the one of the shop's data (docs/SECURITY.md "The secret key"), the
// way out when it is lost (secrets:forget), and a stored secret that does not decrypt being reported.
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
    expect(await whatForgettingLoses(db, RIGHT)).toEqual({ secrets: 0, dataKeys: 0, addresses: 0, messages: 0, drafts: 0, notes: 0 });

    // Asking changes nothing.
    expect(await keyMatches(db, OTHER)).toBe(false);
    const expected = { secrets: 3, dataKeys: 1, addresses, messages, drafts: 0, notes: 1 };
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
    expect(await whatForgettingLoses(db, OTHER)).toEqual({ secrets: 0, dataKeys: 0, addresses: 0, messages: 0, drafts: 0, notes: 0 });
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
