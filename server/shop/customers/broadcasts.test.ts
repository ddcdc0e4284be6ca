import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { blockedCustomers, botCustomers, broadcastRecipients, broadcasts, orders } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder, insertProduct, seedBotCustomers } from "../../../test-support/factories";
import {
  abandonDeadClaims,
  claimNextRecipient,
  createBroadcast,
  FAILED_UNKNOWN_OUTCOME,
  getBroadcastProgress,
  listBroadcasts,
  markBlockedBot,
  markSent,
  optOutOfBroadcasts,
  recordBotStart,
  retryLater,
  SKIPPED_BLOCKED,
  SKIPPED_OPTED_OUT,
  SKIPPED_UNREACHABLE,
} from "./broadcasts";
import { ShopError } from "../common";

// The broadcast rules (issue 14, item 3): who each audience is, who is skipped, and the queue's
// claims (one at a time per chat, at most N a second, a dead claim never sent again).

const NOW = new Date();
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);

describe("broadcasts", () => {
  let database: Database;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await db().delete(broadcasts);
    await db().delete(botCustomers);
    await db().delete(blockedCustomers);
    await db().delete(orders);
  });

  async function recipientsOf(id: string) {
    const rows = await db()
      .select({ id: broadcastRecipients.telegramUserId, state: broadcastRecipients.state, error: broadcastRecipients.error })
      .from(broadcastRecipients)
      .where(eq(broadcastRecipients.broadcastId, id));
    return Object.fromEntries(rows.map((row) => [row.id, row.error ? `${row.state}: ${row.error}` : row.state]));
  }

  /** Empties the queue's rate window: the claims of earlier steps are made older than any limit. */
  async function ageClaims() {
    await db().update(broadcastRecipients).set({ claimedAt: sql`claimed_at - interval '1 hour'` }).where(sql`claimed_at is not null`);
  }

  it("sends 'all' to everyone who started the bot, skipping who opted out, blocked the bot or was blocked", async () => {
    await seedBotCustomers(db(), { started: ["1", "2", "3", "4", "5"], optedOut: ["2"], unreachable: ["3"], blocked: ["4"] }, NOW);
    // Someone with an order who never sent /start (an old customer) is not in "all".
    await insertOrder(db(), { telegramUserId: "9" });

    const { id } = await createBroadcast(db(), { text: "Hello", imageUrl: null, audience: { kind: "all" } }, NOW);
    expect(await recipientsOf(id)).toEqual({
      "1": "pending",
      "2": `skipped: ${SKIPPED_OPTED_OUT}`,
      "3": `skipped: ${SKIPPED_UNREACHABLE}`,
      "4": `skipped: ${SKIPPED_BLOCKED}`,
      "5": "pending",
    });
    expect(await getBroadcastProgress(db(), id)).toEqual({ id, status: "queued", total: 5, sent: 0, failed: 0, skipped: 3 });
  });

  it("/start again opts back in and makes a customer who blocked the bot reachable", async () => {
    await recordBotStart(db(), "1", null, NOW);
    await optOutOfBroadcasts(db(), "1", null, NOW);
    expect(await recordBotStart(db(), "1", "ann", NOW)).toEqual({ wasOptedOut: true });
    expect(await recordBotStart(db(), "1", "ann", NOW)).toEqual({ wasOptedOut: false });
    await db().update(botCustomers).set({ unreachableAt: NOW });
    await recordBotStart(db(), "1", "ann", NOW);
    const [row] = await db().select().from(botCustomers);
    expect(row).toMatchObject({ telegramUserId: "1", telegramUsername: "ann", optedOutAt: null, unreachableAt: null });
  });

  it("finds the buyers of a product (paid, not refunded), recent orderers, and who never ordered", async () => {
    const tea = await insertProduct(db(), { name: "Tea" });
    const cake = await insertProduct(db(), { name: "Cake" });
    await insertOrder(db(), { telegramUserId: "10", status: "completed", items: [{ product: tea }] });
    await insertOrder(db(), { telegramUserId: "11", status: "pending", items: [{ product: tea }] }); // not paid
    await insertOrder(db(), { telegramUserId: "12", status: "processing", paymentStatus: "refunded", items: [{ product: tea }] });
    await insertOrder(db(), { telegramUserId: "13", status: "processing", items: [{ product: cake }] });
    await insertOrder(db(), { telegramUserId: "14", status: "failed", createdAt: daysAgo(40) });
    await seedBotCustomers(db(), { started: ["10", "14", "20", "21"] }, NOW);

    const product = await createBroadcast(db(), { text: "Tea is back", imageUrl: null, audience: { kind: "product", productId: tea.id } }, NOW);
    expect(Object.keys(await recipientsOf(product.id))).toEqual(["10"]);

    const recent = await createBroadcast(db(), { text: "Thanks", imageUrl: null, audience: { kind: "recent", days: 30 } }, NOW);
    expect(Object.keys(await recipientsOf(recent.id)).sort()).toEqual(["10", "11", "12", "13"]);

    const never = await createBroadcast(db(), { text: "10% off", imageUrl: null, audience: { kind: "never-ordered" } }, NOW);
    expect(Object.keys(await recipientsOf(never.id)).sort()).toEqual(["20", "21"]);
  });

  it("refuses an audience with nobody in it, and stores nothing", async () => {
    const error = await createBroadcast(db(), { text: "Hi", imageUrl: null, audience: { kind: "all" } }, NOW).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopError);
    expect((error as ShopError).message).toBe("No customers match this audience.");
    expect(await db().select().from(broadcasts)).toEqual([]);
  });

  it("claims at most the overall rate per second, and one message per chat per interval", async () => {
    await seedBotCustomers(db(), { started: ["1", "2", "3"] }, NOW);
    const first = await createBroadcast(db(), { text: "One", imageUrl: null, audience: { kind: "all" } }, NOW);
    const second = await createBroadcast(db(), { text: "Two", imageUrl: null, audience: { kind: "all" } }, NOW);

    // A rate of 2 a second: two claims, then a wait of about a second.
    const a = await claimNextRecipient(db(), { ratePerSecond: 2 });
    const b = await claimNextRecipient(db(), { ratePerSecond: 2 });
    expect([a.kind, b.kind]).toEqual(["claimed", "claimed"]);
    const held = await claimNextRecipient(db(), { ratePerSecond: 2 });
    expect(held.kind).toBe("wait");
    expect(held.kind === "wait" && held.ms).toBeGreaterThan(500);

    // Per chat: a chat claimed a moment ago (or in flight) is not claimed again, whatever the overall rate.
    await ageClaims();
    const claimed = [a, b].map((claim) => (claim.kind === "claimed" ? claim.recipient : null)!);
    for (const recipient of claimed) await markSent(db(), recipient);
    await db().update(broadcastRecipients).set({ claimedAt: sql`clock_timestamp()` }).where(eq(broadcastRecipients.state, "sent"));
    const chats: string[] = [];
    for (;;) {
      const claim = await claimNextRecipient(db(), { ratePerSecond: 100 });
      if (claim.kind !== "claimed") break;
      chats.push(claim.recipient.telegramUserId);
    }
    const justSent = claimed.map((r) => r.telegramUserId);
    // Only the chat not messaged in the last second, once (its second message waits for the interval).
    expect(chats).toHaveLength(1);
    expect(justSent).not.toContain(chats[0]);
    expect(new Set([...justSent, ...chats]).size).toBe(3);

    expect((await getBroadcastProgress(db(), first.id)).status).toBe("sending");
    expect((await getBroadcastProgress(db(), second.id)).status).toBe("queued");
  });

  it("a 429 puts the row back for later; a 403 skips it and marks the customer unreachable for later broadcasts", async () => {
    await seedBotCustomers(db(), { started: ["1", "2"] }, NOW);
    const { id } = await createBroadcast(db(), { text: "Hi", imageUrl: null, audience: { kind: "all" } }, NOW);
    const one = await claimNextRecipient(db());
    const two = await claimNextRecipient(db());
    if (one.kind !== "claimed" || two.kind !== "claimed") throw new Error("expected two claims");
    await retryLater(db(), one.recipient, 60_000);
    await markBlockedBot(db(), two.recipient);
    await ageClaims();
    // The retried row waits for its retry_after.
    expect((await claimNextRecipient(db())).kind).toBe("wait");
    expect(await getBroadcastProgress(db(), id)).toMatchObject({ status: "sending", sent: 0, skipped: 1 });

    const later = await createBroadcast(db(), { text: "Again", imageUrl: null, audience: { kind: "all" } }, NOW);
    expect((await recipientsOf(later.id))[two.recipient.telegramUserId]).toBe(`skipped: ${SKIPPED_UNREACHABLE}`);
  });

  it("never sends a dead claim again: it becomes failed (at most once)", async () => {
    await seedBotCustomers(db(), { started: ["1", "2"] }, NOW);
    const { id } = await createBroadcast(db(), { text: "Hi", imageUrl: null, audience: { kind: "all" } }, NOW);
    const claim = await claimNextRecipient(db());
    if (claim.kind !== "claimed") throw new Error("expected a claim");
    // A live claim (younger than the limit) is left alone; a dead one is failed.
    expect(await abandonDeadClaims(db(), 60_000)).toBe(0);
    expect(await abandonDeadClaims(db(), null)).toBe(1);
    await ageClaims();
    const next = await claimNextRecipient(db());
    expect(next.kind === "claimed" && next.recipient.telegramUserId).not.toBe(claim.recipient.telegramUserId);
    expect((await recipientsOf(id))[claim.recipient.telegramUserId]).toBe(`failed: ${FAILED_UNKNOWN_OUTCOME}`);
    // A late mark from the dead sender changes nothing.
    await markSent(db(), claim.recipient);
    expect(await getBroadcastProgress(db(), id)).toMatchObject({ failed: 1, sent: 0 });
  });

  it("lists past broadcasts newest first with their numbers", async () => {
    await seedBotCustomers(db(), { started: ["1"] }, NOW);
    const older = await createBroadcast(db(), { text: "Older", imageUrl: null, audience: { kind: "all" } }, daysAgo(1));
    const newer = await createBroadcast(db(), { text: "Newer", imageUrl: "/objects/abc", audience: { kind: "recent", days: 7 } }, NOW).catch(() => null);
    // Nobody ordered in the last 7 days: refused. The list has the one that was queued.
    expect(newer).toBeNull();
    const list = await listBroadcasts(db());
    expect(list).toEqual([
      { id: older.id, status: "queued", total: 1, sent: 0, failed: 0, skipped: 0, text: "Older", textTranslations: {}, imageUrl: null, audience: { kind: "all" }, createdAt: daysAgo(1).toISOString() },
    ]);
  });
});
