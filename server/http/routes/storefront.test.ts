import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { sign } from "@telegram-apps/init-data-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, StorefrontCatalogue, StorefrontCheckout, StorefrontMessage, StorefrontOrder, StorefrontQuote } from "../../../contract";
import { openSealedAddress, readOwnerPublicKey, sealAddress, type OwnerKey } from "../../../contract/owner-seal";
import { botCustomers, botSettings, cartItems, coupons, orderEvents, orders, productVariants } from "../../db/schema";
import { addToCart, settleAbandonedCheckouts } from "../../shop/ordering";
import { createBotSettings, updateBotSettings } from "../../shop/settings";
import { disablePrivateAddresses, enablePrivateAddresses } from "../../shop/vaults";
import { createRecordingNotifier, startTestServer, type TestServer } from "../../../test-support/app";
import { BUDGETS_FOR_FORGED_FLOODS } from "../../../test-support/attack";
import { databaseChecksum } from "../../../test-support/checksum";
import { insertProduct } from "../../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../../test-support/fake-nowpayments";
import { signInitData, type InitDataUser } from "../../../test-support/init-data";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../../test-support/payments-setup";
import { postIpn } from "../../../test-support/sign-ipn";
import { registeredRoutes } from "../security";

// The storefront's API (issue 27): the Telegram Mini App's calls, as the customer Telegram's signed
// init data names. Through the real HTTP server, the fake NOWPayments and the bot's own checkout.

const TOKEN = "7000000027:storefront-test-token";
const SETTINGS = {
  botName: "Storefront Shop",
  botToken: TOKEN,
  acceptedCurrencies: ["BTC", "LTC"] as ("BTC" | "LTC")[],
  welcomeMessage: "Welcome!",
  faqContent: "FAQ",
  nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
  nowpaymentsIpnSecret: TEST_IPN_SECRET,
  webhookUrl: null,
  languages: ["en", "de"] as ("en" | "de")[],
  defaultLanguage: "en" as const,
};
const ADDRESS = { name: "Ada Lovelace", streetAddress: "12 High Street, London", postcode: "SW1A 1AA", contact: null };

let nextUserId = 510_000_000;
const newUser = (extra: Partial<InitDataUser> = {}): InitDataUser => ({ id: ++nextUserId, username: `shopper${nextUserId}`, ...extra });

describe("the storefront API", () => {
  let server: TestServer;
  let gateway: FakeNowPayments;
  let notifier: ReturnType<typeof createRecordingNotifier>;
  let admin: string;
  let settingsId: string;
  /** A product sold in one kind, with a German name. */
  let sencha: { id: string };
  /** A product with options (Size S/M), its variants by label. */
  let tee: { id: string; variants: Record<string, string> };

  const auth = (user: InitDataUser, token = TOKEN) => ({ authorization: `tma ${signInitData({ botToken: token, user })}` });
  const call = (method: string, url: string, user: InitDataUser, body?: unknown, headers: Record<string, string> = {}) =>
    server.request(method, url, { headers: { ...auth(user), ...headers }, body });
  async function ok<T>(response: Response, status = 200): Promise<T> {
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
  const refusal = async (response: Response, status: number) => {
    const body = (await response.json()) as { error: string };
    expect(response.status, body.error).toBe(status);
    return body.error;
  };
  const ordersOf = (user: InitDataUser) => server.database.db.select().from(orders).where(eq(orders.telegramUserId, String(user.id)));
  const stockOf = async (variantId: string) =>
    (await server.database.db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
  const orderBody = (items: unknown, extra: Record<string, unknown> = {}) => ({ items, postageOptionId: null, coin: "BTC", address: ADDRESS, ...extra });

  beforeAll(async () => {
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    notifier = createRecordingNotifier();
    server = await startTestServer({ config: { nowpaymentsApiUrl: gateway.url }, deps: { notifier }, app: { storefrontBudgets: BUDGETS_FOR_FORGED_FLOODS } });
    admin = await server.login();
    settingsId = (await createBotSettings(server.database.db, server.deps.secrets, SETTINGS)).id;
    const db = server.database.db;
    sencha = await insertProduct(db, { name: "Sencha", description: "Green tea", price: "4.50", stock: 50, lowStockThreshold: 3, translations: { de: { name: "Grüner Tee" } } });
    const created = await server.request("POST", "/api/products", { cookie: admin, body: { name: "Tee", description: "A shirt", price: "20.00", stock: 0 } });
    const teeId = ((await created.json()) as { id: string }).id;
    const withVariants = await server.request("PUT", `/api/products/${teeId}/variants`, {
      cookie: admin,
      body: {
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [
          { optionValues: { Size: "S" }, stock: 2 },
          { optionValues: { Size: "M" }, stock: 10, price: "22.00" },
        ],
      },
    });
    const saved = (await withVariants.json()) as { variants: { id: string; label: string }[] };
    tee = { id: teeId, variants: Object.fromEntries(saved.variants.map((variant) => [variant.label, variant.id])) };
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });

  describe("who may call it", () => {
    const storefrontRoutes = () => registeredRoutes(server.app).filter((route) => route.access === "storefront" && route.method !== "HEAD");

    it("answers 401 with a sentence on every storefront route for anything but init data the shop's bot signed, and changes nothing", async () => {
      const user = newUser();
      const signed = signInitData({ botToken: TOKEN, user });
      const forged = signed.replace(encodeURIComponent(`"id":${user.id}`), encodeURIComponent(`"id":${user.id + 1}`));
      expect(forged).not.toBe(signed);
      const withoutUser = sign({ query_id: "AAA" }, TOKEN, new Date());
      const headers: [string, Record<string, string>][] = [
        ["no header", {}],
        ["another scheme", { authorization: `Bearer ${signed}` }],
        ["the scheme alone", { authorization: "tma" }],
        ["garbage", { authorization: "tma not-init-data-at-all" }],
        ["a field changed after signing", { authorization: `tma ${forged}` }],
        ["no hash", { authorization: `tma ${signed.replace(/&hash=[0-9a-f]+/, "")}` }],
        ["another bot's token", auth(user, "7000000099:another-bots-token")],
        ["older than a day", { authorization: `tma ${signInitData({ botToken: TOKEN, user, authDate: new Date(Date.now() - 25 * 3600_000) })}` }],
        ["no user", { authorization: `tma ${withoutUser}` }],
        ["an admin's session instead", {}],
      ];
      const routes = storefrontRoutes();
      expect(routes.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
        "GET /api/storefront/catalogue",
        "GET /api/storefront/messages",
        "GET /api/storefront/orders",
        "GET /api/storefront/orders/:id",
        "POST /api/storefront/messages",
        "POST /api/storefront/orders",
        "POST /api/storefront/quote",
      ]);
      const before = await databaseChecksum(server.database.db);
      for (const route of routes) {
        const url = route.url.replace(":id", "00000000-0000-4000-8000-000000000000");
        for (const [what, header] of headers) {
          const response = await server.request(route.method, url, {
            headers: header,
            ...(what.startsWith("an admin") ? { cookie: admin } : {}),
            ...(route.method === "POST" ? { body: orderBody([{ productId: sencha.id, quantity: 1 }]) } : {}),
          });
          const body = (await response.json()) as { error: string };
          expect([response.status, what, route.url]).toEqual([401, what, route.url]);
          expect(body.error, what).toBe(what === "older than a day" ? "This shop session has expired. Close and reopen the shop." : "Open the shop from its Telegram bot.");
          expect(response.headers.get("cache-control"), what).toBe("no-store");
        }
      }
      expect(await databaseChecksum(server.database.db)).toBe(before);
    });

    it("refuses hostile Authorization headers with 401, whatever they hold", async () => {
      const signed = signInitData({ botToken: TOKEN, user: newUser() });
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 300 }),
            fc.string({ maxLength: 300 }).map((text) => `tma ${text}`),
            fc.tuple(fc.nat({ max: signed.length - 1 }), fc.string({ minLength: 1, maxLength: 3 })).map(([at, text]) => `tma ${signed.slice(0, at)}${text}${signed.slice(at + 1)}`),
          ),
          async (header) => {
            // Only what fetch can send as a header value.
            const value = header.replace(/[^\x20-\x7e]/g, "x").trim();
            if (value === `tma ${signed}`) return;
            const response = await server.request("GET", "/api/storefront/catalogue", { headers: { authorization: value } });
            expect(response.status, value).toBe(401);
          },
        ),
        { numRuns: 60 },
      );
    });

    it("checks the bot token saved now: after a new token, init data signed with the old one is refused", async () => {
      const user = newUser();
      await ok(await call("GET", "/api/storefront/catalogue", user));
      const { db, secrets } = server.deps;
      await updateBotSettings(db, secrets, settingsId, { ...SETTINGS, botToken: "7000000027:a-new-token" });
      try {
        // As the admin's save does on this instance (http/app.ts); other instances drop it on the change notice.
        server.deps.cache.forget();
        expect(await refusal(await call("GET", "/api/storefront/catalogue", user), 401)).toBe("Open the shop from its Telegram bot.");
        await ok(await server.request("GET", "/api/storefront/catalogue", { headers: auth(user, "7000000027:a-new-token") }));
      } finally {
        await updateBotSettings(db, secrets, settingsId, SETTINGS);
        server.deps.cache.forget();
      }
    });

    it("answers 401 while no bot token is configured", async () => {
      const user = newUser();
      const { db } = server.deps;
      const [saved] = await db.select().from(botSettings);
      await db.delete(botSettings);
      try {
        server.deps.cache.forget();
        expect(await refusal(await call("GET", "/api/storefront/catalogue", user), 401)).toBe("This shop is not set up yet. Please try again later.");
      } finally {
        await db.insert(botSettings).values(saved!);
        server.deps.cache.forget();
      }
    });

    it("refuses a blocked customer with 403 and the bot's own sentence, in their language", async () => {
      const user = newUser({ languageCode: "de" });
      expect((await server.request("POST", `/api/customers/${user.id}/block`, { cookie: admin, body: {} })).status).toBe(200);
      expect(await refusal(await call("GET", "/api/storefront/catalogue", user), 403)).toBe("Entschuldigung, dieser Shop steht dir nicht zur Verfügung.");
      expect(await refusal(await call("POST", "/api/storefront/messages", user, { message: "Hello?" }), 403)).toBe(
        "Entschuldigung, dieser Shop steht dir nicht zur Verfügung.",
      );
      expect(await server.database.db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, String(user.id)))).toEqual([]);
    });

    it("refuses a write from another site even with good init data", async () => {
      const user = newUser();
      const response = await call("POST", "/api/storefront/messages", user, { message: "Hi" }, { "sec-fetch-site": "cross-site" });
      expect(await refusal(response, 403)).toBe("Cross-site requests are not allowed.");
    });
  });

  it("records the customer as the bot does, with their Telegram app's language, and lists the catalogue in it", async () => {
    const user = newUser({ languageCode: "de-AT" });
    const catalogue = await ok<StorefrontCatalogue>(await call("GET", "/api/storefront/catalogue", user));
    expect(catalogue.language).toBe("de");
    expect(catalogue.coins).toEqual(["BTC", "LTC"]);
    expect(catalogue.ownerPublicKey).toBeNull();
    const green = catalogue.products.find((product) => product.id === sencha.id)!;
    expect(green).toMatchObject({ name: "Grüner Tee", description: "Green tea", price: "4.50", options: [], stockState: "in_stock" });
    expect(green.variants).toEqual([{ id: sencha.id, label: "", optionValues: {}, price: "4.50", stockState: "in_stock", left: null, imageUrl: null }]);
    const shirt = catalogue.products.find((product) => product.id === tee.id)!;
    expect(shirt.options).toEqual([{ name: "Size", values: ["S", "M"] }]);
    expect(shirt.variants.map((variant) => [variant.label, variant.price, variant.stockState, variant.left])).toEqual([
      ["S", "20.00", "low_stock", 2],
      ["M", "22.00", "in_stock", null],
    ]);
    const [record] = await server.database.db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, String(user.id)));
    expect(record).toMatchObject({ telegramUsername: user.username, language: "de", languageChosen: false, optedOutAt: null });
  });

  it("keeps a customer's /stop: seeing them in the storefront does not opt them back in to broadcasts", async () => {
    const user = newUser();
    const stoppedAt = new Date("2026-01-01T00:00:00Z");
    await server.database.db.insert(botCustomers).values({ telegramUserId: String(user.id), telegramUsername: "old-name", startedAt: stoppedAt, optedOutAt: stoppedAt });
    await ok(await call("GET", "/api/storefront/orders", user));
    const [record] = await server.database.db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, String(user.id)));
    expect(record).toMatchObject({ telegramUsername: user.username, optedOutAt: stoppedAt, language: "en" });
  });

  it("quotes, orders and pays as the bot does: stock reserved, the bot's cart untouched, the order in the admin's list, then paid", async () => {
    const user = newUser();
    const db = server.database.db;
    await addToCart(db, String(user.id), tee.variants.M!, 1);
    const stockBefore = await stockOf(sencha.id);
    const items = [
      { productId: sencha.id, quantity: 2 },
      { productId: tee.id, variantId: tee.variants.M, quantity: 1 },
      // The same variant twice adds up, as "Add to cart" twice does.
      { productId: sencha.id, variantId: sencha.id, quantity: 1 },
    ];
    const quote = await ok<StorefrontQuote>(await call("POST", "/api/storefront/quote", user, { items, postageOptionId: null, coin: "BTC" }));
    expect(quote.lines.map((line) => [line.name, line.quantity, line.unitPrice, line.lineTotal])).toEqual([
      ["Sencha", 3, "4.50", "13.50"],
      ["Tee (M)", 1, "22.00", "22.00"],
    ]);
    expect(quote).toMatchObject({ itemsTotal: "35.50", coupon: null, postage: null, total: "35.50", coins: ["BTC", "LTC"] });

    const placed = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, orderBody(items, { quotedTotal: quote.total })), 201);
    expect(placed.order).toMatchObject({ status: "pending", statusText: "Awaiting payment", total: "35.50", reference: `#${placed.order.id.slice(0, 8)}` });
    expect(placed.order.items).toEqual([
      { name: "Sencha", quantity: 3, price: "4.50" },
      { name: "Tee (M)", quantity: 1, price: "22.00" },
    ]);
    expect(placed.payment.coin).toBe("BTC");
    expect(placed.payment.uri).toBe(`bitcoin:${placed.payment.address}?amount=${placed.payment.amount}`);
    expect(placed.order.payment).toEqual(placed.payment);
    expect(await stockOf(sencha.id)).toBe(stockBefore - 3);
    // The bot's cart is the bot's: neither read nor emptied.
    expect(await db.select({ variantId: cartItems.variantId }).from(cartItems).where(eq(cartItems.telegramUserId, String(user.id)))).toEqual([{ variantId: tee.variants.M }]);

    const adminList = (await (await server.request("GET", `/api/orders?q=${user.id}`, { cookie: admin })).json()) as Order[];
    expect(adminList.map((order) => [order.id, order.placedFrom])).toEqual([[placed.order.id, "storefront"]]);

    const [row] = await db.select().from(orders).where(eq(orders.id, placed.order.id));
    expect(row!.placedFrom).toBe("storefront");
    expect((await postIpn(server.baseUrl, gateway.ipnBody(row!.paymentId!, "finished"), { secret: TEST_IPN_SECRET })).status).toBe(200);
    const paid = await ok<StorefrontOrder>(await call("GET", `/api/storefront/orders/${placed.order.id}`, user));
    expect(paid).toMatchObject({ status: "processing", statusText: "Paid, being prepared for dispatch", payment: null });
  });

  it("applies a coupon, and refuses a total that is not the one quoted (409), creating nothing", async () => {
    const user = newUser();
    const coupon = await server.request("POST", "/api/coupons", { cookie: admin, body: { code: "GREEN10", kind: "percent", value: 10, productIds: [sencha.id] } });
    expect(coupon.status).toBe(201);
    const items = [{ productId: sencha.id, quantity: 2 }];
    const quote = await ok<StorefrontQuote>(await call("POST", "/api/storefront/quote", user, { items, postageOptionId: null, couponCode: "green10" }));
    expect(quote).toMatchObject({ itemsTotal: "9.00", coupon: { code: "GREEN10", discount: "0.90" }, total: "8.10" });

    const stock = await stockOf(sencha.id);
    const changed = await call("POST", "/api/storefront/orders", user, orderBody(items, { couponCode: "green10", quotedTotal: "9.00" }));
    expect(await refusal(changed, 409)).toMatch(/^The total changed from £9\.00 to £8\.10/);
    expect(await ordersOf(user)).toEqual([]);
    expect(await stockOf(sencha.id)).toBe(stock);

    const placed = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, orderBody(items, { couponCode: "green10", quotedTotal: "8.10" })), 201);
    expect(placed.order.total).toBe("8.10");
    expect((await ordersOf(user))[0]).toMatchObject({ couponCode: "GREEN10", discountAmount: "0.90", couponUse: "held" });
  });

  it("refuses lines it cannot sell with a sentence, and creates nothing", async () => {
    const user = newUser();
    const order = (items: unknown) => call("POST", "/api/storefront/orders", user, orderBody(items));
    expect(await refusal(await order([{ productId: tee.id, quantity: 1 }]), 400)).toBe("Please choose the options of Tee first.");
    expect(await refusal(await order([{ productId: tee.id, variantId: tee.variants.S, quantity: 3 }]), 409)).toBe("Only 2 left of Tee (S).");
    expect(await refusal(await order([{ productId: sencha.id, variantId: tee.variants.S, quantity: 1 }]), 409)).toBe("That product is no longer available.");
    expect(await refusal(await order([{ productId: "00000000-0000-4000-8000-000000000000", quantity: 1 }]), 409)).toBe("That product is no longer available.");
    expect(await refusal(await order([]), 400)).toBe("Your cart is empty.");
    const soldOut = await insertProduct(server.database.db, { name: "Matcha", price: "9.00", stock: 0 });
    expect(await refusal(await order([{ productId: soldOut.id, quantity: 1 }]), 409)).toBe("Matcha is out of stock.");
    expect(await ordersOf(user)).toEqual([]);
    // In German, the product is named as the German catalogue names it.
    const german = newUser({ languageCode: "de" });
    const left = await stockOf(sencha.id);
    const tooMany = await call("POST", "/api/storefront/orders", german, orderBody([{ productId: sencha.id, quantity: left + 1 }]));
    expect(await refusal(tooMany, 409)).toBe(`Von Grüner Tee sind nur noch ${left} übrig.`);
  });

  it("gives the stock back when the gateway refuses, and leaves the bot's cart as it was", async () => {
    const user = newUser();
    const stock = await stockOf(sencha.id);
    gateway.refuseWith({ status: 500, message: "Internal error" });
    try {
      const response = await call("POST", "/api/storefront/orders", user, orderBody([{ productId: sencha.id, quantity: 2 }]));
      expect(await refusal(response, 502)).toMatch(/Your order was cancelled/);
    } finally {
      gateway.refuseWith(null);
    }
    const [failed] = await ordersOf(user);
    expect(failed).toMatchObject({ status: "failed", placedFrom: "storefront" });
    expect(await stockOf(sencha.id)).toBe(stock);
    expect(await server.database.db.select().from(cartItems).where(eq(cartItems.telegramUserId, String(user.id)))).toEqual([]);
    const events = await server.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, failed!.id));
    expect(events.map((event) => event.detail)).toEqual([
      "The payment service refused or did not answer, so no payment was created. " +
        "The order failed and its items are back on sale; it was placed in the storefront, so the customer's cart in the bot was left as it was.",
    ]);
  });

  it("fails an order a crash left without its payment, leaving the bot's cart alone and telling the customer in German to order again in the shop", async () => {
    const user = newUser({ languageCode: "de" });
    const db = server.database.db;
    await addToCart(db, String(user.id), tee.variants.M!, 1);
    const stock = await stockOf(sencha.id);
    const placed = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, orderBody([{ productId: sencha.id, quantity: 2 }])), 201);
    // What a crash between the order's commit and the gateway's answer leaves: the order and its
    // reservation, no payment recorded; and it happened long enough ago for the sweep.
    await db.update(orders).set({ paymentId: null, payAddress: null, payAmount: null, createdAt: sql`now() - interval '1 hour'` }).where(eq(orders.id, placed.order.id));

    const told = createRecordingNotifier();
    expect(await settleAbandonedCheckouts({ db, notifier: told, now: () => new Date() })).toContain(placed.order.id);
    expect(await ordersOf(user)).toEqual([expect.objectContaining({ status: "failed", paymentStatus: "failed", placedFrom: "storefront" })]);
    expect(await stockOf(sencha.id)).toBe(stock);
    expect(await db.select({ variantId: cartItems.variantId, quantity: cartItems.quantity }).from(cartItems).where(eq(cartItems.telegramUserId, String(user.id)))).toEqual([
      { variantId: tee.variants.M, quantity: 1 },
    ]);
    expect(told.sent).toEqual([
      {
        chatId: String(user.id),
        text:
          `Bestellung #${placed.order.id.slice(0, 8)} konnte nicht abgeschlossen werden: Beim Erstellen der Zahlung ist etwas schiefgegangen, daher wurde keine Zahlung eingezogen. ` +
          "Bitte öffne den Shop und bestelle noch einmal.",
      },
    ]);
    const shown = await ok<StorefrontOrder>(await call("GET", `/api/storefront/orders/${placed.order.id}`, user));
    expect(shown).toMatchObject({ status: "failed", payment: null });
  });

  it("sells the last one to one of two customers ordering it at once", async () => {
    const last = await insertProduct(server.database.db, { name: "Last Pot", price: "30.00", stock: 1 });
    const buyers = [newUser(), newUser()];
    const answers = await Promise.all(buyers.map((user) => call("POST", "/api/storefront/orders", user, orderBody([{ productId: last.id, quantity: 1 }]))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await stockOf(last.id)).toBe(0);
    const placed = await Promise.all(buyers.map((user) => ordersOf(user)));
    expect(placed.flat()).toHaveLength(1);
  });

  it("makes one order of one orderId sent twice at once (a double tap, a lost answer's retry): one 201, one 409, one reservation, one coupon hold", async () => {
    const user = newUser();
    const db = server.database.db;
    const oolong = await insertProduct(db, { name: "Oolong", price: "8.00", stock: 5 });
    const coupon = await server.request("POST", "/api/coupons", { cookie: admin, body: { code: "TWICE5", kind: "percent", value: 5, productIds: [oolong.id] } });
    expect(coupon.status).toBe(201);
    const paymentsBefore = gateway.created.length;
    const orderId = crypto.randomUUID();
    // A plain address with the id the Mini App chose: the contract takes it, as it takes a sealed one.
    const body = orderBody([{ productId: oolong.id, quantity: 2 }], { orderId, couponCode: "twice5", quotedTotal: "15.20" });
    const answers = await Promise.all([call("POST", "/api/storefront/orders", user, body), call("POST", "/api/storefront/orders", user, body)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const placed = await ok<StorefrontCheckout>(answers.find((answer) => answer.status === 201)!, 201);
    expect(placed.order.id).toBe(orderId);
    expect(await refusal(answers.find((answer) => answer.status === 409)!, 409)).toBe("An order with this id exists already. Reload the shop and try again.");

    // The refused one took nothing: one order, one reservation, one hold, one payment.
    expect((await ordersOf(user)).map((order) => order.id)).toEqual([orderId]);
    expect(await stockOf(oolong.id)).toBe(3);
    expect(await db.select({ timesHeld: coupons.timesHeld, timesUsed: coupons.timesUsed }).from(coupons).where(eq(coupons.code, "TWICE5"))).toEqual([{ timesHeld: 1, timesUsed: 0 }]);
    expect(gateway.created.length - paymentsBefore).toBe(1);
    // The address is kept for the id chosen, as the owner reads it.
    const [listed] = (await (await server.request("GET", `/api/orders?q=${orderId}`, { cookie: admin })).json()) as Order[];
    expect(listed).toMatchObject({ id: orderId, shippingAddress: ADDRESS, sealedShippingAddress: null });
  });

  it("shows customers their own orders only: another's is 404, exactly as an unknown id", async () => {
    const [alice, bob] = [newUser(), newUser()];
    const mine = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", alice, orderBody([{ productId: sencha.id, quantity: 1 }])), 201);
    const list = await ok<{ orders: StorefrontOrder[] }>(await call("GET", "/api/storefront/orders", alice));
    expect(list.orders.map((order) => order.id)).toEqual([mine.order.id]);
    expect((await ok<{ orders: StorefrontOrder[] }>(await call("GET", "/api/storefront/orders", bob))).orders).toEqual([]);
    const theirs = await refusal(await call("GET", `/api/storefront/orders/${mine.order.id}`, bob), 404);
    const unknown = await refusal(await call("GET", "/api/storefront/orders/00000000-0000-4000-8000-000000000000", bob), 404);
    expect(theirs).toBe(unknown);
    expect(await refusal(await call("GET", "/api/storefront/orders/not-an-id", bob), 404)).toBe(unknown);
    // Nor can a message be tied to someone else's order.
    expect(await refusal(await call("POST", "/api/storefront/messages", bob, { message: "Where is it?", orderId: mine.order.id }), 404)).toBe(unknown);
  });

  it("speaks German to a German customer: product names and refusals", async () => {
    const user = newUser({ languageCode: "de" });
    const quote = await ok<StorefrontQuote>(await call("POST", "/api/storefront/quote", user, { items: [{ productId: sencha.id, quantity: 1 }], postageOptionId: null }));
    expect(quote.lines[0]!.name).toBe("Grüner Tee");
    expect(await refusal(await call("POST", "/api/storefront/quote", user, { items: [{ productId: tee.id, quantity: 1 }], postageOptionId: null }), 400)).toBe(
      "Bitte wähle zuerst die Optionen aus.",
    );
    const placed = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, orderBody([{ productId: sencha.id, quantity: 1 }])), 201);
    expect(placed.order).toMatchObject({ statusText: "Wartet auf Zahlung", items: [{ name: "Grüner Tee", quantity: 1, price: "4.50" }] });
  });

  it("refuses a customer's next order while they hold 3 waiting for payment (409), in their language, creating nothing", async () => {
    const [english, german] = [newUser(), newUser({ languageCode: "de" })];
    const one = orderBody([{ productId: sencha.id, quantity: 1 }]);
    for (const user of [english, german]) {
      for (let i = 0; i < 3; i++) await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, one), 201);
    }
    const stock = await stockOf(sencha.id);
    expect(await refusal(await call("POST", "/api/storefront/orders", english, one), 409)).toBe(
      "You already have 3 orders waiting for payment. Pay one of them (see My Orders) or wait for one to expire before ordering again.",
    );
    expect(await refusal(await call("POST", "/api/storefront/orders", german, one), 409)).toBe(
      "Du hast schon 3 Bestellungen, die auf deine Zahlung warten. Bezahle eine davon (siehe „Meine Bestellungen“) oder warte, bis eine abläuft, bevor du wieder bestellst.",
    );
    expect(await stockOf(sencha.id)).toBe(stock);
    expect(await ordersOf(english)).toHaveLength(3);
    expect(await ordersOf(german)).toHaveLength(3);
  });

  it("refuses the quote too (409) while the customer holds 3 orders waiting for payment, so the checkout screen says it before the address is typed", async () => {
    const [english, german] = [newUser(), newUser({ languageCode: "de" })];
    const quoteBody = { items: [{ productId: sencha.id, quantity: 1 }], postageOptionId: null };
    for (const user of [english, german]) {
      for (let i = 0; i < 3; i++) await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, orderBody([{ productId: sencha.id, quantity: 1 }])), 201);
    }
    expect(await refusal(await call("POST", "/api/storefront/quote", english, quoteBody), 409)).toBe(
      "You already have 3 orders waiting for payment. Pay one of them (see My Orders) or wait for one to expire before ordering again.",
    );
    expect(await refusal(await call("POST", "/api/storefront/quote", german, quoteBody), 409)).toMatch(/^Du hast schon 3 Bestellungen, die auf deine Zahlung warten\./);
    // Said before any other refusal of the order: the customer can do nothing else about it first.
    expect(await refusal(await call("POST", "/api/storefront/quote", english, { items: [{ productId: tee.id, quantity: 1 }], postageOptionId: null }), 409)).toMatch(/^You already have 3 orders/);
    // Another customer is not held to this one's orders.
    await ok<StorefrontQuote>(await call("POST", "/api/storefront/quote", newUser(), quoteBody));

    // One paid, its money on its way (confirming): a place is free, and the quote answers again.
    const [first] = await ordersOf(english);
    await server.database.db.update(orders).set({ paymentStatus: "confirming" }).where(eq(orders.id, first!.id));
    expect((await ok<StorefrontQuote>(await call("POST", "/api/storefront/quote", english, quoteBody))).total).toBe("4.50");
  });

  describe("with private addresses on", () => {
    let owner: OwnerKey;
    let publicKey: string;

    beforeAll(async () => {
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      publicKey = Buffer.from(await crypto.subtle.exportKey("spki", pair.publicKey)).toString("base64");
      const { keyId, point } = await readOwnerPublicKey(publicKey);
      owner = { keyId, privateKey: pair.privateKey, publicPoint: point };
      // The private half stays here: the server keeps only what a browser would wrap (not needed for these calls).
      await enablePrivateAddresses(server.database.db, { publicKey, wrappedPrivateKey: "AAAA", salt: "AAAA", iterations: 600_000 }, new Date());
    });
    afterAll(async () => {
      await disablePrivateAddresses(server.database.db, new Date());
    });

    it("offers the owner's key and stores an address sealed in the browser as it came, to the order id it was sealed for", async () => {
      const user = newUser();
      const catalogue = await ok<StorefrontCatalogue>(await call("GET", "/api/storefront/catalogue", user));
      expect(catalogue.ownerPublicKey).toBe(publicKey);
      const orderId = crypto.randomUUID();
      const sealed = await sealAddress({ publicKey: catalogue.ownerPublicKey! }, ADDRESS, orderId);
      const body = { items: [{ productId: sencha.id, quantity: 1 }], postageOptionId: null, coin: "BTC", sealedAddress: sealed, orderId };
      const placed = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, body), 201);
      expect(placed.order.id).toBe(orderId);
      const [row] = await server.database.db.select().from(orders).where(eq(orders.id, orderId));
      expect(row).toMatchObject({ address: sealed, addressSearch: null });
      expect(await openSealedAddress(owner, row!.address!, orderId)).toEqual(ADDRESS);
      // The same id again (a second tap): refused, nothing more created or reserved.
      const stock = await stockOf(sencha.id);
      expect(await refusal(await call("POST", "/api/storefront/orders", user, body), 409)).toBe("An order with this id exists already. Reload the shop and try again.");
      expect(await ordersOf(user)).toHaveLength(1);
      expect(await stockOf(sencha.id)).toBe(stock);
    });

    it("refuses an address sealed to another key, or not sealed at all, with 400", async () => {
      const user = newUser();
      const other = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      const otherKey = Buffer.from(await crypto.subtle.exportKey("spki", other.publicKey)).toString("base64");
      const orderId = crypto.randomUUID();
      const body = (sealedAddress: string) => ({ items: [{ productId: sencha.id, quantity: 1 }], postageOptionId: null, coin: "BTC", sealedAddress, orderId });
      expect(await refusal(await call("POST", "/api/storefront/orders", user, body(await sealAddress({ publicKey: otherKey }, ADDRESS, orderId))), 400)).toBe(
        "The address was sealed to a key the shop no longer uses. Reload the shop and try again.",
      );
      expect(await refusal(await call("POST", "/api/storefront/orders", user, body("Ada, 12 High Street")), 400)).toBe(
        "The sealed address is not a sealed value. Reload the shop and try again.",
      );
      expect(await refusal(await call("POST", "/api/storefront/orders", user, { ...body("x"), orderId: undefined }), 400)).toBe(
        "A sealed address needs the orderId it is sealed to",
      );
      expect(await ordersOf(user)).toEqual([]);
    });

    it("seals a plain address on the server, as the bot's checkout does", async () => {
      const user = newUser();
      const placed = await ok<StorefrontCheckout>(await call("POST", "/api/storefront/orders", user, orderBody([{ productId: sencha.id, quantity: 1 }])), 201);
      const [row] = await server.database.db.select().from(orders).where(eq(orders.id, placed.order.id));
      expect(row!.address).toMatch(/^owner-seal:v1:/);
      expect(await openSealedAddress(owner, row!.address!, placed.order.id)).toEqual(ADDRESS);
    });
  });

  it("refuses a sealed address while private addresses are off", async () => {
    const user = newUser();
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const publicKey = Buffer.from(await crypto.subtle.exportKey("spki", pair.publicKey)).toString("base64");
    const orderId = crypto.randomUUID();
    const sealedAddress = await sealAddress({ publicKey }, ADDRESS, orderId);
    const response = await call("POST", "/api/storefront/orders", user, { items: [{ productId: sencha.id, quantity: 1 }], postageOptionId: null, coin: "BTC", sealedAddress, orderId });
    expect(await refusal(response, 400)).toBe("Private addresses are off, so the address must be sent as it is (address), not sealed.");
    expect(await ordersOf(user)).toEqual([]);
  });

  it("puts a message in the owner's Messages as one typed in the bot, and shows the owner's replies", async () => {
    const user = newUser();
    const sent = await ok<StorefrontMessage>(await call("POST", "/api/storefront/messages", user, { message: "  Is the tea loose-leaf?  " }), 201);
    expect(sent).toMatchObject({ message: "Is the tea loose-leaf?", fromShop: false });
    const inbox = (await (await server.request("GET", `/api/messages?telegramUserId=${user.id}`, { cookie: admin })).json()) as { message: string; isFromCustomer: boolean; isRead: boolean; telegramUsername: string }[];
    expect(inbox).toEqual([expect.objectContaining({ message: "Is the tea loose-leaf?", isFromCustomer: true, isRead: false, telegramUsername: user.username })]);
    const reply = await server.request("POST", "/api/messages", { cookie: admin, body: { telegramUserId: String(user.id), message: "Yes, it is." } });
    expect(reply.status).toBe(201);
    expect(notifier.sent.filter((message) => message.chatId === String(user.id)).map((message) => message.text)).toEqual(["Yes, it is."]);
    const thread = await ok<{ messages: StorefrontMessage[] }>(await call("GET", "/api/storefront/messages", user));
    expect(thread.messages.map((message) => [message.message, message.fromShop])).toEqual([
      ["Is the tea loose-leaf?", false],
      ["Yes, it is.", true],
    ]);
  });
});
