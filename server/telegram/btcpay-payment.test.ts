import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addToCart } from "../shop/ordering";
import { getPaymentDetails } from "../shop/orders";
import { startShopWithBot, type ShopWithBot } from "../../test-support/bot-harness";
import { startFakeBtcpay, type FakeBtcpay } from "../../test-support/fake-btcpay";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { insertProduct } from "../../test-support/factories";
import { configureBtcpay } from "../../test-support/payments-setup";

// Issue 24: a coin paid through BTCPay Server shows the same payment details in Telegram (amount,
// address, QR code), plus the invoice's checkout link; My Orders shows the link again.

describe("the bot's payment message for a BTCPay invoice", () => {
  let telegram: FakeTelegram;
  let btcpay: FakeBtcpay;
  let shop: ShopWithBot;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    btcpay = await startFakeBtcpay();
    shop = await startShopWithBot({ telegram });
    const admin = await shop.server.login();
    const saved = await shop.server.request("POST", "/api/bot-settings", {
      cookie: admin,
      body: { botName: "Lamp Shop", botToken: "7000000002:btcpay-payment-token", acceptedCurrencies: ["BTC"], welcomeMessage: "Welcome!", faqContent: "FAQ" },
    });
    expect(saved.status).toBeLessThan(300);
    await configureBtcpay(shop.server.deps, btcpay, { coins: ["BTC"] });
    await shop.bot.started();
  });
  afterAll(async () => {
    await shop?.close();
    await btcpay?.close();
    await telegram?.close();
  });

  it("shows the amount and address with a QR code, and the checkout link after the deadline", async () => {
    const customer = shop.customer(82_000_001, "bob");
    const lamp = await insertProduct(shop.server.deps.db, { name: "Lamp", price: "15.00", stock: 3 });
    await addToCart(shop.server.deps.db, customer.id, lamp.id, 1);
    await customer.send("/start");
    await customer.press("My Cart");
    await customer.press("✅ Checkout");
    await customer.send("Bob Jones");
    await customer.send("1 Road, Leeds");
    await customer.send("LS1 1AA");
    await customer.press("Skip");
    if (customer.buttons().some((b) => b.startsWith("Bitcoin"))) await customer.press("Bitcoin (BTC)");
    const from = telegram.calls.length;
    await customer.press("✅ Confirm and pay");

    const invoice = [...btcpay.invoices.values()].at(-1)!;
    const photo = telegram.calls.slice(from).find((c) => c.method === "sendPhoto")!;
    const caption = String(photo.payload.caption);
    expect(caption).toContain(`To pay, send exactly\n0.0003 BTC\nto this address:\n${invoice.method.destination}`);
    expect(caption).toMatch(new RegExp(`Please pay by [^\\n]+\\.\\nOr pay on the payment page: ${invoice.checkoutLink.replace(/[.]/g, "\\.")}\\n`));

    const details = await getPaymentDetails(shop.server.deps.db, customer.id, String(invoice.metadata.orderId));
    expect(details).toMatchObject({ payAddress: invoice.method.destination, checkoutUrl: invoice.checkoutLink });
  });

  it("offers no coin whose gateway cannot take it: BTC given to a BTCPay Server whose key was forgotten", async () => {
    // As secrets:forget leaves it: BTC (the one coin accepted) still routed to BTCPay Server, which has no key any more.
    await configureBtcpay(shop.server.deps, { ...btcpay, apiKey: "" }, { coins: ["BTC"] });
    const customer = shop.customer(82_000_002, "cleo");
    const lamp = await insertProduct(shop.server.deps.db, { name: "Lamp 2", price: "15.00", stock: 3 });
    await addToCart(shop.server.deps.db, customer.id, lamp.id, 1);
    await customer.send("/start");
    await customer.press("My Cart");
    const from = telegram.calls.length;
    await customer.press("✅ Checkout");
    // Told at once, before any address is asked for.
    expect(customer.notices(from)).toEqual(["Payments are not available right now, so orders cannot be paid. Please try again later."]);
    await configureBtcpay(shop.server.deps, btcpay, { coins: ["BTC"] });
  });
});
