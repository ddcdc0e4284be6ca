import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { blockedCustomers, customerMessages, orders } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";
import {
  blockCustomer,
  getCustomer,
  getCustomerDetail,
  isBlocked,
  listCustomerPage,
  listCustomers,
  unblockCustomer,
} from "./customers";
import { createReadCache, NO_READ_CACHE } from "../catalogue/read-cache";

// The Customers screen's numbers (issue 13), checked against values worked out by hand.

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 10, 12, minutes));

describe("customers", () => {
  let database: Database;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await db().delete(customerMessages);
    await db().delete(orders);
    await db().delete(blockedCustomers);
  });

  /**
   * Ann (111): a processing 10.00, a completed 5.50, a dispatched 20.00 refunded after dispatch, a
   * pending 7.00 and a failed 3.00: 5 orders, 15.50 spent (the refund and the unpaid ones do not
   * count); her latest order (minute 40) names her "Ann Smith", as @ann_new. Two messages from her
   * unread, one read (as @ann), one admin reply without a username at minute 50.
   * Bob (222): one message only (minute 5), unread, @bobby. Cara (333): blocked, nothing else.
   */
  async function seedShop() {
    const ann = { telegramUserId: "111", telegramUsername: "ann" };
    const address = (name: string) => ({ name, streetAddress: "1 High St", postcode: "AB1 2CD", contact: null });
    await insertOrder(db(), { ...ann, status: "processing", paymentStatus: "finished", totalAmount: "10.00", createdAt: at(10) });
    await insertOrder(db(), { ...ann, status: "completed", paymentStatus: "finished", totalAmount: "5.50", createdAt: at(20) });
    await insertOrder(db(), { ...ann, status: "dispatched", paymentStatus: "refunded", totalAmount: "20.00", createdAt: at(25) });
    await insertOrder(db(), { ...ann, status: "pending", paymentStatus: "waiting", totalAmount: "7.00", createdAt: at(30) });
    await insertOrder(db(), {
      telegramUserId: "111",
      telegramUsername: "ann_new",
      status: "failed",
      totalAmount: "3.00",
      shippingAddress: address("Ann Smith"),
      createdAt: at(40),
    });
    await insertCustomerMessage(db(), { ...ann, message: "Hello", isRead: false, createdAt: at(11) });
    await insertCustomerMessage(db(), { ...ann, message: "Where is it?", isRead: false, createdAt: at(12) });
    await insertCustomerMessage(db(), { ...ann, message: "Thanks", isRead: true, createdAt: at(13) });
    await insertCustomerMessage(db(), {
      telegramUserId: "111",
      telegramUsername: null,
      message: "On its way",
      isFromCustomer: false,
      isRead: false,
      createdAt: at(50),
    });
    await insertCustomerMessage(db(), { telegramUserId: "222", telegramUsername: "bobby", isRead: false, createdAt: at(5) });
    await blockCustomer(db(), "333", at(1));
  }

  it("counts each customer's orders, money spent (paid and not refunded), last order and unread messages", async () => {
    await seedShop();
    const list = await listCustomers(db(), { sort: "recent" });
    expect(list).toEqual([
      {
        telegramUserId: "111",
        telegramUsername: "ann_new",
        name: "Ann Smith",
        ordersCount: 5,
        totalSpent: "15.50",
        lastOrderAt: at(40).toISOString(),
        messagesCount: 4,
        unreadCount: 2,
        lastActiveAt: at(50).toISOString(),
        isBlocked: false,
        blockedAt: null,
        language: null,
      },
      {
        telegramUserId: "222",
        telegramUsername: "bobby",
        name: null,
        ordersCount: 0,
        totalSpent: "0.00",
        lastOrderAt: null,
        messagesCount: 1,
        unreadCount: 1,
        lastActiveAt: at(5).toISOString(),
        isBlocked: false,
        blockedAt: null,
        language: null,
      },
      {
        telegramUserId: "333",
        telegramUsername: null,
        name: null,
        ordersCount: 0,
        totalSpent: "0.00",
        lastOrderAt: null,
        messagesCount: 0,
        unreadCount: 0,
        lastActiveAt: at(1).toISOString(),
        isBlocked: true,
        blockedAt: at(1).toISOString(),
        language: null,
      },
    ]);
  });

  it("sorts by total spent and by last order, ties by user id", async () => {
    await seedShop();
    await insertOrder(db(), { telegramUserId: "444", status: "completed", totalAmount: "15.50", createdAt: at(2) });
    const bySpent = await listCustomers(db(), { sort: "total-spent" });
    expect(bySpent.map((c) => [c.telegramUserId, c.totalSpent])).toEqual([
      ["444", "15.50"],
      ["111", "15.50"],
      ["333", "0.00"],
      ["222", "0.00"],
    ]);
    const byLastOrder = await listCustomers(db(), { sort: "last-order" });
    expect(byLastOrder.map((c) => c.telegramUserId)).toEqual(["111", "444", "333", "222"]);
  });

  it("finds customers by the start of any username they used, a shipping name or a word of it (the blind index), or their whole user id", async () => {
    await seedShop();
    const found = async (q: string) => (await listCustomers(db(), { q, sort: "recent" })).map((c) => c.telegramUserId);
    expect(await found("ann")).toEqual(["111"]);
    // An older username still finds them; the list shows the latest.
    expect(await found("@ANN")).toEqual(["111"]);
    expect(await found("ann smith")).toEqual(["111"]);
    expect(await found("SMITH")).toEqual(["111"]);
    // Names are matched whole (they are stored encrypted): no prefix of one.
    expect(await found("ann s")).toEqual([]);
    expect(await found("smi")).toEqual([]);
    // "@" looks at usernames only.
    expect(await found("@Ann Smith")).toEqual([]);
    expect(await found("bob")).toEqual(["222"]);
    expect(await found("333")).toEqual(["333"]);
    expect(await found("33")).toEqual([]);
    // LIKE's own characters are matched as themselves.
    expect(await found("%")).toEqual([]);
    expect(await found("@")).toEqual([]);
  });

  it("pages by keyset: every customer once, in order, with the total on each page", async () => {
    for (let i = 0; i < 7; i++) {
      // Pairs share a moment, so the tie-break by user id is exercised.
      await insertOrder(db(), { telegramUserId: String(500 + i), status: "completed", totalAmount: "1.00", createdAt: at(Math.floor(i / 2)) });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await listCustomerPage(db(), { sort: "recent", limit: 3, cursor });
      expect(page.total).toBe(7);
      seen.push(...page.rows.map((c) => c.telegramUserId));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual((await listCustomers(db(), { sort: "recent" })).map((c) => c.telegramUserId));
    expect(seen).toEqual(["506", "505", "504", "503", "502", "501", "500"]);
    // A cursor of another sort is refused.
    await expect(listCustomerPage(db(), { sort: "total-spent", limit: 3, cursor: (await listCustomerPage(db(), { sort: "recent", limit: 3 })).nextCursor! })).rejects.toThrow(
      /^Page is not one this list gave for these filters \(start again without it\)$/,
    );
  });

  it("shows a customer's newest orders first and their conversation oldest first; unknown customers are not found", async () => {
    await seedShop();
    const detail = await getCustomerDetail(db(), "111");
    expect(detail.customer.ordersCount).toBe(5);
    expect(detail.orders.map((order) => order.totalAmount)).toEqual(["3.00", "7.00", "20.00", "5.50", "10.00"]);
    expect(detail.messages.map((message) => message.message)).toEqual(["Hello", "Where is it?", "Thanks", "On its way"]);
    expect(await getCustomer(db(), "999")).toBeNull();
    await expect(getCustomerDetail(db(), "999")).rejects.toThrow("Customer not found");
  });

  it("blocks and unblocks, each idempotently, and the bot's check follows through the read cache", async () => {
    await seedShop();
    const cache = createReadCache(database);
    try {
      const deps = { db: db(), cache };
      expect(await isBlocked(deps, "111")).toBe(false);
      const first = await blockCustomer(db(), "111", at(60));
      expect(first).toEqual({ telegramUserId: "111", isBlocked: true, blockedAt: at(60).toISOString() });
      // Blocking again keeps the first time.
      expect(await blockCustomer(db(), "111", at(70))).toEqual(first);
      // The cache drops the blocked ids on the table's change notice; the admin's own write drops it at once (http/app.ts).
      cache.forget();
      expect(await isBlocked(deps, "111")).toBe(true);
      expect(await isBlocked({ db: db(), cache: NO_READ_CACHE }, "111")).toBe(true);
      expect((await getCustomer(db(), "111"))?.isBlocked).toBe(true);

      const unblocked = { telegramUserId: "111", isBlocked: false, blockedAt: null };
      expect(await unblockCustomer(db(), "111")).toEqual(unblocked);
      expect(await unblockCustomer(db(), "111")).toEqual(unblocked);
      cache.forget();
      expect(await isBlocked(deps, "111")).toBe(false);
    } finally {
      cache.stop();
    }
  });
});
