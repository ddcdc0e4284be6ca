import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSecretBox, loadSecretKey } from "../server/crypto";
import { openPglite } from "../server/db/client";
import { isNotNull } from "drizzle-orm";
import { accounts, dataKeys } from "../server/db/schema";
import { keyMatches } from "../server/shop/privacy";
import { listMessagesMatching } from "../server/shop/customers";
import { listOrdersMatching } from "../server/shop/orders";
import { createBotSettings, getBotSettings, getPaymentGatewaySettings, savePaymentGatewaySettings } from "../server/shop/settings";
import { forgetUnwrappedKeys, useMasterKey } from "../server/shop/vaults/vault";
import { bundled, type BundledEntry } from "../test-support/bundles";
import { migratedDataDir } from "../test-support/data-dir-template";

// `npm run keys:rotate` as an operator runs it (bundled once per run, test-support/bundles.ts), on a real
// DATA_DIR (docs/decisions/0024-encryption-at-rest.md).

const ROOT = path.resolve(import.meta.dirname, "..");
// Starts from the run's migrated database (test-support/data-dir-template.ts): initdb and the migrations are not under test here.
const dataDir = migratedDataDir("shop-keys-rotate-");
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(script: BundledEntry, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bundled(script), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** What the owner would see: every address and message, decrypted with `master`, and the bot token. */
async function readEverything(master: Buffer) {
  forgetUnwrappedKeys();
  useMasterKey(master);
  const database = await openPglite(dataDir);
  try {
    const orders = await listOrdersMatching(database.db, { sort: "newest" });
    const messages = await listMessagesMatching(database.db, { sort: "newest" });
    const keys = await database.db.select().from(dataKeys);
    const settings = await getBotSettings(database.db, createSecretBox(master));
    const gateways = await getPaymentGatewaySettings(database.db, createSecretBox(master));
    return {
      btcpay: [gateways.btcpay.apiKey, gateways.btcpay.webhookSecret],
      addresses: orders.map((order) => order.shippingAddress?.postcode ?? null).sort(),
      messages: messages.map((message) => message.message).sort(),
      keys,
      botToken: settings?.botToken ?? null,
      totpSecrets: (await database.db.select({ secret: accounts.totpSecret }).from(accounts).where(isNotNull(accounts.totpSecret))).map((row) =>
        createSecretBox(master).decrypt(row.secret!),
      ),
    };
  } finally {
    await database.close();
  }
}

describe("npm run keys:rotate", () => {
  it("re-encrypts everything under a new data key, then under a new master key, keeping all readable", { timeout: 240_000 }, async () => {
    expect((await run("scripts/seed-demo.ts", [])).code).toBe(0);
    const oldMaster = loadSecretKey(undefined, dataDir);
    useMasterKey(oldMaster);
    const database = await openPglite(dataDir);
    await createBotSettings(database.db, createSecretBox(oldMaster), {
      botName: "Shop",
      botToken: "123:rotate-me",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Hi",
      faqContent: "FAQ",
      nowpaymentsApiKey: null,
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
    });
    // BTCPay Server's secrets (issue 24) move with the bot's.
    await savePaymentGatewaySettings(database.db, createSecretBox(oldMaster), {
      btcpay: { serverUrl: "https://btcpay.example.com", storeId: "Store1", apiKey: "btcpay-key-rotate-me", webhookId: "Hook1", webhookUrl: null, webhookSecret: "btcpay-hook-secret" },
      coins: { BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" },
    });
    // An account's two-factor secret (issue 25) moves with them too.
    await database.db.insert(accounts).values({
      username: "two-factor",
      name: "Two-factor",
      role: "manager",
      totpSecret: createSecretBox(oldMaster).encrypt("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"),
      totpEnabled: true,
    });
    await database.close();
    const before = await readEverything(oldMaster);
    expect(before.addresses.filter((postcode) => postcode !== null).length).toBeGreaterThan(0);
    expect(before.messages.length).toBeGreaterThan(0);
    expect(before.messages.some((text) => text.startsWith("sk1:") || text.startsWith("("))).toBe(false);

    const rotated = await run("scripts/keys-rotate.ts", []);
    expect(rotated.stderr).toBe("");
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/Done: data key [0-9a-f]{12} is current; [0-9a-f]{12} retired \(deleted\)\./);
    const after = await readEverything(oldMaster);
    expect(after.addresses).toEqual(before.addresses);
    expect(after.messages).toEqual(before.messages);
    expect(after.keys.filter((key) => key.wrapped !== null)).toHaveLength(1);

    const refused = await run("scripts/keys-rotate.ts", ["--new-secret-key"], { NEW_SECRET_KEY: "short" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/NEW_SECRET_KEY \(at least 16 characters\); nothing was changed/);

    const moved = await run("scripts/keys-rotate.ts", ["--new-secret-key"], { NEW_SECRET_KEY: "a brand new master key for the shop" });
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/Wrapped 1 data key\(s\) and 4 secret\(s\) of the bot, the payment gateways and two-factor sign-in under the new master key/);
    const newMaster = loadSecretKey("a brand new master key for the shop", dataDir);
    const underNew = await readEverything(newMaster);
    expect(underNew.addresses).toEqual(before.addresses);
    expect(underNew.messages).toEqual(before.messages);
    expect(underNew.botToken).toBe("123:rotate-me");
    expect(underNew.btcpay).toEqual(["btcpay-key-rotate-me", "btcpay-hook-secret"]);
    expect(underNew.totpSecrets).toEqual(["JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"]);
    // The old master key opens nothing any more.
    await expect(readEverything(oldMaster)).rejects.toThrow(/does not unwrap with this master key/);
    // The key check moved with them (shop/privacy/key-check.ts): a server started with the old key is refused.
    const checked = await openPglite(dataDir);
    try {
      expect(await keyMatches(checked.db, newMaster)).toBe(true);
      expect(await keyMatches(checked.db, oldMaster)).toBe(false);
    } finally {
      await checked.close();
    }
    // And so is a rotation with the old key (DATA_DIR/secret.key): it would wrap a new data key under it.
    const withOldKey = await run("scripts/keys-rotate.ts", []);
    expect(withOldKey.code).toBe(1);
    expect(withOldKey.stderr).toMatch(/^The secret key does not open this shop's data/);
    expect((await readEverything(newMaster)).addresses).toEqual(before.addresses);
  });
});
