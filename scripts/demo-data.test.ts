import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustomerMessage, DashboardStats, Order, OrderItem } from "../contract";
import { categories, postageOptions, products } from "../server/db/schema";
import { startTestServer, type TestServer } from "../test-support/app";
import { insertProduct } from "../test-support/factories";
import { CliError } from "./cli";
import { seedDemo } from "./demo-data";

describe("seedDemo", () => {
  let server: TestServer;
  let cookie: string;
  const now = new Date("2026-04-20T15:00:00Z");

  beforeAll(async () => {
    server = await startTestServer({ deps: { now: () => now } });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = async <T>(url: string) => {
    const response = await server.request("GET", url, { cookie });
    expect(response.status, url).toBe(200);
    return (await response.json()) as T;
  };

  it("fills an empty shop so that every screen has something to show", async () => {
    const added = await seedDemo(server.database.db, now);
    expect(added).toEqual({ categories: 8, products: 12, postageOptions: 3, orders: 10, messages: 8 });

    const stats = await get<DashboardStats>("/api/dashboard/stats");
    expect(stats).toMatchObject({ totalProducts: 12, pendingOrders: 3, processingOrders: 3, unreadMessages: 3 });
    expect(Number(stats.dailyRevenue)).toBeGreaterThan(0);
    expect(Number(stats.weeklyRevenue)).toBeGreaterThan(Number(stats.dailyRevenue));
    expect(Number(stats.totalRevenue)).toBeGreaterThan(Number(stats.weeklyRevenue));

    const orders = await get<Order[]>("/api/orders");
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(["pending", "processing", "dispatched", "completed", "failed"]));
    for (const order of orders) {
      expect(order.shippingAddress?.streetAddress).toBeTruthy();
      const items = await get<OrderItem[]>(`/api/orders/${order.id}/items`);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((item) => item.productName)).toBe(true);
    }

    // Two levels of categories, bulk tiers, out-of-stock and inactive products.
    const rows = await server.database.db.select().from(categories);
    const mains = rows.filter((c) => c.parentId === null);
    expect(mains.length).toBeGreaterThan(1);
    expect(rows.filter((c) => c.parentId !== null).every((c) => mains.some((m) => m.id === c.parentId))).toBe(true);
    const productRows = await server.database.db.select().from(products);
    expect(productRows.filter((p) => p.bulkPricing?.length).length).toBeGreaterThan(2);
    expect(productRows.some((p) => p.stock === 0)).toBe(true);
    expect(await server.database.db.select().from(postageOptions)).toHaveLength(3);

    // Conversations with admin replies and unread customer messages.
    const messages = await get<CustomerMessage[]>("/api/messages");
    expect(messages.some((m) => !m.isFromCustomer)).toBe(true);
    expect(messages.filter((m) => m.isFromCustomer && !m.isRead)).toHaveLength(3);

    // One unpaid order is older than 2 hours, ready for Cleanup Expired.
    const cleanup = await server.request("POST", "/api/orders/cleanup-expired", { cookie });
    expect((await cleanup.json()).expiredOrderIds).toHaveLength(1);
  });

  it("refuses a shop that already has products or orders and adds nothing", async () => {
    const before = await server.database.db.select().from(categories);
    await expect(seedDemo(server.database.db, now)).rejects.toThrow(CliError);
    await expect(seedDemo(server.database.db, now)).rejects.toThrow(
      /already has 12 products and 10 orders\. Demo data goes only into an empty shop; nothing was added\./,
    );
    expect(await server.database.db.select().from(categories)).toHaveLength(before.length);
  });
});

describe("seedDemo on a shop with only products", () => {
  it("refuses too", async () => {
    const server = await startTestServer();
    try {
      await insertProduct(server.database.db);
      await expect(seedDemo(server.database.db, new Date())).rejects.toThrow(/already has 1 product and 0 orders/);
      expect(await server.database.db.select().from(categories)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
