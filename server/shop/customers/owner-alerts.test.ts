import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { orders, ownerAlertSettings, products } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { insertCustomerMessage, insertOrder, insertProduct } from "../../../test-support/factories";
import { queryRows } from "../../db/rows";
import {
  claimNextAlert,
  finishAlert,
  getOwnerAlerts,
  issueLinkCode,
  MAX_LINK_CODE_FAILURES,
  ownerAlertText,
  redeemLinkCode,
  retryAlertLater,
  setOwnerAlertKinds,
  skipReason,
  getOwnerAlertSettings,
  unlinkOwnerChat,
} from "./owner-alerts";

// The owner alerts' rules (issue 14, item 5): the one-time link code, the kinds, the outbox the
// database triggers fill (one row per event), its claims, and what the alerts say.

const NOW = new Date("2026-11-25T10:00:00Z");
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const OWNER_CHAT = { id: "4242", title: "Ada Owner (@ada)" };

type OutboxRow = { kind: string; ref: string; payload: Record<string, unknown>; state: string };

describe("owner alerts", () => {
  let database: Database;
  const db = () => database.db;
  const outbox = async () =>
    queryRows<OutboxRow>(db(), sql`select kind, ref, payload, state from owner_alerts order by id`);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await db().delete(ownerAlertSettings);
    await db().execute(sql`delete from owner_alerts`);
  });

  describe("the link code", () => {
    it("links the chat it is sent from, once: the same code again is refused", async () => {
      const { code, expiresAt } = await issueLinkCode(db(), NOW);
      expect(code).toMatch(/^\d{6}$/);
      expect(expiresAt).toEqual(minutes(15));
      expect(await getOwnerAlerts(db())).toEqual({
        linked: false,
        chatTitle: null,
        kinds: { paidOrder: true, customerMessage: true, underpaid: true, lowStock: true },
      });

      expect(await redeemLinkCode(db(), code, OWNER_CHAT, minutes(1))).toBe(true);
      expect(await getOwnerAlerts(db())).toMatchObject({ linked: true, chatTitle: OWNER_CHAT.title });
      // Single use: someone else sending the same code later links nothing.
      expect(await redeemLinkCode(db(), code, { id: "-100999", title: "Intruders" }, minutes(2))).toBe(false);
      expect((await getOwnerAlertSettings(db()))?.chatId).toBe(OWNER_CHAT.id);
    });

    it("expires after 15 minutes (fixed clock)", async () => {
      const { code } = await issueLinkCode(db(), NOW);
      expect(await redeemLinkCode(db(), code, OWNER_CHAT, minutes(15))).toBe(false);
      expect(await getOwnerAlerts(db())).toMatchObject({ linked: false });
      // Just inside the 15 minutes a fresh code works.
      const fresh = await issueLinkCode(db(), NOW);
      expect(await redeemLinkCode(db(), fresh.code, OWNER_CHAT, new Date(minutes(15).getTime() - 1))).toBe(true);
    });

    it("stores only a hash, and a new code replaces the old one", async () => {
      const first = await issueLinkCode(db(), NOW);
      const stored = await getOwnerAlertSettings(db());
      expect(stored?.linkCodeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored)).not.toContain(first.code);
      const second = await issueLinkCode(db(), NOW);
      if (first.code !== second.code) expect(await redeemLinkCode(db(), first.code, OWNER_CHAT, NOW)).toBe(false);
      expect(await redeemLinkCode(db(), second.code, OWNER_CHAT, NOW)).toBe(true);
    });

    it("drops the code after too many wrong guesses", async () => {
      const { code } = await issueLinkCode(db(), NOW);
      const wrong = code === "000000" ? "000001" : "000000";
      for (let i = 0; i < MAX_LINK_CODE_FAILURES; i++) expect(await redeemLinkCode(db(), wrong, OWNER_CHAT, NOW)).toBe(false);
      expect(await redeemLinkCode(db(), code, OWNER_CHAT, NOW)).toBe(false);
      expect(await getOwnerAlerts(db())).toMatchObject({ linked: false });
    });

    it("refuses anything but six digits without touching the database's code", async () => {
      await issueLinkCode(db(), NOW);
      expect(await redeemLinkCode(db(), "abc", OWNER_CHAT, NOW)).toBe(false);
      expect(await redeemLinkCode(db(), "", OWNER_CHAT, NOW)).toBe(false);
      expect(await getOwnerAlerts(db())).toMatchObject({ linked: false });
    });
  });

  it("switches kinds one at a time and keeps them across unlink and link", async () => {
    expect((await setOwnerAlertKinds(db(), { customerMessage: false }, NOW)).kinds).toEqual({
      paidOrder: true,
      customerMessage: false,
      underpaid: true,
      lowStock: true,
    });
    const { code } = await issueLinkCode(db(), NOW);
    await redeemLinkCode(db(), code, OWNER_CHAT, NOW);
    expect(await unlinkOwnerChat(db(), NOW)).toEqual({
      linked: false,
      chatTitle: null,
      kinds: { paidOrder: true, customerMessage: false, underpaid: true, lowStock: true },
    });
  });

  describe("the outbox, filled by triggers", () => {
    it("holds one paid_order per order paid, whatever writes it and however often", async () => {
      const product = await insertProduct(db(), { name: "Blue Widget", price: "12.50" });
      const { order } = await insertOrder(db(), { items: [{ product, quantity: 2 }] });
      // Pending orders and payment steps that are not "paid" raise nothing.
      await db().update(orders).set({ paymentStatus: "confirming" }).where(eq(orders.id, order.id));
      expect(await outbox()).toEqual([]);
      await db().update(orders).set({ status: "processing", paidAt: NOW, paymentStatus: "finished" }).where(eq(orders.id, order.id));
      // Dispatch, and a second "paid" write (an IPN repeated after a failure), add nothing.
      await db().update(orders).set({ status: "dispatched" }).where(eq(orders.id, order.id));
      await db().update(orders).set({ status: "processing", paidAt: NOW }).where(eq(orders.id, order.id));
      expect(await outbox()).toEqual([{ kind: "paid_order", ref: order.id, payload: {}, state: "pending" }]);
    });

    it("holds an underpaid alert with what was paid and due when the payment becomes partially_paid", async () => {
      const { order } = await insertOrder(db(), { payAmount: "0.00050000", payCurrency: "btc" });
      await db().update(orders).set({ paymentStatus: "partially_paid", actuallyPaid: "0.0002" }).where(eq(orders.id, order.id));
      await db().update(orders).set({ actuallyPaid: "0.0003" }).where(eq(orders.id, order.id));
      const rows = await outbox();
      expect(rows).toEqual([{ kind: "underpaid", ref: order.id, payload: { paid: "0.0002", due: "0.00050000", currency: "btc" }, state: "pending" }]);
      expect(await ownerAlertText(db(), { kind: "underpaid", ref: order.id, payload: rows[0]!.payload }, undefined)).toBe(
        `⚠️ Order #${order.id.slice(0, 8)} underpaid: 0.0002 BTC paid of 0.00050000 BTC due.`,
      );
    });

    it("holds a customer's message, not the owner's reply nor an old message restored", async () => {
      const message = await insertCustomerMessage(db(), { telegramUsername: "bob", message: "Where is my parcel?" });
      await insertCustomerMessage(db(), { isFromCustomer: false, message: "On its way" });
      await insertCustomerMessage(db(), { message: "From last year", createdAt: new Date(Date.now() - 400 * 24 * 3600 * 1000) });
      expect(await outbox()).toEqual([{ kind: "customer_message", ref: message.id, payload: {}, state: "pending" }]);
      expect(await ownerAlertText(db(), { kind: "customer_message", ref: message.id, payload: {} }, "https://shop.example/")).toBe(
        "✉️ New message from @bob:\nWhere is my parcel?\n\nReply: https://shop.example/messages",
      );
      expect(await ownerAlertText(db(), { kind: "customer_message", ref: message.id, payload: {} }, undefined)).toBe(
        "✉️ New message from @bob:\nWhere is my parcel?",
      );
    });

    it("holds a low_stock alert each time a decrease crosses the threshold, not below it nor on a rise", async () => {
      const product = await insertProduct(db(), { name: "Red Gadget", stock: 5, lowStockThreshold: 3 });
      const setStock = (stock: number) => db().update(products).set({ stock }).where(eq(products.id, product.id));
      await setStock(4); // still above
      await setStock(3); // crosses: 3 left
      await setStock(1); // already low
      await setStock(10); // restocked
      await setStock(2); // crosses again
      const rows = await outbox();
      expect(rows.map((r) => [r.kind, r.payload.stock])).toEqual([
        ["low_stock", 3],
        ["low_stock", 2],
      ]);
      expect(await ownerAlertText(db(), { kind: "low_stock", ref: rows[0]!.ref, payload: rows[0]!.payload }, undefined)).toBe(
        "📦 Low stock: Red Gadget has 3 left (alert at 3 or fewer).",
      );
    });

    it("says the paid order's short id, total in GBP and items with quantities", async () => {
      const widget = await insertProduct(db(), { name: "Blue Widget", price: "12.50" });
      const gadget = await insertProduct(db(), { name: "Red Gadget", price: "3.00" });
      const { order } = await insertOrder(db(), { telegramUsername: "carol", items: [{ product: widget, quantity: 2 }, { product: gadget }] });
      expect(await ownerAlertText(db(), { kind: "paid_order", ref: order.id, payload: {} }, undefined)).toBe(
        `💰 Order #${order.id.slice(0, 8)} paid: £28.00\n2 × Blue Widget\n1 × Red Gadget\nCustomer: @carol`,
      );
    });

    it("names each variant bought as the order keeps it, beside products without options (issue 23)", async () => {
      const tee = await insertProduct(db(), { name: "Acceptance Tee", price: "15.00" });
      const mug = await insertProduct(db(), { name: "Mug", price: "8.00" });
      const { order } = await insertOrder(db(), {
        telegramUsername: "dave",
        items: [
          { product: tee, variantLabel: "S / White", sku: "TEE-S-WHT", quantity: 1 },
          { product: mug },
          { product: tee, variantLabel: "M / Black", sku: "TEE-M-BLK", quantity: 2 },
        ],
      });
      // The product renamed since: the order keeps the name and label it was bought with.
      await db().update(products).set({ name: "Renamed Tee" }).where(eq(products.id, tee.id));
      expect(await ownerAlertText(db(), { kind: "paid_order", ref: order.id, payload: {} }, undefined)).toBe(
        `💰 Order #${order.id.slice(0, 8)} paid: £53.00\n2 × Acceptance Tee (M / Black)\n1 × Acceptance Tee (S / White)\n1 × Mug\nCustomer: @dave`,
      );
    });

    it("is claimed by one taker at a time, and a retry waits its turn", async () => {
      await insertCustomerMessage(db());
      const first = await claimNextAlert(db(), 60_000);
      expect(first).toMatchObject({ kind: "customer_message", attempts: 1 });
      expect(await claimNextAlert(db(), 60_000)).toBeNull();
      await retryAlertLater(db(), first!.id, 60_000, "Telegram could not be reached");
      expect(await claimNextAlert(db(), 60_000)).toBeNull();
      await db().execute(sql`update owner_alerts set not_before = now() - interval '1 second'`);
      const again = await claimNextAlert(db(), 60_000);
      expect(again).toMatchObject({ id: first!.id, attempts: 2 });
      await finishAlert(db(), again!.id, "sent");
      expect((await outbox())[0]!.state).toBe("sent");
      expect(await claimNextAlert(db(), 60_000)).toBeNull();
    });

    it("claims one alert per call, oldest first, with several waiting", async () => {
      for (let i = 0; i < 3; i++) await insertCustomerMessage(db());
      const claimed = [await claimNextAlert(db(), 60_000), await claimNextAlert(db(), 60_000), await claimNextAlert(db(), 60_000)];
      expect(claimed.map((c) => c?.id)).toEqual([...claimed.map((c) => c!.id)].sort((a, b) => a - b));
      expect(new Set(claimed.map((c) => c?.id)).size).toBe(3);
      expect(await claimNextAlert(db(), 60_000)).toBeNull();
    });

    it("a claim that ran out (its sender died) is taken again", async () => {
      await insertCustomerMessage(db());
      expect(await claimNextAlert(db(), 1)).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await claimNextAlert(db(), 60_000)).toMatchObject({ attempts: 2 });
    });
  });

  it("skips an alert when nothing is linked, its kind is off, or it came before the link", () => {
    const linked = { chatId: "4242", linkedAt: minutes(-10), paidOrder: true, customerMessage: false, underpaid: true, lowStock: true };
    const settings = { id: true, chatTitle: "x", linkCodeHash: null, linkCodeExpiresAt: null, linkCodeFailures: 0, updatedAt: NOW, ...linked };
    expect(skipReason(null, { kind: "paid_order", createdAt: NOW })).toBe("no chat is linked");
    expect(skipReason({ ...settings, chatId: null }, { kind: "paid_order", createdAt: NOW })).toBe("no chat is linked");
    expect(skipReason(settings, { kind: "customer_message", createdAt: NOW })).toBe("this kind of alert is switched off");
    expect(skipReason(settings, { kind: "paid_order", createdAt: minutes(-11) })).toBe("it happened before the chat was linked");
    expect(skipReason(settings, { kind: "paid_order", createdAt: NOW })).toBeNull();
  });
});
