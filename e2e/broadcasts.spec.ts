import { AxeBuilder } from "@axe-core/playwright";
import { telegramUser, textUpdate } from "../test-support/fake-telegram";
import { createBotSettings } from "./fixtures/ui";
import { expect, expectToast, saveScreenshot, test } from "./support/fixtures";

// The Broadcasts screen (issue 14, item 3): the owner writes a message, sees its preview, picks an
// audience, sends it, and watches the progress reach done; the customers get it in Telegram.

const CUSTOMERS = [96_000_001, 96_000_002, 96_000_003];

test.describe("broadcasts", () => {
  test("composes a broadcast, sends it to every customer who started the bot, and shows it done", async ({ adminPage: page, api, telegram }) => {
    await createBotSettings(api);
    // The customers start the bot (through the admin's webhook tester, which runs the real bot code).
    for (const id of CUSTOMERS) await api.post("/api/telegram/webhook", textUpdate(telegramUser(id), "/start"));

    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Broadcasts" }).click();
    await expect(page.getByTestId("page-title")).toHaveText("Broadcasts");
    await expect(page.getByText("No broadcasts yet")).toBeVisible();

    const text = "Fresh stock has arrived! 🍵";
    await page.getByLabel("Message", { exact: true }).fill(text);
    await expect(page.getByTestId("broadcast-preview-text")).toHaveText(text);
    await page.getByRole("radio", { name: /All customers/ }).check();
    await page.getByRole("button", { name: "Send now" }).click();

    const progress = page.getByTestId("broadcast-progress");
    await expect(progress).toHaveAttribute("data-status", "done");
    await expect(page.getByTestId("broadcast-counts")).toHaveText("3 sent · 0 failed · 0 skipped");
    await expect(page.getByRole("progressbar", { name: "Broadcast progress" })).toBeVisible();
    for (const id of CUSTOMERS) {
      expect(telegram.messages(id).filter((message) => message.text === text)).toHaveLength(1);
    }

    const row = page.getByTestId("broadcast-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(text);
    await expect(row).toContainText("Done");
    await expect(row).toContainText("3 / 0 / 0 of 3");

    await saveScreenshot(page, "broadcasts-done");

    // The screen passes axe (WCAG 2 A and AA) as the others do (e2e/a11y.spec.ts).
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });

  test("refuses an audience with nobody in it, with the server's reason", async ({ adminPage: page }) => {
    await page.goto("/broadcasts");
    await page.getByLabel("Message", { exact: true }).fill("Hello");
    await page.getByRole("radio", { name: /no order yet/ }).check();
    await page.getByRole("button", { name: "Send now" }).click();
    await expectToast(page, "Failed to send broadcast", "No customers match this audience.");
    await expect(page.getByText("No broadcasts yet")).toBeVisible();
  });
});
