import type { Locator, Page } from "@playwright/test";
import { choose, settle, urlParams } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { DESKTOP, expect, PHONE, saveScreenshot, type Seed, test } from "./support/fixtures";

// Issue 22, item 6: Orders on a phone, one order per screen no more. The filters wait in a sheet,
// each order is a compact card saying what was bought and how long ago; a desktop's rows say what was
// bought too, and their density is the owner's choice, kept in this browser.

const HOURS = 60 * 60 * 1000;
const TEE = "0a1b2c3d-0000-4000-8000-000000000001";
const MUG = "1b2c3d4e-0000-4000-8000-000000000002";
const CAP = "2c3d4e5f-0000-4000-8000-000000000003";
const GONE = "9f8e7d6c-0000-4000-8000-000000000004";
const short = (id: string) => id.slice(0, 8);
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Four orders: three lines, one nameless line, one line, none; placed 3 hours, 2 days, 10 minutes and 5 hours ago. */
async function seedOrders(seed: Seed) {
  const tees = await seed.order({
    telegramUsername: "alice",
    status: "processing",
    paymentMethod: "btc",
    paymentStatus: "confirmed",
    createdAt: ago(3 * HOURS),
    items: [
      { productId: TEE, productName: "Acceptance Tee", price: "20.00", quantity: 2 },
      { productId: MUG, productName: "Mug", price: "8.00" },
      { productId: CAP, productName: "Cap", price: "12.00" },
    ],
  });
  const nameless = await seed.order({
    telegramUsername: "bob",
    status: "pending",
    paymentMethod: "ltc",
    createdAt: ago(50 * HOURS),
    items: [{ productId: GONE, productName: "", price: "5.00", quantity: 3 }],
  });
  const single = await seed.order({
    telegramUsername: "carol",
    status: "dispatched",
    paymentMethod: "xmr",
    paymentStatus: "finished",
    createdAt: ago(10 * 60 * 1000),
    items: [{ productId: MUG, productName: "Wireless Headphones", price: "59.99" }],
  });
  const empty = await seed.order({ status: "failed", paymentStatus: "expired", totalAmount: "7.25", createdAt: ago(5 * HOURS) });
  return { tees, nameless, single, empty };
}

const heightOf = async (locator: Locator) => (await locator.boundingBox())!.height;

/**
 * A screenshot in light and in dark; with `axe`, no serious or critical violation either (the rules of
 * e2e/a11y.spec.ts, which passes the screen as it first shows: here the sheet and the compact rows).
 */
async function screenshotsInBothSchemes(page: Page, name: string, axe?: { include: string }) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await settle(page);
    await saveScreenshot(page, `${name}-${colorScheme}`, { fullPage: false });
    if (!axe) continue;
    await expectNoSeriousViolations(page, `${name} in ${colorScheme}`, axe.include);
  }
}

test.describe("orders on a phone and a desktop", () => {
  test("a phone: compact cards say what was bought and when; the filters wait in a sheet and apply", async ({ adminPage: page, seed }) => {
    const { tees, nameless, single, empty } = await seedOrders(seed);
    await page.setViewportSize(PHONE);
    await page.goto("/orders");
    const cards = page.getByTestId("order-card");
    await expect(cards).toHaveCount(4);

    // What was bought: the first line as the details list it, then how many more; the age in words.
    const teesCard = cards.filter({ hasText: short(tees.id) });
    await expect(teesCard.getByTestId("order-items-summary")).toHaveText("2 × Acceptance Tee and 2 more");
    await expect(teesCard.getByTestId("order-age")).toHaveText("3 hours ago");
    await expect(teesCard).toContainText("£60.00");
    await expect(teesCard).toContainText("Processing");
    const namelessCard = cards.filter({ hasText: short(nameless.id) });
    await expect(namelessCard.getByTestId("order-items-summary")).toHaveText(`3 × Product ${short(GONE)}`);
    await expect(namelessCard.getByTestId("order-age")).toHaveText("2 days ago");
    const singleCard = cards.filter({ hasText: short(single.id) });
    await expect(singleCard.getByTestId("order-items-summary")).toHaveText("1 × Wireless Headphones");
    await expect(singleCard.getByTestId("order-age")).toHaveText("10 minutes ago");
    await expect(cards.filter({ hasText: short(empty.id) })).toContainText("No items");

    // The row actions keep their names and attributes (other specs and the keyboard reach them so).
    await expect(teesCard.getByRole("button", { name: `View order ${short(tees.id)}` })).toHaveAttribute("data-action", "view");
    await expect(teesCard.getByRole("button", { name: `Dispatch order ${short(tees.id)}` })).toHaveAttribute("data-action", "dispatch");
    await expect(teesCard.locator(`[data-order-actions="${tees.id}"]`)).toHaveCount(1);
    await expect(teesCard.getByRole("checkbox", { name: `Select order ${short(tees.id)}` })).toBeVisible();
    // Compact: each card a few lines, the four of them less than the phone's screen together.
    let together = 0;
    for (const card of await cards.all()) {
      const height = await heightOf(card);
      expect(height).toBeLessThanOrEqual(120);
      together += height;
    }
    expect(together).toBeLessThan(PHONE.height * 0.6);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshotsInBothSchemes(page, "orders-phone-cards");

    // The status, sort and dates are not on the page: a Filters button opens them in a sheet.
    await expect(page.getByRole("combobox", { name: "Filter by status" })).toHaveCount(0);
    await expect(page.getByLabel("From", { exact: true })).toHaveCount(0);
    const filtersButton = page.getByRole("button", { name: /^Filters/ });
    await expect(page.getByTestId("active-filter-count")).toHaveCount(0);
    await filtersButton.click();
    const sheet = page.getByRole("dialog", { name: "Filters" });
    await expect(sheet).toBeVisible();
    await choose(page, sheet.getByRole("combobox", { name: "Filter by status" }), "Processing");
    // Applied at once: the URL keeps it and the list behind changes; the footer says how many match.
    await expect.poll(() => urlParams(page)).toEqual({ status: "processing" });
    await expect(cards).toHaveCount(1);
    await expect(sheet.getByRole("button", { name: "Show 1 order" })).toBeVisible();
    await choose(page, sheet.getByRole("combobox", { name: "Sort by" }), "Total: high to low");
    await expect.poll(() => urlParams(page)).toEqual({ status: "processing", sort: "total-desc" });
    // The sheet's controls fit the phone: none past its edges, each date whole with its picker.
    for (const control of [sheet.getByRole("combobox", { name: "Sort by" }), sheet.getByLabel("From", { exact: true }), sheet.getByLabel("To", { exact: true })]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.width).toBeGreaterThanOrEqual(160);
    }
    await screenshotsInBothSchemes(page, "orders-phone-filters", { include: '[role="dialog"]' });
    await sheet.getByRole("button", { name: "Show 1 order" }).click();
    await expect(sheet).toBeHidden();
    await expect(filtersButton).toBeFocused();
    await expect(filtersButton).toHaveAccessibleName("Filters 2 active");
    await expect(cards).toHaveCount(1);
    await expect(cards).toContainText("2 × Acceptance Tee and 2 more");

    // A reload keeps them (the URL has them); Clear filters takes them all off at once.
    await page.reload();
    await expect(cards).toHaveCount(1);
    await expect(page.getByTestId("active-filter-count")).toHaveText("2 active");
    await filtersButton.click();
    await sheet.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => urlParams(page)).toEqual({});
    await expect(cards).toHaveCount(4);
    await expect(sheet.getByRole("button", { name: "Clear filters" })).toBeDisabled();
    await sheet.getByRole("button", { name: "Close" }).click();
    await expect(page.getByTestId("active-filter-count")).toHaveCount(0);
    // The search stays on the page, beside the button.
    await page.getByRole("searchbox", { name: "Search orders" }).fill("@carol");
    await expect(cards).toHaveCount(1);
    await expect(cards).toContainText("1 × Wireless Headphones");
  });

  test("a desktop: the rows say what was bought; Compact tightens them and is kept across a reload", async ({ adminPage: page, seed }) => {
    const { tees, nameless, empty } = await seedOrders(seed);
    await page.setViewportSize(DESKTOP);
    await page.goto("/orders");
    await expect(page.getByRole("columnheader")).toHaveText(["Order ID", "Customer", "Items", "Total", "Payment", "Status", "Actions"]);
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(4);
    const teesRow = rows.filter({ hasText: short(tees.id) });
    await expect(teesRow.getByRole("cell").nth(2)).toHaveText("2 × Acceptance Tee and 2 more");
    await expect(rows.filter({ hasText: short(nameless.id) }).getByRole("cell").nth(2)).toHaveText(`3 × Product ${short(GONE)}`);
    await expect(rows.filter({ hasText: short(empty.id) }).getByRole("cell").nth(2)).toHaveText("No items");

    const density = page.getByRole("group", { name: "Row density" });
    const comfortable = density.getByRole("button", { name: "Comfortable" });
    const compact = density.getByRole("button", { name: "Compact" });
    await expect(comfortable).toHaveAttribute("aria-pressed", "true");
    await expect(compact).toHaveAttribute("aria-pressed", "false");
    const roomy = await heightOf(teesRow);
    await screenshotsInBothSchemes(page, "orders-desktop-comfortable");

    await compact.click();
    await expect(compact).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => heightOf(teesRow)).toBeLessThan(roomy - 8);
    const tight = await heightOf(teesRow);
    await page.reload();
    await expect(compact).toHaveAttribute("aria-pressed", "true");
    await expect(comfortable).toHaveAttribute("aria-pressed", "false");
    await expect(teesRow.getByRole("cell").nth(2)).toHaveText("2 × Acceptance Tee and 2 more");
    expect(await heightOf(teesRow)).toBe(tight);
    await expect(teesRow.getByRole("button", { name: `View order ${short(tees.id)}` })).toBeVisible();
    await screenshotsInBothSchemes(page, "orders-desktop-compact", { include: "main" });

    await comfortable.click();
    await page.reload();
    await expect(comfortable).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => heightOf(teesRow)).toBe(roomy);
  });
});
