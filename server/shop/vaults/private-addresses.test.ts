import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOwnerKey, openSealedAddress, unlockOwnerKey, type OwnerKey, type OwnerKeySetup } from "../../../contract/owner-seal";
import type { Database } from "../../db/client";
import { erasureRequests, orders, ownerSealKeys, privacySettings } from "../../db/schema";
import { projectRoot } from "../../project-root";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder } from "../../../test-support/factories";
import { addressSearchCondition, protectNewAddress, revealAddress } from "./address-vault";
import { getOrder } from "../orders/orders";
import { applyRetention, DAY_MS, forgetCustomer } from "../privacy/privacy";
import { activeOwnerPublicKey, disablePrivateAddresses, enablePrivateAddresses } from "./private-addresses";

// Private addresses in the shop (issue 15, item 2): with the mode on, a new address is sealed to the
// owner's key; the server keeps and answers only the sealed form, and none of its code opens it.

const PASSPHRASE = "heron copper meadow violin";
const ADDRESS = { name: "Zoë Ørsted", streetAddress: "7 Rue de la Paix, Flat 2", postcode: "EC1A 1BB", contact: "call 07700 900123" };
const NOW = new Date("2026-06-15T12:00:00Z");
const ROOT = projectRoot(import.meta.dirname);

describe("private addresses in the shop", () => {
  let database: Database;
  const db = () => database.db;
  let setup: OwnerKeySetup;
  let owner: OwnerKey;
  beforeAll(async () => {
    database = await createTestDatabase();
    setup = await createOwnerKey(PASSPHRASE);
    owner = await unlockOwnerKey(setup, PASSPHRASE);
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    for (const table of [orders, ownerSealKeys, erasureRequests, privacySettings]) await db().delete(table);
  });

  const turnOn = () => enablePrivateAddresses(db(), { publicKey: setup.publicKey, wrappedPrivateKey: setup.wrappedPrivateKey, salt: setup.salt, iterations: setup.iterations }, NOW);

  /** An order stored as checkout stores it (protectNewAddress). */
  async function placedOrder(overrides: { status?: string; telegramUserId?: string } = {}) {
    const id = crypto.randomUUID();
    await insertOrder(db(), { id, ...(await protectNewAddress(db(), id, ADDRESS)), ...overrides, createdAt: new Date(NOW.getTime() - 100 * DAY_MS) });
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    return row!;
  }

  it("encrypts with the server's key while off", async () => {
    expect(await activeOwnerPublicKey(db())).toBeNull();
    const row = await placedOrder();
    expect(row.address).toMatch(/^sk1:/);
    expect((await getOrder(db(), row.id)).shippingAddress).toEqual(ADDRESS);
  });

  it("seals a new address when on: the row and the answer hold the sealed form only, which the owner's key opens", async () => {
    await turnOn();
    const row = await placedOrder();
    expect(row.address).toMatch(new RegExp(`^owner-seal:v1:${setup.keyId}:`));
    const raw = JSON.stringify(row);
    for (const clear of [ADDRESS.name, ADDRESS.streetAddress, ADDRESS.postcode, ADDRESS.contact, "Rue de la Paix", "07700"]) {
      expect(raw).not.toContain(clear);
    }
    expect(await revealAddress(db(), row)).toEqual({ kind: "sealed", sealed: row.address });
    const answer = await getOrder(db(), row.id);
    expect(answer.shippingAddress).toBeNull();
    expect(answer.sealedShippingAddress).toBe(row.address);
    expect(JSON.stringify(answer)).not.toContain(ADDRESS.name);
    expect(await openSealedAddress(owner, answer.sealedShippingAddress!, row.id)).toEqual(ADDRESS);
  });

  it("keeps the owner's search working through the blind index made at checkout", async () => {
    await turnOn();
    const row = await placedOrder();
    for (const q of ["EC1A 1BB", "ec1a1bb", "zoë ørsted"]) {
      const found = await db().select({ id: orders.id }).from(orders).where((await addressSearchCondition(db(), q))!);
      expect(found.map((r) => r.id), q).toEqual([row.id]);
    }
  });

  it("goes back to the server's key when turned off; what was sealed stays sealed", async () => {
    await turnOn();
    const sealed = await placedOrder();
    await disablePrivateAddresses(db(), NOW);
    const later = await placedOrder();
    expect(later.address).toMatch(/^sk1:/);
    expect((await getOrder(db(), later.id)).shippingAddress).toEqual(ADDRESS);
    expect((await getOrder(db(), sealed.id)).sealedShippingAddress).toBe(sealed.address);
  });

  it("erases sealed addresses on schedule and on request like any other", async () => {
    await turnOn();
    const due = await placedOrder({ status: "completed", telegramUserId: "601" });
    await db().update(orders).set({ closedAt: new Date(NOW.getTime() - 31 * DAY_MS) }).where(eq(orders.id, due.id));
    const forgotten = await placedOrder({ status: "failed", telegramUserId: "602" });
    const kept = await placedOrder({ status: "processing", telegramUserId: "603" });

    expect((await applyRetention(db(), NOW)).addresses).toBe(1);
    expect(await forgetCustomer(db(), "602", NOW, "owner")).toMatchObject({ addressesErased: 1 });
    for (const id of [due.id, forgotten.id]) {
      const [row] = await db().select().from(orders).where(eq(orders.id, id));
      expect(row).toMatchObject({ address: null, addressSearch: null, addressErasedAt: NOW });
      expect(await getOrder(db(), id)).toMatchObject({ shippingAddress: null, sealedShippingAddress: null, addressErasedAt: NOW.toISOString() });
    }
    const [still] = await db().select().from(orders).where(eq(orders.id, kept.id));
    expect(still!.address).toBe(kept.address);
  });

  it("has no server code that can open a sealed value: only the browser imports the opening functions", () => {
    const opening = /\b(openSealed|openSealedAddress|unlockOwnerKey|rewrapOwnerKey|grantOwnerKeys|openGrantedKey)\b/;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) files.push(full);
      }
    };
    walk(path.join(ROOT, "server"));
    walk(path.join(ROOT, "scripts"));
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((file) => opening.test(fs.readFileSync(file, "utf8"))).map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});
