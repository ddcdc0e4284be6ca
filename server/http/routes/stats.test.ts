import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DashboardStats } from "../../../contract";
import { customerMessages, orders, products } from "../../db/schema";
import { getDashboardStats } from "../../shop/insights";
import { startTestServer, type TestServer } from "../../../test-support/app";
import { insertCustomerMessage, insertOrder, insertProduct } from "../../../test-support/factories";

describe("GET /api/dashboard/stats", () => {
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
    await server.database.db.delete(customerMessages);
  });

  const db = () => server.database.db;
  /** Moves the fixed clock; a jump of months outlives the session, so this logs in again. */
  const setClock = async (iso: string) => {
    clock = new Date(iso);
    cookie = await server.login();
  };
  const stats = async () => {
    const response = await server.request("GET", "/api/dashboard/stats", { cookie });
    expect(response.status).toBe(200);
    return (await response.json()) as DashboardStats;
  };
  /** An order paid at `iso`, placed 3 days before: revenue counts it by when it was paid. */
  const paidAt = (iso: string, totalAmount: string, status = "processing", paymentStatus = "finished") =>
    insertOrder(db(), {
      createdAt: new Date(new Date(iso).getTime() - 3 * 24 * 60 * 60 * 1000),
      paidAt: ["processing", "dispatched", "completed"].includes(status) ? new Date(iso) : null,
      totalAmount,
      status,
      paymentStatus,
    });

  it("refuses without a session", async () => {
    const response = await server.request("GET", "/api/dashboard/stats");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Not logged in." });
  });

  it("answers zeros and 0.00 revenues for an empty shop", async () => {
    expect(await stats()).toEqual({
      totalProducts: 0,
      pendingOrders: 0,
      processingOrders: 0,
      unreadMessages: 0,
      dailyRevenue: "0.00",
      weeklyRevenue: "0.00",
      totalRevenue: "0.00",
      lowStockProducts: 0,
    });
  });

  it("counts products, pending and ready-to-dispatch orders, and unread customer messages", async () => {
    await setClock("2026-01-15T10:00:00Z");
    await insertProduct(db());
    await insertProduct(db(), { isActive: false });
    await insertProduct(db(), { stock: 0 });
    await insertOrder(db(), { status: "pending", totalAmount: "1.00" });
    await insertOrder(db(), { status: "pending", totalAmount: "1.00" });
    await insertOrder(db(), { status: "processing", totalAmount: "1.00" });
    await insertOrder(db(), { status: "failed", totalAmount: "1.00" });
    await insertCustomerMessage(db());
    await insertCustomerMessage(db(), { isRead: true });
    await insertCustomerMessage(db(), { isFromCustomer: false, isRead: false });
    expect(await stats()).toMatchObject({ totalProducts: 3, pendingOrders: 2, processingOrders: 1, unreadMessages: 1 });
  });

  it("counts active products at or below their own low-stock threshold", async () => {
    await insertProduct(db(), { stock: 3 }); // default threshold 3: low
    await insertProduct(db(), { stock: 4 }); // above it
    await insertProduct(db(), { stock: 0 }); // out of stock: low
    await insertProduct(db(), { stock: 10, lowStockThreshold: 10 }); // its own threshold: low
    await insertProduct(db(), { stock: 1, lowStockThreshold: 0 }); // alerts only at 0
    await insertProduct(db(), { stock: 0, isActive: false }); // hidden from the bot: not counted
    expect(await stats()).toMatchObject({ lowStockProducts: 3 });
  });

  it("counts only paid orders as revenue: processing, dispatched and completed", async () => {
    await setClock("2026-01-15T10:00:00Z");
    await paidAt("2026-01-15T09:00:00Z", "10.00", "processing");
    await paidAt("2026-01-15T09:00:00Z", "20.50", "dispatched");
    await paidAt("2026-01-15T09:00:00Z", "5.25", "completed");
    await paidAt("2026-01-15T09:00:00Z", "100.00", "pending");
    await paidAt("2026-01-15T09:00:00Z", "200.00", "failed");
    expect(await stats()).toMatchObject({ dailyRevenue: "35.75", weeklyRevenue: "35.75", totalRevenue: "35.75" });
  });

  it("counts revenue by when the payment was confirmed, not when the order was placed", async () => {
    await setClock("2026-01-15T10:00:00Z");
    // Placed 8 days ago, paid short, accepted by the owner this morning: today's money.
    await insertOrder(db(), { createdAt: new Date("2026-01-07T10:00:00Z"), paidAt: new Date("2026-01-15T09:00:00Z"), totalAmount: "40.00", status: "processing" });
    // Placed this morning and not paid in full yet: no revenue.
    await insertOrder(db(), { createdAt: new Date("2026-01-15T09:00:00Z"), totalAmount: "5.00", status: "pending", paymentStatus: "partially_paid" });
    expect(await stats()).toMatchObject({ dailyRevenue: "40.00", weeklyRevenue: "40.00", totalRevenue: "40.00" });
  });

  it("leaves refunded payments out of revenue, also when the order had been dispatched", async () => {
    await setClock("2026-01-15T10:00:00Z");
    await paidAt("2026-01-15T09:00:00Z", "10.00", "processing");
    await paidAt("2026-01-15T09:00:00Z", "20.00", "dispatched", "refunded");
    await paidAt("2026-01-15T09:00:00Z", "30.00", "completed", "refunded");
    await paidAt("2026-01-15T09:00:00Z", "40.00", "failed", "refunded");
    expect(await stats()).toMatchObject({ dailyRevenue: "10.00", weeklyRevenue: "10.00", totalRevenue: "10.00" });
  });

  it("starts the day at London midnight in winter (GMT)", async () => {
    await setClock("2026-01-15T10:00:00Z");
    await paidAt("2026-01-15T00:00:00Z", "1.00"); // local midnight exactly: today
    await paidAt("2026-01-14T23:59:59Z", "2.00"); // one second before: yesterday
    expect(await stats()).toMatchObject({ dailyRevenue: "1.00", weeklyRevenue: "3.00", totalRevenue: "3.00" });
  });

  it("starts the day at London midnight in summer (BST, 23:00 UTC the day before)", async () => {
    // 00:30 on 15 July in London.
    await setClock("2026-07-14T23:30:00Z");
    await paidAt("2026-07-14T23:05:00Z", "4.00"); // 00:05 London time: today
    await paidAt("2026-07-14T22:55:00Z", "8.00"); // 23:55 London time on the 14th: yesterday, although the same UTC date
    expect(await stats()).toMatchObject({ dailyRevenue: "4.00", weeklyRevenue: "12.00" });
  });

  it("covers the last 7 days in weekly revenue and everything in total revenue", async () => {
    await setClock("2026-03-10T12:00:00Z");
    await paidAt("2026-03-03T12:01:00Z", "7.00"); // 6 days 23:59 ago: in the week
    await paidAt("2026-03-03T11:59:00Z", "30.00"); // 7 days 1 minute ago: outside it
    await paidAt("2025-01-01T12:00:00Z", "100.00", "completed");
    expect(await stats()).toMatchObject({ dailyRevenue: "0.00", weeklyRevenue: "7.00", totalRevenue: "137.00" });
  });

  it("uses the configured time zone", async () => {
    const now = new Date("2026-01-15T10:00:00Z"); // 05:00 in New York; its day began at 05:00 UTC
    await paidAt("2026-01-15T05:30:00Z", "3.00");
    await paidAt("2026-01-15T04:30:00Z", "6.00");
    expect(await getDashboardStats(db(), now, "America/New_York")).toMatchObject({ dailyRevenue: "3.00" });
    expect(await getDashboardStats(db(), now, "Europe/London")).toMatchObject({ dailyRevenue: "9.00" });
  });
});
