import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { orders, products } from "../../db/schema";
import { createRecordingNotifier } from "../../../test-support/app";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder, insertProduct } from "../../../test-support/factories";
import { cleanupExpiredOrders } from "./orders";

describe("cleanupExpiredOrders", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("fails each expired order once and releases its stock once when two runs race", async () => {
    const { db } = database;
    const now = new Date("2026-05-01T09:00:00Z");
    const product = await insertProduct(db, { stock: 50 });
    const expired = [];
    for (let i = 0; i < 8; i++) {
      const { order } = await insertOrder(db, {
        createdAt: new Date(now.getTime() - (3 + i) * 60 * 60 * 1000),
        reserveStock: true,
        items: [{ product, quantity: 3 }],
      });
      expired.push(order.id);
    }
    const paid = await insertOrder(db, {
      status: "processing",
      paymentStatus: "finished",
      createdAt: new Date(now.getTime() - 5 * 60 * 60 * 1000),
      reserveStock: true,
      items: [{ product, quantity: 3 }],
    });
    const stock = async () => (await db.select().from(products).where(eq(products.id, product.id)))[0]!.stock;
    expect(await stock()).toBe(50 - 9 * 3);

    // Two server instances running the cleanup at the same moment.
    const notifier = createRecordingNotifier();
    const run = async () => {
      const { expiredOrderIds, notified } = await cleanupExpiredOrders({ db, notifier, now: () => now });
      await notified;
      return expiredOrderIds;
    };
    const [first, second] = await Promise.all([run(), run()]);
    expect([...first, ...second].sort()).toEqual([...expired].sort());
    // Each customer is told once.
    expect(notifier.sent).toHaveLength(expired.length);
    expect(await stock()).toBe(50 - 3);

    const [paidRow] = await db.select().from(orders).where(eq(orders.id, paid.order.id));
    expect(paidRow!.status).toBe("processing");
    expect(paidRow!.stockReleasedAt).toBeNull();
    expect(await run()).toEqual([]);
    expect(await stock()).toBe(50 - 3);
  });
});
