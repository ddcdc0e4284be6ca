import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, guardedTest as test } from "./support/fixtures";
import type { BotSettings, TokenCheck } from "../contract";
import { startFakeTelegram, type FakeTelegram } from "../test-support/fake-telegram";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../test-support/server-process";

// The bot's health in the browser (issue 14, item 2). The worker's usual e2e server never starts its
// bot (e2e/support/server.ts), so these tests run the real server (server/main.ts) in a process of
// their own, its bot talking to a fake Telegram on 127.0.0.1 that can go down and come back.

// Its tests share the server its beforeAll starts: kept together on one worker, in order
// (playwright.config.ts runs the other specs' tests fully in parallel).
test.describe.configure({ mode: "default" });

const PASSWORD = "bot health admin password";
const TOKEN = "424242:AAE-health-token";
const SETTINGS = {
  botName: "Health Shop Bot",
  botToken: TOKEN,
  acceptedCurrencies: ["BTC"],
  welcomeMessage: "Welcome!",
  faqContent: "FAQ",
};

async function startShop(telegram: FakeTelegram, env: Record<string, string> = {}) {
  return startServerProcess("e2e-bot-health", {
    ADMIN_PASSWORD: PASSWORD,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    // Nothing listens there: no test reaches the real gateway by accident.
    NOWPAYMENTS_API_URL: "http://127.0.0.1:9/v1",
    ...env,
  });
}

async function stopShop(server: ServerProcess | undefined) {
  if (!server) return;
  await stopServerProcess(server);
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/** Logs the page in and saves the bot settings, so the server starts its bot. */
async function loginAndSaveSettings(page: Page, server: ServerProcess) {
  const login = await page.request.post(`${server.baseUrl}/api/auth/login`, { data: { password: PASSWORD } });
  expect(login.ok()).toBe(true);
  // Telegram is asked about the token only when a save changes it (docs/SECURITY.md): the tests of one
  // describe share a server, so a later test's save finds the same token already stored.
  const before = await page.request.get(`${server.baseUrl}/api/bot-settings`);
  const tokenStored = before.ok() && Boolean(((await before.json()) as BotSettings | null)?.botToken);
  const saved = await page.request.post(`${server.baseUrl}/api/bot-settings`, { data: SETTINGS });
  expect(saved.status()).toBe(201);
  expect(((await saved.json()) as BotSettings & { tokenCheck: TokenCheck }).tokenCheck).toMatchObject({
    outcome: tokenStored ? "not-checked" : "accepted",
  });
}

/** The status card polls every 15 s; "Check now" asks at once, until the badge says `label`. */
async function expectBadge(page: Page, label: "Running" | "Error" | "Stopped") {
  const card = page.getByTestId("bot-status");
  await expect(async () => {
    await card.getByRole("button", { name: "Check now" }).click({ timeout: 2_000 });
    await expect(card.getByTestId("bot-status-badge")).toHaveText(label, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(card.getByTestId("bot-status-badge")).toHaveAttribute("data-state", label.toLowerCase());
}

test.describe("bot health, long polling", () => {
  let telegram: FakeTelegram;
  let server: ServerProcess | undefined;
  test.beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startShop(telegram);
  });
  test.afterAll(async () => {
    telegram.outage(null);
    await stopShop(server);
    await telegram.close();
  });

  test("before a token is saved, the card on Bot Settings points at the field above, not at Bot Settings", async ({ page }) => {
    const login = await page.request.post(`${server!.baseUrl}/api/auth/login`, { data: { password: PASSWORD } });
    expect(login.ok()).toBe(true);
    await page.goto(`${server!.baseUrl}/bot-settings`);
    const problem = page.getByTestId("bot-status").getByTestId("bot-status-problem");
    await expect(problem).toHaveText("No bot token is configured. Enter it in Bot Token above, then Save Settings.");
    await expect(problem.getByRole("link")).toHaveCount(0);
  });

  test("the badge is green while the bot runs, shows the error during a Telegram outage, and is green again after", async ({ page }) => {
    await loginAndSaveSettings(page, server!);
    await page.goto(`${server!.baseUrl}/bot-preview`);
    const card = page.getByTestId("bot-status");
    await expectBadge(page, "Running");
    await expect(card.getByTestId("bot-status-username")).toHaveText("@test_shop_bot");
    await expect(card).toContainText("Long polling");
    // The status text of docs/product.md §2 stays; green is only for the live badge.
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    // No PUBLIC_URL: nothing to register.
    await expect(card.getByRole("button", { name: "Register webhook now" })).toHaveCount(0);

    telegram.outage("network");
    try {
      await expectBadge(page, "Error");
      await expect(card.getByTestId("bot-status-problem")).toContainText(/Telegram could not be reached|Network request for 'getUpdates' failed/);
    } finally {
      telegram.outage(null);
    }
    await expectBadge(page, "Running");
    await expect(card.getByTestId("bot-status-problem")).toHaveCount(0);

    // Bot Settings shows the same.
    await page.goto(`${server!.baseUrl}/bot-settings`);
    await expectBadge(page, "Running");
  });

  test("the badge says error when Telegram stops accepting the token", async ({ page }) => {
    await loginAndSaveSettings(page, server!);
    await page.goto(`${server!.baseUrl}/bot-settings`);
    await expectBadge(page, "Running");
    telegram.refuseToken(TOKEN);
    await expectBadge(page, "Error");
    await expect(page.getByTestId("bot-status-problem")).toContainText("401: Unauthorized");
  });
});

test.describe("bot health, webhook (PUBLIC_URL https)", () => {
  const WEBHOOK_URL = "https://shop.example/api/telegram/webhook";
  let telegram: FakeTelegram;
  let server: ServerProcess | undefined;
  test.beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startShop(telegram, { PUBLIC_URL: "https://shop.example" });
  });
  test.afterAll(async () => {
    await stopShop(server);
    await telegram.close();
  });

  test("a webhook Telegram delivers elsewhere is an error, and Register webhook now puts it back", async ({ page }) => {
    await loginAndSaveSettings(page, server!);
    await page.goto(`${server!.baseUrl}/bot-settings`);
    const card = page.getByTestId("bot-status");
    await expectBadge(page, "Running");
    await expect(card).toContainText(WEBHOOK_URL);
    // The addresses shown for copying are the server's (PUBLIC_URL), not this page's 127.0.0.1 origin (issue 22, item 8).
    await expect(page.getByLabel("Webhook URL", { exact: true })).toHaveValue(WEBHOOK_URL);
    await expect(page.getByTestId("webhook-url-source")).toHaveText("From the server's PUBLIC_URL: the address it registers with Telegram.");
    await expect(page.getByLabel("Payment Webhook URL (IPN callback)")).toHaveValue("https://shop.example/api/payments/webhook");

    telegram.webhookInfo(TOKEN).url = "https://old-host.example/hook";
    await expectBadge(page, "Error");
    await expect(card.getByTestId("bot-status-problem")).toHaveText(
      "Telegram delivers this bot's updates to https://old-host.example/hook, not to this server. Register the webhook again.",
    );
    const setBefore = telegram.callsOf("setWebhook").length;
    await card.getByRole("button", { name: "Register webhook now" }).click();
    await expect(page.locator('[data-slot="toast"]').filter({ hasText: "Webhook registered" })).toContainText(WEBHOOK_URL);
    await expect(card.getByTestId("bot-status-badge")).toHaveText("Running");
    expect(telegram.callsOf("setWebhook").slice(setBefore).map((call) => call.payload.url)).toEqual([WEBHOOK_URL]);
  });
});
