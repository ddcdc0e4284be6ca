import type { Product } from "../contract";
import { expect, PHONE, saveScreenshot, test, type Api, type Seed } from "./support/fixtures";

// Issue 13, "Numbers people look at": the dashboard's revenue chart (30 days, 90 days, 12 months),
// best sellers, orders by status, and low stock (card, filter, the product dialog's threshold).

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

async function seedShop(api: Api, seed: Seed) {
  const teapot = await api.post<Product>("/api/products", { name: "Teapot", price: "10.00", stock: 2 }); // default alert 3: low
  const kettle = await api.post<Product>("/api/products", { name: "Kettle", price: "12.50", stock: 50 });
  const cups = await api.post<Product>("/api/products", { name: "Cups", price: "50.00", stock: 10, lowStockThreshold: 20 }); // low
  const line = (product: Product, quantity: number) => ({ productId: product.id, productName: product.name, price: product.price, quantity });
  // Paid orders count on the day they were paid (the seed pays them when placed).
  await seed.order({ status: "completed", totalAmount: "30.00", createdAt: daysAgo(3), items: [line(teapot, 3)] });
  await seed.order({ status: "processing", totalAmount: "12.50", createdAt: daysAgo(0), items: [line(kettle, 1)] });
  await seed.order({ status: "dispatched", totalAmount: "100.00", createdAt: daysAgo(40), items: [line(cups, 2)] });
  await seed.order({ status: "completed", totalAmount: "7.00", createdAt: daysAgo(200), items: [line(kettle, 9)] });
  // Neither counts as revenue: refunded, and not paid yet.
  await seed.order({ status: "dispatched", paymentStatus: "refunded", totalAmount: "999.00", createdAt: daysAgo(1), items: [line(teapot, 40)] });
  await seed.order({ status: "pending", totalAmount: "20.00", paymentMethod: null, createdAt: daysAgo(0), items: [line(teapot, 2)] });
  return { teapot, kettle, cups };
}

test.describe("dashboard numbers", () => {
  test("the revenue chart, best sellers and orders by status, over 30 days, 90 days and 12 months", async ({ adminPage: page, api, seed }) => {
    await seedShop(api, seed);
    await page.goto("/");

    const chart = page.getByTestId("revenue-chart");
    const summary = chart.getByTestId("revenue-summary");
    await expect(summary).toHaveText("Revenue over the last 30 days: £42.50 from 2 paid orders.");
    // No coupon on these orders (issue 23).
    await expect(chart.getByTestId("discounts-given")).toHaveText("Discounts given £0.00");
    await expect(chart.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
    // The text alternative: a table of every day, read by screen readers.
    const table = chart.getByRole("table", { name: /Revenue over the last 30 days/ });
    await expect(table.getByRole("row")).toHaveCount(31);
    await expect(table.getByRole("row").last()).toContainText("£12.50");
    // The lazily loaded bars draw once Recharts arrives.
    await expect(chart.locator(".recharts-bar-rectangle").first()).toBeAttached();

    const best = page.getByTestId("best-sellers");
    await expect(best.getByRole("listitem")).toHaveCount(2);
    await expect(best.getByRole("listitem").nth(0)).toContainText("Teapot");
    await expect(best.getByRole("listitem").nth(0)).toContainText("3 sold · £30.00");
    await expect(best.getByRole("listitem").nth(1)).toContainText("Kettle");

    const byStatus = page.getByTestId("orders-by-status");
    const count = (status: string) => byStatus.locator(`[data-status="${status}"]`);
    await expect(count("pending")).toContainText("1");
    await expect(count("processing")).toContainText("1");
    await expect(count("dispatched")).toContainText("1");
    await expect(count("completed")).toContainText("1");
    await expect(count("failed")).toContainText("0");
    await saveScreenshot(page, "numbers-dashboard-desktop");

    await chart.getByRole("button", { name: "90 days" }).click();
    await expect(summary).toHaveText("Revenue over the last 90 days: £142.50 from 3 paid orders.");
    await expect(chart.getByRole("table").getByRole("row")).toHaveCount(91);
    await expect(best.getByRole("listitem").nth(0)).toContainText("Teapot");
    await expect(best).toContainText("Cups");
    await expect(count("dispatched")).toContainText("2");

    await chart.getByRole("button", { name: "12 months" }).click();
    await expect(summary).toHaveText("Revenue over the last 12 months: £149.50 from 4 paid orders.");
    await expect(chart.getByRole("columnheader", { name: "Month" })).toBeAttached();
    await expect(chart.getByRole("table").getByRole("row")).toHaveCount(13);
    await expect(best.getByRole("listitem").nth(0)).toContainText("Kettle");
    await expect(best.getByRole("listitem").nth(0)).toContainText("10 sold");

    await page.setViewportSize(PHONE);
    await chart.getByRole("button", { name: "30 days" }).click();
    await expect(summary).toHaveText("Revenue over the last 30 days: £42.50 from 2 paid orders.");
    await expect(chart.locator(".recharts-bar-rectangle").first()).toBeAttached();
    await saveScreenshot(page, "numbers-dashboard-phone");
  });

  test("coupons: the discounts given beside the revenue, best sellers at their prices before the discount (issue 23)", async ({ adminPage: page, api, seed }) => {
    const tee = await api.post<Product>("/api/products", { name: "Acceptance Tee", price: "15.00", stock: 50 });
    const line = (quantity: number) => ({ productId: tee.id, productName: tee.name, price: tee.price, quantity });
    // The totals are net of the discounts, as checkout makes them.
    await seed.order({ status: "completed", couponCode: "TEE15", discountAmount: "4.50", totalAmount: "25.50", createdAt: daysAgo(2), items: [line(2)] });
    await seed.order({ status: "dispatched", couponCode: "SPRING", discountAmount: "5.00", totalAmount: "10.00", createdAt: daysAgo(60), items: [line(1)] });
    // Refunded: neither its money nor its discount counts.
    await seed.order({ status: "dispatched", paymentStatus: "refunded", couponCode: "TEE15", discountAmount: "9.99", totalAmount: "50.01", createdAt: daysAgo(1), items: [line(4)] });
    await page.goto("/");

    const chart = page.getByTestId("revenue-chart");
    const best = page.getByTestId("best-sellers");
    await expect(chart.getByTestId("revenue-summary")).toHaveText("Revenue over the last 30 days: £25.50 from 1 paid order.");
    await expect(chart.getByTestId("discounts-given")).toHaveText("Discounts given £4.50");
    await expect(best.getByRole("listitem").nth(0)).toContainText("2 sold · £30.00");
    await saveScreenshot(page, "numbers-discounts-desktop");

    await chart.getByRole("button", { name: "90 days" }).click();
    await expect(chart.getByTestId("revenue-summary")).toHaveText("Revenue over the last 90 days: £35.50 from 2 paid orders.");
    await expect(chart.getByTestId("discounts-given")).toHaveText("Discounts given £9.50");
    await expect(best.getByRole("listitem").nth(0)).toContainText("3 sold · £45.00");

    await page.setViewportSize(PHONE);
    await expect(chart.getByTestId("discounts-given")).toBeVisible();
    await saveScreenshot(page, "numbers-discounts-phone");
  });

  test("low stock: the dashboard card, the Products filter and the dialog's alert level", async ({ adminPage: page, api, seed }) => {
    await seedShop(api, seed);
    await page.goto("/");
    const card = page.getByTestId("stat-Low Stock");
    await expect(card.getByTestId("low-stock-count")).toHaveText("2");
    await card.getByRole("link", { name: "View low stock products" }).click();

    await expect(page).toHaveURL(/\/products\?status=low-stock/);
    await expect(page.getByRole("combobox", { name: "Filter by status" })).toHaveText("Low Stock");
    await expect(page.getByText("Teapot").first()).toBeVisible();
    await expect(page.getByText("Cups").first()).toBeVisible();
    await expect(page.getByText("Kettle")).toHaveCount(0);

    // Raise the Kettle's alert level above its stock: it becomes low stock.
    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "All Status" }).click();
    await page.getByRole("button", { name: "Edit Kettle" }).first().click();
    const dialog = page.getByRole("dialog");
    const alertAt = dialog.getByLabel("Low stock alert at");
    await expect(alertAt).toHaveValue("3");
    await alertAt.fill("-1");
    await dialog.getByRole("button", { name: /Update|Save/ }).click();
    await expect(dialog.getByText("Enter a whole number of units, e.g. 3")).toBeVisible();
    await alertAt.fill("60");
    await saveScreenshot(page, "numbers-product-dialog-desktop", { fullPage: false });
    await dialog.getByRole("button", { name: /Update|Save/ }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "Low Stock" }).click();
    await expect(page.getByText("Kettle").first()).toBeVisible();
    await page.goto("/");
    await expect(page.getByTestId("low-stock-count")).toHaveText("3");
  });
});
