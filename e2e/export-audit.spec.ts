import fs from "node:fs";
import { choose } from "./fixtures/ui";
import { DESKTOP, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// Issue 13, items 5 and 6: the Orders screen exports what it shows as a CSV a spreadsheet opens
// safely; the Activity screen lists what the admin did; an order's dialog shows its own history.

const short = (id: string) => id.slice(0, 8);
const HOSTILE_NAME = '=HYPERLINK("http://evil.example","Click")';

test.describe("export and activity", () => {
  test("Export downloads the filtered orders as a CSV with the formula neutralised", async ({ adminPage: page, seed }) => {
    const item = { productId: "0a1b2c3d-0000-4000-8000-000000000001", productName: "Earl Grey £ tin", price: "4.99", quantity: 2 };
    const hostile = await seed.order({
      status: "processing",
      telegramUsername: "mallory",
      totalAmount: "9.98",
      shippingAddress: { name: HOSTILE_NAME, streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: null },
      items: [item],
    });
    const other = await seed.order({ status: "pending", items: [item] });

    await page.setViewportSize(DESKTOP);
    await page.goto("/orders?status=processing");
    await expect(page.getByRole("button", { name: `View order ${short(hostile.id)}` })).toBeVisible();
    const exportLink = page.getByRole("link", { name: "Export" });
    await expect(exportLink).toHaveAttribute("href", "/api/orders/export.csv?status=processing");
    await saveScreenshot(page, "orders-export-button-desktop", { fullPage: false });

    const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = fs.readFileSync(await download.path());
    // The byte order mark, so Excel reads the £ as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const [header, ...lines] = text.trimEnd().split("\r\n");
    expect(header).toContain("Order ID,Date,Customer");
    // Only the order the filter shows, its cells quoted and the formula made text.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(hostile.id);
    expect(lines[0]).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(lines[0]).toContain("Earl Grey £ tin");
    expect(text).not.toContain(other.id);

    await page.setViewportSize(PHONE);
    await expect(exportLink).toBeVisible();
    await saveScreenshot(page, "orders-export-button-phone", { fullPage: false });
  });

  test("Export after the session ended shows the login with 'Your session ended' and downloads nothing", async ({ adminPage: page, seed }) => {
    const order = await seed.order({ status: "processing", totalAmount: "12.00" });
    await page.setViewportSize(DESKTOP);
    await page.goto("/orders?status=processing");
    await expect(page.getByRole("button", { name: `View order ${short(order.id)}` })).toBeVisible();
    const exportRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/orders/export.csv")) exportRequests.push(request.url());
    });
    const downloads: string[] = [];
    page.on("download", (download) => downloads.push(download.suggestedFilename()));

    // Another tab logs out: the same session cookie ends on the server.
    expect((await page.request.post("/api/auth/logout", { data: {} })).ok()).toBe(true);
    await page.getByRole("link", { name: "Export" }).click();
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
    await expectToast(page, "Your session ended");
    await expect(page).toHaveURL(/\/orders\?status=processing$/);
    // A download, had one started, would have asked for the CSV by now.
    await page.waitForTimeout(500);
    expect(exportRequests).toEqual([]);
    expect(downloads).toEqual([]);

    // Logged in again, on the same screen: Export downloads the CSV.
    await page.getByLabel("Password").fill("e2e admin password");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    const exportLink = page.getByRole("link", { name: "Export" });
    await expect(exportLink).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(fs.readFileSync(await download.path()).toString("utf8")).toContain(order.id);
  });

  test("the Activity screen lists the changes made in this test by name, and the logins when asked", async ({ adminPage: page, api, browser, baseURL }) => {
    // A failed login from another browser, then changes by the admin.
    const stranger = await browser.newContext({ baseURL });
    expect((await stranger.request.post("/api/auth/login", { data: { password: "guessing" } })).status()).toBe(401);
    await stranger.close();
    const category = await api.post<{ id: string }>("/api/categories", { name: "Loose leaf" });
    await api.put(`/api/categories/${category.id}`, { name: "Loose leaf tea" });
    await api.post("/api/bot-settings", {
      botName: "Activity Shop",
      botToken: "7000000009:activity-secret-token-abcdef",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome",
      faqContent: "FAQ",
    });
    const tee = await api.post<{ id: string }>("/api/products", { name: "Acceptance Tee", description: "", price: "10.00", stock: 5 });
    await api.put(`/api/products/${tee.id}`, { name: "Acceptance Tee", description: "", price: "8.00", stock: 5 });

    await page.setViewportSize(DESKTOP);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByTestId("page-title")).toHaveText("Activity");
    const rows = page.getByTestId("activity-entry");
    // Names, and what changed as before → after (issue 22 item 7); no ids, no JSON.
    await expect(rows.filter({ hasText: "Product updated" }).getByTestId("activity-summary")).toHaveText('Product "Acceptance Tee": price £10.00 → £8.00');
    await expect(rows.filter({ hasText: "Product updated" })).toContainText(/Product\s*Product/); // the target: what it is, not its id
    await expect(rows.filter({ hasText: "Product updated" })).not.toContainText(tee.id.slice(0, 8));
    await expect(rows.filter({ hasText: "Category created" }).getByTestId("activity-summary")).toHaveText('Category "Loose leaf"');
    await expect(rows.filter({ hasText: "Category updated" }).getByTestId("activity-summary")).toHaveText(
      'Category "Loose leaf tea": name "Loose leaf" → "Loose leaf tea"',
    );
    const settings = rows.filter({ hasText: "Bot settings created" }).getByTestId("activity-summary");
    await expect(settings).toHaveText('Bot name "Activity Shop", bot token changed, accepted cryptocurrencies BTC, welcome message "Welcome", FAQ content "FAQ", underpayment tolerance 1%');
    await expect(page.getByText("activity-secret-token")).toHaveCount(0);
    // Sign-ins stay out of the way until asked for.
    await expect(rows.filter({ hasText: /Failed login|Logged in/ })).toHaveCount(0);
    await expect(rows).toHaveCount(5);
    // Newest first.
    await expect(rows.first()).toContainText("Product updated");
    await saveScreenshot(page, "activity-desktop");
    await page.getByRole("switch", { name: "Show sign-ins" }).click();
    await expect(page).toHaveURL(/signins=shown/);
    await expect(rows.filter({ hasText: "Failed login" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Logged in" }).first()).toBeVisible();
    await page.getByRole("switch", { name: "Show sign-ins" }).click();
    await expect(rows).toHaveCount(5);

    await choose(page, page.getByRole("combobox", { name: "Show activity about" }), "Categories");
    await expect(page).toHaveURL(/type=category/);
    await expect(rows).toHaveCount(2);

    await page.setViewportSize(PHONE);
    await expect(rows.first()).toContainText("Category updated");
    await saveScreenshot(page, "activity-phone");
  });

  test("the order details dialog shows that order's history", async ({ adminPage: page, api, seed }) => {
    const order = await seed.order({ status: "processing", paymentStatus: "finished", telegramUsername: "ann" });
    const untouched = await seed.order({ status: "processing", paymentStatus: "finished" });
    await api.put(`/api/orders/${order.id}`, { status: "dispatched", trackingNumber: "AB123456789GB" });

    await page.setViewportSize(DESKTOP);
    await page.goto("/orders");
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    const dialog = page.getByRole("dialog");
    const history = dialog.getByTestId("order-history");
    await expect(history.getByRole("heading", { name: "Admin history" })).toBeVisible();
    await expect(history.getByTestId("order-history-entry")).toHaveCount(1);
    await expect(history.getByTestId("order-history-entry")).toContainText("Order updated");
    await expect(history.getByTestId("order-history-entry")).toContainText('Status "dispatched", tracking number "AB123456789GB"');
    await history.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "order-history-dialog", { fullPage: false });
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: `View order ${short(untouched.id)}` }).click();
    await expect(page.getByRole("dialog").getByTestId("order-history")).toContainText("No changes by the admin yet");

    // The Activity screen links the entry back to the order.
    await page.goto("/activity");
    await page.getByRole("link", { name: `Order #${short(order.id)}` }).click();
    await expect(page).toHaveURL(new RegExp(`/orders\\?q=${order.id}`));
  });
});
