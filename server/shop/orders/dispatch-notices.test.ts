import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { openPostgres } from "../../db/client";
import { orderEvents, orders } from "../../db/schema";
import { createRecordingNotifier } from "../../../test-support/app";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder } from "../../../test-support/factories";
import { unavailable } from "../common";
import { createDispatchNoticeSender, holdDispatchNotice, sendDueDispatchNotices, undoDispatch } from "./dispatch-notices";

// The dispatch message held for the owner's undo window (issue 22; docs/decisions/0027-dispatch-notice-held.md).

const WINDOW_MS = 10_000;
const T0 = new Date("2026-11-26T10:00:00Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);

describe("dispatch notices held for the undo window", () => {
  let database: Database & { url?: string };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  const dispatchedOrder = async (overrides: Partial<typeof orders.$inferInsert> = {}) =>
    (await insertOrder(database.db, { status: "dispatched", paymentStatus: "finished", carrier: "Royal Mail", trackingNumber: "AB123456789GB", ...overrides }))
      .order;
  const rowOf = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const quiet = { warn: () => {} };
  const deps = (notifier: ReturnType<typeof createRecordingNotifier>, now: () => Date) => ({ db: database.db, notifier, now, undoWindowMs: WINDOW_MS, logger: quiet });

  it("holds the message until the window ends; the sender sends it then, once", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder({ telegramUserId: "880001" });
    expect(await holdDispatchNotice(deps(notifier, at(0)), order.id)).toEqual({ heldUntil: new Date(T0.getTime() + WINDOW_MS).toISOString() });
    // A replay (a second tab, a retried request) keeps the one hold: still one message, at the same time.
    expect(await holdDispatchNotice(deps(notifier, at(4_000)), order.id)).toEqual({ heldUntil: new Date(T0.getTime() + WINDOW_MS).toISOString() });

    expect(await sendDueDispatchNotices(deps(notifier, at(WINDOW_MS - 1)))).toBe(0);
    expect(notifier.sent).toEqual([]);
    expect(await sendDueDispatchNotices(deps(notifier, at(WINDOW_MS)))).toBe(1);
    expect(await sendDueDispatchNotices(deps(notifier, at(WINDOW_MS + 60_000)))).toBe(0);
    expect(notifier.sent).toEqual([
      {
        chatId: "880001",
        text: [
          `Good news! Your order #${order.id.slice(0, 8)} has been dispatched.`,
          "Carrier: Royal Mail",
          "Tracking number: AB123456789GB",
          "Track your parcel: https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
          "Thank you for shopping with us.",
        ].join("\n"),
      },
    ]);
    expect((await rowOf(order.id)).dispatchNoticeState).toBe("sent");
    // Sent: asking again would tell the customer twice.
    await expect(holdDispatchNotice(deps(notifier, at(WINDOW_MS + 61_000)), order.id)).rejects.toMatchObject({
      kind: "conflict",
      message: `Order #${order.id.slice(0, 8)}: the customer has already been sent the dispatch message.`,
    });
  });

  it("undo within the window: Ready to Dispatch again, carrier and tracking cleared, nothing reaches the customer", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder();
    await holdDispatchNotice(deps(notifier, at(0)), order.id);
    const undone = await undoDispatch(deps(notifier, at(WINDOW_MS - 1)), order.id);
    expect(undone).toMatchObject({ status: "processing", carrier: null, trackingNumber: null, dispatchNoticeState: null, dispatchNoticeDueAt: null });
    expect(await sendDueDispatchNotices(deps(notifier, at(WINDOW_MS + 1_000)))).toBe(0);
    expect(notifier.sent).toEqual([]);
    const trail = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(trail.map((event) => event.action)).toEqual(["dispatch_undone"]);
    // Undone twice (a double click, a replay): the second is refused with the reason.
    await expect(undoDispatch(deps(notifier, at(WINDOW_MS - 1)), order.id)).rejects.toMatchObject({
      kind: "conflict",
      message: `Order #${order.id.slice(0, 8)} is processing; only a dispatched order can be undone.`,
    });
  });

  it("undo after the window is refused with 409 and the message still goes, once", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder();
    await holdDispatchNotice(deps(notifier, at(0)), order.id);
    // Due, even before the sender came round: too late.
    await expect(undoDispatch(deps(notifier, at(WINDOW_MS)), order.id)).rejects.toMatchObject({
      kind: "conflict",
      message: `Order #${order.id.slice(0, 8)} can no longer be undone: the undo window has ended and the customer has been told it was dispatched.`,
    });
    expect(await sendDueDispatchNotices(deps(notifier, at(WINDOW_MS)))).toBe(1);
    await expect(undoDispatch(deps(notifier, at(WINDOW_MS + 1)), order.id)).rejects.toMatchObject({ kind: "conflict" });
    expect((await rowOf(order.id)).status).toBe("dispatched");
    expect(notifier.sent).toHaveLength(1);
  });

  it("an order dispatched without a held message cannot be undone, and one not dispatched cannot be held", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder();
    await expect(undoDispatch(deps(notifier, at(0)), order.id)).rejects.toMatchObject({
      kind: "conflict",
      message: `Order #${order.id.slice(0, 8)} can no longer be undone: a dispatch can be undone only in the seconds before its customer is told.`,
    });
    const ready = (await insertOrder(database.db, { status: "processing" })).order;
    await expect(holdDispatchNotice(deps(notifier, at(0)), ready.id)).rejects.toMatchObject({ kind: "conflict" });
    await expect(undoDispatch(deps(notifier, at(0)), "not-an-id")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("parallel undo and send: never both (one wins, whatever the order they run in)", async () => {
    for (let round = 0; round < 6; round++) {
      const notifier = createRecordingNotifier();
      const order = await dispatchedOrder();
      await holdDispatchNotice(deps(notifier, at(0)), order.id);
      // The owner's clock still inside the window, the sender's past it (two instances, their clocks apart).
      const [undo, sent] = await Promise.allSettled([
        undoDispatch(deps(notifier, at(WINDOW_MS - 1)), order.id),
        sendDueDispatchNotices(deps(notifier, at(WINDOW_MS))),
      ]);
      const row = await rowOf(order.id);
      if (undo.status === "fulfilled") {
        expect(sent).toEqual({ status: "fulfilled", value: 0 });
        expect(notifier.sent).toEqual([]);
        expect(row.status).toBe("processing");
      } else {
        expect(undo.reason).toMatchObject({ kind: "conflict" });
        expect(sent).toEqual({ status: "fulfilled", value: 1 });
        expect(notifier.sent).toHaveLength(1);
        expect(row).toMatchObject({ status: "dispatched", dispatchNoticeState: "sent" });
      }
    }
  });

  it("two senders on two connections (two instances) send each due message exactly once", async () => {
    const notifier = createRecordingNotifier();
    const held = [];
    for (let i = 0; i < 12; i++) {
      const order = await dispatchedOrder({ telegramUserId: `88100${i}` });
      await holdDispatchNotice(deps(notifier, at(0)), order.id);
      held.push(order.id);
    }
    // On PostgreSQL a second pool is a second instance; PGlite is one process's database.
    const other = database.url ? await openPostgres(database.url) : database;
    try {
      const later = at(WINDOW_MS + 1);
      const counts = await Promise.all([
        sendDueDispatchNotices({ db: database.db, notifier, now: later }),
        sendDueDispatchNotices({ db: other.db, notifier, now: later }),
        sendDueDispatchNotices({ db: other.db, notifier, now: later }),
      ]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(12);
    } finally {
      if (other !== database) await other.close();
    }
    expect(notifier.sent.map((message) => message.chatId).sort()).toEqual(held.map((_, i) => `88100${i}`).sort());
  });

  it("a held message survives a restart: a new sender after it finds and sends it", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder({ telegramUserId: "882001" });
    // The first process holds it and stops before its time (nothing of it is kept in memory).
    const first = createDispatchNoticeSender({ db: database.db, notifier, now: at(0) }, 10);
    first.start();
    await holdDispatchNotice(deps(notifier, at(0)), order.id);
    await first.stop();
    expect(notifier.sent).toEqual([]);
    // The next process, its clock past the window.
    const second = createDispatchNoticeSender({ db: database.db, notifier, now: at(WINDOW_MS + 5_000) }, 10);
    second.start();
    try {
      await expect.poll(() => notifier.sent.map((message) => message.chatId)).toEqual(["882001"]);
    } finally {
      await second.stop();
    }
  });

  it("Telegram refusing the message: marked failed with the reason in the order's trail; asking again tries again", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder({ telegramUserId: "883001" });
    await holdDispatchNotice(deps(notifier, at(0)), order.id);
    notifier.failWith(unavailable("Telegram refused the message: Forbidden: bot was blocked by the user"));
    expect(await sendDueDispatchNotices(deps(notifier, at(WINDOW_MS)))).toBe(1);
    expect(await rowOf(order.id)).toMatchObject({ status: "dispatched", dispatchNoticeState: "failed" });
    const trail = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(trail.map((event) => event.detail)).toEqual([
      "The dispatch message could not be sent: Telegram refused the message: Forbidden: bot was blocked by the user",
    ]);
    notifier.failWith(null);
    await holdDispatchNotice(deps(notifier, at(WINDOW_MS + 1_000)), order.id);
    expect(await sendDueDispatchNotices(deps(notifier, at(2 * WINDOW_MS + 1_000)))).toBe(1);
    expect(notifier.sent.map((message) => message.chatId)).toEqual(["883001"]);
  });

  it("with no window the message is sent in the request, and a refusal answered at once", async () => {
    const notifier = createRecordingNotifier();
    const order = await dispatchedOrder({ telegramUserId: "884001" });
    expect(await holdDispatchNotice({ ...deps(notifier, at(0)), undoWindowMs: 0 }, order.id)).toEqual({ heldUntil: null });
    expect(notifier.sent.map((message) => message.chatId)).toEqual(["884001"]);
    const refused = await dispatchedOrder();
    notifier.failWith(unavailable("Telegram refused the message: Forbidden: bot was blocked by the user"));
    await expect(holdDispatchNotice({ ...deps(notifier, at(0)), undoWindowMs: 0 }, refused.id)).rejects.toMatchObject({
      kind: "unavailable",
      message: "The order is dispatched, but the customer could not be notified. Telegram refused the message: Forbidden: bot was blocked by the user",
    });
  });
});
