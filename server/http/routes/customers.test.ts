import { beforeEach, describe, expect, it } from "vitest";
import type { Customer, CustomerBlockState, CustomerDetail } from "../../../contract";
import { blockedCustomers, botCustomers, customerMessages, orders } from "../../db/schema";
import { useAdminServer } from "../../../test-support/app";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";
import { minutesAfter, nextLink, walkPages } from "../../../test-support/list-pages";

// The Customers screen's routes (issue 13): the list (paged as the other lists), a customer's page,
// block and unblock.

describe("the customers routes", () => {
  const admin = useAdminServer();
  const { db, get } = admin;
  const post = (url: string) => admin.server.request("POST", url, { cookie: admin.cookie, body: {} });
  beforeEach(async () => {
    await db().delete(customerMessages);
    await db().delete(orders);
    await db().delete(blockedCustomers);
    await db().delete(botCustomers);
  });

  it("need the admin's session", async () => {
    for (const [method, url] of [
      ["GET", "/api/customers"],
      ["GET", "/api/customers/123"],
      ["POST", "/api/customers/123/block"],
      ["POST", "/api/customers/123/unblock"],
    ] as const) {
      const response = await admin.server.request(method, url, method === "POST" ? { body: {} } : {});
      expect(response.status, url).toBe(401);
      expect(await response.json()).toEqual({ error: "Not logged in." });
    }
    expect(await db().select().from(blockedCustomers)).toEqual([]);
  });

  it("lists one row per customer with their counts and money spent", async () => {
    await insertOrder(db(), { telegramUserId: "1001", telegramUsername: "ann", status: "completed", totalAmount: "12.50", createdAt: minutesAfter(1) });
    await insertOrder(db(), { telegramUserId: "1001", telegramUsername: "ann", status: "processing", totalAmount: "7.25", createdAt: minutesAfter(2) });
    await insertOrder(db(), { telegramUserId: "1001", telegramUsername: "ann", status: "pending", totalAmount: "99.00", createdAt: minutesAfter(3) });
    await insertCustomerMessage(db(), { telegramUserId: "1001", telegramUsername: "ann", isRead: false, createdAt: minutesAfter(4) });
    await insertCustomerMessage(db(), { telegramUserId: "1002", telegramUsername: "bob", isRead: false, createdAt: minutesAfter(5) });

    const response = await get("/api/customers");
    expect(response.status).toBe(200);
    const list = (await response.json()) as Customer[];
    expect(list.map((c) => [c.telegramUserId, c.telegramUsername, c.ordersCount, c.totalSpent, c.unreadCount, c.isBlocked])).toEqual([
      ["1002", "bob", 0, "0.00", 1, false],
      ["1001", "ann", 3, "19.75", 1, false],
    ]);
    expect(list[1]!.lastOrderAt).toBe(minutesAfter(3).toISOString());

    const bySpent = (await (await get("/api/customers?sort=total-spent&q=an")).json()) as Customer[];
    expect(bySpent.map((c) => c.telegramUserId)).toEqual(["1001"]);
  });

  it("pages with limit and cursor: X-Total-Count, Link rel=next, every customer once", async () => {
    for (let i = 0; i < 11; i++) {
      await insertOrder(db(), { telegramUserId: String(2000 + i), status: "completed", totalAmount: `${i}.00`, createdAt: minutesAfter(i % 4) });
    }
    const first = await get("/api/customers?limit=4&sort=total-spent");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-total-count")).toBe("11");
    expect(nextLink(first)).toMatch(/^\/api\/customers\?limit=4&sort=total-spent&cursor=[A-Za-z0-9_-]+$/);

    const { pages, rows, totals } = await walkPages<Customer>(admin.server, admin.cookie, "/api/customers?limit=4&sort=total-spent");
    expect(pages.map((page) => page.length)).toEqual([4, 4, 3]);
    expect(totals).toEqual(["11", "11", "11"]);
    expect(rows.map((c) => c.totalSpent)).toEqual(["10.00", "9.00", "8.00", "7.00", "6.00", "5.00", "4.00", "3.00", "2.00", "1.00", "0.00"]);

    const recent = await walkPages<Customer>(admin.server, admin.cookie, "/api/customers?limit=3");
    expect(new Set(recent.rows.map((c) => c.telegramUserId)).size).toBe(11);
  });

  it("refuses a bad limit, sort or cursor with a sentence", async () => {
    for (const [query, message] of [
      ["limit=0", /^Page size must be a whole number from 1 to 200$/],
      ["sort=name", /^Sort must be one of recent, last-order, total-spent$/],
      ["limit=2&cursor=nonsense", /^Page is not one this list gave for these filters \(start again without it\)$/],
      ["cursor=abc", /^Page needs the limit it was given with$/],
    ] as const) {
      const response = await get(`/api/customers?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toMatch(message);
    }
  });

  it("answers a customer's page: their numbers, newest orders first, their conversation oldest first", async () => {
    await insertOrder(db(), { telegramUserId: "3001", status: "completed", totalAmount: "4.00", createdAt: minutesAfter(1) });
    await insertOrder(db(), { telegramUserId: "3001", status: "failed", totalAmount: "6.00", createdAt: minutesAfter(2) });
    await insertCustomerMessage(db(), { telegramUserId: "3001", message: "first", createdAt: minutesAfter(3) });
    await insertCustomerMessage(db(), { telegramUserId: "3001", message: "second", isFromCustomer: false, createdAt: minutesAfter(4) });
    await insertOrder(db(), { telegramUserId: "3002", totalAmount: "1.00" });

    const response = await get("/api/customers/3001");
    expect(response.status).toBe(200);
    const detail = (await response.json()) as CustomerDetail;
    expect(detail.customer).toMatchObject({ telegramUserId: "3001", ordersCount: 2, totalSpent: "4.00", messagesCount: 2, unreadCount: 1 });
    expect(detail.orders.map((order) => order.totalAmount)).toEqual(["6.00", "4.00"]);
    expect(detail.messages.map((message) => message.message)).toEqual(["first", "second"]);

    const unknown = await get("/api/customers/3999");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Customer not found" });
  });

  it("refuses a user id that is not digits, or too long, with a clear 400", async () => {
    for (const id of ["abc", "-5", "12a", "1.5", "%20", "123456789012345678901", "' or 1=1"]) {
      for (const [method, url] of [
        ["GET", `/api/customers/${encodeURIComponent(id)}`],
        ["POST", `/api/customers/${encodeURIComponent(id)}/block`],
        ["POST", `/api/customers/${encodeURIComponent(id)}/unblock`],
      ] as const) {
        const response = method === "GET" ? await get(url) : await post(url);
        expect(response.status, `${method} ${url}`).toBe(400);
        expect(await response.json()).toEqual({ error: "Customer must be a Telegram user id (digits only, at most 20)" });
      }
    }
    expect(await db().select().from(blockedCustomers)).toEqual([]);
  });

  it("blocks and unblocks, each any number of times, answering the blocked state", async () => {
    await insertOrder(db(), { telegramUserId: "4001" });
    const blocked = await post("/api/customers/4001/block");
    expect(blocked.status).toBe(200);
    const state = (await blocked.json()) as CustomerBlockState;
    expect(state).toMatchObject({ telegramUserId: "4001", isBlocked: true });
    expect(Date.parse(state.blockedAt!)).not.toBeNaN();

    const again = await post("/api/customers/4001/block");
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(state);
    expect((await db().select().from(blockedCustomers)).length).toBe(1);

    const listed = (await (await get("/api/customers")).json()) as Customer[];
    expect(listed.find((c) => c.telegramUserId === "4001")).toMatchObject({ isBlocked: true, blockedAt: state.blockedAt });

    for (let i = 0; i < 2; i++) {
      const unblocked = await post("/api/customers/4001/unblock");
      expect(unblocked.status).toBe(200);
      expect(await unblocked.json()).toEqual({ telegramUserId: "4001", isBlocked: false, blockedAt: null });
    }
    expect(await db().select().from(blockedCustomers)).toEqual([]);

    // Someone the shop has not heard from yet can be blocked too, and then shows in the list.
    expect((await post("/api/customers/4002/block")).status).toBe(200);
    expect(((await (await get("/api/customers/4002")).json()) as CustomerDetail).customer).toMatchObject({ isBlocked: true, ordersCount: 0 });
  });

  it("shows the language the bot speaks to each customer, and filters by it (issue 26)", async () => {
    await insertOrder(db(), { telegramUserId: "5001", telegramUsername: "anna", status: "completed", totalAmount: "5.00", createdAt: minutesAfter(1) });
    await insertCustomerMessage(db(), { telegramUserId: "5002", telegramUsername: "jean", createdAt: minutesAfter(2) });
    await insertCustomerMessage(db(), { telegramUserId: "5003", telegramUsername: "nobody", createdAt: minutesAfter(3) });
    await insertOrder(db(), { telegramUserId: "5004", telegramUsername: "anne", status: "completed", totalAmount: "9.00", createdAt: minutesAfter(4) });
    await db().insert(botCustomers).values([
      { telegramUserId: "5001", language: "de" },
      { telegramUserId: "5002", language: "fr" },
      { telegramUserId: "5004", language: "de" },
    ]);

    const all = (await (await get("/api/customers")).json()) as Customer[];
    expect(all.map((c) => [c.telegramUserId, c.language])).toEqual([
      ["5004", "de"],
      ["5003", null],
      ["5002", "fr"],
      ["5001", "de"],
    ]);
    const german = await get("/api/customers?language=de&limit=1");
    expect(german.headers.get("x-total-count")).toBe("2");
    expect(((await german.json()) as Customer[]).map((c) => c.telegramUserId)).toEqual(["5004"]);
    const germanAnn = (await (await get("/api/customers?language=de&q=ann")).json()) as Customer[];
    expect(germanAnn.map((c) => c.telegramUserId)).toEqual(["5004", "5001"]);
    expect(((await (await get("/api/customers?language=es")).json()) as Customer[])).toEqual([]);
    expect(((await (await get("/api/customers/5002")).json()) as CustomerDetail).customer.language).toBe("fr");

    const unknown = await get("/api/customers?language=klingon");
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe("Language must be one of en, de, es, fr, ru, uk");
  });
});
