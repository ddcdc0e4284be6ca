import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustomerMessage, Order } from "../../contract";
import { dataKeys } from "../db/schema";
import { countUnderKeys, rotateDataKey } from "../shop/privacy/key-rotation";
import { startShopWithBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";

// Issue 15, item 1: a stolen database or backup reveals no address or message. A customer buys through
// the bot and writes to support, the owner replies; then every row of every table is read raw (on
// PGlite, and on PostgreSQL when TEST_DATABASE_URL is set) and none holds what the customer typed,
// while the logged-in owner still sees all of it, finds the order by postcode and name, and still
// does after a key rotation.

const TOKEN = "7000000015:encryption-test-token";
// Distinctive words, so finding any of them in a raw row means it leaked.
const NAME = "Zelda Quintessa";
const STREET = "77 Marigold Crescent, Wolverhampton";
const POSTCODE = "QX9 8ZZ";
const CONTACT = "zelda-contact-7781";
const SUPPORT_TEXT = "Please ring the xylophone doorbell twice";
const REPLY_TEXT = "Of course, we will ring the xylophone doorbell";
const NOTE_TEXT = "Prefers the periwinkle porch; tips generously";
// (Each long enough that a random ciphertext or hash does not spell it by chance.)
const SECRETS = ["zelda", "quintessa", "marigold", "wolverhampton", "qx9 8zz", "qx98zz", "contact-7781", "xylophone", "doorbell", "periwinkle"];

describe("encryption at rest, after a purchase and a support message", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let shop: ShopWithBot;
  let admin: string;
  let customer: Customer;
  let orderId: string;

  const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await shop.server.request(method, url, { cookie: admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const db = () => shop.server.database.db;
  /** One order as the Orders list shows it (searched by its id). */
  const getOrder = async (id: string) => {
    const [order] = await api<Order[]>("GET", `/api/orders?q=${id}`);
    expect(order?.id).toBe(id);
    return order!;
  };
  const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

  /** Every row of every table of the database, as text: what a dump or a stolen disk would show. */
  async function everyRawRow(): Promise<{ table: string; row: string }[]> {
    const tables = rowsOf<{ table_name: string }>(
      await db().execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`),
    );
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["orders", "customer_messages", "bot_conversations", "telegram_updates", "audit_log", "owner_alerts"]));
    const found: { table: string; row: string }[] = [];
    for (const { table_name: table } of tables) {
      const rows = rowsOf<{ row: string }>(await db().execute(sql`select t::text as row from ${sql.identifier(table)} t`));
      for (const { row } of rows) found.push({ table, row });
    }
    return found;
  }

  async function expectNothingInClear() {
    const leaks = (await everyRawRow()).filter(({ row }) => SECRETS.some((secret) => row.toLowerCase().includes(secret)));
    expect(leaks).toEqual([]);
  }

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    shop = await startShopWithBot({ telegram, config: { nowpaymentsApiUrl: gateway.url } });
    admin = await shop.server.login();
    await api("POST", "/api/bot-settings", {
      botName: "Tea Shop",
      botToken: TOKEN,
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
      nowpaymentsIpnSecret: TEST_IPN_SECRET,
    });
    const category = await api<{ id: string }>("POST", "/api/categories", { name: "Tea" });
    await api("POST", "/api/products", { name: "Sencha", description: "Green tea.", price: "4.99", stock: 20, categoryId: category.id });
    await api("POST", "/api/postage-options", { name: "Royal Mail 1st Class", price: "3.50", estimatedDays: 2 });
    await shop.bot.started();
    customer = shop.customer(81_500_001, "zq_buyer");
  });
  afterAll(async () => {
    await shop?.close();
    await gateway?.close();
    await telegram?.close();
  });

  it("keeps the checkout draft encrypted while the customer types the address", async () => {
    await customer.send("/start");
    await customer.press("Browse Products");
    await customer.press("Tea");
    await customer.press("Sencha · £4.99");
    await customer.press("Add 1 to cart");
    await customer.press("🛒 My Cart");
    await customer.press("✅ Checkout");
    await customer.send(NAME);
    await customer.send(STREET);
    await customer.send(POSTCODE);
    expect(customer.text()).toMatch(/contact \(optional\)/);
    const [draft] = rowsOf<{ state: string }>(
      await db().execute(sql`select state::text as state from bot_conversations where telegram_user_id = ${customer.id}`),
    );
    expect(draft!.state).toMatch(/"sealedDraft": "sk1:/);
    await expectNothingInClear();
  });

  it("stores the order, the support message and the owner's reply with nothing in clear", async () => {
    await customer.send(CONTACT);
    await customer.press("Royal Mail 1st Class: £3.50 (2 days)");
    await customer.press("Bitcoin (BTC)");
    expect(customer.text()).toContain(`Deliver to:\n${NAME}\n${STREET}\n${POSTCODE}`);
    await customer.press("✅ Confirm and pay");
    const payment = [...gateway.payments.values()][0]!;
    orderId = payment.order_id;
    gateway.setStatus(payment.payment_id, "finished");
    expect((await postIpn(shop.server.baseUrl, gateway.ipnBody(payment.payment_id, "finished"), { secret: TEST_IPN_SECRET })).status).toBe(200);

    await customer.send("/start");
    await customer.press("Contact Support");
    await customer.send(SUPPORT_TEXT);
    await api("POST", "/api/messages", { telegramUserId: customer.id, message: REPLY_TEXT, orderId });
    // The owner's note about the customer (docs/decisions/0029-customer-notes.md).
    await api("PUT", `/api/customers/${customer.id}/notes`, { note: NOTE_TEXT });

    // Handled updates keep only their ids.
    const pending = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from telegram_updates where payload is not null`));
    expect(Number(pending[0]!.n)).toBe(0);
    await expectNothingInClear();
  });

  it("shows everything to the logged-in owner, and finds the order by postcode, outward code and name", async () => {
    const order = await getOrder(orderId);
    expect(order.shippingAddress).toEqual({ name: NAME, streetAddress: STREET, postcode: POSTCODE, contact: CONTACT });
    const thread = await api<CustomerMessage[]>("GET", `/api/messages?telegramUserId=${customer.id}&sort=oldest`);
    expect(thread.map((message) => message.message)).toEqual([SUPPORT_TEXT, REPLY_TEXT]);
    expect((await api<{ note: string }>("GET", `/api/customers/${customer.id}/notes`)).note).toBe(NOTE_TEXT);
    for (const q of ["qx9 8zz", "QX98ZZ", "QX9", "zelda quintessa", "Quintessa"]) {
      const found = await api<Order[]>("GET", `/api/orders?q=${encodeURIComponent(q)}`);
      expect(found.map((o) => o.id), q).toEqual([orderId]);
    }
    expect((await api<CustomerMessage[]>("GET", "/api/messages?q=xylophone")).map((m) => m.message).sort()).toEqual([REPLY_TEXT, SUPPORT_TEXT].sort());
  });

  it("rotates the key: everything stays readable and searchable, nothing is left under the old key, whose key is deleted", async () => {
    const [before] = await db().select().from(dataKeys);
    const report = await rotateDataKey(db(), { graceMs: 0, batchSize: 1 });
    expect(report.retiredKeyIds).toEqual([before!.id]);
    expect(report.addresses).toBe(1);
    expect(report.messages).toBe(2);
    expect(report.notes).toBe(1);
    expect(await countUnderKeys(db(), [before!.id])).toBe(0);
    const keys = await db().select().from(dataKeys);
    expect(keys.find((key) => key.id === before!.id)).toMatchObject({ state: "retired", wrapped: null });
    expect(keys.filter((key) => key.state === "current").map((key) => key.id)).toEqual([report.newKeyId]);

    const order = await getOrder(orderId);
    expect(order.shippingAddress?.postcode).toBe(POSTCODE);
    expect((await api<Order[]>("GET", `/api/orders?q=${encodeURIComponent("qx9 8zz")}`)).map((o) => o.id)).toEqual([orderId]);
    expect((await api<CustomerMessage[]>("GET", "/api/messages?q=doorbell")).length).toBe(2);
    // Rotating again (or after an interruption) works the same.
    expect((await rotateDataKey(db(), { graceMs: 0 })).retiredKeyIds).toEqual([report.newKeyId]);
    expect((await getOrder(orderId)).shippingAddress?.name).toBe(NAME);
    expect((await api<{ note: string }>("GET", `/api/customers/${customer.id}/notes`)).note).toBe(NOTE_TEXT);
    await expectNothingInClear();
  });

  it("refuses an address copied onto another order: it decrypts on its own order only", async () => {
    const other = await api<Order[]>("GET", "/api/orders");
    expect(other.length).toBe(1);
    // A second order of the customer, then the first order's ciphertext pasted onto it.
    await db().execute(sql`insert into orders (id, telegram_user_id, total_amount, currency, address)
      select gen_random_uuid(), telegram_user_id, total_amount, currency, address from orders where id = ${orderId}`);
    const copies = (await api<Order[]>("GET", "/api/orders")).filter((o) => o.id !== orderId);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.shippingAddress).toBeNull();
    expect((await getOrder(orderId)).shippingAddress?.name).toBe(NAME);
  });
});
