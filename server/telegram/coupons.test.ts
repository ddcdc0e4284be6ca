import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons, orders } from "../db/schema";
import { addToCart } from "../shop/ordering";
import { startShopWithBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";

// Coupons in the bot (issue 23): "🏷 Add a coupon" on the summary, the code typed, each refusal
// saying why, the discount line and the new total, "Remove coupon", and the discounted total paid.

const TOKEN = "7000000001:coupon-test-token";
const DAY = 24 * 60 * 60 * 1000;

describe("coupons in the bot", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let shop: ShopWithBot;
  let admin: string;
  let tea: { id: string };
  let coffee: { id: string };

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await shop.server.request(method, url, { cookie: admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return response.json();
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
      welcomeMessage: "Welcome to the Tea Shop!",
      faqContent: "FAQ",
      nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
      nowpaymentsIpnSecret: TEST_IPN_SECRET,
    });
    const teas = await api("POST", "/api/categories", { name: "Tea" });
    const green = await api("POST", "/api/categories", { name: "Green Tea", parentId: teas.id });
    const coffees = await api("POST", "/api/categories", { name: "Coffee" });
    tea = await api("POST", "/api/products", { name: "Sencha", description: "Green", price: "10.00", stock: 50, categoryId: green.id });
    coffee = await api("POST", "/api/products", { name: "Espresso", description: "Dark", price: "8.00", stock: 50, categoryId: coffees.id });
    await api("POST", "/api/postage-options", { name: "Royal Mail", price: "3.50" });

    const now = Date.now();
    // On the Tea category (Sencha is in its subcategory Green Tea), 25 % capped at £4.
    await api("POST", "/api/coupons", { code: "tea25", kind: "percent", value: 25, maxDiscount: "4", categoryIds: [teas.id], perCustomerLimit: 1 });
    await api("POST", "/api/coupons", { code: "old", kind: "fixed", value: 1, endsAt: new Date(now - DAY).toISOString() });
    await api("POST", "/api/coupons", { code: "soon", kind: "fixed", value: 1, startsAt: "2099-03-01T00:00:00Z" });
    await api("POST", "/api/coupons", { code: "big", kind: "fixed", value: 1, minSubtotal: "100" });
    await api("POST", "/api/coupons", { code: "beans", kind: "fixed", value: 1, productIds: [coffee.id] });
    await api("POST", "/api/coupons", { code: "hello", kind: "fixed", value: 1, firstOrderOnly: true });
    const gone = await api("POST", "/api/coupons", { code: "gone", kind: "fixed", value: 1, usageLimit: 1 });
    await shop.server.deps.db.update(coupons).set({ timesUsed: 1 }).where(eq(coupons.id, gone.id));
    await shop.bot.started();
  });
  afterAll(async () => {
    await shop?.close();
    await gateway?.close();
    await telegram?.close();
  });

  /** The "Order #... is placed" message last shown to the customer (the summary's message becomes it). */
  const placed = (customer: Customer) =>
    telegram
      .messages(customer.user.id)
      .map((message) => message.text ?? "")
      .filter((text) => text.includes("is placed"))
      .at(-1);

  /** From a fresh cart of `quantity` Sencha to the summary, postage and coin chosen. */
  async function toSummary(customer: Customer, quantity = 2) {
    await addToCart(shop.server.deps.db, customer.id, tea.id, quantity);
    await customer.send("/start");
    await customer.press("My Cart");
    await customer.press("✅ Checkout");
    await customer.send("Alice Smith");
    await customer.send("12 High Street, London");
    await customer.send("SW1A 1AA");
    await customer.press("Skip");
    await customer.press("Royal Mail: £3.50");
    await customer.press("Bitcoin (BTC)");
    expect(customer.text()).toMatch(/^Please check your order/);
  }

  it("applies a typed coupon after saying why the others cannot be used, removes it, and charges the discounted total", async () => {
    const customer = shop.customer(82_000_001, "alice");
    await toSummary(customer);
    expect(customer.buttons()).toEqual(["✅ Confirm and pay", "🏷 Add a coupon", "✖ Cancel checkout"]);

    await customer.press("🏷 Add a coupon");
    expect(customer.text()).toBe("Checkout: coupon\n\nPlease send your coupon code.");
    expect(customer.buttons()).toEqual(["⬅ Back to the summary", "✖ Cancel checkout"]);

    const refusals: [typed: string, said: string][] = [
      ["nope", "There is no coupon NOPE. Please check the code and try again."],
      ["<b>free</b>", "That is not a coupon code: codes are 3 to 32 letters, digits, - or _. Please check it and try again."],
      ["x".repeat(4000), "That is not a coupon code: codes are 3 to 32 letters, digits, - or _. Please check it and try again."],
      ["old", "Coupon OLD has expired."],
      ["soon", "Coupon SOON cannot be used yet: it starts on 1 March 2099."],
      ["gone", "Coupon GONE has been used up."],
      ["big", "Coupon BIG needs items worth at least £100.00 (postage not included); yours come to £20.00."],
      ["beans", "Coupon BEANS does not apply to any item in your cart."],
    ];
    for (const [typed, said] of refusals) {
      await customer.send(typed);
      expect(customer.text(), typed.slice(0, 20)).toBe(`⚠️ ${said}\n\nCheckout: coupon\n\nPlease send your coupon code.`);
    }

    await customer.send("  Tea25 ");
    // 25 % of £20.00 is £5.00, capped at £4.00; the postage is not discounted.
    expect(customer.text()).toBe(
      [
        "✅ Coupon TEA25 applied.",
        "Please check your order",
        "2 × Sencha (£10.00 each): £20.00",
        "Subtotal: £20.00\nDiscount (TEA25): −£4.00\nPostage: Royal Mail: £3.50\nTotal: £19.50",
        "Deliver to:\nAlice Smith\n12 High Street, London\nSW1A 1AA",
        "Pay with: Bitcoin (BTC)",
      ].join("\n\n"),
    );
    expect(customer.buttons()).toEqual(["✅ Confirm and pay", "Remove coupon", "✖ Cancel checkout"]);

    await customer.press("Remove coupon");
    expect(customer.text()).toMatch(/^Coupon removed\.\n\nPlease check your order/);
    expect(customer.text()).toContain("Subtotal: £20.00\nPostage: Royal Mail: £3.50\nTotal: £23.50");
    expect(customer.text()).not.toContain("Discount");
    expect(customer.buttons()).toContain("🏷 Add a coupon");

    await customer.press("🏷 Add a coupon");
    await customer.press("⬅ Back to the summary");
    expect(customer.text()).toMatch(/Total: £23\.50/);
    await customer.press("🏷 Add a coupon");
    await customer.send("TEA25");
    expect(customer.text()).toMatch(/Total: £19\.50/);

    await customer.press("✅ Confirm and pay");
    const payment = [...gateway.payments.values()].at(-1)!;
    expect(payment.price_amount).toBe(19.5);
    expect(placed(customer)).toBe(`Order #${payment.order_id.slice(0, 8)} is placed. Total: £19.50`);
    const [order] = await shop.server.deps.db.select().from(orders).where(eq(orders.id, payment.order_id));
    expect(order).toMatchObject({ couponCode: "TEA25", discountAmount: "4.00", totalAmount: "19.50", couponUse: "held" });
  });

  it("refuses a coupon already used by this customer, and a first-order coupon after their first order", async () => {
    const customer = shop.customer(82_000_002, "bob");
    await toSummary(customer, 1);
    await customer.press("🏷 Add a coupon");
    await customer.send("hello");
    expect(customer.text()).toMatch(/^✅ Coupon HELLO applied\./);
    await customer.press("✅ Confirm and pay");
    expect(placed(customer)).toMatch(/is placed\. Total: £12\.50$/);

    await toSummary(customer, 1);
    await customer.press("🏷 Add a coupon");
    await customer.send("hello");
    expect(customer.text()).toMatch(/^⚠️ Coupon HELLO is for a first order only\./);
    await customer.send("tea25");
    expect(customer.text()).toMatch(/^✅ Coupon TEA25 applied\./);
    await customer.press("✅ Confirm and pay");

    await toSummary(customer, 1);
    await customer.press("🏷 Add a coupon");
    await customer.send("tea25");
    expect(customer.text()).toMatch(/^⚠️ You have already used coupon TEA25 as many times as it allows\./);
  });

  it("drops a coupon that went between the summary and Confirm, charges nothing, and shows the new total", async () => {
    const last = await api("POST", "/api/coupons", { code: "last1", kind: "fixed", value: "2", usageLimit: 1 });
    const customer = shop.customer(82_000_003, "carol");
    await toSummary(customer, 1);
    await customer.press("🏷 Add a coupon");
    await customer.send("last1");
    expect(customer.text()).toMatch(/Discount \(LAST1\): −£2\.00[\s\S]*Total: £11\.50/);

    // Its last use goes to someone else meanwhile.
    await shop.server.deps.db.update(coupons).set({ timesUsed: 1 }).where(eq(coupons.id, last.id));
    const created = gateway.created.length;
    await customer.press("✅ Confirm and pay");
    expect(gateway.created.length).toBe(created);
    expect(customer.text()).toMatch(
      /^⚠️ Coupon LAST1 has been used up\. It was removed from your order, so nothing was charged\.\n\nPlease check your order/,
    );
    expect(customer.text()).toContain("Total: £13.50");
    expect(customer.text()).not.toContain("Discount");
    expect(customer.buttons()).toEqual(["✅ Confirm and pay", "🏷 Add a coupon", "✖ Cancel checkout"]);
    await customer.press("✅ Confirm and pay");
    expect(placed(customer)).toMatch(/is placed\. Total: £13\.50$/);
  });
});
