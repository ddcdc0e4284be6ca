import type { Locator, Page } from "@playwright/test";
import type { Category, Order, PostageOption, Product } from "../contract";
import { createBotSettings } from "./fixtures/ui";
import { expect, PHONE, saveScreenshot, test, type Api, type Seed } from "./support/fixtures";

// Issue 13: screenshots of each new screen at desktop (1280x800) and phone (390x844) size, in
// e2e/output/screenshots/screen-<name>-<size>.png, for people to look at. Each one also checks the
// screen's main heading is on screen, so a screen that failed to render fails here too.

const SIZES = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", PHONE],
] as const;

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const short = (id: string) => id.slice(0, 8);
const EARL_GREY = "Earl Grey Imperial with Cornflower Petals, 250 g caddy";
const ALICE = { telegramUserId: "5001", telegramUsername: "alice" };
const ALICE_ADDRESS = { name: "Alice Smith", streetAddress: "14 Orchard Lane, Bath", postcode: "BA1 2CD", contact: "07700 900123" };
const BOB_ADDRESS = { name: "Bob Jones", streetAddress: "2 Mill Road, Cambridge", postcode: "CB1 3EF", contact: null };

/** A small shop a few weeks into trading: catalogue, paid and pending orders over 30 days, messages, some admin activity. */
async function seedShop(api: Api, seed: Seed): Promise<{ ready: Order }> {
  await createBotSettings(api);
  const tea = await api.post<Category>("/api/categories", { name: "Loose Leaf Tea", icon: "fas fa-leaf" });
  const teapot = await api.post<Product>("/api/products", { name: "Cast Iron Teapot", price: "34.00", stock: 2, categoryId: tea.id });
  // A long name, as real shops have: every screen shows it whole.
  const earlGrey = await api.post<Product>("/api/products", {
    name: EARL_GREY,
    price: "8.50",
    stock: 40,
    categoryId: tea.id,
  });
  const postage = await api.post<PostageOption>("/api/postage-options", {
    name: "Royal Mail 2nd Class",
    description: "2-3 working days",
    price: "3.20",
    estimatedDays: 3,
    isActive: true,
  });
  const line = (product: Product, quantity: number) => ({ productId: product.id, productName: product.name, price: product.price, quantity });
  const withPostage = { postageOptionId: postage.id, postageName: postage.name, postagePrice: postage.price };

  // Paid orders spread over the month, for the chart and the best sellers.
  for (const [day, quantity] of [
    [27, 2],
    [21, 1],
    [16, 3],
    [11, 1],
    [6, 4],
    [2, 2],
  ] as const) {
    await seed.order({
      telegramUserId: "5002",
      telegramUsername: "bob",
      status: "completed",
      paymentMethod: "btc",
      paymentStatus: "finished",
      totalAmount: (8.5 * quantity + 3.2).toFixed(2),
      shippingAddress: BOB_ADDRESS,
      createdAt: daysAgo(day),
      items: [line(earlGrey, quantity)],
      ...withPostage,
    });
  }
  const ready = await seed.order({
    ...ALICE,
    status: "processing",
    paymentMethod: "ltc",
    paymentStatus: "finished",
    totalAmount: "45.70",
    shippingAddress: ALICE_ADDRESS,
    createdAt: daysAgo(0),
    items: [line(teapot, 1), line(earlGrey, 1)],
    ...withPostage,
  });
  await seed.order({
    ...ALICE,
    status: "processing",
    paymentMethod: "btc",
    paymentStatus: "finished",
    totalAmount: "20.20",
    shippingAddress: ALICE_ADDRESS,
    createdAt: daysAgo(1),
    items: [line(earlGrey, 2)],
    ...withPostage,
  });
  await seed.order({
    telegramUserId: "5003",
    telegramUsername: "carol",
    status: "pending",
    paymentMethod: "xmr",
    paymentStatus: "waiting",
    totalAmount: "37.20",
    shippingAddress: { name: "Carol White", streetAddress: "9 Harbour Street, Whitby", postcode: "YO21 3PU", contact: null },
    items: [line(teapot, 1)],
    ...withPostage,
  });
  await seed.message({ ...ALICE, message: "Could the teapot be gift wrapped, please?", createdAt: daysAgo(0) });
  await seed.message({ ...ALICE, message: "Of course, no extra charge.", isFromCustomer: false, isRead: true, createdAt: daysAgo(0) });
  await seed.message({ telegramUserId: "5003", telegramUsername: "carol", message: "Do you ship to Ireland?", isRead: true });
  return { ready };
}

/**
 * Saves the screenshot once the main heading shows and nothing says "Loading ..." any more (the
 * screenshot itself waits for the opening animations to finish).
 */
async function shoot(page: Page, name: string, heading: Locator, { fullPage = true }: { fullPage?: boolean } = {}) {
  await expect(heading).toBeVisible();
  await expect(page.getByText(/^Loading .*\.\.\.$/)).toHaveCount(0);
  // Nothing sticks out sideways (a phone would scroll the whole screen left and right).
  const { scrollWidth, viewportWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, viewportWidth: window.innerWidth }));
  expect(scrollWidth, `${name}: the page is wider than the screen`).toBeLessThanOrEqual(viewportWidth);
  await saveScreenshot(page, name, { fullPage });
}

for (const [sizeName, size] of SIZES) {
  test.describe(`screenshots, ${sizeName}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(size);
    });

    test("the new screens and dialogs", async ({ adminPage: page, api, seed }) => {
      test.slow();
      const { ready } = await seedShop(api, seed);
      const main = page.getByRole("main");

      await page.goto("/");
      await expect(page.getByTestId("revenue-chart").locator(".recharts-bar-rectangle").first()).toBeAttached();
      // The best sellers' names are whole, however narrow their card.
      for (const name of await page.getByTestId("best-seller-name").all()) {
        expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      }
      await expect(page.getByTestId("best-seller-name")).toHaveText([EARL_GREY, "Cast Iron Teapot"]);
      await shoot(page, `screen-dashboard-${sizeName}`, main.getByRole("heading", { name: "Dashboard", level: 2 }));

      await page.goto("/customers");
      // A table row each on a desktop, a card each on a phone.
      await expect(page.getByTestId(sizeName === "desktop" ? "customer-row" : "customer-card")).toHaveCount(3);
      await shoot(page, `screen-customers-${sizeName}`, main.getByRole("heading", { name: "Customers", level: 2 }));

      await page.goto(`/customers/${ALICE.telegramUserId}`);
      await expect(page.getByText("Could the teapot be gift wrapped, please?")).toBeVisible();
      await shoot(page, `screen-customer-${sizeName}`, page.getByTestId("customer-title"));

      await page.goto("/activity");
      await expect(page.getByTestId("activity-entry").first()).toBeVisible();
      await shoot(page, `screen-activity-${sizeName}`, main.getByRole("heading", { name: "Activity", level: 2 }));

      // Orders with every kind of filter set: status, search, sort and dates.
      const today = new Date().toLocaleDateString("en-CA"); // YYYY-MM-DD, the browser's (and this machine's) day
      const weekAgo = new Date(Date.now() - 7 * DAY).toLocaleDateString("en-CA");
      await page.goto(`/orders?status=processing&q=alice&sort=total-desc&from=${weekAgo}&to=${today}`);
      const readyView = page.getByRole("button", { name: `View order ${short(ready.id)}` }).filter({ visible: true });
      await expect(readyView).toBeVisible();
      await shoot(page, `screen-orders-filtered-${sizeName}`, main.getByRole("heading", { name: "Order Management", level: 2 }));

      // The details dialog of an order Ready to Dispatch, then its dispatch dialog filled in.
      await readyView.click();
      const details = page.getByRole("dialog", { name: `Order Details - #${short(ready.id)}` });
      await expect(details.getByTestId("order-item")).toHaveCount(2);
      for (const item of await details.getByTestId("order-item").all()) {
        const name = item.locator("p").first();
        expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth), "an item's name is cut off").toBe(true);
      }
      await expect(details.getByTestId("order-item").filter({ hasText: EARL_GREY })).toBeVisible();
      // Dialogs as the screen shows them (a whole-page shot would add the page below a scrolled dialog).
      const detailsHeading = details.getByRole("heading", { name: `Order Details - #${short(ready.id)}` });
      await shoot(page, `screen-order-details-${sizeName}`, detailsHeading, { fullPage: false });
      await details.getByRole("button", { name: "Mark as Dispatched" }).click();
      const form = page.getByRole("form", { name: "Dispatch" });
      await form.getByLabel("Carrier (optional)").fill("Royal Mail");
      await form.getByLabel("Tracking number (optional)").fill("AB123456789GB");
      await shoot(page, `screen-dispatch-dialog-${sizeName}`, form.getByRole("heading", { name: `Dispatch order #${short(ready.id)}` }), { fullPage: false });
      await form.getByRole("button", { name: "Cancel" }).click();

      await details.getByRole("button", { name: "View Address" }).click();
      const address = page.getByRole("dialog", { name: `Shipping Address - #${short(ready.id)}` });
      await shoot(page, `screen-address-dialog-${sizeName}`, address.getByRole("heading", { name: `Shipping Address - #${short(ready.id)}` }), {
        fullPage: false,
      });
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");

      await page.goto("/orders/packing-slips");
      await expect(page.getByRole("heading", { name: "Packing Slip", level: 2 })).toHaveCount(2);
      await shoot(page, `screen-packing-slips-${sizeName}`, page.getByRole("heading", { name: "Packing slips for every order Ready to Dispatch" }));
    });

    test("dark mode", async ({ adminPage: page, api, seed }) => {
      test.slow();
      const { ready } = await seedShop(api, seed);
      await page.emulateMedia({ colorScheme: "dark" });
      const main = page.getByRole("main");

      await page.goto("/");
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      await expect(page.getByTestId("revenue-chart").locator(".recharts-bar-rectangle").first()).toBeAttached();
      await shoot(page, `screen-dark-dashboard-${sizeName}`, main.getByRole("heading", { name: "Dashboard", level: 2 }));

      await page.goto("/orders");
      await expect(page.getByRole("button", { name: `View order ${short(ready.id)}` }).filter({ visible: true })).toBeVisible();
      await shoot(page, `screen-dark-orders-${sizeName}`, main.getByRole("heading", { name: "Order Management", level: 2 }));

      await page.getByRole("button", { name: `View order ${short(ready.id)}` }).filter({ visible: true }).click();
      const details = page.getByRole("dialog", { name: `Order Details - #${short(ready.id)}` });
      await details.getByRole("button", { name: "Mark as Dispatched" }).click();
      const form = page.getByRole("form", { name: "Dispatch" });
      await form.getByLabel("Note to the customer (optional)").fill("Left with your neighbour at no. 3");
      await shoot(page, `screen-dark-dispatch-dialog-${sizeName}`, form.getByRole("heading", { name: `Dispatch order #${short(ready.id)}` }), {
        fullPage: false,
      });
      await page.keyboard.press("Escape");

      await page.goto(`/customers/${ALICE.telegramUserId}`);
      await expect(page.getByText("Could the teapot be gift wrapped, please?")).toBeVisible();
      await shoot(page, `screen-dark-customer-${sizeName}`, page.getByTestId("customer-title"));

      await page.goto("/activity");
      await expect(page.getByTestId("activity-entry").first()).toBeVisible();
      await shoot(page, `screen-dark-activity-${sizeName}`, main.getByRole("heading", { name: "Activity", level: 2 }));
    });
  });
}
