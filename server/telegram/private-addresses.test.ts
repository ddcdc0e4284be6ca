import { getTableName, is, sql, Table } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, PrivateAddresses } from "../../contract";
import { createOwnerKey, openSealedAddress, unlockOwnerKey, type OwnerKeySetup } from "../../contract/owner-seal";
import * as schema from "../db/schema";
import { revealAddress } from "../shop/vaults";
import { ORDER_EXPORT_COLUMNS } from "../shop/insights/orders-export";
import { startShopWithBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { parseCsv } from "../../test-support/csv";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";
import { queryRows } from "../db/rows";

// Owner-only mode end to end on the server (issue 15, item 2): the owner turns private addresses on
// with a key made as the browser makes it, a customer buys through the bot, and afterwards the
// database and every answer of the API hold the address only as sealed to the owner's key.

const TOKEN = "7000000002:private-addresses-token";
const PASSPHRASE = "lighthouse pebble saffron kite";
const CLEAR = ["Alice Smith", "12 High Street", "High Street", "SW1A 1AA", "SW1A1AA", "ring the bell twice"];

describe("a purchase with private addresses on", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let shop: ShopWithBot;
  let admin: string;
  let customer: Customer;
  let setup: OwnerKeySetup;
  let orderId: string;

  const api = async <T = unknown>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await shop.server.request(method, url, { cookie: admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return (url.endsWith(".csv") || url.includes(".csv?") ? response.text() : response.json()) as Promise<T>;
  };

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
    await api("POST", "/api/products", { name: "Sencha", description: "Green tea.", price: "4.99", stock: 20, categoryId: null });
    await api("POST", "/api/postage-options", { name: "Royal Mail 1st Class", price: "3.50", estimatedDays: 2 });
    await shop.bot.started();

    setup = await createOwnerKey(PASSPHRASE);
    const on = await api<PrivateAddresses>("POST", "/api/private-addresses", {
      publicKey: setup.publicKey,
      wrappedPrivateKey: setup.wrappedPrivateKey,
      salt: setup.salt,
      iterations: setup.iterations,
    });
    expect(on.enabled).toBe(true);

    customer = shop.customer(82_000_001, "alice");
    await customer.send("/start");
    await customer.press("Browse Products");
    await customer.press("Other products");
    await customer.press("Sencha · £4.99");
    await customer.press("Add 1 to cart");
    await customer.press("🛒 My Cart");
    await customer.press("✅ Checkout");
    await customer.send("Alice Smith");
    await customer.send("12 High Street, London");
    await customer.send("sw1a 1aa");
    await customer.send("ring the bell twice");
    await customer.press("Royal Mail 1st Class: £3.50 (2 days)");
    if (customer.buttons().includes("Bitcoin (BTC)")) await customer.press("Bitcoin (BTC)");
    // The customer sees their own address before confirming: it is theirs, in their chat.
    expect(customer.text()).toContain("Deliver to:\nAlice Smith\n12 High Street, London\nSW1A 1AA");
    await customer.press("✅ Confirm and pay");
    const payment = [...gateway.payments.values()][0]!;
    orderId = payment.order_id;
    gateway.setStatus(payment.payment_id, "finished");
    expect((await postIpn(shop.server.baseUrl, gateway.ipnBody(payment.payment_id, "finished"), { secret: TEST_IPN_SECRET })).status).toBe(200);
  });
  afterAll(async () => {
    await shop?.close();
    await gateway?.close();
    await telegram?.close();
  });

  it("stores only the sealed form: no table of the database holds the address in clear", async () => {
    const { db } = shop.server.deps;
    const [row] = await db.select().from(schema.orders).where(sql`${schema.orders.id} = ${orderId}`);
    expect(row!.address).toMatch(new RegExp(`^owner-seal:v1:${setup.keyId}:`));
    expect(row!.status).toBe("processing");
    const tables = (Object.values(schema) as unknown[]).filter((value): value is Table => is(value, Table)).map((table) => getTableName(table));
    for (const table of tables) {
      const result = await queryRows<unknown>(db, sql.raw(`select * from "${table}"`));
      const text = JSON.stringify(result);
      for (const clear of CLEAR) expect(text, `${table} holds "${clear}"`).not.toContain(clear);
    }
    // The server's own reader gets the sealed form back, never the address.
    expect(await revealAddress(db, row!)).toEqual({ kind: "sealed", sealed: row!.address });
  });

  it("answers the sealed form everywhere the API shows an address; only the owner's key opens it", async () => {
    // The order details dialog reads one order by searching its id (web/lib/queries.ts).
    const [detail] = await api<Order[]>("GET", `/api/orders?q=${orderId}`);
    const list = await api<Order[]>("GET", "/api/orders");
    const customerPage = await api<{ orders: Order[] }>("GET", `/api/customers/${customer.id}`);
    const shown = [detail!, list.find((o) => o.id === orderId)!, customerPage.orders.find((o) => o.id === orderId)!];
    const [stored] = await shop.server.deps.db
      .select({ address: schema.orders.address })
      .from(schema.orders)
      .where(sql`${schema.orders.id} = ${orderId}`);
    const sealed = stored!.address;
    for (const order of shown) {
      expect(order).toMatchObject({ id: orderId, shippingAddress: null, sealedShippingAddress: sealed });
      for (const clear of CLEAR) expect(JSON.stringify(order)).not.toContain(clear);
    }

    const csv = await api<string>("GET", "/api/orders/export.csv");
    const [header, line] = parseCsv(csv.replace(/^\uFEFF/, ""));
    expect(header).toEqual([...ORDER_EXPORT_COLUMNS]);
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Sealed address")]).toBe(sealed);
    // No name to put first: the username alone, kept from running as a formula.
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Customer")]).toBe("'@alice");
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Address name")]).toBe("");
    for (const clear of CLEAR) expect(csv).not.toContain(clear);

    const owner = await unlockOwnerKey(setup, PASSPHRASE);
    expect(await openSealedAddress(owner, sealed!, orderId)).toEqual({
      name: "Alice Smith",
      streetAddress: "12 High Street, London",
      postcode: "SW1A 1AA",
      contact: "ring the bell twice",
    });
  });

  it("still finds the order by postcode and name, and dispatches it", async () => {
    for (const q of ["SW1A 1AA", "alice smith"]) {
      const found = await api<Order[]>("GET", `/api/orders?q=${encodeURIComponent(q)}`);
      expect(found.map((o) => o.id), q).toEqual([orderId]);
    }
    const from = telegram.calls.length;
    await api("PUT", `/api/orders/${orderId}`, { status: "dispatched", carrier: "Royal Mail", trackingNumber: "AB123456789GB" });
    await api("POST", `/api/orders/${orderId}/notify-dispatch`);
    await telegram.waitForCall((c) => c.method === "sendMessage" && c.payload.chat_id === customer.id && /dispatched/.test(String(c.payload.text)), { from });
  });
});
