import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { auditLog, botConversations, botCustomers, customerMessages, customerNotes, erasureRequests, orders, privacySettings } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";
import { getCustomerNote, listThread, saveCustomerNote } from "../customers";
import {
  applyRetention,
  DAY_MS,
  DEFAULT_PRIVACY_SETTINGS,
  describeCustomerData,
  ERASED_SUMMARY,
  forgetCustomer,
  getPrivacySettings,
  savePrivacySettings,
} from "./privacy";

// Retention and the right to be forgotten (issue 15, items 3 and 4), on a fixed clock: exactly the
// due addresses and messages go, and a forgotten customer's data goes while everyone else's stays.

const NOW = new Date("2026-06-15T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

describe("privacy", () => {
  let database: Database;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    for (const table of [customerMessages, orders, erasureRequests, privacySettings, botConversations, botCustomers, auditLog, customerNotes]) await db().delete(table);
  });

  /** An order of `status` closed `closedDaysAgo` days ago (the trigger stamps closed_at; the test moves it back). */
  async function order(status: string, options: { closedDaysAgo?: number; telegramUserId?: string; createdAt?: Date } = {}) {
    const { order: row } = await insertOrder(db(), {
      status,
      telegramUserId: options.telegramUserId ?? "500",
      telegramUsername: "someone",
      createdAt: options.createdAt ?? daysAgo(100),
    });
    if (options.closedDaysAgo !== undefined) await db().update(orders).set({ closedAt: daysAgo(options.closedDaysAgo) }).where(eq(orders.id, row.id));
    return row.id;
  }
  const addressOf = async (id: string) => {
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    return { address: row!.address, erasedAt: row!.addressErasedAt, username: row!.telegramUsername };
  };

  it("stamps when an order is completed or failed, and only then", async () => {
    const id = await order("processing");
    expect((await db().select().from(orders).where(eq(orders.id, id)))[0]!.closedAt).toBeNull();
    await db().update(orders).set({ status: "completed" }).where(eq(orders.id, id));
    const [closed] = await db().select().from(orders).where(eq(orders.id, id));
    expect(closed!.closedAt).toBeInstanceOf(Date);
    // Another write to a closed order keeps the stamp.
    await db().update(orders).set({ closedAt: daysAgo(3) }).where(eq(orders.id, id));
    await db().update(orders).set({ trackingNumber: "RM1" }).where(eq(orders.id, id));
    expect((await db().select().from(orders).where(eq(orders.id, id)))[0]!.closedAt).toEqual(daysAgo(3));
  });

  it("erases exactly the addresses due: completed or failed orders closed more than N days ago", async () => {
    expect(await getPrivacySettings(db())).toEqual(DEFAULT_PRIVACY_SETTINGS);
    const due = [await order("completed", { closedDaysAgo: 31 }), await order("failed", { closedDaysAgo: 30 })];
    const kept = [
      await order("completed", { closedDaysAgo: 29 }),
      await order("failed", { closedDaysAgo: 1 }),
      await order("processing"),
      await order("dispatched"),
      await order("pending"),
    ];
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 2, messages: 0 });
    for (const id of due) expect(await addressOf(id)).toEqual({ address: null, erasedAt: NOW, username: "someone" });
    for (const id of kept) expect((await addressOf(id)).address).not.toBeNull();
    // A second pass an hour later changes nothing (the first erasure's date stays).
    expect(await applyRetention(db(), new Date(NOW.getTime() + 60 * 60 * 1000))).toEqual({ addresses: 0, messages: 0 });
    expect((await addressOf(due[0]!)).erasedAt).toEqual(NOW);

    // 0 keeps addresses for good; a shorter period takes more.
    await savePrivacySettings(db(), { addressRetentionDays: 0, messageRetentionDays: 0 });
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 0, messages: 0 });
    await savePrivacySettings(db(), { addressRetentionDays: 1, messageRetentionDays: 0 });
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 2, messages: 0 });
  });

  it("erases messages older than N days when the owner asks for it", async () => {
    await insertCustomerMessage(db(), { telegramUserId: "500", message: "old", createdAt: daysAgo(8) });
    await insertCustomerMessage(db(), { telegramUserId: "500", message: "recent", createdAt: daysAgo(6) });
    // The owner's note, written long ago: theirs, so retention leaves it (docs/decisions/0029-customer-notes.md).
    await saveCustomerNote(db(), "500", "Regular; prefers Royal Mail", daysAgo(400));
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 0, messages: 0 });
    await savePrivacySettings(db(), { addressRetentionDays: 30, messageRetentionDays: 7 });
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 0, messages: 1 });
    expect((await listThread(db(), "500")).map((row) => row.message)).toEqual(["recent"]);
    await savePrivacySettings(db(), { addressRetentionDays: 1, messageRetentionDays: 1 });
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 0, messages: 1 });
    expect(await getCustomerNote(db(), "500")).toMatchObject({ note: "Regular; prefers Royal Mail", updatedAt: daysAgo(400).toISOString() });
  });

  it("forgets a customer: addresses, messages, username, draft and the owner's note go; amounts and other customers stay", async () => {
    const done = await order("completed", { closedDaysAgo: 2 });
    const sent = await order("dispatched");
    const toSend = await order("processing");
    const otherCustomer = await order("completed", { closedDaysAgo: 2, telegramUserId: "600" });
    await insertCustomerMessage(db(), { telegramUserId: "500", message: "leave it by the gate" });
    await insertCustomerMessage(db(), { telegramUserId: "500", message: "sure", isFromCustomer: false });
    await insertCustomerMessage(db(), { telegramUserId: "600", message: "hello" });
    await db().insert(botConversations).values({ telegramUserId: "500", state: { step: "checkout", name: "Ann" } });
    await db().insert(botCustomers).values({ telegramUserId: "500", telegramUsername: "someone" });
    await db().insert(auditLog).values({ action: "message.reply", targetType: "customer", targetId: "500", summary: 'message: "sure"' });

    expect(await describeCustomerData(db(), "500")).toEqual({ orders: 3, addresses: 3, messages: 2, username: "someone", broadcasts: true, note: false });
    await saveCustomerNote(db(), "500", "Leaves parcels by the gate", NOW);
    await saveCustomerNote(db(), "600", "Someone else's note", NOW);
    expect((await describeCustomerData(db(), "500")).note).toBe(true);
    const result = await forgetCustomer(db(), "500", NOW, "customer");
    expect(result).toEqual({ addressesErased: 2, addressesKept: 1, messagesErased: 2 });

    for (const id of [done, sent]) expect(await addressOf(id)).toEqual({ address: null, erasedAt: NOW, username: null });
    // The paid order still to be sent keeps its address (the parcel must go), not the username.
    expect(await addressOf(toSend)).toMatchObject({ erasedAt: null, username: null });
    expect((await addressOf(toSend)).address).not.toBeNull();
    const [amounts] = await db().select().from(orders).where(eq(orders.id, done));
    expect(amounts!.totalAmount).not.toBeNull();
    expect((await db().select().from(customerMessages)).map((row) => row.telegramUserId)).toEqual(["600"]);
    expect(await db().select().from(botConversations)).toEqual([]);
    // The owner's note about them goes too; another customer's stays.
    expect((await db().select().from(customerNotes)).map((row) => row.telegramUserId)).toEqual(["600"]);
    expect(await getCustomerNote(db(), "500")).toEqual({ telegramUserId: "500", note: "", updatedAt: null, unreadable: false });
    expect((await describeCustomerData(db(), "500")).note).toBe(false);
    expect((await db().select().from(botCustomers))[0]!.telegramUsername).toBeNull();
    expect((await addressOf(otherCustomer)).address).not.toBeNull();
    const audit = await db().select().from(auditLog);
    expect(audit.find((entry) => entry.action === "message.reply")!.summary).toBe(ERASED_SUMMARY);
    expect(audit.find((entry) => entry.action === "customer.forget-requested")).toMatchObject({
      targetType: "customer",
      targetId: "500",
      summary: "The customer asked to be forgotten (/forgetme): 2 address(es) and 2 message(s) erased; 1 kept until dispatched, then erased",
    });

    // Once dispatched, the kept address goes at the next pass, and the request is done.
    await db().update(orders).set({ status: "dispatched" }).where(eq(orders.id, toSend));
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 1, messages: 0 });
    expect((await addressOf(toSend)).address).toBeNull();
    expect(await db().select().from(erasureRequests)).toEqual([]);
    // An order placed after the request is a new relationship: its address stays.
    const later = await order("dispatched", { createdAt: new Date(NOW.getTime() + 60_000) });
    expect(await applyRetention(db(), NOW)).toEqual({ addresses: 0, messages: 0 });
    expect((await addressOf(later)).address).not.toBeNull();
  });

  it("refuses out-of-range retention periods at the database too", async () => {
    await expect(savePrivacySettings(db(), { addressRetentionDays: -1, messageRetentionDays: 0 })).rejects.toThrow();
    await expect(savePrivacySettings(db(), { addressRetentionDays: 0, messageRetentionDays: 4000 })).rejects.toThrow();
  });
});
