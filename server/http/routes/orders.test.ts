import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Order, OrderEvent, OrderItem } from "../../../contract";
import { orderItems, orders, products } from "../../db/schema";
import { unavailable } from "../../shop/common";
import { createRecordingNotifier, startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";
import { insertOrder, insertProduct } from "../../../test-support/factories";

const NOW = new Date("2026-03-10T12:00:00Z");
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 60 * 60 * 1000);

describe("orders API", () => {
  let server: TestServer;
  let cookie: string;
  const notifier = createRecordingNotifier();

  beforeAll(async () => {
    server = await startTestServer({ deps: { now: () => NOW, notifier } });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    notifier.failWith(null);
    notifier.sent.length = 0;
    // Each test starts from an empty shop.
    await server.database.db.delete(orders);
    await server.database.db.delete(products);
  });

  const db = () => server.database.db;
  const stockOf = async (id: string) =>
    (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]?.stock;
  const statusOf = async (id: string) =>
    (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;

  it("refuses every call without a session", async () => {
    const { order } = await insertOrder(db(), { status: "dispatched" });
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/orders"],
      ["GET", `/api/orders/${order.id}/items`],
      ["PUT", `/api/orders/${order.id}`, { status: "completed" }],
      ["DELETE", `/api/orders/${order.id}`],
      ["POST", "/api/orders/cleanup-expired"],
      ["POST", `/api/orders/${order.id}/notify-dispatch`],
      ["POST", `/api/orders/${order.id}/undo-dispatch`],
      ["POST", `/api/orders/${order.id}/accept-payment`],
      ["POST", `/api/orders/${order.id}/cancel`],
      ["GET", `/api/orders/${order.id}/events`],
    ];
    for (const [method, url, body] of calls) {
      const response = await server.request(method, url, { body });
      expect(response.status, `${method} ${url}`).toBe(401);
      expect(await response.json()).toEqual({ error: "Not logged in." });
    }
    expect(await statusOf(order.id)).toBe("dispatched");
    expect(notifier.sent).toEqual([]);
  });

  describe("GET /api/orders", () => {
    it("lists orders newest first with every field the screens show", async () => {
      const product = await insertProduct(db(), { name: "Brass lamp", price: "12.50" });
      const old = await insertOrder(db(), { createdAt: hoursAgo(5), items: [{ product, quantity: 2 }] });
      const recent = await insertOrder(db(), {
        createdAt: hoursAgo(1),
        telegramUserId: "4242",
        telegramUsername: "alice",
        status: "processing",
        paymentStatus: "confirmed",
        paymentId: "pay-1",
        transactionHash: "0xabc",
        payAddress: "bc1qexample",
        payAmount: "0.00042",
        payCurrency: "btc",
        paymentExpiresAt: hoursAgo(-1),
        actuallyPaid: "0.00042",
        paidAt: hoursAgo(0.5),
        trackingNumber: null,
        shippingAddress: { name: "Alice Smith", streetAddress: "1 Long Lane, Leeds", postcode: "LS1 1AA", contact: "07700 900123" },
        items: [{ product, quantity: 1 }],
      });

      const response = await server.request("GET", "/api/orders", { cookie });
      expect(response.status).toBe(200);
      const list = (await response.json()) as Order[];
      expect(list.map((o) => o.id)).toEqual([recent.order.id, old.order.id]);
      expect(list[0]).toEqual({
        id: recent.order.id,
        telegramUserId: "4242",
        telegramUsername: "alice",
        status: "processing",
        totalAmount: "12.50",
        currency: "GBP",
        paymentMethod: "btc",
        paymentStatus: "confirmed",
        paymentId: "pay-1",
        transactionHash: "0xabc",
        shippingAddress: { name: "Alice Smith", streetAddress: "1 Long Lane, Leeds", postcode: "LS1 1AA", contact: "07700 900123" },
        sealedShippingAddress: null,
        addressErasedAt: null,
        postageOptionId: null,
        postageName: null,
        postagePrice: null,
        couponCode: null,
        discountAmount: "0.00",
        trackingNumber: null,
        carrier: null,
        trackingUrl: null,
        payAddress: "bc1qexample",
        payAmount: "0.00042",
        payCurrency: "btc",
        paymentExpiresAt: hoursAgo(-1).toISOString(),
        actuallyPaid: "0.00042",
        shortfall: null,
        paidAt: hoursAgo(0.5).toISOString(),
        adminFlag: null,
        isTest: false,
        placedFrom: "bot",
        dispatchNotice: null,
        itemsSummary: { first: { productId: product.id, productName: "Brass lamp", variantLabel: null, quantity: 1 }, lineCount: 1 },
        createdAt: hoursAgo(1).toISOString(),
        updatedAt: expect.any(String),
      });
      expect(list[1]!.totalAmount).toBe("25.00");
      expect(list[1]!.paymentStatus).toBe("waiting");
    });

    it("summarises what was bought: the details' first line and the number of lines, on a page, the whole list and one order", async () => {
      // Lines of one checkout share their createdAt: the first is then the first by name, a nameless
      // line last, as the details dialog lists them. Hostile names come back as they were stored.
      const at = hoursAgo(2);
      const hostile = '<img src=x onerror=alert(1)> "Tee" & co\u202e';
      const [zebra, tagged, bare] = await Promise.all([
        insertProduct(db(), { name: "Zebra mug", price: "5.00" }),
        insertProduct(db(), { name: hostile, price: "9.00" }),
        insertProduct(db(), { name: "Unnamed", price: "1.00" }),
      ]);
      const many = await insertOrder(db(), {
        createdAt: at,
        items: [{ product: zebra, quantity: 1 }, { product: { ...bare, name: "" }, quantity: 7 }, { product: tagged, quantity: 2 }],
      });
      const nameless = await insertOrder(db(), { createdAt: hoursAgo(3), items: [{ product: { ...bare, name: "" }, quantity: 4 }] });
      const empty = await insertOrder(db(), { createdAt: hoursAgo(4) });

      const expected = {
        [many.order.id]: { first: { productId: tagged.id, productName: hostile, variantLabel: null, quantity: 2 }, lineCount: 3 },
        [nameless.order.id]: { first: { productId: bare.id, productName: "", variantLabel: null, quantity: 4 }, lineCount: 1 },
        [empty.order.id]: null,
      };
      const summaries = (list: Order[]) => Object.fromEntries(list.map((order) => [order.id, order.itemsSummary]));
      const page = (await (await server.request("GET", "/api/orders?limit=2", { cookie })).json()) as Order[];
      expect(summaries(page)).toEqual({ [many.order.id]: expected[many.order.id], [nameless.order.id]: expected[nameless.order.id] });
      expect(summaries((await (await server.request("GET", "/api/orders", { cookie })).json()) as Order[])).toEqual(expected);
      const items = (await (await server.request("GET", `/api/orders/${many.order.id}/items`, { cookie })).json()) as OrderItem[];
      expect(items[0]).toMatchObject(expected[many.order.id]!.first);
      // An order answered on its own (here after a change) carries its summary too.
      await db().update(orders).set({ status: "processing" }).where(eq(orders.id, many.order.id));
      const dispatched = await server.request("PUT", `/api/orders/${many.order.id}`, { cookie, body: { status: "dispatched" } });
      expect(((await dispatched.json()) as Order).itemsSummary).toEqual(expected[many.order.id]);
    });

    it("summarises every order of the whole list, beyond one query's batch of ids", async () => {
      const product = await insertProduct(db(), { name: "Brass lamp", price: "12.50" });
      const ids = Array.from({ length: 1_203 }, () => crypto.randomUUID());
      await db()
        .insert(orders)
        .values(ids.map((id) => ({ id, telegramUserId: "1", totalAmount: "12.50", currency: "GBP" })));
      await db()
        .insert(orderItems)
        .values(ids.map((orderId, n) => ({ orderId, productId: product.id, productName: `Lamp ${n}`, quantity: n + 1, price: "12.50" })));
      const list = (await (await server.request("GET", "/api/orders", { cookie })).json()) as Order[];
      expect(list).toHaveLength(ids.length);
      const byId = new Map(list.map((order) => [order.id, order.itemsSummary]));
      for (const [n, id] of ids.entries()) {
        expect(byId.get(id)).toEqual({ first: { productId: product.id, productName: `Lamp ${n}`, variantLabel: null, quantity: n + 1 }, lineCount: 1 });
      }
    });

    it("answers an empty list when there are no orders", async () => {
      const response = await server.request("GET", "/api/orders", { cookie });
      expect(await response.json()).toEqual([]);
    });
  });

  describe("GET /api/orders/:id/items", () => {
    it("answers the order's items with the product name as it was when ordered", async () => {
      const lamp = await insertProduct(db(), { name: "Brass lamp", price: "12.50" });
      const rug = await insertProduct(db(), { name: "Wool rug", price: "40.00" });
      const { order } = await insertOrder(db(), { items: [{ product: lamp, quantity: 2 }, { product: rug, quantity: 1, price: "35.00" }] });
      // Renaming and deleting products later does not change what was ordered.
      await db().update(products).set({ name: "Copper lamp" }).where(eq(products.id, lamp.id));
      await db().delete(products).where(eq(products.id, rug.id));

      const response = await server.request("GET", `/api/orders/${order.id}/items`, { cookie });
      expect(response.status).toBe(200);
      const items = (await response.json()) as OrderItem[];
      const byName = Object.fromEntries(items.map((item) => [item.productName, item]));
      expect(Object.keys(byName).sort()).toEqual(["Brass lamp", "Wool rug"]);
      expect(byName["Brass lamp"]).toMatchObject({ orderId: order.id, productId: lamp.id, quantity: 2, price: "12.50" });
      expect(byName["Wool rug"]).toMatchObject({ orderId: order.id, productId: rug.id, quantity: 1, price: "35.00" });
    });

    it("answers 404 for an unknown order, also for an id that is not a uuid", async () => {
      for (const id of [UNKNOWN_ID, "not-an-id"]) {
        const response = await server.request("GET", `/api/orders/${id}/items`, { cookie });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "Order not found." });
      }
    });
  });

  describe("PUT /api/orders/:id", () => {
    it("marks a processing order dispatched with a tracking number, then completed", async () => {
      const { order } = await insertOrder(db(), { status: "processing", paymentStatus: "confirmed" });
      const dispatched = await server.request("PUT", `/api/orders/${order.id}`, {
        cookie,
        body: { status: "dispatched", trackingNumber: "  RM123456789GB " },
      });
      expect(dispatched.status).toBe(200);
      expect(await dispatched.json()).toMatchObject({
        id: order.id,
        status: "dispatched",
        trackingNumber: "RM123456789GB",
        updatedAt: NOW.toISOString(),
      });

      const completed = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "completed" } });
      expect(completed.status).toBe(200);
      // No tracking number given: the one set at dispatch stays.
      expect(await completed.json()).toMatchObject({ status: "completed", trackingNumber: "RM123456789GB" });
    });

    it("marks dispatched with a carrier and tracking number, answering the tracking link", async () => {
      const { order } = await insertOrder(db(), { status: "processing", paymentStatus: "confirmed" });
      const response = await server.request("PUT", `/api/orders/${order.id}`, {
        cookie,
        body: { status: "dispatched", carrier: "  royal mail ", trackingNumber: " AB 1234 5678 9GB " },
      });
      expect(response.status).toBe(200);
      // A known carrier is stored in its own spelling; the number as typed, trimmed.
      expect(await response.json()).toMatchObject({
        status: "dispatched",
        carrier: "Royal Mail",
        trackingNumber: "AB 1234 5678 9GB",
        trackingUrl: "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
      });
      const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
      expect(row).toMatchObject({ carrier: "Royal Mail", trackingNumber: "AB 1234 5678 9GB" });

      // Completing keeps both.
      const completed = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "completed" } });
      expect(await completed.json()).toMatchObject({ status: "completed", carrier: "Royal Mail", trackingNumber: "AB 1234 5678 9GB" });
    });

    it("keeps an unknown carrier as typed, without a link; a blank carrier is none", async () => {
      const first = await insertOrder(db(), { status: "processing" });
      const parcelforce = await server.request("PUT", `/api/orders/${first.order.id}`, {
        cookie,
        body: { status: "dispatched", carrier: "Parcelforce", trackingNumber: "PF123" },
      });
      expect(await parcelforce.json()).toMatchObject({ carrier: "Parcelforce", trackingNumber: "PF123", trackingUrl: null });

      const second = await insertOrder(db(), { status: "processing" });
      const blank = await server.request("PUT", `/api/orders/${second.order.id}`, {
        cookie,
        body: { status: "dispatched", carrier: "   ", trackingNumber: "" },
      });
      expect(await blank.json()).toMatchObject({ carrier: null, trackingNumber: null, trackingUrl: null });
    });

    it("records the carrier and tracking number in the order's trail", async () => {
      const { order } = await insertOrder(db(), { status: "processing" });
      await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched", carrier: "DPD", trackingNumber: "155" } });
      const trail = (await (await server.request("GET", `/api/orders/${order.id}/events`, { cookie })).json()) as OrderEvent[];
      expect(trail.map((event) => event.detail)).toEqual(["Marked dispatched (DPD, tracking number 155)."]);
    });

    it("refuses a bad carrier or tracking number with a sentence naming it, and changes nothing", async () => {
      const { order } = await insertOrder(db(), { status: "processing" });
      const cases: [unknown, RegExp][] = [
        [{ status: "dispatched", carrier: "x".repeat(51) }, /^Carrier must be at most 50 characters/],
        [{ status: "dispatched", carrier: 7 }, /^Carrier must be text$/],
        [{ status: "dispatched", carrier: ["DPD"] }, /^Carrier must be text$/],
        [{ status: "dispatched", carrier: "<script>alert(1)</script>" }, /^Carrier may contain only letters/],
        [{ status: "dispatched", carrier: "DPD\nClick http://evil.example" }, /^Carrier may contain only letters, digits, spaces and \. & ' \( \) -$/],
        [{ status: "dispatched", trackingNumber: "RM1\nVisit https://evil.example" }, /^Tracking number may contain only/],
        [{ status: "dispatched", trackingNumber: "<b>RM1</b>" }, /^Tracking number may contain only letters, digits, spaces and hyphens$/],
        [{ status: "dispatched", trackingNumber: "RM1?x=1&y=2#z" }, /^Tracking number may contain only letters, digits, spaces and hyphens$/],
        [{ status: "dispatched", trackingNumber: "RM1\u0000" }, /^Tracking number must not contain NUL characters or unpaired surrogates$/],
        [{ status: "dispatched", trackingNumber: { number: "RM1" } }, /^Tracking number must be text$/],
      ];
      for (const [body, message] of cases) {
        const response = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect((await response.json()).error, JSON.stringify(body)).toMatch(message);
      }
      const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
      expect(row).toMatchObject({ status: "processing", carrier: null, trackingNumber: null });
    });

    it("marks dispatched without a tracking number", async () => {
      const { order } = await insertOrder(db(), { status: "processing" });
      const response = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched" } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "dispatched", trackingNumber: null });
    });

    it.each([
      ["pending", "dispatched", /is pending; only a processing order can be marked dispatched/],
      ["processing", "completed", /is processing; only a dispatched order can be marked completed/],
      ["pending", "failed", /cannot be marked failed by hand/],
      ["processing", "failed", /cannot be marked failed by hand/],
      ["dispatched", "processing", /cannot be moved back to processing/],
      ["completed", "pending", /cannot be moved back to pending/],
      ["failed", "dispatched", /is failed; only a processing order/],
      ["completed", "dispatched", /is completed; only a processing order/],
      ["dispatched", "dispatched", /is already dispatched/],
    ])("refuses %s -> %s with 409 and leaves the order as it was", async (from, to, message) => {
      const { order } = await insertOrder(db(), { status: from });
      const response = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: to } });
      expect(response.status).toBe(409);
      const { error } = await response.json();
      expect(error).toMatch(message);
      expect(error).toContain(`Order #${order.id.slice(0, 8)}`);
      expect(await statusOf(order.id)).toBe(from);
    });

    it("validates the status and the tracking number", async () => {
      const { order } = await insertOrder(db(), { status: "processing" });
      const cases: [unknown, RegExp][] = [
        [{}, /^Status is required$/],
        [{ status: "shipped" }, /^Status must be one of "pending", "processing", "dispatched", "completed" or "failed"$/],
        [{ status: "dispatched", trackingNumber: "x".repeat(101) }, /^Tracking number must be at most 100 characters/],
        [{ status: "dispatched", trackingNumber: 42 }, /^Tracking number must be text$/],
      ];
      for (const [body, message] of cases) {
        const response = await server.request("PUT", `/api/orders/${order.id}`, { cookie, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect((await response.json()).error).toMatch(message);
      }
      expect(await statusOf(order.id)).toBe("processing");
    });

    it("answers 404 for an unknown order", async () => {
      const response = await server.request("PUT", `/api/orders/${UNKNOWN_ID}`, { cookie, body: { status: "dispatched" } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Order not found." });
    });
  });

  describe("DELETE /api/orders/:id", () => {
    it("deletes a failed order and its items", async () => {
      const product = await insertProduct(db());
      const { order } = await insertOrder(db(), { status: "failed", stockReleasedAt: hoursAgo(1), items: [{ product }] });
      const response = await server.request("DELETE", `/api/orders/${order.id}`, { cookie });
      expect(response.status).toBe(200);
      expect(await statusOf(order.id)).toBeUndefined();
      expect(await db().select().from(orderItems).where(eq(orderItems.orderId, order.id))).toEqual([]);
      const list = (await (await server.request("GET", "/api/orders", { cookie })).json()) as Order[];
      expect(list).toEqual([]);
      // Its stock was already released when it failed: deleting does not add it twice.
      expect(await stockOf(product.id)).toBe(10);
    });

    it("puts back the stock of a failed order whose stock was never released, once", async () => {
      const product = await insertProduct(db(), { stock: 10 });
      const { order } = await insertOrder(db(), { status: "failed", reserveStock: true, items: [{ product, quantity: 4 }] });
      expect(await stockOf(product.id)).toBe(6);
      const response = await server.request("DELETE", `/api/orders/${order.id}`, { cookie });
      expect(response.status).toBe(200);
      expect(await stockOf(product.id)).toBe(10);
      const again = await server.request("DELETE", `/api/orders/${order.id}`, { cookie });
      expect(again.status).toBe(404);
      expect(await stockOf(product.id)).toBe(10);
    });

    it.each([
      ["partially_paid", "0.0001"],
      ["finished", "0.0005"],
      ["refunded", "0.0005"],
      ["expired", "0.0001"], // money that came in after the gateway had given up
    ])("refuses to delete a failed order whose money arrived (%s, %s received) with 409", async (paymentStatus, actuallyPaid) => {
      const { order } = await insertOrder(db(), {
        status: "failed",
        paymentStatus,
        actuallyPaid,
        payAmount: "0.0005",
        payCurrency: "btc",
        stockReleasedAt: hoursAgo(1),
      });
      const response = await server.request("DELETE", `/api/orders/${order.id}`, { cookie });
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe(
        `Order #${order.id.slice(0, 8)} received a payment (${actuallyPaid} of 0.0005 BTC), so it is kept as the record of that money and cannot be deleted.`,
      );
      expect(await statusOf(order.id)).toBe("failed");
    });

    it.each(["pending", "processing", "dispatched", "completed"])("refuses to delete a %s order with 409", async (status) => {
      const { order } = await insertOrder(db(), { status });
      const response = await server.request("DELETE", `/api/orders/${order.id}`, { cookie });
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe(
        `Order #${order.id.slice(0, 8)} is ${status}; only failed orders can be deleted.`,
      );
      expect(await statusOf(order.id)).toBe(status);
    });

    it("answers 404 for an unknown order", async () => {
      const response = await server.request("DELETE", `/api/orders/${UNKNOWN_ID}`, { cookie });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Order not found." });
    });
  });

  describe("POST /api/orders/cleanup-expired", () => {
    it("fails only old unpaid orders, releases their stock once, and never fails a paid order", async () => {
      const lamp = await insertProduct(db(), { name: "Lamp", stock: 100 });
      const rug = await insertProduct(db(), { name: "Rug", stock: 100 });
      const place = async (status: string, paymentStatus: string | null, createdAt = hoursAgo(3), paymentExpiresAt: Date | null = null) =>
        (
          await insertOrder(db(), {
            status,
            paymentStatus,
            createdAt,
            paymentExpiresAt,
            reserveStock: true,
            items: [{ product: lamp, quantity: 2 }, { product: rug, quantity: 1 }],
          })
        ).order;

      // Failed: pending, the payment never arrived, and past the later of created + 2 hours and the gateway's deadline.
      const expired = [
        await place("pending", "waiting"),
        await place("pending", "expired"),
        await place("pending", "failed"),
        await place("pending", null),
        await place("pending", "waiting", hoursAgo(25), hoursAgo(1)), // the gateway's 24 hours are over
        await place("pending", "waiting", hoursAgo(3), hoursAgo(2)), // the gateway gave less than 2 hours: 2 hours count
      ];
      // Kept: money on its way or arrived, too young, the gateway's deadline still ahead, or no longer pending.
      const kept = [
        await place("pending", "waiting", hoursAgo(3), hoursAgo(-21)), // told to pay within 24 hours
        await place("pending", "waiting", hoursAgo(3), NOW), // exactly at the deadline is not past it
        await place("processing", "waiting"), // processing is paid (or accepted): never expired
        await place("pending", "confirming"),
        await place("pending", "partially_paid"),
        await place("pending", "confirmed"),
        await place("pending", "sending"),
        await place("pending", "finished"),
        await place("processing", "confirmed"),
        await place("processing", "finished"),
        await place("pending", "waiting", hoursAgo(1.5)),
        await place("pending", "waiting", hoursAgo(2)), // exactly 2 hours old is not older than 2 hours
        await place("dispatched", "finished"),
        await place("completed", "finished"),
      ];
      const placed = expired.length + kept.length;
      expect(await stockOf(lamp.id)).toBe(100 - 2 * placed);
      expect(await stockOf(rug.id)).toBe(100 - placed);

      const response = await server.request("POST", "/api/orders/cleanup-expired", { cookie });
      expect(response.status).toBe(200);
      const { expiredOrderIds } = (await response.json()) as { expiredOrderIds: string[] };
      expect([...expiredOrderIds].sort()).toEqual(expired.map((o) => o.id).sort());
      for (const order of expired) expect(await statusOf(order.id)).toBe("failed");
      for (const order of kept) expect(await statusOf(order.id)).toBe(order.status);
      // Each customer is told (in the background, after the answer), and the trail says why.
      await vi.waitFor(() => expect(notifier.sent).toHaveLength(expired.length));
      for (const order of expired) {
        expect(notifier.sent).toContainEqual({
          chatId: order.telegramUserId,
          text: expect.stringMatching(new RegExp(`^Order #${order.id.slice(0, 8)} expired: no payment arrived`)),
        });
        const trail = (await (await server.request("GET", `/api/orders/${order.id}/events`, { cookie })).json()) as OrderEvent[];
        expect(trail).toEqual([
          { id: expect.any(String), orderId: order.id, actor: "system", action: "expired", detail: expect.stringMatching(/^Expired: no payment arrived by /), createdAt: NOW.toISOString() },
        ]);
      }
      // The expired orders' stock is back on the shelf.
      expect(await stockOf(lamp.id)).toBe(100 - 2 * kept.length);
      expect(await stockOf(rug.id)).toBe(100 - kept.length);

      // A second run finds nothing and releases nothing more.
      const again = await server.request("POST", "/api/orders/cleanup-expired", { cookie, body: {} });
      expect(await again.json()).toEqual({ expiredOrderIds: [] });
      expect(await stockOf(lamp.id)).toBe(100 - 2 * kept.length);
      expect(await stockOf(rug.id)).toBe(100 - kept.length);

      // The failed orders can now be deleted, without their stock coming back a second time.
      const deleted = await server.request("DELETE", `/api/orders/${expired[0]!.id}`, { cookie });
      expect(deleted.status).toBe(200);
      expect(await stockOf(lamp.id)).toBe(100 - 2 * kept.length);
    });

    it("answers an empty list when nothing has expired", async () => {
      await insertOrder(db(), { status: "pending", createdAt: hoursAgo(0.5) });
      const response = await server.request("POST", "/api/orders/cleanup-expired", { cookie });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ expiredOrderIds: [] });
    });
  });

  describe("POST /api/orders/:id/accept-payment", () => {
    const shortPaid = { status: "pending", paymentStatus: "partially_paid", actuallyPaid: "0.0002", payAmount: "0.0005", payCurrency: "btc" };

    it("makes a short-paid pending order Ready to Dispatch, paid now, tells the customer and writes the trail", async () => {
      const product = await insertProduct(db(), { stock: 10 });
      const { order } = await insertOrder(db(), { ...shortPaid, telegramUserId: "880001", reserveStock: true, items: [{ product, quantity: 2 }] });
      const response = await server.request("POST", `/api/orders/${order.id}/accept-payment`, { cookie });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: order.id, status: "processing", paymentStatus: "partially_paid", paidAt: NOW.toISOString(), shortfall: "0.0003" });
      expect(await stockOf(product.id)).toBe(8); // still reserved, not taken twice
      expect(notifier.sent).toEqual([{ chatId: "880001", text: expect.stringMatching(/^Payment received for order #/) }]);
      const trail = (await (await server.request("GET", `/api/orders/${order.id}/events`, { cookie })).json()) as OrderEvent[];
      expect(trail).toEqual([
        {
          id: expect.any(String),
          orderId: order.id,
          actor: "admin",
          action: "payment_accepted",
          detail: "Payment accepted by the owner (received: 0.0002 of 0.0005 BTC).",
          createdAt: NOW.toISOString(),
        },
      ]);
    });

    it("stays accepted when the customer cannot be told", async () => {
      const { order } = await insertOrder(db(), shortPaid);
      notifier.failWith(unavailable("Telegram refused the message: Forbidden: bot was blocked by the user"));
      const response = await server.request("POST", `/api/orders/${order.id}/accept-payment`, { cookie });
      expect(response.status).toBe(200);
      expect(await statusOf(order.id)).toBe("processing");
    });

    it.each([
      [{ status: "pending", paymentStatus: "waiting" }, "has received no payment, so it cannot be accepted as paid. Cancel it instead, or wait for the payment."],
      [{ status: "failed", paymentStatus: "expired" }, "has received no payment, so it cannot be accepted as paid. Cancel it instead, or wait for the payment."],
      [{ status: "pending", paymentStatus: "confirming" }, "has a payment still being confirmed on the blockchain; wait until it settles, then try again."],
      [{ status: "failed", paymentStatus: "refunded", actuallyPaid: "0.0005" }, "cannot be accepted as paid: its payment was refunded."],
      [{ status: "processing", paymentStatus: "finished" }, "is processing: it is already paid, so there is no payment to accept."],
      [{ status: "dispatched", paymentStatus: "finished" }, "is dispatched: it is already paid, so there is no payment to accept."],
    ])("refuses %o with 409 and changes nothing", async (state, message) => {
      const { order } = await insertOrder(db(), state);
      const response = await server.request("POST", `/api/orders/${order.id}/accept-payment`, { cookie });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: `Order #${order.id.slice(0, 8)} ${message}` });
      expect(await statusOf(order.id)).toBe(state.status);
      expect(notifier.sent).toEqual([]);
    });

    it("answers 404 for an unknown order", async () => {
      for (const id of [UNKNOWN_ID, "not-an-id"]) {
        const response = await server.request("POST", `/api/orders/${id}/accept-payment`, { cookie });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "Order not found." });
      }
    });
  });

  describe("POST /api/orders/:id/cancel", () => {
    it("fails a pending order, puts its stock back once and tells the customer", async () => {
      const product = await insertProduct(db(), { stock: 10 });
      const { order } = await insertOrder(db(), { telegramUserId: "880002", reserveStock: true, items: [{ product, quantity: 4 }] });
      const [first, second] = await Promise.all([
        server.request("POST", `/api/orders/${order.id}/cancel`, { cookie }),
        server.request("POST", `/api/orders/${order.id}/cancel`, { cookie }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      expect(await stockOf(product.id)).toBe(10);
      expect(notifier.sent).toEqual([
        { chatId: "880002", text: `Order #${order.id.slice(0, 8)} was cancelled by the shop. No payment was taken for it. If you have any questions, please contact support.` },
      ]);
      const trail = (await (await server.request("GET", `/api/orders/${order.id}/events`, { cookie })).json()) as OrderEvent[];
      expect(trail.map((e) => [e.actor, e.action])).toEqual([["admin", "cancelled"]]);
    });

    it.each(["processing", "dispatched", "completed", "failed"])("refuses a %s order with 409", async (status) => {
      const { order } = await insertOrder(db(), { status });
      const response = await server.request("POST", `/api/orders/${order.id}/cancel`, { cookie });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: `Order #${order.id.slice(0, 8)} is ${status}; only a pending order can be cancelled.` });
      expect(await statusOf(order.id)).toBe(status);
      expect(notifier.sent).toEqual([]);
    });

    it("refuses while a payment is being confirmed", async () => {
      const { order } = await insertOrder(db(), { paymentStatus: "confirming" });
      const response = await server.request("POST", `/api/orders/${order.id}/cancel`, { cookie });
      expect(response.status).toBe(409);
      expect((await response.json()).error).toMatch(/still being confirmed/);
      expect(await statusOf(order.id)).toBe("pending");
    });

    it("answers 404 for an unknown order", async () => {
      const response = await server.request("POST", `/api/orders/${UNKNOWN_ID}/cancel`, { cookie });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Order not found." });
    });
  });

  describe("GET /api/orders/:id/events", () => {
    it("lists the trail oldest first: dispatch and completion by the admin", async () => {
      const { order } = await insertOrder(db(), { status: "processing", paymentStatus: "finished" });
      expect(await (await server.request("GET", `/api/orders/${order.id}/events`, { cookie })).json()).toEqual([]);
      await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched", trackingNumber: "RM1" } });
      await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "completed" } });
      // A refused change writes nothing.
      await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched" } });

      const response = await server.request("GET", `/api/orders/${order.id}/events`, { cookie });
      expect(response.status).toBe(200);
      const trail = (await response.json()) as OrderEvent[];
      expect(trail.map(({ actor, action, detail }) => ({ actor, action, detail }))).toEqual([
        { actor: "admin", action: "dispatched", detail: "Marked dispatched (tracking number RM1)." },
        { actor: "admin", action: "completed", detail: "Marked completed." },
      ]);
      // The clock is fixed: the trail still keeps its order.
      expect(new Date(trail[0]!.createdAt) < new Date(trail[1]!.createdAt)).toBe(true);
    });

    it("answers 404 for an unknown order", async () => {
      for (const id of [UNKNOWN_ID, "not-an-id"]) {
        const response = await server.request("GET", `/api/orders/${id}/events`, { cookie });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "Order not found." });
      }
    });
  });

  describe("POST /api/orders/:id/notify-dispatch", () => {
    it("tells the customer their order was dispatched, with the tracking number", async () => {
      const { order } = await insertOrder(db(), { status: "processing", telegramUserId: "777001" });
      const dispatched = await server.request("PUT", `/api/orders/${order.id}`, {
        cookie,
        body: { status: "dispatched", trackingNumber: "RM987654321GB" },
      });
      expect(dispatched.status).toBe(200);

      const response = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(response.status).toBe(200);
      expect(notifier.sent).toHaveLength(1);
      expect(notifier.sent[0]!.chatId).toBe("777001");
      expect(notifier.sent[0]!.text).toContain(`Your order #${order.id.slice(0, 8)} has been dispatched.`);
      expect(notifier.sent[0]!.text).toContain("Tracking number: RM987654321GB");
    });

    it("tells the customer the carrier, the tracking number and the carrier's tracking link", async () => {
      const { order } = await insertOrder(db(), { status: "processing", telegramUserId: "777003" });
      await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched", carrier: "evri", trackingNumber: "H01 ABC" } });

      const response = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(response.status).toBe(200);
      expect(notifier.sent).toEqual([
        {
          chatId: "777003",
          text: [
            `Good news! Your order #${order.id.slice(0, 8)} has been dispatched.`,
            "Carrier: Evri",
            "Tracking number: H01 ABC",
            "Track your parcel: https://www.evri.com/track/parcel/H01ABC",
            "Thank you for shopping with us.",
          ].join("\n"),
        },
      ]);
    });

    it("adds the owner's note to the message, and refuses a note with control characters or too long", async () => {
      const { order } = await insertOrder(db(), { status: "dispatched", telegramUserId: "777004" });
      for (const [note, error] of [
        ["Left with\u0007 a bell", "Note may not contain control characters"],
        ["x".repeat(501), "Note must be at most 500 characters"],
        [42, "Note must be text"],
      ] as const) {
        const refused = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie, body: { note } });
        expect(refused.status).toBe(400);
        expect((await refused.json()).error).toContain(error);
      }
      expect(notifier.sent).toEqual([]);
      const response = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, {
        cookie,
        body: { note: "  Left with your neighbour at no. 3.\nSee you soon! <b>bold</b>  " },
      });
      expect(response.status).toBe(200);
      expect(notifier.sent[0]!.text).toBe(
        [
          `Good news! Your order #${order.id.slice(0, 8)} has been dispatched.`,
          "Note from the shop: Left with your neighbour at no. 3.",
          "See you soon! <b>bold</b>",
          "Thank you for shopping with us.",
        ].join("\n"),
      );
    });

    it("names an unknown carrier without a link", async () => {
      const { order } = await insertOrder(db(), { status: "dispatched", carrier: "Parcelforce", trackingNumber: "PF1" });
      await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(notifier.sent[0]!.text).toContain("Carrier: Parcelforce\nTracking number: PF1\nThank you");
      expect(notifier.sent[0]!.text).not.toContain("http");
    });

    it("leaves out the tracking number when there is none", async () => {
      const { order } = await insertOrder(db(), { status: "dispatched", telegramUserId: "777002" });
      const response = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(response.status).toBe(200);
      expect(notifier.sent).toEqual([{ chatId: "777002", text: expect.stringContaining(`#${order.id.slice(0, 8)}`) }]);
      expect(notifier.sent[0]!.text).not.toMatch(/tracking/i);
    });

    it("answers 502 with the reason when Telegram refuses, and the order stays dispatched", async () => {
      const { order } = await insertOrder(db(), { status: "dispatched" });
      notifier.failWith(unavailable("Telegram refused the message: Forbidden: bot was blocked by the user"));
      const response = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        error:
          "The order is dispatched, but the customer could not be notified. Telegram refused the message: Forbidden: bot was blocked by the user",
      });
      expect(await statusOf(order.id)).toBe("dispatched");
      expect(notifier.sent).toEqual([]);
    });

    it.each(["pending", "processing", "completed", "failed"])("refuses a %s order with 409 and sends nothing", async (status) => {
      const { order } = await insertOrder(db(), { status });
      const response = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe(
        `Order #${order.id.slice(0, 8)} is ${status}; the customer is notified only once it is dispatched.`,
      );
      expect(notifier.sent).toEqual([]);
    });

    it("answers 404 for an unknown order", async () => {
      const response = await server.request("POST", `/api/orders/${UNKNOWN_ID}/notify-dispatch`, { cookie });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Order not found." });
    });
  });

  describe("POST /api/orders/bulk-dispatch", () => {
    it("dispatches every order the filter matches beyond one page, skips the others with the reason, and holds each message", async () => {
      server.deps.config.dispatchUndoMs = 10_000;
      try {
        const ready = [];
        for (let i = 0; i < 30; i++) ready.push((await insertOrder(db(), { status: "processing", telegramUsername: `bulk${i}`, createdAt: hoursAgo(1 + i / 60) })).order);
        const pending = (await insertOrder(db(), { status: "pending", telegramUsername: "bulkpending" })).order;
        const other = (await insertOrder(db(), { status: "processing", telegramUsername: "someone" })).order;
        const response = await server.request("POST", "/api/orders/bulk-dispatch", { cookie, body: { filter: { q: "@bulk" } } });
        expect(response.status).toBe(200);
        const result = await response.json();
        expect(result.dispatched).toHaveLength(30);
        expect(new Set(result.dispatched)).toEqual(new Set(ready.map((order) => order.id)));
        expect(result.skipped).toEqual([{ id: pending.id, reason: `Order #${pending.id.slice(0, 8)} is pending, not Ready to Dispatch.` }]);
        expect(result.heldUntil).toBe(new Date(NOW.getTime() + 10_000).toISOString());
        expect(await statusOf(other.id)).toBe("processing");
        expect(notifier.sent).toEqual([]);
        // Replayed: nothing is dispatched twice, every order is skipped with its reason.
        const replay = await (await server.request("POST", "/api/orders/bulk-dispatch", { cookie, body: { filter: { q: "@bulk" } } })).json();
        expect(replay.dispatched).toEqual([]);
        expect(replay.skipped).toHaveLength(31);
      } finally {
        server.deps.config.dispatchUndoMs = 0;
      }
    });

    it("takes ids, reports unknown ones, and refuses both or neither, bad ids and too many", async () => {
      const { order } = await insertOrder(db(), { status: "processing", telegramUserId: "779001" });
      const response = await server.request("POST", "/api/orders/bulk-dispatch", { cookie, body: { ids: [order.id, UNKNOWN_ID] } });
      expect(await response.json()).toEqual({ dispatched: [order.id], skipped: [{ id: UNKNOWN_ID, reason: "Order not found." }], notNotified: [], heldUntil: null });
      // No window on this server: the message went at once.
      expect(notifier.sent.map((message) => message.chatId)).toEqual(["779001"]);
      for (const body of [{}, { ids: [order.id], filter: {} }, { ids: ["'; drop table orders; --"] }, { ids: Array(501).fill(order.id) }, { ids: [] }]) {
        const refused = await server.request("POST", "/api/orders/bulk-dispatch", { cookie, body });
        expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(typeof (await refused.json()).error).toBe("string");
      }
      expect((await server.request("POST", "/api/orders/bulk-dispatch", { body: { ids: [order.id] } })).status).toBe(401);
    });

    it("without an undo window, a message Telegram refuses leaves its order dispatched and says so apart", async () => {
      const refused = (await insertOrder(db(), { status: "processing", telegramUserId: "779101" })).order;
      const told = (await insertOrder(db(), { status: "processing", telegramUserId: "779102" })).order;
      notifier.failWith(unavailable("Telegram refused the message: Forbidden: bot was blocked by the user"));
      const first = await server.request("POST", "/api/orders/bulk-dispatch", { cookie, body: { ids: [refused.id] } });
      expect(await first.json()).toEqual({
        dispatched: [refused.id],
        skipped: [],
        notNotified: [
          {
            id: refused.id,
            reason: "The order is dispatched, but the customer could not be notified. Telegram refused the message: Forbidden: bot was blocked by the user",
          },
        ],
        heldUntil: null,
      });
      expect(await statusOf(refused.id)).toBe("dispatched");
      notifier.failWith(null);
      // Both again: the dispatched one is skipped (never dispatched or told twice), the other told.
      const second = await (await server.request("POST", "/api/orders/bulk-dispatch", { cookie, body: { ids: [refused.id, told.id] } })).json();
      expect(second).toEqual({
        dispatched: [told.id],
        skipped: [{ id: refused.id, reason: `Order #${refused.id.slice(0, 8)} is dispatched, not Ready to Dispatch.` }],
        notNotified: [],
        heldUntil: null,
      });
      expect(notifier.sent.map((message) => message.chatId)).toEqual(["779102"]);
    });
  });

  // The undo window (issue 22; docs/decisions/0027-dispatch-notice-held.md); the rule's races are in
  // shop/orders/dispatch-notices.test.ts. This server's clock stands still, so the window never ends here.
  describe("the undo window: notify-dispatch holds the message, POST /api/orders/:id/undo-dispatch", () => {
    beforeEach(() => {
      server.deps.config.dispatchUndoMs = 10_000;
    });
    afterAll(() => {
      server.deps.config.dispatchUndoMs = 0;
    });

    it("holds the message, shows it held on the order, and Undo makes the order Ready to Dispatch again", async () => {
      const { order } = await insertOrder(db(), { status: "processing", telegramUserId: "778001" });
      await server.request("PUT", `/api/orders/${order.id}`, { cookie, body: { status: "dispatched", carrier: "DPD", trackingNumber: "155012345" } });
      const held = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie });
      expect(held.status).toBe(200);
      const heldUntil = new Date(NOW.getTime() + 10_000).toISOString();
      expect(await held.json()).toEqual({ success: true, heldUntil });
      expect(notifier.sent).toEqual([]);
      const listed = (await (await server.request("GET", "/api/orders", { cookie })).json()) as Order[];
      expect(listed[0]!.dispatchNotice).toEqual({ state: "held", dueAt: heldUntil });

      const undone = await server.request("POST", `/api/orders/${order.id}/undo-dispatch`, { cookie });
      expect(undone.status).toBe(200);
      expect(await undone.json()).toMatchObject({ id: order.id, status: "processing", carrier: null, trackingNumber: null, dispatchNotice: null });
      const events = (await (await server.request("GET", `/api/orders/${order.id}/events`, { cookie })).json()) as OrderEvent[];
      expect(events.map((event) => event.action)).toEqual(["dispatched", "dispatch_undone"]);

      // Replayed: refused with the reason, and the order stays as it is.
      const replay = await server.request("POST", `/api/orders/${order.id}/undo-dispatch`, { cookie });
      expect(replay.status).toBe(409);
      expect(await replay.json()).toEqual({ error: `Order #${order.id.slice(0, 8)} is processing; only a dispatched order can be undone.` });
      expect(notifier.sent).toEqual([]);
    });

    it("refuses to undo an order whose customer was told (409), and answers 404 for an unknown or malformed id", async () => {
      const { order } = await insertOrder(db(), { status: "dispatched", dispatchNoticeState: "sent", dispatchNoticeDueAt: hoursAgo(1) });
      const response = await server.request("POST", `/api/orders/${order.id}/undo-dispatch`, { cookie });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        error: `Order #${order.id.slice(0, 8)} can no longer be undone: the undo window has ended and the customer has been told it was dispatched.`,
      });
      expect(await statusOf(order.id)).toBe("dispatched");
      for (const id of [UNKNOWN_ID, "'; drop table orders; --"]) {
        const missing = await server.request("POST", `/api/orders/${encodeURIComponent(id)}/undo-dispatch`, { cookie });
        expect(missing.status).toBe(404);
        expect(await missing.json()).toEqual({ error: "Order not found." });
      }
    });
  });
});
