import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RevenueReport } from "../../../contract";
import { orders, products } from "../../db/schema";
import { getRevenueReport } from "../../shop/insights";
import { TEST_CUSTOMER_ID } from "../../shop/simulator";
import { startTestServer, type TestServer } from "../../../test-support/app";
import { insertOrder, insertProduct } from "../../../test-support/factories";

// GET /api/dashboard/revenue (issue 13): the dashboard chart's series, best sellers and orders by status.

describe("GET /api/dashboard/revenue", () => {
  let server: TestServer;
  let cookie: string;
  let clock = new Date("2026-01-15T10:00:00Z");

  beforeAll(async () => {
    server = await startTestServer({ deps: { now: () => clock } });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.database.db.delete(orders);
    await server.database.db.delete(products);
  });

  const db = () => server.database.db;
  const setClock = async (iso: string) => {
    clock = new Date(iso);
    cookie = await server.login();
  };
  const report = async (query = "") => {
    const response = await server.request("GET", `/api/dashboard/revenue${query}`, { cookie });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as RevenueReport;
  };
  const paid = (iso: string, totalAmount: string, status = "processing", paymentStatus = "finished", createdAt?: string) =>
    insertOrder(db(), {
      createdAt: new Date(createdAt ?? iso),
      paidAt: new Date(iso),
      totalAmount,
      status,
      paymentStatus,
    });

  it("refuses without a session", async () => {
    expect((await server.request("GET", "/api/dashboard/revenue")).status).toBe(401);
  });

  it("answers every one of the last 30 days by default, empty days included, ending today", async () => {
    await setClock("2026-01-15T10:00:00Z");
    const { series, unit, bestSellers, ordersByStatus, discountsGiven } = await report();
    expect(unit).toBe("day");
    expect(discountsGiven).toBe("0.00");
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ date: "2025-12-17", revenue: "0.00", orders: 0 });
    expect(series.at(-1)).toEqual({ date: "2026-01-15", revenue: "0.00", orders: 0 });
    expect(new Set(series.map((point) => point.date)).size).toBe(30);
    expect(bestSellers).toEqual([]);
    expect(ordersByStatus).toEqual([
      { status: "pending", count: 0 },
      { status: "processing", count: 0 },
      { status: "dispatched", count: 0 },
      { status: "completed", count: 0 },
      { status: "failed", count: 0 },
    ]);
    expect((await report("?days=90")).series).toHaveLength(90);
  });

  it("counts only paid, non-refunded orders, on the day they were paid", async () => {
    await setClock("2026-01-15T10:00:00Z");
    // Placed on the 5th, paid on the 10th: the 10th's money.
    await paid("2026-01-10T12:00:00Z", "40.00", "processing", "finished", "2026-01-05T12:00:00Z");
    await paid("2026-01-10T13:00:00Z", "2.50", "completed");
    await paid("2026-01-12T09:00:00Z", "7.00", "dispatched");
    await paid("2026-01-12T09:00:00Z", "100.00", "dispatched", "refunded");
    await paid("2026-01-12T09:00:00Z", "200.00", "pending", "waiting");
    await paid("2026-01-12T09:00:00Z", "300.00", "failed", "failed");
    await paid("2025-12-01T09:00:00Z", "500.00"); // before the range
    const { series } = await report("?days=30");
    const byDate = new Map(series.map((point) => [point.date, point]));
    expect(byDate.get("2026-01-05")).toEqual({ date: "2026-01-05", revenue: "0.00", orders: 0 });
    expect(byDate.get("2026-01-10")).toEqual({ date: "2026-01-10", revenue: "42.50", orders: 2 });
    expect(byDate.get("2026-01-12")).toEqual({ date: "2026-01-12", revenue: "7.00", orders: 1 });
    expect(series.reduce((sum, point) => sum + Number(point.revenue), 0)).toBe(49.5);
  });

  it("splits days at midnight in the shop's time zone (BST in summer)", async () => {
    await setClock("2026-07-15T10:00:00Z");
    await paid("2026-07-14T23:05:00Z", "4.00"); // 00:05 on the 15th in London
    await paid("2026-07-14T22:55:00Z", "8.00"); // 23:55 on the 14th in London
    const byDate = new Map((await report("?days=7")).series.map((point) => [point.date, point.revenue]));
    expect(byDate.get("2026-07-15")).toBe("4.00");
    expect(byDate.get("2026-07-14")).toBe("8.00");
    const newYork = await getRevenueReport(db(), { days: 7 }, clock, "America/New_York");
    expect(newYork.series.find((point) => point.date === "2026-07-14")?.revenue).toBe("12.00");
  });

  it("answers months as YYYY-MM, the last 12 including this one", async () => {
    await setClock("2026-03-10T12:00:00Z");
    await paid("2026-03-01T00:30:00Z", "5.00"); // 1 March in London (GMT)
    await paid("2026-02-28T23:30:00Z", "6.00");
    await paid("2025-04-01T00:00:00Z", "7.00"); // first month of the range (BST: 01:00 local)
    await paid("2025-03-31T22:00:00Z", "9.00"); // 23:00 on 31 March local: before the range
    const { unit, series } = await report("?months=12");
    expect(unit).toBe("month");
    expect(series.map((point) => point.date)).toEqual([
      "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09",
      "2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03",
    ]);
    expect(series[0]).toEqual({ date: "2025-04", revenue: "7.00", orders: 1 });
    expect(series[10]).toEqual({ date: "2026-02", revenue: "6.00", orders: 1 });
    expect(series[11]).toEqual({ date: "2026-03", revenue: "5.00", orders: 1 });
  });

  it("ranks the top 5 products by units in the range's revenue orders, and counts orders by status", async () => {
    await setClock("2026-01-15T10:00:00Z");
    const made = [];
    for (const name of ["Tea", "Mug", "Pot", "Cup", "Jar", "Lid"]) made.push(await insertProduct(db(), { name, price: "2.00" }));
    const [tea, mug, pot, cup, jar, lid] = made as [typeof made[0], typeof made[0], typeof made[0], typeof made[0], typeof made[0], typeof made[0]];
    const order = (status: string, paymentStatus: string, items: { product: typeof tea; quantity: number }[], paidAt: string | null = "2026-01-14T10:00:00Z") =>
      insertOrder(db(), { status, paymentStatus, paidAt: paidAt ? new Date(paidAt) : null, createdAt: new Date("2026-01-14T09:00:00Z"), items });
    await order("completed", "finished", [{ product: tea, quantity: 5 }, { product: mug, quantity: 1 }]);
    await order("processing", "finished", [{ product: mug, quantity: 2 }, { product: pot, quantity: 4 }]);
    await order("dispatched", "finished", [{ product: cup, quantity: 2 }, { product: jar, quantity: 1 }, { product: lid, quantity: 1 }]);
    await order("dispatched", "refunded", [{ product: lid, quantity: 50 }]);
    await order("pending", "waiting", [{ product: jar, quantity: 60 }], null);
    await order("failed", "failed", [{ product: jar, quantity: 70 }], null);
    await order("completed", "finished", [{ product: lid, quantity: 80 }], "2025-10-01T10:00:00Z"); // paid before the range
    const { bestSellers, ordersByStatus } = await report("?days=30");
    expect(bestSellers.map((row) => [row.name, row.quantity])).toEqual([
      ["Tea", 5],
      ["Pot", 4],
      ["Mug", 3],
      ["Cup", 2],
      // Jar and Lid both sold 1 for £2.00; the id decides, so only the count is checked.
      [expect.stringMatching(/^(Jar|Lid)$/), 1],
    ]);
    expect(bestSellers[0]).toEqual({ productId: tea.id, name: "Tea", quantity: 5, revenue: "10.00" });
    expect(Object.fromEntries(ordersByStatus.map((row) => [row.status, row.count]))).toEqual({
      pending: 1,
      processing: 1,
      dispatched: 2,
      completed: 2,
      failed: 1,
    });
  });

  it("sums the coupons' discounts of the range's revenue orders only, by the day they were paid (issue 23)", async () => {
    await setClock("2026-01-15T10:00:00Z");
    const discounted = (iso: string, totalAmount: string, discountAmount: string, status = "processing", paymentStatus = "finished", isTest = false) =>
      insertOrder(db(), { createdAt: new Date(iso), paidAt: new Date(iso), totalAmount, couponCode: "SUMMER10", discountAmount, status, paymentStatus, ...(isTest ? { isTest, telegramUserId: TEST_CUSTOMER_ID } : {}) });
    await discounted("2026-01-10T12:00:00Z", "36.00", "4.00");
    await discounted("2026-01-14T12:00:00Z", "11.60", "8.40", "completed");
    await paid("2026-01-14T13:00:00Z", "5.00"); // no coupon
    // None of these is revenue, so none of their discounts was given.
    await discounted("2026-01-12T09:00:00Z", "90.00", "10.00", "dispatched", "refunded");
    await discounted("2026-01-12T09:00:00Z", "90.00", "20.00", "pending", "waiting");
    await discounted("2026-01-12T09:00:00Z", "90.00", "40.00", "failed", "failed");
    await discounted("2026-01-12T09:00:00Z", "90.00", "80.00", "processing", "finished", true); // Bot Preview's test order
    await discounted("2025-12-01T09:00:00Z", "90.00", "160.00"); // paid before the range
    const month = await report("?days=30");
    expect(month.discountsGiven).toBe("12.40");
    // The revenue stays net of the discounts: what the customers paid.
    expect(month.series.reduce((sum, point) => sum + Math.round(Number(point.revenue) * 100), 0)).toBe(5260);
    expect((await report("?days=3")).discountsGiven).toBe("8.40");
    expect((await report("?months=12")).discountsGiven).toBe("172.40");
  });

  it("ranks a product's variants together, by units, with their line prices before the order's discount (issue 23)", async () => {
    await setClock("2026-01-15T10:00:00Z");
    const tee = await insertProduct(db(), { name: "Acceptance Tee", price: "15.00" });
    const mug = await insertProduct(db(), { name: "Mug", price: "8.00" });
    const paidAt = new Date("2026-01-14T10:00:00Z");
    await insertOrder(db(), {
      status: "processing",
      paymentStatus: "finished",
      paidAt,
      couponCode: "TEE50",
      discountAmount: "25.00",
      totalAmount: "28.00",
      items: [
        { product: tee, variantId: crypto.randomUUID(), variantLabel: "M / Black", sku: "TEE-M-BLK", quantity: 2 },
        { product: mug, quantity: 3, price: "7.50" }, // a bulk tier's unit price
      ],
    });
    await insertOrder(db(), {
      status: "completed",
      paymentStatus: "finished",
      paidAt,
      items: [{ product: tee, variantId: crypto.randomUUID(), variantLabel: "S / White", sku: "TEE-S-WHT", quantity: 2, price: "16.00" }],
    });
    const { bestSellers, discountsGiven } = await report("?days=30");
    expect(bestSellers).toEqual([
      { productId: tee.id, name: "Acceptance Tee", quantity: 4, revenue: "62.00" },
      { productId: mug.id, name: "Mug", quantity: 3, revenue: "22.50" },
    ]);
    expect(discountsGiven).toBe("25.00");
  });

  it("answers 400 for a bad range", async () => {
    for (const query of ["?days=0", "?days=abc", "?months=99", "?days=30&months=12"]) {
      const response = await server.request("GET", `/api/dashboard/revenue${query}`, { cookie });
      expect(response.status, query).toBe(400);
    }
  });
});
