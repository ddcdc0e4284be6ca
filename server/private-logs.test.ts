import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "./logging";
import { startShopWithBot, type Customer, type ShopWithBot } from "../test-support/bot-harness";
import { startFakeNowPayments, type FakeNowPayments } from "../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../test-support/payments-setup";
import { postIpn } from "../test-support/sign-ipn";

// Nothing personal in the logs (issue 15): after a whole purchase, a support conversation, the
// owner's searches and a refused request carrying an address, the server's and the bot's log, at
// debug level, holds no address field, no message text and no username.

const NAME = "Zelda Quartermain";
const STREET = "77 Unusual Lane, Bristol";
const POSTCODE = "BS1 4DJ";
const CONTACT = "zelda.contact@example.org";
const USERNAME = "zelda_tg_handle";
const CUSTOMER_MESSAGE = "Please leave it behind the blue gate 4242";
// Its code word has letters outside hex, so no timestamp, id or hash in the log can hold it by chance
// (a digits-only "9191" once matched a timestamp).
const OWNER_REPLY = "Will do, the courier knows QXZ7";
const PERSONAL = [NAME, "Quartermain", STREET, "Unusual Lane", POSTCODE, "BS14DJ", CONTACT, USERNAME, CUSTOMER_MESSAGE, "blue gate", OWNER_REPLY, "QXZ7"];

describe("the log after a purchase and a support conversation", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let shop: ShopWithBot;
  let admin: string;
  let customer: Customer;
  const lines: string[] = [];

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await shop.server.request(method, url, { cookie: admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return response.json();
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    const logger = createLogger({ level: "debug", destination: { write: (line: string) => lines.push(line) }, pretty: false });
    shop = await startShopWithBot({ telegram, config: { nowpaymentsApiUrl: gateway.url }, logger });
    admin = await shop.server.login();
    await api("POST", "/api/bot-settings", {
      botName: "Private Shop",
      botToken: "7000000011:private-logs-token",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
      nowpaymentsIpnSecret: TEST_IPN_SECRET,
    });
    await api("POST", "/api/postage-options", { name: "Royal Mail 1st Class", price: "3.50", estimatedDays: 2 });
    await shop.bot.started();
    customer = shop.customer(88_000_001, USERNAME);
  });
  afterAll(async () => {
    await shop?.close();
    await gateway?.close();
    await telegram?.close();
  });

  it("holds no address, message text or username", async () => {
    const product = await api("POST", "/api/products", { name: "Kettle", description: "", price: "20.00", stock: 5 });
    await customer.send("/start");
    await customer.pressData(`add:${product.id}:1`);
    await customer.press("My Cart");
    await customer.press("✅ Checkout");
    await customer.send(NAME);
    await customer.send(STREET);
    await customer.send(POSTCODE);
    await customer.send(CONTACT);
    await customer.press("Royal Mail 1st Class: £3.50 (2 days)");
    await customer.press("Bitcoin (BTC)");
    await customer.press("✅ Confirm and pay");
    const payment = [...gateway.payments.values()][0]!;
    gateway.setStatus(payment.payment_id, "finished");
    const ipn = await postIpn(shop.server.baseUrl, gateway.ipnBody(payment.payment_id, "finished"), { secret: TEST_IPN_SECRET });
    expect(ipn.status).toBe(200);

    await customer.send("/start");
    await customer.press("Contact Support");
    await customer.send(CUSTOMER_MESSAGE);
    await api("POST", "/api/messages", { telegramUserId: customer.id, message: OWNER_REPLY, isFromAdmin: true });

    // The owner looks for the order by postcode and by username; the dashboard shows it in full.
    const byPostcode = await api("GET", `/api/orders?limit=10&q=${encodeURIComponent(POSTCODE)}`);
    expect(JSON.stringify(byPostcode)).toContain(STREET);
    await api("GET", `/api/orders?limit=10&q=${encodeURIComponent(`@${USERNAME}`)}`);
    await api("GET", `/api/messages?limit=10&q=${encodeURIComponent("blue gate")}`);
    // A refused write that carries personal data: the refusal is logged, not what was sent.
    const refused = await shop.server.request("POST", "/api/messages", {
      cookie: admin,
      body: { telegramUserId: customer.id, message: `${OWNER_REPLY} ${"x".repeat(5000)}`, isFromAdmin: true },
    });
    expect(refused.status).toBe(400);

    const log = lines.join("");
    // The log did record the work (so the test looks at a real log, not an empty one).
    expect(log).toContain('"path":"/api/telegram/webhook"');
    expect(log).toContain('"path":"/api/orders"');
    for (const personal of PERSONAL) expect(log.toLowerCase(), `the log mentions "${personal}"`).not.toContain(personal.toLowerCase());
  });
});
