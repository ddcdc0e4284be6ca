import type { CustomerBlockState } from "../contract";
import { telegramUser, textUpdate } from "../test-support/fake-telegram";
import { createBotSettings } from "./fixtures/ui";
import { expect, expectToast, PHONE, saveScreenshot, test, type Api, type Seed } from "./support/fixtures";

// The Customers screen (issue 13): one row per Telegram customer, a customer's page with their
// orders and conversation, and blocking them from the bot.

const MINUTES = 60 * 1000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTES).toISOString();
const address = (name: string) => ({ name, streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: null });

/**
 * Alice (5001): two paid orders (£25.00 and £12.50) and a pending one (£99.00, not spent), one
 * unread message and a reply. Bob (5002): one completed order of £8.75 refunded by the gateway (not
 * spent) and nothing else. Carol (5003): a message only, read.
 */
async function seedCustomers(seed: Seed) {
  const alice = { telegramUserId: "5001", telegramUsername: "alice" };
  await seed.order({ ...alice, status: "completed", totalAmount: "25.00", shippingAddress: address("Alice Smith"), createdAt: ago(300) });
  await seed.order({ ...alice, status: "processing", totalAmount: "12.50", shippingAddress: address("Alice Smith"), createdAt: ago(200) });
  await seed.order({ ...alice, status: "pending", totalAmount: "99.00", shippingAddress: address("Alice Smith"), createdAt: ago(100) });
  await seed.message({ ...alice, message: "When will my tea arrive?", createdAt: ago(50) });
  await seed.message({ ...alice, message: "It is on its way!", isFromCustomer: false, isRead: true, createdAt: ago(40) });
  await seed.order({
    telegramUserId: "5002",
    telegramUsername: "bob",
    status: "completed",
    paymentStatus: "refunded",
    totalAmount: "8.75",
    shippingAddress: address("Bob Jones"),
    createdAt: ago(30),
  });
  await seed.message({ telegramUserId: "5003", telegramUsername: "carol", message: "Do you ship abroad?", isRead: true, createdAt: ago(10) });
}

/** What the bot answers this user's /start, through the admin's webhook tester (the bot's replies come back instead of going out). */
async function startReplies(api: Api, userId: number) {
  const answer = await api.post<{ replies?: { method: string; text?: string }[] }>(
    "/api/telegram/webhook",
    textUpdate(telegramUser(userId, "alice"), "/start"),
  );
  return (answer.replies ?? []).filter((reply) => reply.method === "sendMessage").map((reply) => reply.text);
}

test.describe("customers", () => {
  test("the list shows one row per customer with orders, money spent, last order and unread messages", async ({ adminPage: page, seed }) => {
    await seedCustomers(seed);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Customers" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(page.getByTestId("page-title")).toHaveText("Customers");

    const rows = page.getByTestId("customer-row");
    // Most recently active first: Carol (a message 10 minutes ago), Bob, Alice.
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText("@carol");
    await expect(rows.nth(1)).toContainText("@bob");
    await expect(rows.nth(1)).toContainText("Bob Jones");
    await expect(rows.nth(1).getByTestId("customer-orders")).toHaveText("1");
    await expect(rows.nth(1).getByTestId("customer-spent")).toHaveText("£0.00");
    await expect(rows.nth(2)).toContainText("@alice");
    await expect(rows.nth(2).getByTestId("customer-orders")).toHaveText("3");
    await expect(rows.nth(2).getByTestId("customer-spent")).toHaveText("£37.50");
    await expect(rows.nth(2)).toContainText("1 unread message");
    await expect(rows.nth(0).getByTestId("customer-orders")).toHaveText("0");
    await expect(rows.nth(0)).toContainText("Never");

    // The sort and the search live in the URL and survive a reload.
    await page.getByLabel("Sort by").click();
    await page.getByRole("option", { name: "Total spent" }).click();
    await expect(page).toHaveURL(/sort=total-spent/);
    await expect(rows.nth(0)).toContainText("@alice");
    await saveScreenshot(page, "customers-desktop");

    await page.getByLabel("Search customers").fill("bob");
    await expect(page).toHaveURL(/q=bob/);
    await expect(rows).toHaveCount(1);
    await page.reload();
    await expect(page.getByLabel("Search customers")).toHaveValue("bob");
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toContainText("@bob");

    await page.getByLabel("Search customers").fill("nobody-here");
    await expect(page.getByText("No customers found")).toBeVisible();

    // On a phone: cards.
    await page.goto("/customers");
    await page.setViewportSize(PHONE);
    const cards = page.getByTestId("customer-card");
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(2).getByTestId("customer-spent")).toHaveText("£37.50");
    await saveScreenshot(page, "customers-phone");
  });

  test("a customer's page shows their orders and conversation; Block then Unblock, and the bot refuses them meanwhile", async ({
    adminPage: page,
    seed,
    api,
  }) => {
    await createBotSettings(api);
    await seedCustomers(seed);
    await page.goto("/customers");
    await page.getByTestId("customer-row").filter({ hasText: "@alice" }).getByRole("link").click();
    await expect(page).toHaveURL(/\/customers\/5001$/);
    await expect(page.getByTestId("page-title")).toHaveText("Customers");
    await expect(page.getByTestId("customer-title")).toHaveText("@alice");
    await expect(page.getByText("Alice Smith · Telegram ID 5001")).toBeVisible();
    await expect(page.getByTestId("stat-orders")).toHaveText("3");
    await expect(page.getByTestId("stat-spent")).toHaveText("£37.50");
    await expect(page.getByTestId("stat-unread")).toHaveText("1 message");
    const orders = page.getByTestId("customer-order");
    await expect(orders).toHaveCount(3);
    await expect(orders.nth(0)).toContainText("£99.00");
    await expect(orders.nth(0)).toContainText("Pending");
    await expect(orders.nth(2)).toContainText("£25.00");
    await expect(page.getByTestId("customer-bubble")).toHaveText([/When will my tea arrive\?/]);
    await expect(page.getByTestId("admin-bubble")).toHaveText([/It is on its way!/]);
    expect(await startReplies(api, 5001)).not.toContain("Sorry, this shop is not available to you.");
    await saveScreenshot(page, "customer-desktop");

    // Block, after a confirmation.
    const block = page.getByRole("button", { name: "Block customer" });
    await block.click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Block @alice?");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(block).toBeFocused();
    await expect(page.getByTestId("blocked-badge")).toHaveCount(0);
    await block.click();
    await dialog.getByRole("button", { name: "Block customer" }).click();
    await expectToast(page, "@alice is blocked");
    await expect(page.getByTestId("blocked-badge")).toBeVisible();
    expect((await api.post<CustomerBlockState>("/api/customers/5001/block")).isBlocked).toBe(true);

    // The bot answers her /start only with the refusal.
    expect(await startReplies(api, 5001)).toEqual(["Sorry, this shop is not available to you."]);

    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "customer-phone");

    // Unblock, after a confirmation; the list shows her active again.
    await page.getByRole("button", { name: "Unblock customer" }).click();
    await expect(dialog).toContainText("Unblock @alice?");
    await dialog.getByRole("button", { name: "Unblock customer" }).click();
    await expectToast(page, "@alice is unblocked");
    await expect(page.getByTestId("blocked-badge")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Block customer" })).toBeVisible();
    expect(await startReplies(api, 5001)).not.toContain("Sorry, this shop is not available to you.");

    await page.getByRole("link", { name: "Customers" }).first().click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(page.getByTestId("customer-card").filter({ hasText: "@alice" }).getByTestId("blocked-badge")).toHaveCount(0);
  });

  test("an unknown customer's page says so", async ({ adminPage: page }) => {
    await page.goto("/customers/424242");
    await expect(page.getByText("Customer not found")).toBeVisible();
    await page.goto("/customers/not-a-number");
    await expect(page.getByText("Customer not found")).toBeVisible();
  });
});
