import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { type AuditEntry, CUSTOMER_NOTE_MAX, type CustomerNote } from "../../../contract";
import { auditLog, blockedCustomers, customerMessages, customerNotes, orders } from "../../db/schema";
import { useAdminServer } from "../../../test-support/app";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";

// The owner's note about a customer (issue 22 item 9; docs/decisions/0029-customer-notes.md): GET and
// PUT /api/customers/{id}/notes, admin only, encrypted at rest, audited without its text, the last of
// parallel saves winning. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.

describe("the customer notes routes", () => {
  const admin = useAdminServer();
  const { db, get } = admin;
  const put = (telegramUserId: string, body: unknown, cookie = admin.cookie) =>
    admin.server.request("PUT", `/api/customers/${telegramUserId}/notes`, { cookie, body });
  /** Every stored note row as PostgreSQL prints it: what a dump or a stolen disk shows. */
  const rawRows = async () => {
    const result: unknown = await db().execute(sql`select t::text as row from customer_notes t`);
    return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows).map((row) => (row as { row: string }).row);
  };
  const audit = async () => db().select().from(auditLog).where(eq(auditLog.action, "customer.note-update"));

  beforeEach(async () => {
    for (const table of [customerNotes, customerMessages, orders, blockedCustomers, auditLog]) await db().delete(table);
    await insertCustomerMessage(db(), { telegramUserId: "7001", telegramUsername: "carol" });
    await insertOrder(db(), { telegramUserId: "7002", telegramUsername: "dan" });
    await db().insert(blockedCustomers).values({ telegramUserId: "7003" });
  });

  it("need the admin's session: 401, and nothing is stored", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { note: "Sneaky" }],
    ] as const) {
      const response = await admin.server.request(method, "/api/customers/7001/notes", body ? { body } : {});
      expect(response.status, method).toBe(401);
      expect(await response.json()).toEqual({ error: "Not logged in." });
    }
    expect(await put("7001", { note: "Forged cookie" }, "sid=not-a-session")).toHaveProperty("status", 401);
    expect(await db().select().from(customerNotes)).toEqual([]);
  });

  it("answers 404 for a customer the shop does not know, and 400 for what is not a Telegram user id", async () => {
    for (const response of [await get("/api/customers/8888/notes"), await put("8888", { note: "Who?" })]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Customer not found" });
    }
    for (const id of ["abc", "1%27%20or%201=1", "-1", "1".repeat(21)]) {
      expect((await get(`/api/customers/${id}/notes`)).status, id).toBe(400);
      expect((await put(id, { note: "x" })).status, id).toBe(400);
    }
    expect(await db().select().from(customerNotes)).toEqual([]);
  });

  it("keeps one note per customer, encrypted at rest; a save replaces it, an empty one clears it", async () => {
    // None yet, for a customer known by a message, an order or a block alike.
    for (const id of ["7001", "7002", "7003"]) {
      const response = await get(`/api/customers/${id}/notes`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ telegramUserId: id, note: "", updatedAt: null, unreadable: false });
    }
    const saved = await put("7001", { note: "  Prefers the periwinkle gate; call before 9.\nRegular.  " });
    expect(saved.status).toBe(200);
    const note = (await saved.json()) as CustomerNote;
    expect(note).toMatchObject({ telegramUserId: "7001", note: "Prefers the periwinkle gate; call before 9.\nRegular.", unreadable: false });
    expect(Date.parse(note.updatedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await (await get("/api/customers/7001/notes")).json()).toEqual(note);
    // Only this customer's; the others still have none.
    expect(((await (await get("/api/customers/7002/notes")).json()) as CustomerNote).note).toBe("");

    // The stored row holds an envelope, never the text.
    const [row] = await db().select().from(customerNotes);
    expect(row!.note).toMatch(/^sk1:/);
    for (const raw of await rawRows()) expect(raw.toLowerCase()).not.toContain("periwinkle");

    expect(((await (await put("7001", { note: "Second thoughts" })).json()) as CustomerNote).note).toBe("Second thoughts");
    expect(await db().select().from(customerNotes)).toHaveLength(1);
    // Blank is empty: the row goes.
    expect(await (await put("7001", { note: " \n\t " })).json()).toEqual({ telegramUserId: "7001", note: "", updatedAt: null, unreadable: false });
    expect(await db().select().from(customerNotes)).toEqual([]);
  });

  it("refuses a note over 2000 characters in the owner's words, and text the database would change", async () => {
    // Characters as the owner counts them: an emoji is one, though JavaScript strings count it as two.
    const emoji = "🙂".repeat(CUSTOMER_NOTE_MAX);
    expect(((await (await put("7001", { note: emoji })).json()) as CustomerNote).note).toBe(emoji);
    const longest = "é".repeat(CUSTOMER_NOTE_MAX);
    expect(((await (await put("7001", { note: longest })).json()) as CustomerNote).note).toBe(longest);
    for (const body of [{ note: "x".repeat(CUSTOMER_NOTE_MAX + 1) }, { note: `${"🙂".repeat(CUSTOMER_NOTE_MAX)}!` }]) {
      const response = await put("7001", body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain("Note can be at most 2000 characters");
    }
    for (const body of [{ note: "nul \u0000 byte" }, { note: "lone \ud800 surrogate" }, { note: 42 }, { note: null }, {}, { note: ["a"] }]) {
      expect((await put("7001", body)).status, JSON.stringify(body)).toBe(400);
    }
    // The note saved before is untouched by the refused ones.
    expect(((await (await get("/api/customers/7001/notes")).json()) as CustomerNote).note).toBe(longest);
  });

  it("keeps hostile text exactly: emoji, right-to-left, markup, SQL, quotes (generated)", async () => {
    const hostile = fc.oneof(
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 80 }),
      fc.constantFrom(
        "שלום, הלקוח מעדיף משלוח מהיר",
        "مرحبا \u202Eevil\u202C بالعالم",
        "👨‍👩‍👧‍👦🏳️‍🌈 family 🇬🇧",
        "<script>alert(1)</script><img src=x onerror=alert(1)>",
        "'); drop table customer_notes; --",
        '"quoted" \\ back\\slash `tick` ${x}',
        "sk1:not:an:envelope",
      ),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (text) => {
        const response = await put("7002", { note: text });
        expect(response.status).toBe(200);
        const expected = text.trim();
        expect(((await response.json()) as CustomerNote).note).toBe(expected);
        expect(((await (await get("/api/customers/7002/notes")).json()) as CustomerNote).note).toBe(expected);
        if (expected.length >= 8) for (const raw of await rawRows()) expect(raw).not.toContain(expected);
      }),
      { numRuns: 40 },
    );
  });

  it("takes parallel saves without an error: the last one written wins, one row stays", async () => {
    const notes = Array.from({ length: 12 }, (_, i) => `Parallel note ${i}`);
    const answers = await Promise.all(notes.map((note) => put("7003", { note })));
    expect(answers.map((response) => response.status)).toEqual(notes.map(() => 200));
    const rows = await db().select().from(customerNotes);
    expect(rows).toHaveLength(1);
    const final = (await (await get("/api/customers/7003/notes")).json()) as CustomerNote;
    expect(notes).toContain(final.note);
    expect(final.unreadable).toBe(false);
    // Saving and clearing at once: whichever came last, the answer reads back whole.
    await Promise.all([put("7003", { note: "" }), put("7003", { note: "Kept?" }), put("7003", { note: "" })]);
    expect(["", "Kept?"]).toContain(((await (await get("/api/customers/7003/notes")).json()) as CustomerNote).note);
    expect(await audit()).toHaveLength(15);
  });

  it("records each save in the Activity log by customer, never the note's text", async () => {
    await put("7001", { note: "Secret knock: three taps" });
    await put("7001", { note: "" });
    const entries = await audit();
    expect(entries.map((entry) => [entry.targetType, entry.targetId, entry.summary]).sort()).toEqual([
      ["customer", "7001", "Note about customer 7001 changed"],
      ["customer", "7001", "Note about customer 7001 cleared"],
    ]);
    const log = (await (await get("/api/audit-log?targetType=customer")).json()) as AuditEntry[] | { rows: AuditEntry[] };
    expect(JSON.stringify(log)).not.toContain("knock");
    for (const row of await db().select().from(auditLog)) expect(JSON.stringify(row)).not.toContain("knock");
  });

  it("answers a note that does not decrypt (moved onto another customer) as unreadable, and a save replaces it", async () => {
    await put("7001", { note: "Belongs to Carol" });
    const [row] = await db().select().from(customerNotes);
    await db().insert(customerNotes).values({ telegramUserId: "7002", note: row!.note });
    expect(await (await get("/api/customers/7002/notes")).json()).toMatchObject({ note: "", unreadable: true });
    expect(((await (await get("/api/customers/7001/notes")).json()) as CustomerNote).note).toBe("Belongs to Carol");
    expect(await (await put("7002", { note: "Dan's own" })).json()).toMatchObject({ note: "Dan's own", unreadable: false });
  });
});
