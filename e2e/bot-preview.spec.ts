import type { BotSettings } from "../contract";
import { expect, PHONE, saveScreenshot, test, type Api } from "./support/fixtures";

const createSettings = (api: Api, overrides: Partial<BotSettings> = {}) =>
  api.post<BotSettings>("/api/bot-settings", {
    botName: "Corner Shop Bot",
    botToken: "123456789:AAE-preview-token",
    acceptedCurrencies: ["BTC", "XMR"],
    welcomeMessage: "Hello and welcome to the Corner Shop!",
    faqContent: "We ship within 2 days.",
    ...overrides,
  });

test.describe("bot preview", () => {
  test("without settings it asks to configure the bot first", async ({ adminPage: page }) => {
    await page.goto("/bot-preview");
    await expect(page.getByTestId("page-title")).toHaveText("Bot Preview");
    await expect(page.getByText("No bot settings found. Please configure your bot settings first.")).toBeVisible();
    await page.getByRole("link", { name: "Go to Bot Settings" }).click();
    await expect(page).toHaveURL(/\/bot-settings$/);
  });

  test("shows the bot's name, status, currencies, welcome message, webhook URL and features", async ({ adminPage: page, api, baseURL }) => {
    await createSettings(api);
    await page.goto("/bot-preview");
    await expect(page.getByTestId("bot-name")).toHaveText("Corner Shop Bot");
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    // 'Active' says the bot is configured; whether it runs is the Bot Status card's (this test server runs no bot).
    await expect(page.getByTestId("bot-status").getByTestId("bot-status-badge")).toHaveText("Stopped");
    await expect(page.getByTestId("bot-status-problem")).toHaveText("The bot is not started on this server.");
    const info = page.locator('[data-slot="card"]').filter({ hasText: "Bot Information" });
    await expect(info.getByText("BTC", { exact: true })).toBeVisible();
    await expect(info.getByText("XMR", { exact: true })).toBeVisible();
    await expect(info.getByText("LTC", { exact: true })).toHaveCount(0);
    await expect(page.getByTestId("welcome-message")).toHaveText("Hello and welcome to the Corner Shop!");
    await expect(page.getByTestId("webhook-url")).toHaveText(`${baseURL}/api/telegram/webhook`);
    await expect(info).toContainText("Setup instructions");
    const features = page.getByTestId("bot-features").getByRole("listitem");
    await expect(features).toHaveCount(5);
    for (const [i, name] of ["Browse Products", "My Cart", "My Orders", "Contact Support", "About"].entries()) {
      await expect(features.nth(i)).toContainText(name);
    }
    await expect(page.getByTestId("chat-preview")).toContainText("Hello and welcome to the Corner Shop!");
  });

  test("with an empty welcome message it shows the default text", async ({ adminPage: page, api }) => {
    const settings = await createSettings(api);
    await page.route("**/api/bot-settings", (route) => route.fulfill({ json: { ...settings, welcomeMessage: "" } }));
    await page.goto("/bot-preview");
    await expect(page.getByTestId("welcome-message")).toHaveText(
      "Welcome to our shop! Browse our products, place orders and pay securely with cryptocurrency.",
    );
  });

  test("the webhook tester runs the sample /start update and shows what the bot answered", async ({ adminPage: page, api, telegram }) => {
    await createSettings(api);
    await page.goto("/bot-preview");
    const update = page.getByLabel("Update JSON");
    const sample = JSON.parse(await update.inputValue());
    expect(sample.message.text).toBe("/start");
    expect(sample.message.entities[0]).toMatchObject({ type: "bot_command", offset: 0, length: 6 });

    const sentBefore = telegram.calls.length;
    await page.getByRole("button", { name: "Test Webhook" }).click();
    const result = page.getByTestId("webhook-result");
    await expect(result).toContainText('"ok": true');
    await expect(result).toContainText('"text": "Hello and welcome to the Corner Shop!"');
    await expect(result).toContainText("Browse Products");
    // The preview is answered to the admin, not sent to Telegram.
    expect(telegram.calls.length).toBe(sentBefore);

    await saveScreenshot(page, "bot-preview-desktop");
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "bot-preview-phone");
  });

  test("the webhook tester shows 'Error: ...' for invalid JSON without sending it, and for a refused update", async ({ adminPage: page, api }) => {
    await createSettings(api);
    await page.goto("/bot-preview");
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/telegram/webhook")) sent.push(request.method());
    });

    await page.getByLabel("Update JSON").fill("{ not json");
    await page.getByRole("button", { name: "Test Webhook" }).click();
    await expect(page.getByTestId("webhook-error")).toHaveText(/^Error: .*JSON/);
    expect(sent).toEqual([]);

    await page.getByLabel("Update JSON").fill("[1, 2]");
    await page.getByRole("button", { name: "Test Webhook" }).click();
    await expect(page.getByTestId("webhook-error")).toHaveText(/^Error: Update must be a JSON object \(a Telegram update\)\.$/);
    await expect(page.getByTestId("webhook-result")).toHaveCount(0);
    expect(sent).toEqual(["POST"]);
  });
});
