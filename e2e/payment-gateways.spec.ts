import fs from "node:fs";
import type { Page, Route } from "@playwright/test";
import {
  maskSecret,
  PaymentGatewaysInputSchema,
  PaymentGatewaysSchema,
  type BotSettings,
  type PaymentGateways,
  type PaymentGatewaysInput,
} from "../contract";
import { expectNoSeriousViolations } from "./support/axe";
import { type Api, DESKTOP, expect, expectToast, PHONE, test } from "./support/fixtures";

// The Payment gateways card of Bot Settings (issue 24). The states that need a connected BTCPay store
// (registered webhooks, refusals by the store) are answered here with page.route() in the contract's
// shapes (contract/payment-gateways.ts), checked with its schemas, as the e2e servers run no Greenfield
// fake; the server's side of each is tested against one in server/payments/btcpay.test.ts and
// server/http/routes/payment-gateways.test.ts. NOWPayments' part is read from the real /api/bot-settings,
// and the last test runs against the real routes alone.

const SHOTS = "/tmp/shots-btcpay-web";

const STORED_API_KEY = "btcpay-stored-api-key-wxyz";
const STORED_WEBHOOK_SECRET = "btcpay-webhook-secret-abcd";
const REFUSED_API_KEY = "refused-api-key-0000";
const REFUSAL = "BTCPay Server refused the API key: it needs the permissions btcpay.store.canviewinvoices and btcpay.store.cancreateinvoice.";
const XMR_REFUSAL = "XMR cannot be taken by this BTCPay store: its Monero plugin is not set up.";
const NO_PUBLIC_URL = "PUBLIC_URL is not set: BTCPay Server has no address to post to, so payments are checked by polling.";

type Stored = {
  btcpay: { serverUrl: string | null; storeId: string | null; apiKey: string | null; webhookSecret: string | null };
  webhook: PaymentGateways["btcpay"]["webhook"];
  coins: PaymentGateways["coins"];
};

/** The server's side of the contract, in the test: what is stored, and every PUT body received. */
async function fakeGateways(page: Page, api: Api, stored: Stored, options: { publicUrl?: string | null; refuse?: (input: PaymentGatewaysInput) => string | null } = {}) {
  const puts: unknown[] = [];
  let registerCalls = 0;
  const answer = async (): Promise<PaymentGateways> => {
    const settings = await api.get<BotSettings | null>("/api/bot-settings");
    return PaymentGatewaysSchema.parse({
      nowpayments: { apiKey: settings?.nowpaymentsApiKey ?? null, ipnSecret: settings?.nowpaymentsIpnSecret ?? null },
      btcpay: {
        serverUrl: stored.btcpay.serverUrl,
        storeId: stored.btcpay.storeId,
        apiKey: maskSecret(stored.btcpay.apiKey),
        webhookSecret: maskSecret(stored.btcpay.webhookSecret),
        webhook: stored.webhook,
      },
      coins: stored.coins,
    });
  };
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });

  await page.route("**/api/payment-gateways", async (route) => {
    const method = route.request().method();
    if (method === "GET") return json(route, 200, await answer());
    if (method !== "PUT") return json(route, 405, { error: "Method not allowed" });
    const body: unknown = route.request().postDataJSON();
    puts.push(body);
    const parsed = PaymentGatewaysInputSchema.safeParse(body);
    if (!parsed.success) return json(route, 400, { error: parsed.error.issues[0]!.message });
    const refusal = options.refuse?.(body as PaymentGatewaysInput) ?? null;
    // A refusal saves nothing.
    if (refusal) return json(route, 400, { error: refusal });
    const { btcpay, coins } = parsed.data;
    for (const name of ["serverUrl", "storeId", "apiKey"] as const) {
      const value = btcpay?.[name];
      // A masked value sent back keeps the stored secret.
      if (value !== undefined && !(name === "apiKey" && value?.includes("•"))) stored.btcpay[name] = value;
    }
    stored.coins = { ...stored.coins, ...Object.fromEntries(Object.entries(coins ?? {}).filter(([, gateway]) => gateway)) };
    return json(route, 200, await answer());
  });
  await page.route("**/api/payment-gateways/btcpay/webhook", async (route) => {
    registerCalls++;
    if (route.request().method() !== "POST") return json(route, 405, { error: "Method not allowed" });
    if (!options.publicUrl) return json(route, 409, { error: NO_PUBLIC_URL });
    stored.btcpay.webhookSecret = "btcpay-new-webhook-secret-9z9z";
    stored.webhook = { id: "wh_1", url: `${options.publicUrl}/api/payments/btcpay/webhook`, state: "registered" };
    return json(route, 200, stored.webhook);
  });
  return { puts, registerCalls: () => registerCalls };
}

const storedConnected = (): Stored => ({
  btcpay: { serverUrl: "https://btcpay.example.com", storeId: "Store_123-abc", apiKey: STORED_API_KEY, webhookSecret: STORED_WEBHOOK_SECRET },
  webhook: { id: null, url: null, state: "not-registered" },
  coins: { BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" },
});

const storedEmpty = (): Stored => ({
  btcpay: { serverUrl: null, storeId: null, apiKey: null, webhookSecret: null },
  webhook: { id: null, url: null, state: "no-public-url" },
  coins: { BTC: "nowpayments", LTC: "nowpayments", XMR: "nowpayments" },
});

const card = (page: Page) => page.getByTestId("payment-gateways-card");
const coin = (page: Page, code: string) => card(page).getByRole("group", { name: code });
const saveButton = (page: Page) => card(page).getByRole("button", { name: "Save Payment Gateways" });
const fieldMessage = (page: Page, label: string) =>
  card(page).locator('[data-slot="form-item"]').filter({ hasText: label }).locator('[data-slot="form-message"]');


/**
 * The whole page, and the card cut from it: taken from the top, as one piece (an element's shot is
 * taken in pieces while scrolling, and the sticky top bar lands over the card).
 */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}-page.png`, fullPage: true });
  const box = await card(page).boundingBox();
  if (box) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, clip: box });
}

test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

test.describe("payment gateways card", () => {
  test("shows what is stored, secrets masked once, with NOWPayments' keys edited only in their own card", async ({ adminPage: page, api }) => {
    await api.post("/api/bot-settings", {
      botName: "Gateway Bot",
      botToken: "123456789:AAE-gateway-token",
      acceptedCurrencies: ["BTC", "LTC", "XMR"],
      welcomeMessage: "Hi",
      faqContent: "FAQ",
      nowpaymentsApiKey: "NP-STORED-KEY-0001",
      nowpaymentsIpnSecret: "stored-ipn-secret-9876",
    });
    await fakeGateways(page, api, storedConnected());
    await page.goto("/bot-settings");

    await expect(card(page).locator('[data-slot="card-title"]')).toHaveText("Payment gateways");
    await expect(card(page).getByRole("heading", { name: "BTCPay Server" })).toBeVisible();
    await expect(card(page).getByLabel("BTCPay Server URL")).toHaveValue("https://btcpay.example.com");
    await expect(card(page).getByLabel("Store ID")).toHaveValue("Store_123-abc");
    await expect(card(page).getByTestId("btcpay.apiKey-set")).toHaveText("set (…wxyz)");
    await expect(card(page).getByRole("button", { name: "Replace BTCPay API key" })).toBeVisible();
    await expect(card(page).getByTestId("btcpay-webhook-secret")).toHaveText("set (…abcd)");
    await expect(card(page).getByTestId("btcpay-webhook-state")).toHaveText("Not registered");
    await expect(coin(page, "BTC").getByRole("radio", { name: "BTCPay Server" })).toBeChecked();
    await expect(coin(page, "LTC").getByRole("radio", { name: "NOWPayments" })).toBeChecked();
    await expect(coin(page, "XMR").getByRole("radio", { name: "NOWPayments" })).toBeChecked();

    // NOWPayments' secrets show once on the page, in the bot's settings form; the card says they are set.
    await expect(page.getByTestId("nowpaymentsApiKey-set")).toHaveText("set (…0001)");
    await expect(page.getByText("set (…0001)")).toHaveCount(1);
    await expect(page.getByText("set (…9876)")).toHaveCount(1);
    await expect(card(page).getByTestId("nowpayments-state")).toHaveText("API key and IPN secret are set");
    await expect(card(page).getByRole("link", { name: "Edit the NOWPayments keys" })).toHaveAttribute("href", "#payment-gateway");
    // No secret in the page, masked or not, in any input.
    const html = await page.content();
    for (const secret of [STORED_API_KEY, STORED_WEBHOOK_SECRET, "NP-STORED-KEY-0001", "stored-ipn-secret-9876"]) expect(html).not.toContain(secret.slice(0, -4));
    await expect(card(page).locator("input[value*='•']")).toHaveCount(0);

    await expectNoSeriousViolations(page, "the payment gateways card", "#payment-gateways");
    await shoot(page, "payment-gateways-desktop");

    await page.setViewportSize(PHONE);
    await expect(card(page)).toBeVisible();
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoSeriousViolations(page, "the payment gateways card", "#payment-gateways");
    await shoot(page, "payment-gateways-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoSeriousViolations(page, "the payment gateways card", "#payment-gateways");
    await shoot(page, "payment-gateways-phone-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(DESKTOP);
  });

  test("Save sends only what changed; a key left masked is kept, a replaced one is sent", async ({ adminPage: page, api }) => {
    const stored = storedConnected();
    const fake = await fakeGateways(page, api, stored);
    await page.goto("/bot-settings");

    // Nothing changed: nothing is sent.
    await saveButton(page).click();
    await expectToast(page, "No changes to save");
    expect(fake.puts).toEqual([]);

    await card(page).getByLabel("BTCPay Server URL").fill("  https://pay.example.org  ");
    // Chosen with the keyboard: arrow keys move between a coin's two gateways.
    await coin(page, "XMR").getByRole("radio", { name: "NOWPayments" }).focus();
    await page.keyboard.press("ArrowDown");
    await expect(coin(page, "XMR").getByRole("radio", { name: "BTCPay Server" })).toBeChecked();
    await saveButton(page).click();
    await expectToast(page, "Payment gateways saved");
    expect(fake.puts).toEqual([{ btcpay: { serverUrl: "https://pay.example.org" }, coins: { XMR: "btcpay" } }]);
    expect(stored).toMatchObject({ btcpay: { serverUrl: "https://pay.example.org", apiKey: STORED_API_KEY }, coins: { BTC: "btcpay", XMR: "btcpay" } });
    await expect(card(page).getByLabel("BTCPay Server URL")).toHaveValue("https://pay.example.org");

    // A change undone is no change.
    await card(page).getByLabel("Store ID").fill("Other");
    await card(page).getByLabel("Store ID").fill("Store_123-abc");
    await saveButton(page).click();
    await expectToast(page, "No changes to save");
    expect(fake.puts).toHaveLength(1);

    // Replace opens an empty input (Cancel goes back); the new key is sent and shown by its last 4 characters.
    await card(page).getByRole("button", { name: "Replace BTCPay API key" }).click();
    const keyInput = card(page).getByLabel("BTCPay API key", { exact: true });
    await expect(keyInput).toBeFocused();
    await expect(keyInput).toHaveAttribute("type", "password");
    await keyInput.fill("btcpay-new-api-key-5678");
    await keyInput.press("Enter");
    await expectToast(page, "Payment gateways saved");
    expect(fake.puts.at(-1)).toEqual({ btcpay: { apiKey: "btcpay-new-api-key-5678" } });
    await expect(card(page).getByTestId("btcpay.apiKey-set")).toHaveText("set (…5678)");

    // A reload shows what was stored.
    await page.reload();
    await expect(card(page).getByLabel("BTCPay Server URL")).toHaveValue("https://pay.example.org");
    await expect(coin(page, "XMR").getByRole("radio", { name: "BTCPay Server" })).toBeChecked();
  });

  test("a refusal shows under the field it names, or above Save, and nothing else changes", async ({ adminPage: page, api }) => {
    const stored = storedEmpty();
    const fake = await fakeGateways(page, api, stored, {
      refuse: (input) =>
        input.btcpay?.apiKey === REFUSED_API_KEY
          ? REFUSAL
          : input.btcpay?.storeId === "gone"
            ? "The shop could not save the payment gateways: try again."
            : input.coins?.XMR === "btcpay"
              ? XMR_REFUSAL
              : null,
    });
    await page.goto("/bot-settings");
    await expect(card(page).getByTestId("btcpay-webhook-secret")).toHaveText("Made when the webhook is registered");

    // Checked in the browser first (the contract's schema): an http address of another machine is refused unsent.
    await card(page).getByLabel("BTCPay Server URL").fill("http://btcpay.example.com");
    await saveButton(page).click();
    await expect(fieldMessage(page, "BTCPay Server URL")).toHaveText(
      "must be the https:// address of your BTCPay Server, such as https://btcpay.example.com",
    );
    await expect(card(page).getByLabel("BTCPay Server URL")).toHaveAttribute("aria-invalid", "true");
    expect(fake.puts).toEqual([]);

    // The server refuses the key: its sentence under the key, the form as typed, nothing stored.
    await card(page).getByLabel("BTCPay Server URL").fill("https://btcpay.example.com");
    await card(page).getByLabel("Store ID").fill("Store1");
    await card(page).getByLabel("BTCPay API key", { exact: true }).fill(REFUSED_API_KEY);
    await coin(page, "BTC").getByRole("radio", { name: "BTCPay Server" }).check();
    await saveButton(page).click();
    await expect(fieldMessage(page, "BTCPay API key")).toHaveText(REFUSAL);
    await expect(card(page).getByLabel("BTCPay API key", { exact: true })).toBeFocused();
    const failed = await expectToast(page, "Failed to save payment gateways", REFUSAL);
    await expect(failed).toHaveAttribute("data-variant", "destructive");
    expect(stored).toEqual(storedEmpty());
    await expect(card(page).getByLabel("BTCPay Server URL")).toHaveValue("https://btcpay.example.com");
    await expect(card(page).getByLabel("BTCPay API key", { exact: true })).toHaveValue(REFUSED_API_KEY);
    await expect(coin(page, "BTC").getByRole("radio", { name: "BTCPay Server" })).toBeChecked();
    await expect(card(page).getByTestId("payment-gateways-error")).toHaveCount(0);
    await shoot(page, "payment-gateways-refused");

    // A sentence that names no field goes above Save.
    await card(page).getByLabel("BTCPay API key", { exact: true }).fill("good-api-key-1234");
    await card(page).getByLabel("Store ID").fill("gone");
    await saveButton(page).click();
    await expect(card(page).getByTestId("payment-gateways-error")).toHaveText("The shop could not save the payment gateways: try again.");
    expect(stored).toEqual(storedEmpty());

    // A coin's refusal shows under the coins.
    await card(page).getByLabel("Store ID").fill("Store1");
    await coin(page, "XMR").getByRole("radio", { name: "BTCPay Server" }).check();
    await saveButton(page).click();
    await expect(card(page).locator("fieldset").first().locator('[data-slot="form-message"]')).toHaveText(XMR_REFUSAL);
    await expect(card(page).getByTestId("payment-gateways-error")).toHaveCount(0);
    expect(stored).toEqual(storedEmpty());
    await coin(page, "XMR").getByRole("radio", { name: "NOWPayments" }).check();

    // Corrected: saved, and the sentence above Save goes away.
    await card(page).getByLabel("Store ID").fill("Store1");
    await saveButton(page).click();
    await expectToast(page, "Payment gateways saved");
    await expect(card(page).getByTestId("payment-gateways-error")).toHaveCount(0);
    expect(fake.puts.at(-1)).toEqual({
      btcpay: { serverUrl: "https://btcpay.example.com", storeId: "Store1", apiKey: "good-api-key-1234" },
      coins: { BTC: "btcpay" },
    });
    await expect(card(page).getByTestId("btcpay.apiKey-set")).toHaveText("set (…1234)");
  });

  test("Register webhook: without PUBLIC_URL its sentence shows; registered, the state says so", async ({ adminPage: page, api }) => {
    const fake = await fakeGateways(page, api, { ...storedConnected(), webhook: { id: null, url: null, state: "no-public-url" } });
    await page.goto("/bot-settings");
    const state = card(page).getByTestId("btcpay-webhook-state");
    await expect(state).toHaveText("No public address: payments are checked by polling");
    const register = card(page).getByRole("button", { name: "Register webhook", exact: true });
    await register.click();
    await expect(card(page).getByTestId("btcpay-webhook-error")).toHaveText(NO_PUBLIC_URL);
    await expectToast(page, "Failed to register the webhook", NO_PUBLIC_URL);
    await expect(state).toHaveText("No public address: payments are checked by polling");
    expect(fake.registerCalls()).toBe(1);
  });

  test("Register webhook with a public address: Registered, its address, and the new secret masked", async ({ adminPage: page, api }) => {
    // A hostile store id and address are shown as text, never as markup.
    const stored = { ...storedConnected(), btcpay: { ...storedConnected().btcpay, storeId: "<img src=x onerror=alert(1)>", webhookSecret: null } };
    await fakeGateways(page, api, stored, { publicUrl: "https://shop.example" });
    await page.goto("/bot-settings");
    await expect(card(page).getByLabel("Store ID")).toHaveValue("<img src=x onerror=alert(1)>");
    await expect(card(page).getByTestId("btcpay-webhook-secret")).toHaveText("Made when the webhook is registered");
    // Moved to with the keyboard, pressed with Enter.
    await card(page).getByRole("button", { name: "Register webhook", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "Webhook registered");
    await expect(card(page).getByTestId("btcpay-webhook-state")).toHaveText("Registered");
    await expect(card(page).getByTestId("btcpay-webhook-url")).toHaveText("BTCPay Server posts to https://shop.example/api/payments/btcpay/webhook");
    await expect(card(page).getByTestId("btcpay-webhook-secret")).toHaveText("set (…9z9z)");
    await expect(card(page).getByTestId("btcpay-webhook-error")).toHaveCount(0);
    await expect(card(page).locator("img")).toHaveCount(0);
  });

  test("Save Settings with NOWPayments' keys updates the card's NOWPayments state", async ({ adminPage: page, api }) => {
    await api.post("/api/bot-settings", { botName: "Gateway Bot", botToken: "123456789:AAE-gateway-token", acceptedCurrencies: ["BTC"], welcomeMessage: "Hi", faqContent: "FAQ" });
    await fakeGateways(page, api, storedEmpty());
    await page.goto("/bot-settings");
    const nowpayments = card(page).getByTestId("nowpayments-state");
    await expect(nowpayments).toHaveText("Its API key and IPN secret are not both set");
    // Something typed in the card meanwhile is not lost when the gateways are read again.
    await card(page).getByLabel("Store ID").fill("Typed-but-not-saved");
    await page.getByLabel("API Key", { exact: true }).fill("NP-KEY-0001-wxyz");
    await page.getByLabel("IPN Secret Key").fill("ipn-secret-0001");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    await expect(nowpayments).toHaveText("API key and IPN secret are set");
    await expect(card(page).getByLabel("Store ID")).toHaveValue("Typed-but-not-saved");
  });

  // Against the real server's routes (issue24-btcpay-server merged): no page.route() in this one.
  test("the real server: a BTCPay Server that cannot be reached is refused under its address, nothing saved", async ({ adminPage: page, api }) => {
    await api.post("/api/bot-settings", {
      botName: "Gateway Bot",
      botToken: "123456789:AAE-gateway-token",
      acceptedCurrencies: ["BTC", "LTC"],
      welcomeMessage: "Hi",
      faqContent: "FAQ",
      nowpaymentsApiKey: "NP-STORED-KEY-0001",
      nowpaymentsIpnSecret: "stored-ipn-secret-9876",
    });
    const before = PaymentGatewaysSchema.parse(await api.get("/api/payment-gateways"));
    await page.goto("/bot-settings");
    await expect(card(page).getByTestId("nowpayments-state")).toHaveText("API key and IPN secret are set");
    await expect(coin(page, "BTC").getByRole("radio", { name: "NOWPayments" })).toBeChecked();

    // Port 9 (discard) answers nothing on 127.0.0.1: the server's own check of the store fails.
    await card(page).getByLabel("BTCPay Server URL").fill("http://127.0.0.1:9");
    await card(page).getByLabel("Store ID").fill("Store1");
    await card(page).getByLabel("BTCPay API key").fill("a-real-looking-api-key-1234");
    await card(page).getByRole("button", { name: "Save Payment Gateways" }).click();
    await expect(card(page).getByText("BTCPay Server could not be reached at http://127.0.0.1:9: check the server address.")).toBeVisible();
    expect(PaymentGatewaysSchema.parse(await api.get("/api/payment-gateways"))).toEqual(before);
  });
});
