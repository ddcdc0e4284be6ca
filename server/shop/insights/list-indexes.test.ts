import crypto from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageListQuerySchema, OrderListQuerySchema } from "../../../contract";
import type { Database } from "../../db/client";
import { createTestDatabase } from "../../../test-support/database";
import { customerMessages, orders } from "../../db/schema";
import { addressTokenMatch, protectAddress } from "../vaults/address-vault";
import { filterConditions as messageFilterConditions, messagePageQuery } from "../customers/message-list";
import { messageTokenMatch, protectMessage } from "../vaults/message-vault";
import { filterConditions, orderPageQuery } from "../orders";
import { queryRows } from "../../db/rows";
import { dashboardStatsQuery } from "./stats";
import { currentKey } from "../vaults";

// Issue 12: every filter of the paged lists is answered by an index. The plans are PostgreSQL's
// own choice on a table big enough that reading it whole would cost more (no enable_seqscan
// tricks), after ANALYZE, as a real shop's tables are.

const ORDERS = 20_000;
const MESSAGES = 20_000;

describe("the paged lists' query plans", () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    // Encrypted as the shop stores them (address-vault.ts, message-vault.ts), so the blind indexes hold real tokens.
    const key = await currentKey(db);
    const statuses = ["pending", "processing", "dispatched", "completed", "failed"];
    for (let start = 1; start <= ORDERS; start += 1000) {
      const rows = [];
      for (let i = start; i < start + 1000; i++) {
        const id = crypto.randomUUID();
        const address = { name: `Customer ${i}`, streetAddress: `${i} High Street`, postcode: `SW${i % 90} ${i % 9}AA`, contact: null };
        rows.push({
          id,
          ...(await protectAddress(db, id, address, key)),
          telegramUserId: String(100000 + (i % 5000)),
          telegramUsername: `user${i % 5000}`,
          status: statuses[i % 5]!,
          totalAmount: (((i * 37) % 50000) / 100).toFixed(2),
          currency: "GBP",
          createdAt: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 7 * 60_000),
          paidAt: i % 5 === 1 || i % 5 === 2 || i % 5 === 3 ? new Date(Date.parse("2026-01-01T00:10:00Z") + i * 7 * 60_000) : null,
        });
      }
      await db.insert(orders).values(rows);
    }
    for (let start = 1; start <= MESSAGES; start += 1000) {
      const rows = [];
      for (let i = start; i < start + 1000; i++) {
        const id = crypto.randomUUID();
        rows.push({
          id,
          ...(await protectMessage(db, id, `Message number ${i}`, key)),
          telegramUserId: String(100000 + (i % 2000)),
          telegramUsername: `user${i % 2000}`,
          isFromCustomer: i % 3 !== 0,
          isRead: i % 50 !== 0,
          createdAt: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 5 * 60_000),
        });
      }
      await db.insert(customerMessages).values(rows);
    }
    // What autovacuum does to a real shop's tables: statistics, and the visibility map that lets an
    // index answer alone.
    await db.execute(sql`vacuum analyze`);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  const plan = async (query: SQL | { getSQL(): SQL }) => {
    const result = await queryRows<Record<string, string>>(database.db, sql`explain ${query}`);
    return result.map((row) => Object.values(row)[0]).join("\n");
  };

  // Each case with the index it must read (the planner may add others to a BitmapOr).
  const orderQueries: Record<string, [Record<string, string>, RegExp]> = {
    "the first page": [{ limit: "50" }, /orders_created_at_id_idx/],
    // 1 in 5 orders: walking the newest-first index and skipping the others is cheapest; a rarer
    // status reads orders_status_created_at_id_idx.
    "a status": [{ limit: "50", status: "processing" }, /orders_(status_)?created_at_id_idx/],
    "oldest first": [{ limit: "50", sort: "oldest" }, /orders_created_at_id_idx/],
    "by total": [{ limit: "50", sort: "total-desc" }, /orders_total_id_idx/],
    "a status by total": [{ limit: "50", status: "failed", sort: "total-asc" }, /orders_status_total_id_idx/],
    "a date range": [{ limit: "50", from: "2026-02-01", to: "2026-02-03" }, /orders_created_at_id_idx/],
    "an @username": [{ limit: "50", q: "@user123" }, /orders_username_search_idx/],
    // Through the blind index (address-vault.ts): the matching ids first (the test below), then these by id.
    "a name": [{ limit: "50", q: "customer 1234" }, /orders_pkey/],
    // 1 in 90 orders: by id, or (PostgreSQL's choice) walking the newest-first index to the 50th match.
    "a postcode": [{ limit: "50", q: "sw45 0aa" }, /orders_pkey|orders_created_at_id_idx/],
    "an outward code": [{ limit: "50", q: "SW45" }, /orders_pkey|orders_created_at_id_idx/],
    "an order id prefix": [{ limit: "50", q: "#3fa2" }, /orders_pkey/],
  };

  for (const [what, [params, index]] of Object.entries(orderQueries)) {
    it(`finds the orders of ${what} through an index`, async () => {
      const query = OrderListQuerySchema.parse(params);
      const text = await plan(orderPageQuery(database.db, query, await filterConditions(database.db, query)));
      expect(text, text).toMatch(index);
      expect(text, text).not.toMatch(/Seq Scan/);
    });
  }

  for (const q of ["customer 1234", "sw45 0aa", "SW45"]) {
    it(`looks "${q}" up in the addresses' blind index`, async () => {
      const matching = (await addressTokenMatch(database.db, q))!;
      const text = await plan(sql`select id from orders where ${matching} limit 2001`);
      expect(text, text).toMatch(/orders_address_search_idx/);
    });
  }

  it("looks a word up in the messages' blind index", async () => {
    const matching = (await messageTokenMatch(database.db, "1234"))!;
    const text = await plan(sql`select id from customer_messages where ${matching} limit 2001`);
    expect(text, text).toMatch(/customer_messages_search_tokens_idx/);
  });

  it("counts the dashboard's numbers from indexes alone, never visiting the orders themselves", async () => {
    const text = await plan(dashboardStatsQuery(new Date("2026-02-20T12:00:00Z"), "Europe/London"));
    // Pending and processing counts without test orders; the day's and the week's revenue.
    expect(text.match(/Index Only Scan using orders_status_counted_idx/g), text).toHaveLength(2);
    expect(text.match(/Index Only Scan using orders_paid_at_revenue_idx/g), text).toHaveLength(2);
    expect(text, text).not.toMatch(/(Seq|Heap) Scan on orders/);
    expect(text, text).toMatch(/Index Scan using shop_totals_pkey/);
  });

  it("continues after a cursor through the same index", async () => {
    const firstQuery = OrderListQuerySchema.parse({ limit: "50", status: "pending" });
    const first = await orderPageQuery(database.db, firstQuery, await filterConditions(database.db, firstQuery));
    expect(first.length).toBe(51);
    const cursor = Buffer.from(JSON.stringify({ s: "newest", k: [first[49]!.key0, first[49]!.key1] })).toString("base64url");
    const next = OrderListQuerySchema.parse({ limit: "50", status: "pending", cursor });
    const text = await plan(orderPageQuery(database.db, next, await filterConditions(database.db, next)));
    expect(text, text).toMatch(/Index Cond: .*created_at.*id/s);
    expect(text, text).not.toMatch(/Seq Scan/);
  });

  const messageQueries: Record<string, [Record<string, string>, RegExp]> = {
    "the first page": [{ limit: "50" }, /customer_messages_created_at_id_idx/],
    "the dashboard's 3 customer messages": [{ limit: "3", sender: "customer" }, /customer_messages_(sender_)?created_at_id_idx/],
    "the unread ones": [{ limit: "50", unread: "true" }, /customer_messages_unread_idx/],
    "one customer's": [{ limit: "50", telegramUserId: "100042" }, /customer_messages_user_idx/],
    "a word's": [{ limit: "50", q: "1234" }, /customer_messages_pkey/],
  };

  for (const [what, [params, index]] of Object.entries(messageQueries)) {
    it(`finds ${what} messages through an index`, async () => {
      const query = MessageListQuerySchema.parse(params);
      const text = await plan(messagePageQuery(database.db, query, await messageFilterConditions(database.db, query)));
      expect(text, text).toMatch(index);
      expect(text, text).not.toMatch(/Seq Scan/);
    });
  }
});
