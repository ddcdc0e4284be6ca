import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../contract";
import { auditLog, loginThrottle } from "../db/schema";
import { recordBotStart } from "../shop/customers";
import { createLogger } from "../logging";
import { startTestServer, TEST_PASSWORD, type TestServer, useAdminServer } from "../../test-support/app";
import { insertCustomerMessage, insertOrder, insertProduct } from "../../test-support/factories";
import { auditActionOf } from "./audit";

// The audit log (issue 13, item 6): every admin write is recorded with its action, target and a
// summary; logins and failed logins too; never a secret; and a log that cannot be written never
// fails the admin's request.

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(56).fill(0)]);

const SETTINGS = {
  botName: "Audit Shop",
  botToken: "7000000003:audit-test-token-abcdefghij",
  acceptedCurrencies: ["BTC"],
  welcomeMessage: "Welcome",
  faqContent: "FAQ",
  nowpaymentsApiKey: "audit-api-key-123",
  nowpaymentsIpnSecret: "audit-ipn-secret-456",
};

describe("auditActionOf", () => {
  it("names a write by its target and what was done", () => {
    expect(auditActionOf("POST", "/api/products")).toEqual({ action: "product.create", targetType: "product" });
    expect(auditActionOf("PUT", "/api/products/:id")).toEqual({ action: "product.update", targetType: "product" });
    expect(auditActionOf("PATCH", "/api/postage-options/:id")).toEqual({ action: "postage.update", targetType: "postage" });
    expect(auditActionOf("DELETE", "/api/categories/:id")).toEqual({ action: "category.delete", targetType: "category" });
    expect(auditActionOf("POST", "/api/orders/:id/accept-payment")).toEqual({ action: "order.accept-payment", targetType: "order" });
    expect(auditActionOf("POST", "/api/orders/cleanup-expired")).toEqual({ action: "order.cleanup-expired", targetType: "order" });
    expect(auditActionOf("POST", "/api/customers/:telegramUserId/block")).toEqual({ action: "customer.block", targetType: "customer" });
    expect(auditActionOf("PUT", "/api/bot-settings/:id")).toEqual({ action: "settings.update", targetType: "settings" });
    expect(auditActionOf("POST", "/api/auth/login")).toEqual({ action: "auth.login", targetType: null });
  });
});

describe("the audit log of the admin's writes", () => {
  const admin = useAdminServer();
  const { db } = admin;
  beforeEach(async () => {
    await db().delete(auditLog);
  });

  const send = async (method: string, url: string, body?: unknown) => {
    const response = await admin.server.request(method, url, { cookie: admin.cookie, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as Record<string, unknown>;
  };

  /** The whole log, oldest first, as GET /api/audit-log answers it. */
  const entries = async (query = "") => {
    const response = await admin.get(`/api/audit-log?limit=200${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as AuditEntry[]).reverse();
  };
  const brief = (list: AuditEntry[]) => list.map(({ action, targetType, targetId }) => ({ action, targetType, targetId }));

  it("records settings, catalogue, images and postage writes with their action and target", async () => {
    const settings = await send("POST", "/api/bot-settings", SETTINGS);
    await send("PUT", `/api/bot-settings/${settings.id as string}`, { ...SETTINGS, botName: "Renamed" });
    const category = await send("POST", "/api/categories", { name: "Tea" });
    await send("PUT", `/api/categories/${category.id as string}`, { name: "Teas" });
    const product = await send("POST", "/api/products", { name: "Sencha", description: "Green", price: "4.99", stock: 10 });
    await send("PUT", `/api/products/${product.id as string}`, { name: "Sencha", description: "Green", price: "5.49", stock: 10 });
    const { uploadURL } = await send("POST", "/api/objects/upload", {});
    const stored = await fetch(admin.server.baseUrl + (uploadURL as string), {
      method: "PUT",
      headers: { cookie: admin.cookie, "content-type": "image/png" },
      body: PNG,
    });
    const { objectPath } = (await stored.json()) as { objectPath: string };
    await send("PUT", "/api/product-images", { imageURL: uploadURL });
    const postage = await send("POST", "/api/postage-options", { name: "Courier", price: "5.00" });
    await send("PATCH", `/api/postage-options/${postage.id as string}`, { isActive: false });
    await send("DELETE", `/api/postage-options/${postage.id as string}`);
    await send("DELETE", `/api/products/${product.id as string}`);
    await send("DELETE", `/api/categories/${category.id as string}`);

    const log = await entries();
    expect(brief(log)).toEqual([
      { action: "settings.create", targetType: "settings", targetId: settings.id },
      { action: "settings.update", targetType: "settings", targetId: settings.id },
      { action: "category.create", targetType: "category", targetId: category.id },
      { action: "category.update", targetType: "category", targetId: category.id },
      { action: "product.create", targetType: "product", targetId: product.id },
      { action: "product.update", targetType: "product", targetId: product.id },
      { action: "image.upload", targetType: "image", targetId: objectPath },
      { action: "postage.create", targetType: "postage", targetId: postage.id },
      { action: "postage.update", targetType: "postage", targetId: postage.id },
      { action: "postage.delete", targetType: "postage", targetId: postage.id },
      { action: "product.delete", targetType: "product", targetId: product.id },
      { action: "category.delete", targetType: "category", targetId: category.id },
    ]);
    // The summary says what changed, by name and as before → after (issue 22 item 7); secrets show
    // as hidden, never as themselves.
    expect(log.slice(2, 6).map((entry) => entry.summary)).toEqual([
      'Category "Tea"',
      'Category "Teas": name "Tea" → "Teas"',
      'Product "Sencha": price £4.99, stock 10, status active, low stock alert 3',
      'Product "Sencha": price £4.99 → £5.49',
    ]);
    expect(log.slice(7).map((entry) => entry.summary)).toEqual([
      'Postage option "Courier": price £5.00, status active',
      'Postage option "Courier": status active → inactive',
      'Postage option "Courier"',
      'Product "Sencha"',
      'Category "Teas"',
    ]);
    expect(log[1]!.summary).toContain('botName: "Renamed"');
    expect(log[1]!.summary).toContain("botToken: [hidden]");
    expect(log[1]!.summary).toContain("nowpaymentsIpnSecret: [hidden]");
    expect(log[6]!.summary).toBe("");
    expect(log.every((entry) => entry.ip === "127.0.0.1")).toBe(true);
  });

  it("records order changes, settlements, deletes and cleanup, and messages, each under its target", async () => {
    const product = await insertProduct(db(), { stock: 10 });
    const { order: processing } = await insertOrder(db(), { status: "processing", paymentStatus: "finished", items: [{ product }] });
    const { order: shortPaid } = await insertOrder(db(), {
      status: "pending",
      paymentStatus: "partially_paid",
      actuallyPaid: "0.0002",
      payAmount: "0.0005",
      payCurrency: "btc",
    });
    const { order: unpaid } = await insertOrder(db(), { status: "pending", paymentStatus: "waiting" });
    const { order: failed } = await insertOrder(db(), { status: "failed", paymentStatus: "expired" });
    const message = await insertCustomerMessage(db(), { telegramUserId: "5550001" });

    await send("PUT", `/api/orders/${processing.id}`, { status: "dispatched", trackingNumber: "AB123456789GB" });
    await send("POST", `/api/orders/${processing.id}/notify-dispatch`);
    await send("POST", `/api/orders/${shortPaid.id}/accept-payment`);
    await send("POST", `/api/orders/${unpaid.id}/cancel`);
    await send("DELETE", `/api/orders/${failed.id}`);
    await send("POST", "/api/orders/cleanup-expired");
    await send("POST", "/api/messages", { telegramUserId: "5550001", message: "Your parcel is on its way" });
    await send("PUT", `/api/messages/${message.id}/read`);
    await send("POST", "/api/customers/5550001/block");
    await send("POST", "/api/customers/5550001/unblock");

    const log = await entries();
    expect(brief(log)).toEqual([
      { action: "order.update", targetType: "order", targetId: processing.id },
      { action: "order.notify-dispatch", targetType: "order", targetId: processing.id },
      { action: "order.accept-payment", targetType: "order", targetId: shortPaid.id },
      { action: "order.cancel", targetType: "order", targetId: unpaid.id },
      { action: "order.delete", targetType: "order", targetId: failed.id },
      { action: "order.cleanup-expired", targetType: "order", targetId: null },
      { action: "message.reply", targetType: "customer", targetId: "5550001" },
      { action: "message.mark-read", targetType: "message", targetId: message.id },
      { action: "customer.block", targetType: "customer", targetId: "5550001" },
      { action: "customer.unblock", targetType: "customer", targetId: "5550001" },
    ]);
    expect(log[0]!.summary).toBe('status: "dispatched", trackingNumber: "AB123456789GB"');
    expect(log[5]!.summary).toBe("0 expired orders failed");
    // What was said stays in the (encrypted) messages, not in the audit log (issue 15).
    expect(log[6]!.summary).toBe("A reply of 25 characters");

    // One order's history, as the order details dialog asks for it.
    expect(brief(await entries(`&targetType=order&targetId=${processing.id}`)).map((entry) => entry.action)).toEqual([
      "order.update",
      "order.notify-dispatch",
    ]);
  });

  it("names a product's change as before → after even when it is renamed, and a broadcast by its text and audience", async () => {
    const product = await send("POST", "/api/products", { name: "Acceptance Tee", description: "", price: "10.00", stock: 5 });
    const edit = { name: "Acceptance Tee", description: "Cotton", price: "8.00", stock: 5, expectedStock: 5, isActive: false };
    await send("PUT", `/api/products/${product.id as string}`, edit);
    await send("PUT", `/api/products/${product.id as string}`, { ...edit, name: `Tee ${"W".repeat(179)}` });
    await send("PUT", `/api/products/${product.id as string}`, { ...edit, name: `Tee ${"W".repeat(179)}` });
    await send("PUT", `/api/products/${product.id as string}`, { ...edit, name: `Tee ${"W".repeat(179)}`, imageUrls: ["/objects/front", "/objects/back"] });
    await send("PUT", `/api/products/${product.id as string}`, { ...edit, name: `Tee ${"W".repeat(179)}`, imageUrls: ["/objects/front", "/objects/side"] });
    await recordBotStart(db(), "5550002", null, new Date());
    await send("POST", "/api/broadcasts", { text: "Summer sale", audience: { kind: "all" } });
    await send("POST", "/api/broadcasts", { text: "Summer sale\non  tees", audience: { kind: "recent", days: 30 } });

    const summaries = (await entries()).slice(1).map((entry) => entry.summary);
    expect(summaries).toEqual([
      'Product "Acceptance Tee": price £10.00 → £8.00, status active → inactive, description changed',
      `Product "Tee ${"W".repeat(55)}…": name "Acceptance Tee" → "Tee ${"W".repeat(55)}…"`,
      `Product "Tee ${"W".repeat(55)}…": nothing changed`,
      `Product "Tee ${"W".repeat(55)}…": image changed, photos changed`,
      `Product "Tee ${"W".repeat(55)}…": photos changed`,
      'Broadcast "Summer sale" to all customers',
      'Broadcast "Summer sale on tees" to customers with an order in the last 30 days',
    ]);
  });

  it("leaves sign-ins out when asked (the Activity screen's default)", async () => {
    await admin.server.request("POST", "/api/auth/login", { body: { password: "wrong password" } });
    await send("POST", "/api/categories", { name: "Tea" });
    expect((await entries()).map((entry) => entry.action)).toEqual(["auth.login-failed", "category.create"]);
    expect((await entries("&signIns=false")).map((entry) => entry.action)).toEqual(["category.create"]);
    expect((await entries("&signIns=true")).map((entry) => entry.action)).toEqual(["auth.login-failed", "category.create"]);
    expect((await admin.get("/api/audit-log?signIns=maybe")).status).toBe(400);
  });

  it("records nothing for reads, refused writes or the browser tests' seeding", async () => {
    await admin.get("/api/orders");
    await admin.get("/api/audit-log");
    const refused = await admin.server.request("POST", "/api/products", { cookie: admin.cookie, body: { name: "" } });
    expect(refused.status).toBe(400);
    const missing = await admin.server.request("DELETE", "/api/products/00000000-0000-4000-8000-000000000000", { cookie: admin.cookie });
    expect(missing.status).toBe(404);
    const anonymous = await admin.server.request("POST", "/api/categories", { body: { name: "Sneaky" } });
    expect(anonymous.status).toBe(401);
    expect(await entries()).toEqual([]);
  });

  it("pages newest first with Link and X-Total-Count, and refuses a forged cursor", async () => {
    for (let i = 0; i < 5; i++) await send("POST", "/api/categories", { name: `Category ${i}` });
    const first = await admin.get("/api/audit-log?limit=2&targetType=category");
    expect(first.headers.get("x-total-count")).toBe("5");
    const firstPage = (await first.json()) as AuditEntry[];
    expect(firstPage.map((entry) => entry.summary)).toEqual(['Category "Category 4"', 'Category "Category 3"']);
    const link = /^<(\/api\/audit-log\?[^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "");
    expect(link).not.toBeNull();
    const second = (await (await admin.get(link![1]!)).json()) as AuditEntry[];
    expect(second.map((entry) => entry.summary)).toEqual(['Category "Category 2"', 'Category "Category 1"']);
    expect((await admin.get("/api/audit-log?cursor=bm9wZQ")).status).toBe(400);
    expect((await admin.get("/api/audit-log?limit=0")).status).toBe(400);
    expect((await admin.server.request("GET", "/api/audit-log")).status).toBe(401);
  });
});

describe("logins in the audit log", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const actions = async () =>
    (await server.database.db.select().from(auditLog).orderBy(auditLog.createdAt)).map((row) => ({ action: row.action, ip: row.ip, summary: row.summary }));

  it("records a login, a failed login and a signed-in logout, and not an anonymous logout", async () => {
    const wrong = await server.request("POST", "/api/auth/login", { body: { password: "not the password" } });
    expect(wrong.status).toBe(401);
    const cookie = await server.login();
    expect((await server.request("POST", "/api/auth/logout", { cookie })).status).toBe(200);
    expect((await server.request("POST", "/api/auth/logout")).status).toBe(200);
    expect(await actions()).toEqual([
      { action: "auth.login-failed", ip: "127.0.0.1", summary: "" },
      { action: "auth.login", ip: "127.0.0.1", summary: "" },
      { action: "auth.logout", ip: "127.0.0.1", summary: "" },
    ]);
  });
});

describe("secrets in the audit log", () => {
  const admin = useAdminServer();

  it("never holds a bot token, gateway key, IPN secret or password, whatever they are", async () => {
    // Secrets long enough not to occur in other text by chance.
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 9_999_999 }), secret, secret, secret, secret, async (botId, tokenPart, apiKey, ipnSecret, password) => {
        await admin.db().delete(auditLog);
        // Each run's failed login would otherwise count towards the throttle's lockout (a 429, not recorded).
        await admin.db().delete(loginThrottle);
        const botToken = `${7_000_000_000 + botId}:${tokenPart}`;
        const settings = { ...SETTINGS, botToken, nowpaymentsApiKey: apiKey, nowpaymentsIpnSecret: ipnSecret, welcomeMessage: `Hi, ${botToken}` };
        const saved = await admin.server.request("POST", "/api/bot-settings", { cookie: admin.cookie, body: settings });
        expect(saved.status).toBeLessThan(300);
        const login = await admin.server.request("POST", "/api/auth/login", { body: { password } });
        expect(login.status).toBe(password === TEST_PASSWORD ? 200 : 401);
        const rows = await admin.db().select().from(auditLog);
        expect(rows.map((row) => row.action).sort()).toEqual(["auth.login-failed", "settings.create"].sort());
        const text = JSON.stringify(rows);
        for (const value of [tokenPart, apiKey, ipnSecret, password]) expect(text).not.toContain(value);
      }),
      { numRuns: 15 },
    );
  });
});

describe("when the audit log cannot be written", () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    const logger = createLogger({ level: "warn", destination: { write: (line: string) => lines.push(line) } });
    server = await startTestServer({ app: { loggerInstance: logger } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("still answers the admin's write, and warns", async () => {
    const cookie = await server.login();
    await server.database.db.execute(sql`alter table audit_log rename to audit_log_away`);
    try {
      const response = await server.request("POST", "/api/categories", { cookie, body: { name: "Still saved" } });
      expect(response.status).toBe(201);
      expect(((await response.json()) as { name: string }).name).toBe("Still saved");
      const failedLogin = await server.request("POST", "/api/auth/login", { body: { password: "wrong" } });
      expect(failedLogin.status).toBe(401);
    } finally {
      await server.database.db.execute(sql`alter table audit_log_away rename to audit_log`);
    }
    expect(lines.filter((line) => line.includes("audit log: the entry could not be recorded"))).toHaveLength(2);
  });
});
