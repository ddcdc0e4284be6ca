import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CustomerMessage } from "../../../contract";
import { customerMessages, orders } from "../../db/schema";
import { unavailable } from "../../shop/common";
import { recordCustomerMessage } from "../../shop/customers";
import { createRecordingNotifier, startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";

const NOW = new Date("2026-03-10T12:00:00Z");
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60 * 1000);

describe("messages API", () => {
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
    await server.database.db.delete(customerMessages);
    await server.database.db.delete(orders);
  });

  const db = () => server.database.db;
  const get = async <T>(url: string) => {
    const response = await server.request("GET", url, { cookie });
    expect(response.status, url).toBe(200);
    return (await response.json()) as T;
  };
  const stored = () => db().select().from(customerMessages);

  it("refuses every call without a session", async () => {
    const message = await insertCustomerMessage(db());
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/messages"],
      ["GET", `/api/messages/user/${message.telegramUserId}`],
      ["GET", "/api/messages/unread-count"],
      ["POST", "/api/messages", { telegramUserId: "1", message: "hi", isFromCustomer: false }],
      ["PUT", `/api/messages/${message.id}/read`],
    ];
    for (const [method, url, body] of calls) {
      const response = await server.request(method, url, { body });
      expect(response.status, `${method} ${url}`).toBe(401);
      expect(await response.json()).toEqual({ error: "Not logged in." });
    }
    expect(notifier.sent).toEqual([]);
    expect(await stored()).toHaveLength(1);
  });

  it("lists every message newest first", async () => {
    const a = await insertCustomerMessage(db(), { telegramUserId: "1", createdAt: minutesAgo(30) });
    const b = await insertCustomerMessage(db(), { telegramUserId: "2", createdAt: minutesAgo(10) });
    const c = await insertCustomerMessage(db(), {
      telegramUserId: "1",
      isFromCustomer: false,
      isRead: true,
      message: "We are on it",
      createdAt: minutesAgo(20),
    });
    const list = await get<CustomerMessage[]>("/api/messages");
    expect(list.map((m) => m.id)).toEqual([b.id, c.id, a.id]);
    expect(list[1]).toEqual({
      id: c.id,
      telegramUserId: "1",
      telegramUsername: c.telegramUsername,
      message: "We are on it",
      isFromCustomer: false,
      isRead: true,
      orderId: null,
      createdAt: minutesAgo(20).toISOString(),
    });
  });

  it("answers one customer's thread oldest first", async () => {
    const first = await insertCustomerMessage(db(), { telegramUserId: "555", message: "Where is my parcel?", createdAt: minutesAgo(60) });
    await insertCustomerMessage(db(), { telegramUserId: "666", createdAt: minutesAgo(50) });
    const reply = await insertCustomerMessage(db(), {
      telegramUserId: "555",
      message: "It left today",
      isFromCustomer: false,
      isRead: true,
      createdAt: minutesAgo(40),
    });
    const thread = await get<CustomerMessage[]>("/api/messages/user/555");
    expect(thread.map((m) => [m.id, m.message])).toEqual([
      [first.id, "Where is my parcel?"],
      [reply.id, "It left today"],
    ]);
    expect(await get("/api/messages/user/nobody")).toEqual([]);
  });

  it("counts unread messages sent by customers only", async () => {
    expect(await get("/api/messages/unread-count")).toEqual({ count: 0 });
    await insertCustomerMessage(db());
    await insertCustomerMessage(db());
    await insertCustomerMessage(db(), { isRead: true });
    // An admin message that is somehow unread is not the admin's to read.
    await insertCustomerMessage(db(), { isFromCustomer: false, isRead: false });
    expect(await get("/api/messages/unread-count")).toEqual({ count: 2 });
  });

  describe("PUT /api/messages/:id/read", () => {
    it("marks a message read", async () => {
      const message = await insertCustomerMessage(db());
      const response = await server.request("PUT", `/api/messages/${message.id}/read`, { cookie });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: message.id, isRead: true });
      expect(await get("/api/messages/unread-count")).toEqual({ count: 0 });
    });

    it("answers 404 for an unknown message", async () => {
      for (const id of [UNKNOWN_ID, "42"]) {
        const response = await server.request("PUT", `/api/messages/${id}/read`, { cookie });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "Message not found." });
      }
    });
  });

  describe("POST /api/messages", () => {
    it("delivers the reply through Telegram, then stores it as a read admin message", async () => {
      const { order } = await insertOrder(db(), { telegramUserId: "9001", telegramUsername: "bob" });
      const response = await server.request("POST", "/api/messages", {
        cookie,
        body: {
          telegramUserId: "9001",
          telegramUsername: "bob",
          message: "  Your order is on hold while we verify the payment.  ",
          isFromCustomer: false,
          orderId: order.id,
        },
      });
      expect(response.status).toBe(201);
      const message = (await response.json()) as CustomerMessage;
      expect(message).toEqual({
        id: expect.any(String),
        telegramUserId: "9001",
        telegramUsername: "bob",
        message: "Your order is on hold while we verify the payment.",
        isFromCustomer: false,
        isRead: true,
        orderId: order.id,
        createdAt: NOW.toISOString(),
      });
      expect(notifier.sent).toEqual([{ chatId: "9001", text: "Your order is on hold while we verify the payment." }]);
      expect(await get<CustomerMessage[]>("/api/messages/user/9001")).toEqual([message]);
    });

    it("accepts a numeric user id, no order and isRead, and still stores the reply as read", async () => {
      const response = await server.request("POST", "/api/messages", {
        cookie,
        body: { telegramUserId: 12345, telegramUsername: "", message: "Hello", isFromCustomer: false, isRead: false },
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ telegramUserId: "12345", telegramUsername: null, orderId: null, isRead: true });
      expect(notifier.sent).toEqual([{ chatId: "12345", text: "Hello" }]);
    });

    it("accepts a message of exactly 4096 characters", async () => {
      const text = "a".repeat(4096);
      const response = await server.request("POST", "/api/messages", {
        cookie,
        body: { telegramUserId: "1", message: text, isFromCustomer: false },
      });
      expect(response.status).toBe(201);
      expect(notifier.sent[0]!.text).toHaveLength(4096);
    });

    it("stores nothing and answers the reason when Telegram refuses", async () => {
      notifier.failWith(unavailable("Telegram refused the message: Bad Request: chat not found"));
      const response = await server.request("POST", "/api/messages", {
        cookie,
        body: { telegramUserId: "9001", message: "Hello?", isFromCustomer: false },
      });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: "Telegram refused the message: Bad Request: chat not found" });
      expect(await stored()).toEqual([]);
    });

    it("stores nothing when no bot token is configured", async () => {
      notifier.failWith(unavailable("No Telegram bot token is configured. Add it in Bot Settings."));
      const response = await server.request("POST", "/api/messages", {
        cookie,
        body: { telegramUserId: "9001", message: "Hello?", isFromCustomer: false },
      });
      expect(response.status).toBe(502);
      expect((await response.json()).error).toMatch(/No Telegram bot token/);
      expect(await stored()).toEqual([]);
    });

    it("validates every field and sends nothing when invalid", async () => {
      const { order } = await insertOrder(db(), { telegramUserId: "9001" });
      const valid = { telegramUserId: "9001", message: "Hi", isFromCustomer: false };
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...valid, message: "   " }, /^Message cannot be empty$/],
        [{ ...valid, message: undefined }, /^Message is required$/],
        [{ ...valid, message: "a".repeat(4097) }, /^Message must be at most 4096 characters$/],
        [{ ...valid, telegramUserId: " " }, /^Customer is required$/],
        [{ ...valid, telegramUserId: undefined }, /^Customer is required$/],
        [{ ...valid, isFromCustomer: true }, /^Is from customer must be false$/],
        [{ ...valid, orderId: "not-a-uuid" }, /^Order must be a valid id$/],
        [{ ...valid, orderId: UNKNOWN_ID }, /^Order is not one of the shop's orders\.$/],
        [{ ...valid, telegramUserId: "9002", orderId: order.id }, /^Order belongs to another customer\.$/],
        [{ ...valid, isRead: "yes" }, /^Is read must be yes or no \(true or false\)$/],
      ];
      for (const [body, message] of cases) {
        const response = await server.request("POST", "/api/messages", { cookie, body });
        expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect((await response.json()).error).toMatch(message);
      }
      expect(notifier.sent).toEqual([]);
      expect(await stored()).toEqual([]);
    });
  });

  describe("recordCustomerMessage (for the bot)", () => {
    it("stores an unread customer message linked to the customer's latest order", async () => {
      await insertOrder(db(), { telegramUserId: "3003", createdAt: minutesAgo(90) });
      const { order: latest } = await insertOrder(db(), { telegramUserId: "3003", createdAt: minutesAgo(30) });
      await insertOrder(db(), { telegramUserId: "4004", createdAt: minutesAgo(5) });

      const message = await recordCustomerMessage(db(), { telegramUserId: "3003", telegramUsername: "carol", message: "Any news?" });
      expect(message).toMatchObject({
        telegramUserId: "3003",
        telegramUsername: "carol",
        message: "Any news?",
        isFromCustomer: true,
        isRead: false,
        orderId: latest.id,
      });
      expect(await get("/api/messages/unread-count")).toEqual({ count: 1 });
      expect((await get<CustomerMessage[]>("/api/messages"))[0]!.id).toBe(message.id);
    });

    it("stores it without an order when the customer has none", async () => {
      const message = await recordCustomerMessage(db(), { telegramUserId: "5005", message: "Do you ship abroad?" });
      expect(message).toMatchObject({ telegramUsername: null, orderId: null, isFromCustomer: true, isRead: false });
    });
  });
});
