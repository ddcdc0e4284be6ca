import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardStats, Order, OrderItem, Product } from "../../contract";
import { addToCart, getCart, checkout } from "../shop/ordering";
import { createRecordingNotifier, startTestServer, type TestServer } from "../../test-support/app";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { postIpn } from "../../test-support/sign-ipn";

// The "done when": an admin sets the shop up through the API, a customer buys through
// the shop functions the bot calls, NOWPayments confirms with a signed IPN over real HTTP, and
// the admin API shows the order Ready to Dispatch with the right total and stock.
describe("a purchase from cart to Ready to Dispatch", () => {
  let server: TestServer;
  let gateway: FakeNowPayments;
  const notifier = createRecordingNotifier();
  const apiKey = "np-live-key";
  const ipnSecret = "np-ipn-secret";

  beforeAll(async () => {
    gateway = await startFakeNowPayments({ apiKey });
    server = await startTestServer({
      config: { nowpaymentsApiUrl: gateway.url, publicUrl: "https://shop.example" },
      deps: { notifier },
    });
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });

  it("cart -> checkout -> signed IPN -> processing, with the total and stock the admin expects", async () => {
    const cookie = await server.login();
    const admin = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const response = await server.request(method, url, { body, cookie });
      expect(response.ok, `${method} ${url}: ${response.status}`).toBe(true);
      return (await response.json()) as T;
    };
    await admin("POST", "/api/bot-settings", {
      botName: "Shop Bot",
      botToken: "123:abc",
      acceptedCurrencies: ["BTC", "LTC"],
      welcomeMessage: "Hi",
      faqContent: "FAQ",
      nowpaymentsApiKey: apiKey,
      nowpaymentsIpnSecret: ipnSecret,
    });
    const widget = await admin<Product>("POST", "/api/products", {
      name: "Blue Widget",
      description: "A widget",
      price: "10.00",
      stock: 12,
      bulkPricing: [{ minQuantity: 3, price: 9 }],
      isActive: true,
    });
    const postage = await admin<{ id: string }>("POST", "/api/postage-options", { name: "Royal Mail", price: "3.49", isActive: true });

    // The customer, through the functions the bot calls.
    const customer = "424242";
    await addToCart(server.deps.db, customer, widget.id, 3);
    expect((await getCart(server.deps.db, customer)).subtotalPence).toBe(2700);
    const { order, payment } = await checkout(server.deps, {
      telegramUserId: customer,
      telegramUsername: "buyer",
      shippingAddress: { name: "Buyer", streetAddress: "3 Street", postcode: "E1 6AN" },
      postageOptionId: postage.id,
      coin: "BTC",
    });
    expect(order.totalAmount).toBe("30.49");
    expect(payment.payCurrency).toBe("btc");
    expect(gateway.created.at(-1)!.body).toMatchObject({ price_amount: 30.49, ipn_callback_url: "https://shop.example/api/payments/webhook" });

    // NOWPayments confirms.
    const confirm = await postIpn(server.baseUrl, gateway.ipnBody(order.paymentId!, "finished"), { secret: ipnSecret });
    expect(confirm.status).toBe(200);

    const listed = (await admin<Order[]>("GET", "/api/orders")).find((o) => o.id === order.id)!;
    expect(listed).toMatchObject({
      status: "processing",
      paymentStatus: "finished",
      paymentMethod: "btc",
      totalAmount: "30.49",
      currency: "GBP",
      telegramUsername: "buyer",
      postageOptionId: postage.id,
    });
    const items = await admin<OrderItem[]>("GET", `/api/orders/${order.id}/items`);
    expect(items.map((i) => [i.productName, i.quantity, i.price])).toEqual([["Blue Widget", 3, "9.00"]]);
    const stock = (await admin<Product[]>("GET", "/api/products")).find((p) => p.id === widget.id)!.stock;
    expect(stock).toBe(9);
    const stats = await admin<DashboardStats>("GET", "/api/dashboard/stats");
    expect(stats.processingOrders).toBe(1); // "Ready to Dispatch"
    expect(notifier.sent).toEqual([
      { chatId: customer, text: `Payment received for order #${order.id.slice(0, 8)}. Thank you! Your order is now being prepared for dispatch.` },
    ]);
  });
});
