import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { ForgetResult, Order, PrivacySettings } from "../../../contract";
import { auditLog, customerMessages, orders, privacySettings } from "../../db/schema";
import { useAdminServer } from "../../../test-support/app";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";

// The privacy routes (issue 15): retention settings, and the owner forgetting a customer for them.

describe("the privacy routes", () => {
  const admin = useAdminServer();
  const { db } = admin;
  const call = (method: string, url: string, body?: unknown) => admin.server.request(method, url, { cookie: admin.cookie, body });
  beforeEach(async () => {
    for (const table of [customerMessages, orders, privacySettings, auditLog]) await db().delete(table);
  });

  it("need the admin's session", async () => {
    for (const [method, url] of [
      ["GET", "/api/privacy-settings"],
      ["PUT", "/api/privacy-settings"],
      ["POST", "/api/customers/123/forget"],
    ] as const) {
      const response = await admin.server.request(method, url, method === "GET" ? {} : { body: {} });
      expect(response.status, url).toBe(401);
    }
  });

  it("answer the retention settings, 30 days for addresses and none for messages at first, and save them", async () => {
    expect(await (await call("GET", "/api/privacy-settings")).json()).toEqual({ addressRetentionDays: 30, messageRetentionDays: 0 });
    const saved = await call("PUT", "/api/privacy-settings", { addressRetentionDays: 90, messageRetentionDays: 365 });
    expect(saved.status).toBe(200);
    expect((await saved.json()) as PrivacySettings).toEqual({ addressRetentionDays: 90, messageRetentionDays: 365 });
    expect(await (await call("GET", "/api/privacy-settings")).json()).toEqual({ addressRetentionDays: 90, messageRetentionDays: 365 });
  });

  it("refuses a period that is not a whole number of days from 0 to 3650, saying which", async () => {
    for (const [body, error] of [
      [{ addressRetentionDays: -1, messageRetentionDays: 0 }, "Address retention must be at least 0"],
      [{ addressRetentionDays: 1.5, messageRetentionDays: 0 }, "Address retention must be a whole number of days"],
      [{ addressRetentionDays: 30, messageRetentionDays: 3651 }, "Message retention must be at most 3650 days"],
      [{ addressRetentionDays: 30 }, "Message retention must be a whole number of days"],
    ] as const) {
      const response = await call("PUT", "/api/privacy-settings", body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
    expect(await (await call("GET", "/api/privacy-settings")).json()).toEqual({ addressRetentionDays: 30, messageRetentionDays: 0 });
  });

  it("forgets a customer for the owner: the orders show when their address was erased, and the audit log says what went", async () => {
    const { order: done } = await insertOrder(db(), { telegramUserId: "777", status: "completed" });
    await insertOrder(db(), { telegramUserId: "777", status: "processing" });
    await insertCustomerMessage(db(), { telegramUserId: "777", message: "ring twice" });

    const response = await call("POST", "/api/customers/777/forget", {});
    expect(response.status).toBe(200);
    expect((await response.json()) as ForgetResult).toEqual({ addressesErased: 1, addressesKept: 1, messagesErased: 1 });

    const [order] = (await (await call("GET", `/api/orders?q=${done.id}`)).json()) as Order[];
    expect(order!.shippingAddress).toBeNull();
    expect(order!.telegramUsername).toBeNull();
    expect(Date.parse(order!.addressErasedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "customer.forget"));
    expect(entry).toMatchObject({
      targetType: "customer",
      targetId: "777",
      summary: "Erased by the owner: 1 address(es) and 1 message(s) erased; 1 kept until dispatched, then erased",
    });
    // Not a Telegram user id: refused before anything happens.
    expect((await call("POST", "/api/customers/abc/forget", {})).status).toBe(400);
  });
});
