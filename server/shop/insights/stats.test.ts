import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "../../../contract";
import type { Database } from "../../db/client";
import { orderItems, orders } from "../../db/schema";
import { PAYMENT_STATUSES } from "../payments/gateway-port";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder } from "../../../test-support/factories";
import { TEST_CUSTOMER_ID } from "../simulator";
import { queryRows } from "../../db/rows";
import { getDashboardStats, recountTotalRevenue } from "./stats";

// All-time revenue is a running total kept by a trigger (drizzle/0005_revenue_totals.sql), so the
// dashboard never sums every order. Whatever happens to orders, in whatever order, it must equal a
// full recount.

const status = fc.constantFrom(...ORDER_STATUSES);
const paymentStatus = fc.option(fc.constantFrom(...PAYMENT_STATUSES), { nil: null });
const total = fc.integer({ min: 0, max: 500_000 }).map((pence) => (pence / 100).toFixed(2));

type Step =
  | { kind: "insert"; status: string; paymentStatus: string | null; total: string; test: boolean }
  | { kind: "status"; pick: number; status: string }
  | { kind: "payment"; pick: number; paymentStatus: string | null }
  | { kind: "total"; pick: number; total: string }
  | { kind: "delete"; pick: number }
  | { kind: "truncate" };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("insert" as const), status, paymentStatus, total, test: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("status" as const), pick: fc.nat(), status }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("payment" as const), pick: fc.nat(), paymentStatus }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("total" as const), pick: fc.nat(), total }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "truncate" as const }) },
);

describe("the dashboard's all-time revenue", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it("equals a full recount after any sequence of order changes, one by one or many in one statement", async () => {
    const { db } = database;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
        await db.delete(orderItems);
        await db.delete(orders);
        const ids: string[] = [];
        for (const change of steps) {
          const id = ids.length > 0 && "pick" in change ? ids[change.pick % ids.length]! : null;
          switch (change.kind) {
            case "insert": {
              const { order } = await insertOrder(db, {
                status: change.status as (typeof ORDER_STATUSES)[number],
                paymentStatus: change.paymentStatus,
                totalAmount: change.total,
                paidAt: new Date(),
                // Bot Preview's test orders (docs/decisions/0023) are never revenue, whatever they go through.
                ...(change.test ? { telegramUserId: TEST_CUSTOMER_ID, isTest: true } : {}),
              });
              ids.push(order.id);
              break;
            }
            case "status":
              if (id) await db.update(orders).set({ status: change.status as (typeof ORDER_STATUSES)[number] }).where(eq(orders.id, id));
              break;
            case "payment":
              if (id) await db.update(orders).set({ paymentStatus: change.paymentStatus }).where(eq(orders.id, id));
              break;
            case "total":
              if (id) await db.update(orders).set({ totalAmount: change.total }).where(eq(orders.id, id));
              break;
            case "delete":
              if (id) {
                await db.delete(orders).where(eq(orders.id, id));
                ids.splice(ids.indexOf(id), 1);
              }
              break;
            case "truncate":
              await db.execute(sql`truncate ${orders} cascade`);
              ids.length = 0;
              break;
          }
        }
        // A statement that moves many orders at once counts each of them.
        await db.update(orders).set({ status: "completed" }).where(eq(orders.status, "dispatched"));
        const stats = await getDashboardStats(db, new Date(), "Europe/London");
        expect(stats.totalRevenue).toBe(await recountTotalRevenue(db));
        // The recount itself leaves test orders out: the same sum over real orders only.
        const real = await queryRows<{ total: string }>(db, sql`select coalesce(sum(total_amount), 0)::numeric(14, 2)::text as total from orders
          where status in ('processing', 'dispatched', 'completed') and payment_status is distinct from 'refunded' and not is_test`);
        expect(stats.totalRevenue).toBe(real[0]!.total);
      }),
      { numRuns: 40 },
    );
  });
});
