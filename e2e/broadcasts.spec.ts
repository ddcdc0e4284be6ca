import path from "node:path";
import { telegramUser, textUpdate } from "../test-support/fake-telegram";
import { createBotSettings } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// The Broadcasts screen (issue 14, item 3): the owner writes a message, sees its preview, picks an
// audience, sends it, and watches the progress reach done; the customers get it in Telegram.

const PNG = path.join(import.meta.dirname, "fixtures/product.png");
const CUSTOMERS = [96_000_001, 96_000_002, 96_000_003];
/** Started the bot, then sent /stop: in "all customers", but not reached. */
const OPTED_OUT = 96_000_004;
const OWNER = telegramUser(96_000_900, "shop_owner");

test.describe("broadcasts", () => {
  test("composes a broadcast, sends it to every customer who started the bot, and shows it done", async ({ adminPage: page, api, telegram }) => {
    await createBotSettings(api);
    // The customers start the bot (through the admin's webhook tester, which runs the real bot code).
    for (const id of CUSTOMERS) await api.post("/api/telegram/webhook", textUpdate(telegramUser(id), "/start"));
    await api.post("/api/telegram/webhook", textUpdate(telegramUser(OPTED_OUT), "/start"));
    await api.post("/api/telegram/webhook", textUpdate(telegramUser(OPTED_OUT), "/stop"));

    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Broadcasts" }).click();
    await expect(page.getByTestId("page-title")).toHaveText("Broadcasts");
    await expect(page.getByText("No broadcasts yet")).toBeVisible();

    const text = "Fresh stock has arrived! 🍵";
    await page.getByLabel("Message", { exact: true }).fill(text);
    await expect(page.getByTestId("broadcast-preview-text")).toHaveText(text);
    await page.getByRole("radio", { name: /All customers/ }).check();
    await page.getByRole("button", { name: "Send now" }).click();

    // Nothing goes out on one click (issue 22, item 2): the server's count first, the opted-out customer left out.
    const confirm = page.getByRole("alertdialog", { name: "Send this broadcast?" });
    await expect(confirm.getByTestId("broadcast-reach")).toHaveText("It will reach 3 customers.");
    await expect(confirm.getByTestId("broadcast-reach-skipped")).toHaveText("Left out of 4 customers in this audience: 1 opted out (/stop).");
    expect(telegram.calls.filter((call) => call.payload.text === text)).toEqual([]);
    await saveScreenshot(page, "broadcasts-confirm");
    await confirm.getByRole("button", { name: "Send to 3 customers" }).click();
    await expect(confirm).toBeHidden();

    const progress = page.getByTestId("broadcast-progress");
    await expect(progress).toHaveAttribute("data-status", "done");
    await expect(page.getByTestId("broadcast-counts")).toHaveText("3 sent · 0 failed · 1 skipped");
    await expect(page.getByRole("progressbar", { name: "Broadcast progress" })).toBeVisible();
    for (const id of CUSTOMERS) {
      expect(telegram.messages(id).filter((message) => message.text === text)).toHaveLength(1);
    }

    const row = page.getByTestId("broadcast-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(text);
    await expect(row).toContainText("Done");
    await expect(row).toContainText("3 / 0 / 1 of 4");
    expect(telegram.messages(OPTED_OUT).filter((message) => message.text === text)).toEqual([]);

    await saveScreenshot(page, "broadcasts-done");

    // The screen passes axe (WCAG 2 A and AA) as the others do (e2e/a11y.spec.ts).
    await expectNoSeriousViolations(page, "the Broadcasts screen");
  });

  test("an audience with nobody in it cannot be sent to, and the server says so", async ({ adminPage: page }) => {
    await page.goto("/broadcasts");
    await page.getByLabel("Message", { exact: true }).fill("Hello");
    await page.getByRole("radio", { name: /no order yet/ }).check();
    await page.getByRole("button", { name: "Send now" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Send this broadcast?" });
    await expect(confirm.getByTestId("broadcast-reach")).toHaveText("Nobody in this audience can get it now.");
    await expect(confirm.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    // Cancelled: the message is still there to change.
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Hello");
    await expect(page.getByText("No broadcasts yet")).toBeVisible();
  });

  test("sends a test, text and image, to the owner's linked chat only; says so when none is linked", async ({ adminPage: page, api, telegram }) => {
    await createBotSettings(api);
    for (const id of CUSTOMERS) await api.post("/api/telegram/webhook", textUpdate(telegramUser(id), "/start"));
    await page.goto("/broadcasts");
    const text = "Test run of the spring sale";
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Send now" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Send this broadcast?" });
    await expect(confirm.getByTestId("broadcast-reach")).toHaveText("It will reach 3 customers.");

    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "broadcasts-confirm-phone-dark", { fullPage: false });
    await confirm.getByRole("button", { name: "Send a test to me" }).click();
    await expectToast(page, "Failed to send test", "No owner chat is linked, so there is nowhere to send a test. Link your Telegram under Owner alerts in Bot Settings first.");

    // The owner links their chat (Bot Settings' code, sent to the bot), then tries again with an image.
    const { code } = await api.post<{ code: string }>("/api/owner-alerts/link-code");
    await api.post("/api/telegram/webhook", textUpdate(OWNER, `/link ${code}`));
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await page.getByTestId("product-image-input").setInputFiles(PNG);
    await expect(page.getByRole("region", { name: "Message preview" }).locator("img")).toBeVisible();
    await page.getByRole("button", { name: "Send now" }).click();
    const sentBefore = telegram.callsOf("sendPhoto").length;
    await confirm.getByRole("button", { name: "Send a test to me" }).click();
    await expectToast(page, "Test sent", /Sent to .*@shop_owner.* only/);
    // Still asking: the test sent nothing to customers and queued nothing.
    await expect(confirm).toBeVisible();
    const photos = telegram.callsOf("sendPhoto").slice(sentBefore);
    expect(photos.map((call) => [String(call.payload.chat_id), call.payload.caption])).toEqual([[String(OWNER.id), text]]);
    for (const id of CUSTOMERS) expect(telegram.messages(id).filter((message) => (message.caption ?? message.text) === text)).toEqual([]);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByText("No broadcasts yet")).toBeVisible();
  });
});
