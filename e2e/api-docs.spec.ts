import { expect, saveScreenshot, test } from "./support/fixtures";

// The rendered API reference (issue 11, item 4) at /api/docs: for the admin only, and working
// under the server's strict Content-Security-Policy (the `page` fixture fails a test on any CSP
// violation the browser reports).

test.describe("API documentation", () => {
  test("the admin opens /api/docs and sees every group of calls, with their schemas", async ({ adminPage: page }) => {
    await page.goto("/api/docs");
    await expect(page.getByRole("heading", { name: /Shop back office API/ })).toBeVisible();
    const groups = ["auth", "bot-settings", "categories", "products", "postage-options", "orders", "messages", "dashboard"];
    for (const tag of [...groups, "objects", "payments", "telegram"]) {
      await expect(page.locator(`#operations-tag-${tag}`), tag).toBeVisible();
    }
    const listProducts = page.locator("#operations-products-get_api_products");
    await expect(listProducts).toContainText("/api/products");
    expect(await page.locator(".opblock").count()).toBeGreaterThan(35);

    // An operation opens on its answers, the success one with the Product schema.
    await listProducts.locator(".opblock-summary").click();
    await expect(listProducts.locator(".responses-table")).toContainText("200");
    await expect(listProducts.locator(".responses-table")).toContainText("createdAt");
    await saveScreenshot(page, "api-docs");
  });

  test("nobody else gets the reference or the document", async ({ page }) => {
    for (const path of ["/api/docs", "/api/openapi.json", "/api/docs/json"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(401);
      await expect(page.locator("body")).toContainText("Not logged in.");
    }
  });
});
