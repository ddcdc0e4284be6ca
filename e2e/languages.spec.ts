import fs from "node:fs";
import type { Page } from "@playwright/test";
import type { BotSettings, Product } from "../contract";
import { choose, createBotSettings, settle } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, expectToast, test } from "./support/fixtures";

// Issue 26, the owner's side: the shop offers languages in Bot Settings, the texts customers read get
// a tab per language (the default's tab is the field as it always was), and Customers shows and filters
// each customer's language.

const SHOTS = "/tmp/shots-owneri18n";
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await settle(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

test.describe("languages", () => {
  test("the owner offers German beside English, writes the welcome message and a product's name in German", async ({ adminPage: page, api }) => {
    await createBotSettings(api);
    const product = await api.post<Product>("/api/products", { name: "Coffee beans", description: "1 kg, medium roast", price: "4.99" });

    // With English alone the product dialog looks as it always did: no tabs.
    await page.goto("/products");
    await page.getByRole("button", { name: "Edit Coffee beans" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel("Product Name")).toHaveValue("Coffee beans");
    await expect(dialog.getByRole("tablist")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.goto("/bot-settings");
    const languages = page.getByRole("checkbox", { name: "Deutsch" });
    await expect(page.getByRole("checkbox", { name: "English" })).toBeChecked();
    await expect(languages).not.toBeChecked();
    await languages.click();
    await expect(page.getByLabel("Default language")).toHaveText("English");

    // The welcome message and the FAQ get a tab per language; the English tab is the field as before.
    const tabs = page.getByRole("tablist", { name: "Language of the welcome message and FAQ" });
    await expect(tabs.getByRole("tab")).toHaveText(["English (default)", "Deutsch"]);
    await expect(page.getByLabel("Welcome Message", { exact: true })).toHaveValue("Welcome!");
    await tabs.getByRole("tab", { name: "Deutsch" }).click();
    await expect(page.getByText("Left empty, customers see the English text.").first()).toBeVisible();
    await page.getByLabel("Welcome Message (Deutsch)").fill("Willkommen in unserem Laden!");
    await shot(page, "bot-settings-languages");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    const saved = await api.get<BotSettings>("/api/bot-settings");
    expect(saved).toMatchObject({ languages: ["en", "de"], defaultLanguage: "en", welcomeMessageTranslations: { de: "Willkommen in unserem Laden!" }, faqContentTranslations: {} });

    // The product's dialog now has an English and a German tab over its name and description.
    await page.goto("/products");
    await page.getByRole("button", { name: "Edit Coffee beans" }).click();
    const nameTabs = dialog.getByRole("tablist", { name: "Language of the name and description" });
    await expect(nameTabs.getByRole("tab")).toHaveText(["English (default)", "Deutsch"]);
    await expect(dialog.getByLabel("Product Name", { exact: true })).toHaveValue("Coffee beans");
    await nameTabs.getByRole("tab", { name: "Deutsch" }).click();
    await expect(dialog.getByLabel("Product Name (Deutsch)")).toHaveValue("");
    await expect(dialog.getByText("Left empty, customers see the English text.")).toHaveCount(2);
    await dialog.getByLabel("Product Name (Deutsch)").fill("Kaffeebohnen");
    await shot(page, "product-dialog-german-tab");
    await expectNoSeriousViolations(page, "the product dialog with its language tabs", "[role=dialog]");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Product updated successfully!");
    await expect(dialog).toHaveCount(0);
    expect((await api.get<Product>(`/api/products/${product.id}`)).translations).toEqual({ de: { name: "Kaffeebohnen" } });

    // Reopened after a reload: the German name is there, the English one unchanged.
    await page.reload();
    await page.getByRole("button", { name: "Edit Coffee beans" }).click();
    await expect(dialog.getByLabel("Product Name", { exact: true })).toHaveValue("Coffee beans");
    await nameTabs.getByRole("tab", { name: "Deutsch" }).click();
    await expect(dialog.getByLabel("Product Name (Deutsch)")).toHaveValue("Kaffeebohnen");
  });

  test("Customers shows each customer's language and filters by it", async ({ adminPage: page, seed }) => {
    await seed.message({ telegramUserId: "7001", telegramUsername: "anna", message: "Hallo!" });
    await seed.message({ telegramUserId: "7002", telegramUsername: "jean", message: "Bonjour !" });
    await seed.message({ telegramUserId: "7003", telegramUsername: "sam", message: "Hi" });
    await seed.botCustomer({ telegramUserId: "7001", telegramUsername: "anna", language: "de" });
    await seed.botCustomer({ telegramUserId: "7002", telegramUsername: "jean", language: "fr" });

    await page.goto("/customers");
    const rows = page.getByTestId("customer-row");
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: "@anna" }).getByTestId("customer-language")).toHaveText("Deutsch");
    await expect(rows.filter({ hasText: "@jean" }).getByTestId("customer-language")).toHaveText("Français");
    await expect(rows.filter({ hasText: "@sam" }).getByTestId("customer-language")).toHaveText("Not known yet");

    await choose(page, page.getByLabel("Language"), "Deutsch");
    await expect(page).toHaveURL(/language=de/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("@anna");
    await shot(page, "customers-language-filter");
    await page.reload();
    await expect(page.getByLabel("Language")).toHaveText("Deutsch");
    await expect(rows).toHaveCount(1);

    await choose(page, page.getByLabel("Language"), "All languages");
    await expect(page).not.toHaveURL(/language=/);
    await expect(rows).toHaveCount(3);

    // Messages: the customer's language beside their name.
    await page.goto("/messages?user=7001");
    await expect(page.getByTestId("message-panel").getByTestId("language-badge")).toHaveText("Deutsch");
  });
});
