import fs from "node:fs";
import { expect, guardedTest as test } from "./support/fixtures";
import { callbackUpdate, startFakeTelegram, textUpdate, telegramUser, type FakeTelegram } from "../test-support/fake-telegram";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../test-support/server-process";

// Owner alerts in the browser (issue 14, item 5): Bot Settings shows a one-time code, the owner sends
// it to the bot (here: the fake Telegram hands the update to the real server's polling bot), and the
// card turns to "Linked"; then Unlink. The worker's usual e2e server runs no bot, so this starts the
// real server (server/main.ts) in a process of its own, as e2e/bot-health.spec.ts does.

// Its tests share the server its beforeAll starts: kept together on one worker, in order
// (playwright.config.ts runs the other specs' tests fully in parallel).
test.describe.configure({ mode: "default" });

const PASSWORD = "owner alerts admin password";
const OWNER = telegramUser(5150, "ada_owner");
const CUSTOMER = telegramUser(6160, "carl");

test.describe("owner alerts", () => {
  let telegram: FakeTelegram;
  let server: ServerProcess | undefined;
  test.beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startServerProcess("e2e-owner-alerts", {
      ADMIN_PASSWORD: PASSWORD,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      // Nothing listens there: no test reaches the real gateway by accident.
      NOWPAYMENTS_API_URL: "http://127.0.0.1:9/v1",
    });
  });
  test.afterAll(async () => {
    if (server) {
      await stopServerProcess(server);
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    await telegram?.close();
  });

  test("links the owner's Telegram with the code shown, gets a customer's message there, then unlinks", async ({ page }) => {
    const base = server!.baseUrl;
    expect((await page.request.post(`${base}/api/auth/login`, { data: { password: PASSWORD } })).ok()).toBe(true);
    const saved = await page.request.post(`${base}/api/bot-settings`, {
      data: { botName: "Alert Shop Bot", botToken: "515151:AAE-owner-alerts", acceptedCurrencies: ["BTC"], welcomeMessage: "Welcome!", faqContent: "FAQ" },
    });
    expect(saved.status()).toBe(201);
    // The bot polls the fake Telegram once it runs.
    await expect.poll(() => telegram.pollsWaiting(), { timeout: 45_000 }).toBeGreaterThan(0);

    await page.goto(`${base}/bot-settings`);
    const card = page.getByTestId("owner-alerts-card");
    await expect(card.getByTestId("owner-alerts-link-state")).toHaveText("Not linked");
    await card.getByRole("button", { name: "Link Telegram" }).click();
    const command = card.getByTestId("owner-alerts-code").locator("code");
    await expect(command).toHaveText(/^\/link \d{6}$/);
    await expect(card.getByTestId("owner-alerts-code")).toContainText("@test_shop_bot");

    // The owner sends the command to the bot in a private chat.
    telegram.pushUpdate(textUpdate(OWNER, (await command.textContent())!));
    await expect(card.getByTestId("owner-alerts-link-state")).toHaveText("Linked to Customer 5150 (@ada_owner)");
    await expect(card.getByTestId("owner-alerts-code")).toHaveCount(0);
    await expect.poll(() => telegram.messages(OWNER.id).map((m) => m.text)).toContainEqual(expect.stringMatching(/^Linked: you will get the shop's owner alerts here/));

    // The server's own sender delivers an alert there: a customer writes to support.
    telegram.pushUpdate(textUpdate(CUSTOMER, "/start"));
    await expect.poll(() => telegram.screen(CUSTOMER.id)?.text).toBeTruthy();
    telegram.pushUpdate(callbackUpdate(CUSTOMER, "support", telegram.screen(CUSTOMER.id)));
    await expect.poll(() => telegram.screen(CUSTOMER.id)?.text ?? "").toContain("Type your message");
    telegram.pushUpdate(textUpdate(CUSTOMER, "Do you ship to Leeds?"));
    await expect
      .poll(() => telegram.messages(OWNER.id).map((m) => m.text))
      .toContainEqual("✉️ New message from @carl:\nDo you ship to Leeds?");

    // A switch is saved as it is flipped.
    await card.getByRole("switch", { name: "Low stock" }).click();
    await expect(card.getByRole("switch", { name: "Low stock" })).toHaveAttribute("aria-checked", "false");
    await page.reload();
    await expect(page.getByTestId("owner-alerts-card").getByRole("switch", { name: "Low stock" })).toHaveAttribute("aria-checked", "false");

    await page.getByTestId("owner-alerts-card").getByRole("button", { name: "Unlink" }).click();
    await expect(page.getByTestId("owner-alerts-card").getByTestId("owner-alerts-link-state")).toHaveText("Not linked");
  });
});
