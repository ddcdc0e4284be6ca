import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { customerMessages, orders } from "../../db/schema";
import { createTestDatabase, TEST_MASTER_KEY } from "../../../test-support/database";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";
import { queryRows } from "../../db/rows";
import { addressBinding, addressTerms, protectAddress, revealAddress, searchTerms } from "./address-vault";
import { encryptExistingData } from "../privacy";
import { getConversation, saveConversation, listThread } from "../customers";
import { messageBinding } from "./message-vault";
import { forgetUnwrappedKeys, open, seal, unwrapDataKey, VaultError, wrapDataKey } from "./vault";

// The vault's promises (docs/decisions/0024-encryption-at-rest.md): what it seals opens only with the
// same binding and untouched; the envelope says which key; a wrapped key opens only under its master key.

describe("the vault", () => {
  let database: Database;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("opens what it sealed, for the same binding only", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), fc.uuid(), fc.uuid(), async (text, id, otherId) => {
        const stored = await seal(db(), text, addressBinding(id));
        expect(stored).toMatch(/^sk1:[0-9a-f]{12}:[\w-]{16}:[\w-]+$/);
        expect(await open(db(), stored, addressBinding(id))).toBe(text);
        // Another row, or another column of the same row: refused.
        if (otherId !== id) await expect(open(db(), stored, addressBinding(otherId))).rejects.toBeInstanceOf(VaultError);
        await expect(open(db(), stored, messageBinding(id))).rejects.toBeInstanceOf(VaultError);
      }),
      { numRuns: 50 },
    );
  });

  it("refuses a ciphertext with any character changed, cut short or lengthened, and never throws anything else", async () => {
    const id = crypto.randomUUID();
    const stored = await seal(db(), "12 Secret Street, SW1A 1AA", addressBinding(id));
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_:";
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ at: fc.nat({ max: stored.length - 1 }), to: fc.constantFrom(...alphabet) }).map(({ at, to }) => stored.slice(0, at) + to + stored.slice(at + 1)),
          fc.nat({ max: stored.length - 1 }).map((cut) => stored.slice(0, cut)),
          fc.string({ maxLength: 8 }).map((extra) => stored + extra),
        ),
        async (tampered) => {
          if (tampered === stored) return;
          // Base64url's last character may carry unused bits: a change there can decode to the same bytes.
          const same = await open(db(), tampered, addressBinding(id)).then(
            (text) => text === "12 Secret Street, SW1A 1AA",
            (error: unknown) => {
              expect(error).toBeInstanceOf(VaultError);
              return false;
            },
          );
          if (same) expect(Buffer.from(tampered.split(":").at(-1)!, "base64url")).toEqual(Buffer.from(stored.split(":").at(-1)!, "base64url"));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gives each value its own nonce: the same text twice is stored differently", async () => {
    const id = crypto.randomUUID();
    expect(await seal(db(), "same", addressBinding(id))).not.toBe(await seal(db(), "same", addressBinding(id)));
  });

  it("loads a key it has not seen from the table, as another instance would", async () => {
    const id = crypto.randomUUID();
    const stored = await seal(db(), "from another instance", addressBinding(id));
    forgetUnwrappedKeys();
    expect(await open(db(), stored, addressBinding(id))).toBe("from another instance");
  });

  it("unwraps a data key under its own master key only", () => {
    const material = crypto.randomBytes(32);
    const wrapped = wrapDataKey(TEST_MASTER_KEY, "abc123abc123", material);
    expect(unwrapDataKey(TEST_MASTER_KEY, "abc123abc123", wrapped)).toEqual(material);
    expect(() => unwrapDataKey(crypto.randomBytes(32), "abc123abc123", wrapped)).toThrow(/does not unwrap with this master key/);
    expect(() => unwrapDataKey(TEST_MASTER_KEY, "def456def456", wrapped)).toThrow(/does not unwrap/);
  });

  it("answers a swapped or damaged address as unreadable, not as an error", async () => {
    const id = crypto.randomUUID();
    const stored = await protectAddress(db(), id, { name: "Ann Lee", streetAddress: "1 Elm Row", postcode: "EH1 1AA", contact: null });
    expect(await revealAddress(db(), { id, address: stored.address })).toEqual({
      kind: "clear",
      address: { name: "Ann Lee", streetAddress: "1 Elm Row", postcode: "EH1 1AA", contact: null },
    });
    expect(await revealAddress(db(), { id: crypto.randomUUID(), address: stored.address })).toEqual({ kind: "unreadable" });
    expect(await revealAddress(db(), { id, address: `${stored.address}x` })).toEqual({ kind: "unreadable" });
    expect(await revealAddress(db(), { id, address: null })).toEqual({ kind: "erased" });
  });

  it("indexes a postcode whole and by outward code, a name whole and by word, the same however it is spelt", () => {
    expect(addressTerms({ name: "  Ann   LEE ", postcode: "eh1 1aa" })).toEqual(["postcode:EH11AA", "outward:EH1", "name:ann lee", "word:ann", "word:lee"]);
    for (const q of ["EH1 1AA", "eh11aa", "EH1", "ann lee", "LEE"]) {
      const wanted = searchTerms(q);
      expect(addressTerms({ name: "Ann Lee", postcode: "EH1 1AA" }).some((term) => wanted.includes(term)), q).toBe(true);
    }
    for (const q of ["EH", "EH1 1", "an", "ann l"]) {
      const wanted = searchTerms(q);
      expect(addressTerms({ name: "Ann Lee", postcode: "EH1 1AA" }).some((term) => wanted.includes(term)), q).toBe(false);
    }
  });
});

describe("what an earlier version stored in clear", () => {
  let database: Database;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("is encrypted once at start, the clear address column dropped; a second start finds nothing to do", async () => {
    // As a shop upgraded with addresses looks after drizzle/0014: the clear column is still there.
    await db().execute(sql`alter table orders add column shipping_address jsonb`);
    const { order } = await insertOrder(db(), { shippingAddress: null, telegramUserId: "42" });
    await db().execute(sql`update orders set shipping_address = ${JSON.stringify({ name: "Old Timer", streetAddress: "3 Past Lane", postcode: "OT1 1AA" })}::jsonb where id = ${order.id}`);
    const messageId = crypto.randomUUID();
    await db().insert(customerMessages).values({ id: messageId, telegramUserId: "42", message: "an old clear message" });
    await db().execute(sql`insert into bot_conversations (telegram_user_id, state)
      values ('42', ${JSON.stringify({ step: "checkout", stage: "street", draft: { name: "Old Timer" } })}::jsonb)`);
    await db().execute(sql`insert into audit_log (action, target_type, target_id, summary) values ('message.reply', 'customer', '42', 'message: "see you at 3 Past Lane"')`);

    expect(await encryptExistingData(db())).toEqual({ addresses: 1, messages: 1, drafts: 1, auditEntries: 1 });
    const raw = JSON.stringify(
      (await db().execute(sql`select (select json_agg(o) from orders o) as o, (select json_agg(m) from customer_messages m) as m,
        (select json_agg(c) from bot_conversations c) as c, (select json_agg(a) from audit_log a) as a`)) as unknown,
    );
    expect(raw).not.toMatch(/Old Timer|Past Lane|old clear message/);
    const columns = await queryRows<{ column_name: string }>(db(), sql`select column_name from information_schema.columns where table_name = 'orders'`);
    expect(columns.map((row) => row.column_name)).not.toContain("shipping_address");

    const [row] = await db().select().from(orders);
    expect(await revealAddress(db(), row!)).toMatchObject({ kind: "clear", address: { name: "Old Timer", postcode: "OT1 1AA", contact: null } });
    expect((await listThread(db(), "42")).map((message) => message.message)).toEqual(["an old clear message"]);
    expect(await getConversation(db(), "42")).toEqual({ step: "checkout", stage: "street", draft: { name: "Old Timer" } });

    expect(await encryptExistingData(db())).toEqual({ addresses: 0, messages: 0, drafts: 0, auditEntries: 0 });
    await saveConversation(db(), "42", { step: "idle" });
    await insertCustomerMessage(db(), { telegramUserId: "42", message: "new" });
    expect(await encryptExistingData(db())).toEqual({ addresses: 0, messages: 0, drafts: 0, auditEntries: 0 });
  });
});
