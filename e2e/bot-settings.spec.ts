import type { BotSettings } from "../contract";
import { signIpn } from "../test-support/sign-ipn";
import { expect, expectToast, PHONE, saveScreenshot, test, toasts, type Api } from "./support/fixtures";

const SETTINGS = {
  botName: "Corner Shop Bot",
  botToken: "123456789:AAE-test-token",
  welcomeMessage: "Welcome to the Corner Shop!",
  faqContent: "We ship within 2 days.",
};

async function fillSettings(page: import("@playwright/test").Page, values = SETTINGS) {
  await page.getByLabel("Bot Name").fill(values.botName);
  await page.getByLabel("Bot Token").fill(values.botToken);
  await page.getByLabel("Welcome Message").fill(values.welcomeMessage);
  await page.getByLabel("FAQ Content").fill(values.faqContent);
}

const storedSettings = (api: Api) => api.get<BotSettings | null>("/api/bot-settings");

test.describe("bot settings", () => {
  test("shows the loading text, then the empty form with its sections and hints", async ({ adminPage: page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/bot-settings", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/bot-settings");
    await expect(page.getByText("Loading settings...")).toBeVisible();
    release();

    await expect(page.getByTestId("page-title")).toHaveText("Bot Settings");
    await expect(page.getByRole("heading", { name: "Bot Configuration" })).toBeVisible();
    await expect(page.getByText("Configure your Telegram bot settings and preferences")).toBeVisible();
    await expect(page.getByLabel("Bot Name")).toHaveValue("");
    await expect(page.getByLabel("Bot Token")).toHaveAttribute("type", "password");
    await expect(page.getByText("Get your bot token from @BotFather on Telegram")).toBeVisible();
    for (const code of ["BTC", "LTC", "XMR"]) await expect(page.getByRole("checkbox", { name: code })).toBeChecked();
    await expect(page.getByLabel("Welcome Message")).toHaveAttribute("rows", "4");
    await expect(page.getByLabel("FAQ Content")).toHaveAttribute("rows", "6");
    await expect(page.getByLabel("API Key", { exact: true })).toHaveAttribute("type", "password");
    await expect(page.getByLabel("IPN Secret Key")).toHaveAttribute("type", "password");
    await expect(page.getByText("Generate it in your NOWPayments dashboard under Store Settings → IPN")).toBeVisible();
    await expect(page.getByText("Telegram Bot Webhook")).toBeVisible();
    for (const step of ["Open @BotFather in Telegram", "Send /mybots", "Choose your bot", "Select Bot Settings", "Select Domain", "Paste the webhook URL"]) {
      await expect(page.getByRole("listitem").filter({ hasText: step })).toBeVisible();
    }
    await expect(page.getByTestId("webhook-self-registration")).toHaveText(
      "When PUBLIC_URL is set to the shop's https address, the server registers this webhook with Telegram itself whenever the bot starts (or when you press Register webhook now).",
    );
    await expect(page.getByRole("button", { name: "Save Settings" })).toBeVisible();
  });

  test("creates the settings, then updates the same record", async ({ adminPage: page, api }) => {
    await page.goto("/bot-settings");
    await fillSettings(page);
    await page.getByRole("checkbox", { name: "XMR" }).click();

    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/bot-settings", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
    release();
    await expectToast(page, "Settings created successfully!");

    const created = await storedSettings(api);
    // Secrets are answered masked: eight bullets and the last 4 characters.
    expect(created).toMatchObject({ ...SETTINGS, botToken: "••••••••oken", acceptedCurrencies: ["BTC", "LTC"], nowpaymentsApiKey: null });

    // No gateway keys saved: the coins say customers cannot pay yet (issue 22, item 8).
    const setupNeeded = page.getByTestId("payments-setup-needed");
    await expect(setupNeeded).toContainText("Setup needed: customers cannot pay until the payment gateway has its API key and IPN secret.");
    await expect(setupNeeded.getByRole("link", { name: "Set up payments" })).toHaveAttribute("href", "#payment-gateway");

    await page.getByLabel("Bot Name").fill("Renamed Bot");
    await page.getByLabel("API Key", { exact: true }).fill("NP-KEY-0001-wxyz");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    const updated = await storedSettings(api);
    expect(updated).toMatchObject({ id: created!.id, botName: "Renamed Bot", nowpaymentsApiKey: "••••••••wxyz" });
    // The key alone is not enough: without the IPN secret no payment can be confirmed.
    await expect(setupNeeded).toBeVisible();
    await page.getByLabel("IPN Secret Key").fill("ipn-secret-0001");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    await expect(setupNeeded).toHaveCount(0);

    // A reload shows what was stored.
    await page.reload();
    await expect(page.getByLabel("Bot Name")).toHaveValue("Renamed Bot");
    await expect(page.getByRole("checkbox", { name: "XMR" })).not.toBeChecked();
    await saveScreenshot(page, "bot-settings-desktop");
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "bot-settings-phone");
  });

  test("needs at least one cryptocurrency and the required fields", async ({ adminPage: page, api }) => {
    await page.goto("/bot-settings");
    await fillSettings(page);
    for (const code of ["BTC", "LTC", "XMR"]) await page.getByRole("checkbox", { name: code }).click();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Select at least one cryptocurrency")).toBeVisible();
    await page.getByLabel("Bot Name").fill("");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Bot Name is required")).toBeVisible();
    expect(await storedSettings(api)).toBeNull();
  });

  test("failure toasts for create and update", async ({ adminPage: page, api }) => {
    await page.goto("/bot-settings");
    await fillSettings(page);
    await page.route("**/api/bot-settings", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Database is down" }) })
        : route.continue(),
    );
    await page.getByRole("button", { name: "Save Settings" }).click();
    const failed = await expectToast(page, "Failed to create settings", "Database is down");
    await expect(failed).toHaveAttribute("data-variant", "destructive");

    await api.post("/api/bot-settings", { ...SETTINGS, acceptedCurrencies: ["BTC"] });
    await page.unrouteAll();
    await page.reload();
    await page.route("**/api/bot-settings/*", (route) =>
      route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ error: "Try again" }) }),
    );
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Failed to update settings", "Try again");
  });

  test("the NOWPayments banner shows while an API key is filled in", async ({ adminPage: page }) => {
    await page.goto("/bot-settings");
    const banner = page.getByTestId("nowpayments-banner");
    await expect(banner).toHaveCount(0);
    await page.getByLabel("API Key", { exact: true }).fill("NP-123");
    await expect(banner).toContainText("Connected to NOWPayments.io");
    await expect(banner).toContainText("Transaction fees: 0.5% same crypto, 1% for exchanges");
    await page.getByLabel("API Key", { exact: true }).fill("");
    await expect(banner).toHaveCount(0);
  });

  test("webhook URLs: copy, swap to the .replit.app domain, reset", async ({ adminPage: page, baseURL, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.goto("/bot-settings");
    const telegramUrl = page.getByLabel("Webhook URL", { exact: true });
    await expect(telegramUrl).toHaveValue(`${baseURL}/api/telegram/webhook`);
    // This server has no PUBLIC_URL: the page's own origin, and it says so (e2e/bot-health.spec.ts shows PUBLIC_URL's).
    await expect(page.getByTestId("webhook-url-source")).toHaveText("PUBLIC_URL is not set: this is this page's own address.");

    const webhookCard = page.locator('[data-slot="card"]').filter({ hasText: "Telegram Bot Webhook" });
    await webhookCard.getByRole("button", { name: "Copy" }).click();
    await expectToast(page, "Telegram webhook URL copied!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/api/telegram/webhook`);

    await page.getByRole("button", { name: "Use .replit.app domain" }).click();
    await expect(telegramUrl).toHaveValue("https://your-app-name.replit.app/api/telegram/webhook");
    await page.getByRole("button", { name: "Reset to current" }).click();
    await expect(telegramUrl).toHaveValue(`${baseURL}/api/telegram/webhook`);

    // The field is editable, and Copy takes what is typed.
    await telegramUrl.fill("https://shop.example/api/telegram/webhook");
    await webhookCard.getByRole("button", { name: "Copy" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("https://shop.example/api/telegram/webhook");

    const paymentsUrl = page.getByLabel("Payment Webhook URL (IPN callback)");
    await expect(paymentsUrl).toHaveValue(`${baseURL}/api/payments/webhook`);
    await expect(paymentsUrl).toHaveAttribute("readonly", "");
    const gatewayCard = page.locator('[data-slot="card"]').filter({ hasText: "Payment Gateway" });
    await gatewayCard.getByRole("button", { name: "Copy" }).click();
    await expectToast(page, "Webhook URL copied!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/api/payments/webhook`);
    // At most one toast at a time: the newest replaced the earlier ones.
    await expect(toasts(page)).toHaveCount(1);
  });
  test("the underpayment tolerance: 1% by default, 0 to 15 with two decimals", async ({ adminPage: page, api }) => {
    await page.goto("/bot-settings");
    const tolerance = page.getByLabel("Underpayment tolerance (%)");
    await expect(tolerance).toHaveValue("1");
    await expect(page.getByText("A payment short by more than this is treated as underpaid")).toBeVisible();
    await fillSettings(page);

    await tolerance.fill("15.5");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Underpayment tolerance must be from 0 to 15, with at most two decimals")).toBeVisible();
    expect(await storedSettings(api)).toBeNull();

    await tolerance.fill("2.5");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings created successfully!");
    expect(await storedSettings(api)).toMatchObject({ underpaymentTolerancePercent: 2.5 });

    await page.reload();
    await expect(tolerance).toHaveValue("2.5");
    await tolerance.fill("0");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    expect(await storedSettings(api)).toMatchObject({ underpaymentTolerancePercent: 0 });
  });

  test("a token Telegram refuses is a form error on Bot Token, and nothing is saved", async ({ adminPage: page, api, telegram }) => {
    telegram.refuseToken("987654321:AAE-refused-token");
    await page.goto("/bot-settings");
    await fillSettings(page, { ...SETTINGS, botToken: "987654321:AAE-refused-token" });
    await page.getByRole("button", { name: "Save Settings" }).click();
    const tokenField = page.locator('[data-slot="form-item"]').filter({ has: page.getByLabel("Bot Token") });
    await expect(tokenField.locator('[data-slot="form-message"]')).toHaveText("Telegram did not accept this token");
    await expect(page.getByLabel("Bot Token")).toHaveAttribute("aria-invalid", "true");
    await expectToast(page, "Failed to create settings", "Telegram did not accept this token");
    expect(await storedSettings(api)).toBeNull();
    expect(telegram.callsOf("getMe").at(-1)).toMatchObject({ token: "987654321:AAE-refused-token" });
  });

  test("with Telegram unreachable the settings are saved, with a warning", async ({ adminPage: page, api, telegram }) => {
    await page.goto("/bot-settings");
    await fillSettings(page);
    telegram.outage("network");
    try {
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expectToast(page, "Settings created successfully!", /The token could not be checked: Telegram could not be reached/);
    } finally {
      telegram.outage(null);
    }
    await expect(page.getByTestId("token-warning")).toContainText("The settings are saved; the bot starts once Telegram answers.");
    expect(await storedSettings(api)).toMatchObject({ botToken: "••••••••oken" });

    // The next save clears the warning (it keeps the token, which is not checked again).
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    await expect(page.getByTestId("token-warning")).toHaveCount(0);
  });

  test("the bot status card says the bot is stopped on a server that does not run it, with no webhook button", async ({ adminPage: page, api }) => {
    await api.post("/api/bot-settings", { ...SETTINGS, acceptedCurrencies: ["BTC"] });
    await page.goto("/bot-settings");
    const card = page.getByTestId("bot-status");
    await expect(card.getByTestId("bot-status-badge")).toHaveText("Stopped");
    await expect(card.getByTestId("bot-status-problem")).toHaveText("The bot is not started on this server.");
    await expect(card.getByRole("button", { name: "Register webhook now" })).toHaveCount(0);
  });

  test("a stored secret shows as set (…wxyz) with Replace; saving without replacing keeps it", async ({ adminPage: page, api, telegram }) => {
    const secrets = {
      botToken: "123456789:AAE-stored-token-wxyz",
      nowpaymentsApiKey: "NP-STORED-KEY-0001",
      nowpaymentsIpnSecret: "stored-ipn-secret-9876",
    };
    await api.post("/api/bot-settings", { ...SETTINGS, ...secrets, acceptedCurrencies: ["BTC"] });
    await page.goto("/bot-settings");

    const token = page.getByTestId("botToken-set");
    await expect(token).toHaveText("set (…wxyz)");
    await expect(page.getByTestId("nowpaymentsApiKey-set")).toHaveText("set (…0001)");
    await expect(page.getByTestId("nowpaymentsIpnSecret-set")).toHaveText("set (…9876)");
    // The page holds no secret, in no input: not even a masked one in a password field.
    const html = await page.content();
    for (const secret of Object.values(secrets)) expect(html).not.toContain(secret.slice(0, -4));
    for (const label of ["Bot Token", "API Key", "IPN Secret Key"]) await expect(page.getByLabel(label, { exact: true })).toHaveCount(0);
    await expect(page.getByTestId("nowpayments-banner")).toContainText("Connected to NOWPayments.io");
    await expect(page.getByText("Get your bot token from @BotFather on Telegram")).toBeVisible();
    await saveScreenshot(page, "bot-settings-secrets-set");

    // Saved without replacing: the stored secrets stay, and Telegram is not asked about the token again.
    const getMeBefore = telegram.callsOf("getMe").length;
    await page.getByLabel("Bot Name").fill("Kept Secrets Bot");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    expect(telegram.callsOf("getMe").length).toBe(getMeBefore);
    expect(await storedSettings(api)).toMatchObject({
      botName: "Kept Secrets Bot",
      botToken: "••••••••wxyz",
      nowpaymentsApiKey: "••••••••0001",
      nowpaymentsIpnSecret: "••••••••9876",
    });
    // The IPN is still verified with the real secret: signed with it, only the order is unknown (404).
    const ipn = { payment_id: "5550002", payment_status: "finished", order_id: "00000000-0000-4000-8000-000000000032" };
    const signed = (secret: string) => page.request.post("/api/payments/webhook", { data: ipn, headers: { "x-nowpayments-sig": signIpn(ipn, secret) } });
    expect((await signed(secrets.nowpaymentsIpnSecret)).status()).toBe(404);
    expect((await signed("••••••••9876")).status()).toBe(401);

    // Replace opens an empty input, focused; Cancel goes back to the stored one.
    const replace = page.getByRole("button", { name: "Replace Bot Token" });
    await expect(replace).toHaveAccessibleDescription("set (…wxyz)");
    await replace.click();
    const input = page.getByLabel("Bot Token", { exact: true });
    await expect(input).toBeFocused();
    await expect(input).toHaveValue("");
    await expect(input).toHaveAttribute("type", "password");
    // Just opened, the empty field is not yet an error.
    await expect(input).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Bot Token is required")).toHaveCount(0);
    await saveScreenshot(page, "bot-settings-secret-replacing");
    await page.getByRole("button", { name: "Cancel replacing Bot Token" }).click();
    await expect(token).toHaveText("set (…wxyz)");
    await expect(replace).toBeFocused();

    // Replaced: the new token is checked with Telegram, saved, and shown by its own last 4 characters.
    await replace.click();
    await input.fill("123456789:AAE-replaced-token-abcd");
    const getMeBeforeReplacing = telegram.callsOf("getMe").length;
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    // Among the calls since: the bot's runner, restarted for the saved settings, makes its own.
    expect(telegram.callsOf("getMe").slice(getMeBeforeReplacing)).toContainEqual(expect.objectContaining({ token: "123456789:AAE-replaced-token-abcd" }));
    await expect(token).toHaveText("set (…abcd)");
    await expect(input).toHaveCount(0);
    expect(await storedSettings(api)).toMatchObject({ botToken: "••••••••abcd", nowpaymentsIpnSecret: "••••••••9876" });

    // Replaced with nothing, the API key is cleared (as an empty field always did): the plain input again.
    await page.getByRole("button", { name: "Replace API Key" }).click();
    await expect(page.getByTestId("nowpayments-banner")).toHaveCount(0);
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    expect(await storedSettings(api)).toMatchObject({ nowpaymentsApiKey: null, nowpaymentsIpnSecret: "••••••••9876" });
    await expect(page.getByLabel("API Key", { exact: true })).toHaveValue("");
    await expect(page.getByRole("button", { name: "Cancel replacing API Key" })).toHaveCount(0);
    await page.reload();
    await expect(token).toHaveText("set (…abcd)");
    await expect(page.getByLabel("API Key", { exact: true })).toHaveValue("");
    await expect(page.getByTestId("nowpaymentsIpnSecret-set")).toHaveText("set (…9876)");
  });
});
