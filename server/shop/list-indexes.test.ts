import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageListQuerySchema, OrderListQuerySchema } from "../../contract";
import type { Database } from "../db/client";
import { createTestDatabase } from "../testing/database";
import { messagePageQuery } from "./message-list";
import { orderPageQuery } from "./order-list";

// Issue 12: every filter of the paged lists is answered by an index. The plans are PostgreSQL's
// own choice on a table big enough that reading it whole would cost more (no enable_seqscan
// tricks), after ANALYZE, as a real shop's tables are.

const ORDERS = 20_000;
const MESSAGES = 20_000;

describe("the paged lists' query plans", () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(sql`
      insert into orders (telegram_user_id, telegram_username, status, total_amount, currency, shipping_address, created_at)
      select (100000 + i % 5000)::text, 'user' || (i % 5000), (array['pending','processing','dispatched','completed','failed'])[1 + i % 5],
             ((i * 37) % 50000) / 100.0, 'GBP',
             jsonb_build_object('name', 'Customer ' || i, 'streetAddress', i || ' High Street', 'postcode', 'SW' || (i % 90) || ' ' || (i % 9) || 'AA'),
             timestamptz '2026-01-01' + i * interval '7 minutes'
      from generate_series(1, ${ORDERS}) as i`);
    await database.db.execute(sql`
      insert into customer_messages (telegram_user_id, telegram_username, message, is_from_customer, is_read, created_at)
      select (100000 + i % 2000)::text, 'user' || (i % 2000), 'Message number ' || i, i % 3 <> 0, i % 50 <> 0,
             timestamptz '2026-01-01' + i * interval '5 minutes'
      from generate_series(1, ${MESSAGES}) as i`);
    await database.db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  const plan = async (query: SQL | { getSQL(): SQL }) => {
    const result = (await database.db.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
    return result.rows.map((row) => Object.values(row)[0]).join("\n");
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
    "a name": [{ limit: "50", q: "customer 1234" }, /orders_name_search_idx/],
    "a postcode": [{ limit: "50", q: "sw45 0" }, /orders_postcode_search_idx/],
    "an order id prefix": [{ limit: "50", q: "#3fa2" }, /orders_pkey/],
  };

  for (const [what, [params, index]] of Object.entries(orderQueries)) {
    it(`finds the orders of ${what} through an index`, async () => {
      const query = OrderListQuerySchema.parse(params);
      const text = await plan(orderPageQuery(database.db, query as typeof query & { limit: number }));
      expect(text, text).toMatch(index);
      expect(text, text).not.toMatch(/Seq Scan/);
    });
  }

  it("continues after a cursor through the same index", async () => {
    const first = await orderPageQuery(database.db, OrderListQuerySchema.parse({ limit: "50", status: "pending" }) as never);
    expect(first.length).toBe(51);
    const cursor = Buffer.from(JSON.stringify({ s: "newest", k: [first[49]!.key0, first[49]!.key1] })).toString("base64url");
    const text = await plan(orderPageQuery(database.db, OrderListQuerySchema.parse({ limit: "50", status: "pending", cursor }) as never));
    expect(text, text).toMatch(/Index Cond: .*created_at.*id/s);
    expect(text, text).not.toMatch(/Seq Scan/);
  });

  const messageQueries: Record<string, [Record<string, string>, RegExp]> = {
    "the first page": [{ limit: "50" }, /customer_messages_created_at_id_idx/],
    "the dashboard's 3 customer messages": [{ limit: "3", sender: "customer" }, /customer_messages_(sender_)?created_at_id_idx/],
    "the unread ones": [{ limit: "50", unread: "true" }, /customer_messages_unread_idx/],
    "one customer's": [{ limit: "50", telegramUserId: "100042" }, /customer_messages_user_idx/],
  };

  for (const [what, [params, index]] of Object.entries(messageQueries)) {
    it(`finds ${what} messages through an index`, async () => {
      const query = MessageListQuerySchema.parse(params);
      const text = await plan(messagePageQuery(database.db, query as typeof query & { limit: number }));
      expect(text, text).toMatch(index);
      expect(text, text).not.toMatch(/Seq Scan/);
    });
  }
});
