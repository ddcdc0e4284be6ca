import type { Page } from "@playwright/test";
import type { StaffRole } from "../contract";
import { createBotSettings } from "./fixtures/ui";
import { type Api, expect, expectToast, saveScreenshot, test } from "./support/fixtures";

// The dashboard mirrors the roles (issue 25, contract/team.ts): each role sees the screens and the
// buttons its permissions allow, and a screen it cannot open says so. Staff sign in through the API
// (the login page is being rebuilt with a username field elsewhere); the page shares its cookies.

const short = (id: string) => id.slice(0, 8);
const ADDRESS = { name: "Jane Smith", streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: "07700 900123" };

/** Makes a staff account (e2e/support/seed-routes.ts) and signs this page in as it. */
async function signInAs(page: Page, api: Api, role: StaffRole, name: string) {
  const account = { username: `${role}-one`, role, name, password: `${role} password for e2e` };
  await api.post("/api/test/accounts", account);
  const response = await page.request.post("/api/auth/login", { data: { username: account.username, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * The API calls the server refused (403) while the test ran: none is expected, since the dashboard
 * asks only for what the account's role may read, and offers only what it may do.
 */
function watchRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 403 && new URL(response.url()).pathname.startsWith("/api/")) refused.push(`${response.request().method()} ${response.url()}`);
  });
  return refused;
}

/** The sidebar's entries, in order. */
const sidebarEntries = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link");

test.describe("roles in the dashboard", () => {
  test("a packer lands on Orders, sees only Orders, dispatches an order, and is told Products is not theirs", async ({ page, api, seed, telegram }) => {
    await createBotSettings(api);
    const order = await seed.order({ telegramUserId: "7001", status: "processing", paymentStatus: "confirmed", shippingAddress: ADDRESS });
    await signInAs(page, api, "packer", "Pat Packer");
    const refused = watchRefusals(page);

    await page.goto("/");
    await expect(page).toHaveURL(/\/orders$/);
    await expect(sidebarEntries(page)).toHaveText([/^Orders/]);
    await expect(page.getByTestId("signed-in-account")).toHaveText("Pat PackerPacker");
    // The top bar names the account too, by its name and initials.
    await expect(page.getByRole("button", { name: "Pat Packer user menu", exact: true })).toContainText("PP");
    // What a packer cannot use is not offered: the export, the clean-up of expired orders.
    await expect(page.getByRole("button", { name: "Cleanup Expired" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Export/ })).toHaveCount(0);
    await expect(page.getByRole("group", { name: "Dispatch tools" })).toBeVisible();

    // The details: the address to pack for, dispatch, and neither the money's actions nor messages.
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    const dialog = page.getByRole("dialog", { name: `Order Details - #${short(order.id)}` });
    await expect(dialog.getByRole("region", { name: "Customer Information" })).toContainText("Jane Smith");
    await expect(dialog.getByRole("button", { name: "View Address" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: /Cancel order|Accept payment/ })).toHaveCount(0);
    await expect(dialog.getByText("Admin history")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: /Send message/i })).toHaveCount(0);

    await dialog.getByRole("button", { name: "Mark as Dispatched" }).click();
    const form = page.getByRole("dialog", { name: `Dispatch order #${short(order.id)}` }).getByRole("form", { name: "Dispatch" });
    await form.getByLabel("Tracking number (optional)").fill("AB123456789GB");
    const from = telegram.calls.length;
    await form.getByRole("button", { name: "Dispatch and notify" }).click();
    await expectToast(page, "Order dispatched and customer notified!");
    await telegram.waitForCall((call) => call.method === "sendMessage" && String(call.payload.chat_id) === "7001", { from });
    expect((await api.get<{ id: string; status: string }[]>("/api/orders")).find((o) => o.id === order.id)).toMatchObject({ status: "dispatched" });
    await page.keyboard.press("Escape");

    // A screen that is not theirs, opened by its address: one sentence, not a broken page.
    await page.goto("/products");
    await expect(page.getByTestId("cannot-open")).toContainText("Your role (Packer) cannot open this page.");
    await expect(page.getByRole("link", { name: "Go to Orders" })).toBeVisible();
    await saveScreenshot(page, "roles-packer-cannot-open");
    expect(refused).toEqual([]);
  });

  test("support sees Orders, Messages and Customers; orders without addresses and customers without the manager's buttons", async ({ page, api, seed }) => {
    const order = await seed.order({ telegramUserId: "7002", telegramUsername: "tea_lover", status: "processing", shippingAddress: ADDRESS });
    await seed.message({ telegramUserId: "7002", telegramUsername: "tea_lover", message: "Where is my tea?" });
    await signInAs(page, api, "support", "Sam Support");
    const refused = watchRefusals(page);

    await page.goto("/");
    await expect(page).toHaveURL(/\/orders$/);
    await expect(sidebarEntries(page)).toHaveText([/^Orders/, /^Messages/, /^Customers/]);
    await expect(page.getByTestId("signed-in-account")).toHaveText("Sam SupportSupport");
    await expect(page.getByRole("group", { name: "Dispatch tools" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Dispatch order ${short(order.id)}` })).toHaveCount(0);

    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    const dialog = page.getByRole("dialog", { name: `Order Details - #${short(order.id)}` });
    await expect(dialog.getByTestId("address-hidden")).toHaveText("Not shown to your role");
    await expect(dialog).not.toContainText("High Street");
    await expect(dialog.getByRole("button", { name: "View Address" })).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Mark as Dispatched" })).toHaveCount(0);
    await page.keyboard.press("Escape");

    await sidebarEntries(page).filter({ hasText: "Messages" }).click();
    await expect(page.getByText("Where is my tea?").first()).toBeVisible();

    await page.goto("/customers/7002");
    await expect(page.getByTestId("customer-title")).toContainText("@tea_lover");
    await expect(page.getByRole("button", { name: /Block/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Erase|Forget/ })).toHaveCount(0);
    await expect(page.getByTestId("customer-notes").getByRole("button", { name: "Save" })).toHaveCount(0);
    await saveScreenshot(page, "roles-support-customer");

    await page.goto("/broadcasts");
    await expect(page.getByTestId("cannot-open")).toContainText("Your role (Support) cannot open this page.");
    expect(refused).toEqual([]);
  });

  test("a manager saves Bot Settings with the owner's token and payment keys untouched, and sees neither gateways nor privacy", async ({ page, api }) => {
    await api.post("/api/bot-settings", {
      botName: "Test Shop",
      botToken: "123456:TEST-TOKEN-OWNERS-ONLY",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: "NP-OWNERS-API-KEY-1234",
      nowpaymentsIpnSecret: "owners-ipn-secret-5678",
    });
    await signInAs(page, api, "manager", "Mo Manager");
    const refused = watchRefusals(page);
    await page.goto("/");
    // The Dashboard is the manager's too; Bot Settings is in the sidebar.
    await expect(page).toHaveURL(/\/$/);
    await sidebarEntries(page).filter({ hasText: "Bot Settings" }).click();

    await expect(page.getByTestId("botToken-locked")).toHaveText("set (…ONLY) · only the owner can change it");
    await expect(page.getByTestId("nowpaymentsApiKey-locked")).toContainText("only the owner can change it");
    await expect(page.getByRole("button", { name: "Replace Bot Token" })).toHaveCount(0);
    await expect(page.getByText("Payment gateways", { exact: true })).toHaveCount(0);
    await expect(page.getByText("Privacy", { exact: true })).toHaveCount(0);

    await page.getByLabel("Welcome Message").fill("Hello from the manager");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated successfully!");
    const saved = await api.get<{ welcomeMessage: string; botToken: string; nowpaymentsApiKey: string }>("/api/bot-settings");
    expect(saved).toMatchObject({ welcomeMessage: "Hello from the manager", botToken: "••••••••ONLY", nowpaymentsApiKey: "••••••••1234" });
    expect(refused).toEqual([]);
  });
});
