import fs from "node:fs";
import path from "node:path";
import type { Locator } from "@playwright/test";
import type { Category, Product } from "../contract";
import { answerNextConfirm, choose, holdRequests, inBatches, settle, urlParams, waitForListRequest } from "./fixtures/ui";
import { expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

const PNG = path.join(import.meta.dirname, "fixtures/product.png");
const DELETE_CONFIRM = "Are you sure you want to delete this product?";

/**
 * The element shows its whole text: nothing cut off by an ellipsis or running past its box (its
 * content is no wider than the box), it lies inside the viewport, and it wrapped onto more lines
 * rather than being squeezed onto one.
 */
async function expectWholeTextShown(name: Locator, text: string, viewportWidth: number) {
  await expect(name).toBeVisible();
  await expect(name).toHaveText(text);
  const box = await name.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
    return { scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, right: rect.right, lines: Math.round(rect.height / lineHeight) };
  });
  expect(box.scrollWidth, "the text is wider than its box (cut off)").toBeLessThanOrEqual(box.clientWidth);
  expect(box.right).toBeLessThanOrEqual(viewportWidth);
  expect(box.lines, "a long name wraps onto more lines").toBeGreaterThan(1);
}

async function seedCatalogue(api: import("./support/fixtures").Api) {
  const electronics = await api.post<Category>("/api/categories", { name: "Electronics" });
  const phones = await api.post<Category>("/api/categories", { name: "Phones", parentId: electronics.id });
  const clothing = await api.post<Category>("/api/categories", { name: "Clothing" });
  return { electronics, phones, clothing };
}

test.describe("products", () => {
  test("shows the loading text, then the empty state", async ({ adminPage: page }) => {
    // The screen reads one page of products from the server (/api/products?limit=25).
    const hold = await holdRequests(page, /\/api\/products\?/);
    await page.goto("/products");
    await expect(page.getByText("Loading products...")).toBeVisible();
    await hold.release();
    await expect(page.getByText("No products found")).toBeVisible();
    await expect(page.getByText("Create your first product to start selling")).toBeVisible();
  });

  test("creates a product with an uploaded image and bulk tiers, edits and deletes it", async ({ adminPage: page, api }) => {
    const { phones } = await seedCatalogue(api);
    await page.goto("/products");
    await page.getByRole("button", { name: "Add Product" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Add New Product" })).toBeVisible();
    // docs/product.md §4 defaults: price '0', stock 0, active.
    await expect(dialog.getByLabel("Price (£)")).toHaveValue("0");
    await expect(dialog.getByLabel("Price (£)")).toHaveAttribute("step", "0.01");
    await expect(dialog.getByLabel("Stock", { exact: true })).toHaveValue("0");
    await expect(dialog.getByRole("switch", { name: "Active" })).toBeChecked();

    await dialog.getByLabel("Product Name").fill("Smartphone X");
    await dialog.getByLabel("Description").fill("A fast phone");
    await dialog.getByLabel("Price (£)").fill("19.99");
    // Stock is parsed as an integer.
    await dialog.getByLabel("Stock", { exact: true }).fill("7.9");
    await dialog.getByRole("combobox", { name: "Category" }).click();
    await expect(page.getByRole("option")).toHaveText(["No category", "Clothing", "Electronics", "↳ Phones"]);
    await page.getByRole("option", { name: "↳ Phones" }).click();

    // The image: the progress bar shows while the bytes travel, then the preview.
    const upload = await holdRequests(page, /\/api\/objects\/upload\/[^/]+$/, "PUT");
    await dialog.getByTestId("product-image-input").setInputFiles(PNG);
    await expect(dialog.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
    await expect(dialog.getByText(/Uploading\.\.\. \d+%/)).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Create Product" })).toBeDisabled();
    await upload.release();
    await expectToast(page, "Image uploaded successfully!");
    await expect(dialog.getByRole("progressbar")).toHaveCount(0);
    const preview = dialog.getByRole("img", { name: "Product image preview" });
    await expect(preview).toHaveAttribute("src", /^\/objects\/[^/]+$/);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);

    // Issue 23: more photos at once; a bad file gets its own error and the others still go in.
    await dialog.getByTestId("product-image-input").setInputFiles([
      { name: "second.png", mimeType: "image/png", buffer: fs.readFileSync(PNG) },
      { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text") },
      { name: "third.png", mimeType: "image/png", buffer: fs.readFileSync(PNG) },
    ]);
    await expectToast(page, "Upload failed", "Only PNG, JPEG or WebP images can be uploaded.");
    await expect(dialog.getByTestId("product-image-errors")).toHaveText(/^notes\.png: .*Only PNG, JPEG or WebP images can be uploaded\.$/);
    const photos = dialog.getByTestId("product-image");
    await expect(photos).toHaveCount(3);
    const uploaded = await photos.evaluateAll((items) => items.map((item) => item.getAttribute("data-path")!));
    expect(new Set(uploaded).size).toBe(3);
    await expect(photos.first()).toContainText("Main image");
    await expect(dialog.getByText("Main image", { exact: true })).toHaveCount(1);
    // By keyboard: the third photo to the front (Space picks it up, the arrows move it, Space drops it).
    await dialog.getByRole("button", { name: "Move image 3 of 3", exact: true }).focus();
    // Each step is said aloud from inside the dialog (a modal dialog hides the rest of the page from screen readers).
    const said = dialog.getByRole("status").filter({ hasText: "Image 3 of 3" });
    await page.keyboard.press("Space");
    await expect(said).toHaveText(/^(Picked up Image 3 of 3\.|Image 3 of 3 is over position 3\.)/);
    await page.keyboard.press("ArrowLeft");
    await expect(said).toHaveText("Image 3 of 3 is over position 2.");
    await page.keyboard.press("ArrowLeft");
    await expect(said).toHaveText("Image 3 of 3 is over position 1.");
    await page.keyboard.press("Space");
    await expect(said).toHaveText("Image 3 of 3 was dropped at position 1.");
    const reordered = [uploaded[2]!, uploaded[0]!, uploaded[1]!];
    await expect.poll(() => photos.evaluateAll((items) => items.map((item) => item.getAttribute("data-path")))).toEqual(reordered);
    await expect(photos.first()).toContainText("Main image");

    // Bulk tiers: a new tier defaults to 2 / 0; empty fields fall back to those values.
    await dialog.getByRole("button", { name: "Add Tier" }).click();
    await dialog.getByRole("button", { name: "Add Tier" }).click();
    await dialog.getByRole("button", { name: "Add Tier" }).click();
    const tiers = dialog.getByTestId("bulk-tier");
    await expect(tiers).toHaveCount(3);
    await expect(tiers.nth(0).getByLabel("Min Quantity")).toHaveValue("2");
    await expect(tiers.nth(0).getByLabel("Price per unit (£)")).toHaveValue("0");
    await tiers.nth(0).getByLabel("Min Quantity").fill("5");
    await tiers.nth(0).getByLabel("Price per unit (£)").fill("17.5");
    await tiers.nth(1).getByLabel("Min Quantity").fill("");
    await tiers.nth(1).getByLabel("Price per unit (£)").fill("");
    await dialog.getByRole("button", { name: "Remove tier 3" }).click();
    await expect(tiers).toHaveCount(2);

    await dialog.getByRole("button", { name: "Create Product" }).click();
    await expectToast(page, "Product created successfully!");
    await expect(dialog).toBeHidden();

    const row = page.getByTestId("product-row").filter({ hasText: "Smartphone X" });
    await expect(row).toContainText("Phones");
    await expect(row).toContainText("£19.99");
    await expect(row).toContainText("2+ for £0.00");
    await expect(row).toContainText("5+ for £17.50");
    await expect(row.getByRole("cell").nth(3)).toHaveText("7");
    await expect(row).toContainText("In Stock");
    const thumbnail = row.getByRole("img", { name: "Smartphone X" });
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);

    let [product] = await api.get<Product[]>("/api/products");
    expect(product).toMatchObject({
      name: "Smartphone X",
      description: "A fast phone",
      price: "19.99",
      stock: 7,
      categoryId: phones.id,
      isActive: true,
      bulkPricing: [
        { minQuantity: 2, price: 0 },
        { minQuantity: 5, price: 17.5 },
      ],
    });
    expect(product!.imageUrls).toEqual(reordered);
    expect(product!.imageUrl).toBe(reordered[0]);
    const image = await api.context.get(product!.imageUrl!);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");

    // Edit: new price, out of stock, no tiers (saved as null), inactive; after a reload the photos keep their order.
    await page.reload();
    await row.getByRole("button", { name: "Edit Smartphone X" }).click();
    await expect(dialog.getByRole("heading", { name: "Edit Product" })).toBeVisible();
    await expect(dialog.getByLabel("Product Name")).toHaveValue("Smartphone X");
    await expect.poll(() => photos.evaluateAll((items) => items.map((item) => item.getAttribute("data-path")))).toEqual(reordered);
    await dialog.getByRole("button", { name: "Remove image 2 of 3", exact: true }).click();
    await expect(photos).toHaveCount(2);
    await expect(dialog.getByTestId("bulk-tier")).toHaveCount(2);
    await dialog.getByLabel("Price (£)").fill("21.50");
    await dialog.getByLabel("Stock", { exact: true }).fill("0");
    await dialog.getByRole("button", { name: "Remove tier 2" }).click();
    await dialog.getByRole("button", { name: "Remove tier 1" }).click();
    await dialog.getByRole("switch", { name: "Active" }).click();
    const saving = await holdRequests(page, "**/api/products/*", "PUT");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expect(dialog.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await saving.release();
    await expectToast(page, "Product updated successfully!");
    await expect(row).toContainText("£21.50");
    await expect(row).toContainText("Out of Stock");
    await expect(row).toContainText("Inactive");
    await expect(row).not.toContainText("for £");
    [product] = await api.get<Product[]>("/api/products");
    expect(product).toMatchObject({ price: "21.50", stock: 0, bulkPricing: null, isActive: false });
    expect(product!.imageUrls).toEqual([reordered[0], reordered[2]]);
    expect(product!.imageUrl).toBe(reordered[0]);

    // Delete asks first.
    let confirmed = answerNextConfirm(page, DELETE_CONFIRM, false);
    await row.getByRole("button", { name: "Delete Smartphone X" }).click();
    await confirmed;
    await expect(row).toBeVisible();
    confirmed = answerNextConfirm(page, DELETE_CONFIRM, true);
    await row.getByRole("button", { name: "Delete Smartphone X" }).click();
    await confirmed;
    await expectToast(page, "Product deleted successfully!");
    await expect(page.getByText("No products found")).toBeVisible();
    expect(await api.get<Product[]>("/api/products")).toEqual([]);
  });

  test("filters by category (children under parents), stock status and name", async ({ adminPage: page, api }) => {
    const { electronics, phones, clothing } = await seedCatalogue(api);
    const add = (name: string, categoryId: string | null, stock: number) =>
      api.post("/api/products", { name, description: "", price: "5.00", stock, categoryId });
    await add("Laptop Pro", electronics.id, 3);
    await add("Phone Mini", phones.id, 0);
    await add("Winter Coat", clothing.id, 8);
    await add("Gift Card", null, 100);
    await page.goto("/products");
    const rows = page.getByTestId("product-row");
    await expect(rows).toHaveCount(4);

    const categoryFilter = page.getByRole("combobox", { name: "Filter by category" });
    await categoryFilter.click();
    await expect(page.getByRole("option")).toHaveText(["All Categories", "Clothing", "Electronics", "↳ Phones"]);
    await page.getByRole("option", { name: "↳ Phones" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText("Phone Mini");
    // A main category includes its subcategories' products.
    await choose(page, categoryFilter, "Electronics");
    await expect(rows).toHaveCount(2);
    await choose(page, categoryFilter, "All Categories");

    const statusFilter = page.getByRole("combobox", { name: "Filter by status" });
    await choose(page, statusFilter, "Out of Stock");
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText("Phone Mini");
    await choose(page, statusFilter, "In Stock");
    await expect(rows).toHaveCount(3);
    await choose(page, statusFilter, "All Status");

    const search = page.getByRole("searchbox", { name: "Search products" });
    await search.fill("LAPTOP");
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText("Laptop Pro");
    await search.fill("coat");
    await expect(rows).toHaveText([/Winter Coat/]);
    await search.fill("nothing like this");
    await expect(page.getByText("No products found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filters")).toBeVisible();
  });

  test("searches and filters on the server, kept in the URL across a reload", async ({ adminPage: page, api }) => {
    const { electronics, phones, clothing } = await seedCatalogue(api);
    const add = (name: string, categoryId: string | null, stock: number, description = "") =>
      api.post<Product>("/api/products", { name, description, price: "5.00", stock, categoryId });
    await add("Laptop Pro", electronics.id, 3);
    await add("Phone Mini", phones.id, 0, "Small and light");
    await add("Phone Max", phones.id, 4);
    await add("Winter Coat", clothing.id, 8);
    await add("Mini Torch", null, 0);
    await page.goto("/products");
    const rows = page.getByTestId("product-row");
    await expect(rows).toHaveCount(5);
    const categoryFilter = page.getByRole("combobox", { name: "Filter by category" });
    const statusFilter = page.getByRole("combobox", { name: "Filter by status" });
    const search = page.getByRole("searchbox", { name: "Search products" });

    // Each filter is a request to the server with it; the screen shows what the server answered.
    let asked = waitForListRequest(page, "/api/products", { limit: "25", categoryId: electronics.id, status: null, q: null });
    await choose(page, categoryFilter, "Electronics");
    await asked;
    await expect(rows).toHaveText([/Phone Max/, /Phone Mini/, /Laptop Pro/]);
    expect(urlParams(page)).toEqual({ category: electronics.id });

    asked = waitForListRequest(page, "/api/products", { categoryId: electronics.id, status: "out-of-stock", q: null });
    await choose(page, statusFilter, "Out of Stock");
    await asked;
    await expect(rows).toHaveText([/Phone Mini/]);

    // The search asks the server once with the text typed (after typing pauses); it matches names
    // (docs/product.md §2: name search), ignoring case, and never the description ("light" is only in one).
    const searches: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/products" && url.searchParams.has("q")) searches.push(url.searchParams.get("q")!);
    });
    asked = waitForListRequest(page, "/api/products", { categoryId: null, status: "out-of-stock", q: "LIGHT" });
    await choose(page, categoryFilter, "All Categories");
    await search.fill("LIGHT");
    await asked;
    await expect(page.getByText("No products found")).toBeVisible();
    expect(searches).toEqual(["LIGHT"]);
    expect(urlParams(page)).toEqual({ status: "out-of-stock", q: "LIGHT" });
    asked = waitForListRequest(page, "/api/products", { categoryId: null, status: "out-of-stock", q: "PHONE" });
    await search.fill("PHONE");
    await asked;
    await expect(rows).toHaveText([/Phone Mini/]);

    asked = waitForListRequest(page, "/api/products", { status: "out-of-stock", q: "mini" });
    await search.fill("mini");
    await asked;
    await expect(rows).toHaveText([/Mini Torch/, /Phone Mini/]);
    await choose(page, categoryFilter, "↳ Phones");
    await expect(rows).toHaveText([/Phone Mini/]);
    expect(urlParams(page)).toEqual({ status: "out-of-stock", q: "mini", category: phones.id });

    // A reload shows the same filters and asks the server for the same list.
    asked = waitForListRequest(page, "/api/products", { categoryId: phones.id, status: "out-of-stock", q: "mini" });
    await page.reload();
    await asked;
    await expect(search).toHaveValue("mini");
    await expect(categoryFilter).toHaveText("↳ Phones");
    await expect(statusFilter).toHaveText("Out of Stock");
    await expect(rows).toHaveText([/Phone Mini/]);

    // Nothing matches: the filtered empty state.
    await choose(page, statusFilter, "In Stock");
    await expect(page.getByText("No products found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filters")).toBeVisible();
    await search.fill("");
    await expect(rows).toHaveText([/Phone Max/]);
    expect(urlParams(page)).toEqual({ status: "in-stock", category: phones.id });

    // A link to a category deleted since (its products became uncategorised) shows every category.
    await api.delete(`/api/categories/${clothing.id}`);
    await page.goto(`/products?category=${clothing.id}`);
    await expect(categoryFilter).toHaveText("All Categories");
    await expect(rows).toHaveCount(5);
  });

  test("server refusals show the create, update and delete failure toasts", async ({ adminPage: page, api }) => {
    await page.goto("/products");
    const dialog = page.getByRole("dialog");

    // zod's own limits in the owner's words (contract/owner-words.ts): under the field, and in the server's refusal.
    await page.getByRole("button", { name: "Add Product" }).click();
    await dialog.getByLabel("Product Name").fill("N".repeat(201));
    await dialog.getByRole("button", { name: "Create Product" }).click();
    await expect(dialog.getByText("Name can be at most 200 characters")).toBeVisible();
    await saveScreenshot(page, "product-form-name-too-long", { fullPage: false });
    await dialog.getByLabel("Product Name").fill("Long story");
    await dialog.getByLabel("Description").fill("d".repeat(4001));
    await dialog.getByLabel("Price (£)").fill("4.00");
    await dialog.getByRole("button", { name: "Create Product" }).click();
    await expectToast(page, "Failed to create product", "Description can be at most 4,000 characters");
    const discarded = answerNextConfirm(page, "Discard your unsaved changes?", true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await discarded;

    // A tier below the minimum quantity: the server refuses and says why.
    await page.getByRole("button", { name: "Add Product" }).click();
    await dialog.getByLabel("Product Name").fill("Bad Tiers");
    await dialog.getByRole("button", { name: "Add Tier" }).click();
    await dialog.getByLabel("Min Quantity").fill("1");
    await dialog.getByRole("button", { name: "Create Product" }).click();
    // The new product's default price is £0.00: saved as free, on purpose.
    await page.getByRole("alertdialog", { name: "Save as free?" }).getByRole("button", { name: "Save as free" }).click();
    const toast = await expectToast(page, "Failed to create product", "Minimum quantity must be at least 2");
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    await expect(dialog).toBeVisible();
    expect(await api.get<Product[]>("/api/products")).toEqual([]);
    const discardedTiers = answerNextConfirm(page, "Discard your unsaved changes?", true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await discardedTiers;

    // The product disappears while it is being edited, then when it is deleted.
    const product = await api.post<Product>("/api/products", { name: "Ghost", description: "", price: "1.00", stock: 1 });
    await page.reload();
    await page.getByRole("button", { name: "Edit Ghost" }).click();
    await api.delete(`/api/products/${product.id}`);
    await dialog.getByLabel("Price (£)").fill("2.00");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Failed to update product", "not found");
    const discardedPrice = answerNextConfirm(page, "Discard your unsaved changes?", true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await discardedPrice;

    const confirmed = answerNextConfirm(page, DELETE_CONFIRM, true);
    await page.getByRole("button", { name: "Delete Ghost" }).click();
    await confirmed;
    await expectToast(page, "Failed to delete product", "not found");
  });

  test("image upload failures: too large, not an image, no upload URL, not confirmed", async ({ adminPage: page, api }) => {
    await page.goto("/products");
    await page.getByRole("button", { name: "Add Product" }).click();
    const input = page.getByRole("dialog").getByTestId("product-image-input");
    const uploadCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/objects/upload")) uploadCalls.push(request.method());
    });

    // Over 5 MB: refused before anything is sent.
    const big = Buffer.alloc(5_242_881, 0);
    await input.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: big });
    await expectToast(page, "Upload failed", "larger than 5 MB");
    expect(uploadCalls).toEqual([]);
    // ... and the server refuses such a file too (413), should anything send one.
    const { uploadURL } = await api.post<{ uploadURL: string }>("/api/objects/upload");
    const tooLarge = await api.context.put(uploadURL, { data: big, headers: { "Content-Type": "image/png" } });
    expect(tooLarge.status()).toBe(413);

    // Not an image (checked by content, not by name): the server refuses with 415.
    await input.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text") });
    await expectToast(page, "Upload failed", "Only PNG, JPEG or WebP images can be uploaded.");
    await expect(page.getByRole("img", { name: "Product image preview" })).toHaveCount(0);

    // The upload URL cannot be confirmed: the server refuses the object path.
    await page.route("**/api/product-images", (route) =>
      route.fallback({ postData: JSON.stringify({ imageURL: "/somewhere/else.png" }) }),
    );
    await input.setInputFiles(PNG);
    await expectToast(page, "Error processing upload", "Image must be an upload URL or an /objects/ path from this server.");
    await expect(page.getByRole("img", { name: "Product image preview" })).toHaveCount(0);
    await page.unrouteAll();

    // The storage cannot hand out an upload URL. (A lost session is not this
    // case: any 401 takes the owner back to the sign-in screen, see auth.spec.)
    await page.route("**/api/objects/upload", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "Image storage is unavailable" }) }),
    );
    await input.setInputFiles(PNG);
    await expectToast(page, "Failed to get upload URL", "Image storage is unavailable");
    await expect(page.getByRole("img", { name: "Product image preview" })).toHaveCount(0);
    await page.unrouteAll();
  });

  test("pages through hundreds of products", async ({ adminPage: page, api }) => {
    await inBatches(230, 10, (i) =>
      api.post("/api/products", { name: `Item ${String(i + 1).padStart(3, "0")}`, description: "", price: "1.00", stock: i }),
    );
    await page.goto("/products");
    const rows = page.getByTestId("product-row");
    await expect(rows).toHaveCount(25);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toContainText("1–25 of 230 products");
    await expect(pager).toContainText("Page 1 of 10");
    await expect(pager.getByRole("button", { name: "Previous page" })).toBeDisabled();
    // Products made in parallel batches: which one heads a page is read, not assumed. The previous
    // page stays on screen until the next one arrives, so each read waits for the head to change.
    const firstCell = rows.first().getByRole("cell").first();
    const first = await firstCell.innerText();
    // Each page is asked of the server, after the cursor its previous page answered.
    const next = waitForListRequest(page, "/api/products", { limit: "25" });
    await pager.getByRole("button", { name: "Next page" }).click();
    expect(new URL((await next).url()).searchParams.get("cursor")).toBeTruthy();
    await expect(pager).toContainText("26–50 of 230 products");
    await expect(firstCell).not.toHaveText(first);
    await expect(rows).toHaveCount(25);
    const second = await firstCell.innerText();
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(pager).toContainText("51–75 of 230 products");
    await expect(firstCell).not.toHaveText(second);
    const third = await firstCell.innerText();
    expect(urlParams(page)).toEqual({ page: "3", cursor: expect.any(String) });
    // A reload stays on that page; Previous then starts again from the first.
    await page.reload();
    await expect(pager).toContainText("51–75 of 230 products");
    await expect(firstCell).toHaveText(third);
    await pager.getByRole("button", { name: "Previous page" }).click();
    await expect(pager).toContainText("1–25 of 230 products");
    expect(urlParams(page)).toEqual({});
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(pager).toContainText("26–50 of 230 products");
    // A new search starts again at page 1.
    await page.getByRole("searchbox", { name: "Search products" }).fill("Item 2");
    await expect(pager).toContainText("1–25 of 31 products");
    expect(urlParams(page)).toEqual({ q: "Item 2" });
    await page.getByRole("searchbox", { name: "Search products" }).fill("Item 229");
    await expect(rows).toHaveCount(1);
    await expect(pager).toHaveCount(0);
  });

  test("phone size: cards instead of the table; screenshots", async ({ adminPage: page, api }) => {
    const { electronics } = await seedCatalogue(api);
    const { uploadURL } = await api.post<{ uploadURL: string }>("/api/objects/upload");
    await api.context.put(uploadURL, { data: fs.readFileSync(PNG), headers: { "Content-Type": "image/png" } });
    const { objectPath } = await api.put<{ objectPath: string }>("/api/product-images", { imageURL: uploadURL });
    await api.post("/api/products", {
      name: "Wireless Headphones",
      description: "Noise cancelling, 30 hours of battery",
      price: "59.99",
      stock: 12,
      categoryId: electronics.id,
      imageUrl: objectPath,
      bulkPricing: [
        { minQuantity: 3, price: 54.5 },
        { minQuantity: 10, price: 49 },
      ],
    });
    await api.post("/api/products", { name: "Cotton T-Shirt", description: "Organic", price: "15.00", stock: 0 });
    await page.goto("/products");
    await expect(page.getByTestId("product-row")).toHaveCount(2);
    await saveScreenshot(page, "products-desktop");

    await page.setViewportSize(PHONE);
    const cards = page.getByTestId("product-card");
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole("table")).toHaveCount(0);
    const headphones = cards.filter({ hasText: "Wireless Headphones" });
    await expect(headphones).toContainText("£59.99");
    await expect(headphones).toContainText("3+ for £54.50");
    await expect(headphones).toContainText("In Stock");
    await expect(cards.filter({ hasText: "Cotton T-Shirt" })).toContainText("Out of Stock");
    await saveScreenshot(page, "products-phone");

    // The card's edit button opens the dialog.
    await headphones.getByRole("button", { name: "Edit Wireless Headphones" }).click();
    await expect(page.getByRole("dialog").getByLabel("Product Name")).toHaveValue("Wireless Headphones");
    await settle(page);
    await saveScreenshot(page, "products-dialog-phone");
  });
  test("on a phone, a long product name and its category's name wrap in full instead of being cut", async ({ adminPage: page, api }) => {
    const longCategory = "Speciality Loose Leaf Teas from Small Estates";
    const category = await api.post<Category>("/api/categories", { name: longCategory });
    // Words of every length, and one longer than the card is wide (it must break, not overflow).
    const longName = "Darjeeling Second Flush Muscatel Castleton Estate Superfinetippygoldenfloweryorangepekoe 250 g";
    await api.post("/api/products", { name: longName, description: "Tea", price: "18.00", stock: 4, categoryId: category.id });
    await page.setViewportSize(PHONE);
    await page.goto("/products");
    const card = page.getByTestId("product-card");
    await expect(card).toHaveCount(1);
    await expectWholeTextShown(card.getByTestId("product-card-name"), longName, PHONE.width);
    await expectWholeTextShown(card.getByText(longCategory), longCategory, PHONE.width);
    // The edit and delete buttons stay whole beside the name.
    await expect(card.getByRole("button", { name: `Edit ${longName}` })).toBeInViewport({ ratio: 1 });
    await expect(card.getByRole("button", { name: `Delete ${longName}` })).toBeInViewport({ ratio: 1 });
    await saveScreenshot(page, "products-long-name-phone");
  });

  test("a form opened before a sale: other edits keep the sold stock; a stock change is refused until reloaded", async ({
    adminPage: page,
    api,
    seed,
  }) => {
    const product = await api.post<Product>("/api/products", { name: "Coffee beans", description: "1 kg", price: "12.50", stock: 10 });
    const sell = (quantity: number) =>
      seed.order({
        status: "pending",
        items: [{ productId: product.id, productName: product.name, price: product.price, quantity }],
        reserveStock: true,
      });
    const stored = async () => (await api.get<Product[]>("/api/products")).find((p) => p.id === product.id)!;
    // Each sale is a new order, and a new order raises its own toast (issue 22), which replaces the one
    // shown (one at a time). The app's list of recent orders is read first, so each sale's toast comes
    // for sure, and the test waits for it before the save whose toast it checks.
    const recentOrdersRead = page.waitForResponse((response) => /\/api\/orders\?limit=/.test(response.url()));
    await page.goto("/products");
    await recentOrdersRead;
    const row = page.getByTestId("product-row").filter({ hasText: "Coffee beans" });
    const dialog = page.getByRole("dialog");

    // Opened at 10; 4 sell meanwhile; only the description is changed.
    await row.getByRole("button", { name: "Edit Coffee beans" }).click();
    await expect(dialog.getByLabel("Stock", { exact: true })).toHaveValue("10");
    await sell(4);
    await expectToast(page, "New order", "£50.00");
    await dialog.getByLabel("Description").fill("1 kg, dark roast");
    const saved = page.waitForRequest((request) => request.method() === "PUT" && request.url().includes(`/api/products/${product.id}`));
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Product updated successfully!");
    expect((await saved).postDataJSON()).toMatchObject({ stock: 10, expectedStock: 10, description: "1 kg, dark roast" });
    expect(await stored()).toMatchObject({ description: "1 kg, dark roast", stock: 6 });
    await expect(row.getByRole("cell").nth(3)).toHaveText("6");

    // Opened at 6; 1 sells meanwhile; the owner sets 20: refused, with the stock it is now.
    await row.getByRole("button", { name: "Edit Coffee beans" }).click();
    await expect(dialog.getByLabel("Stock", { exact: true })).toHaveValue("6");
    await sell(1);
    await expectToast(page, "New order", "£12.50");
    await dialog.getByLabel("Product Name").fill("Coffee beans (dark)");
    await dialog.getByLabel("Stock", { exact: true }).fill("20");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    const sentence = "Stock changed meanwhile: it is now 5. Reload it before changing it.";
    const failed = await expectToast(page, "Failed to update product", sentence);
    await expect(failed).toHaveAttribute("data-variant", "destructive");
    const stale = dialog.getByTestId("stale-stock");
    await expect(stale).toContainText(sentence);
    await expect(dialog).toBeVisible();
    expect(await stored()).toMatchObject({ name: "Coffee beans", stock: 5 });
    await settle(page);
    await saveScreenshot(page, "products-stale-stock-desktop");

    // Reload stock takes the current count (the other edits stay); then the change goes through.
    await stale.getByRole("button", { name: "Reload stock" }).click();
    await expect(dialog.getByLabel("Stock", { exact: true })).toHaveValue("5");
    await expect(stale).toHaveCount(0);
    await expect(dialog.getByLabel("Product Name")).toHaveValue("Coffee beans (dark)");
    await dialog.getByLabel("Stock", { exact: true }).fill("20");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Product updated successfully!");
    await expect(dialog).toBeHidden();
    expect(await stored()).toMatchObject({ name: "Coffee beans (dark)", stock: 20 });
  });

  test("a save after the session ended signs in over the open dialog, then saves the edits once", async ({ adminPage: page, api }) => {
    const product = await api.post<Product>("/api/products", { name: "Desk Lamp", description: "Warm light", price: "12.50", stock: 4, categoryId: null, imageUrl: null, bulkPricing: null, isActive: true });
    await page.goto("/products");
    await page.getByRole("button", { name: "Edit Desk Lamp" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Edit Product" });
    await dialog.getByLabel("Product Name").fill("Desk Lamp Pro");
    await dialog.getByLabel("Description").fill("Warm light, now dimmable");
    await dialog.getByLabel("Price (£)").fill("19.99");

    // The session ends under the open dialog (the cookie is gone, as after an expiry).
    await page.context().clearCookies();
    const saves: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().endsWith(`/api/products/${product.id}`)) saves.push(request.url());
    });
    await dialog.getByRole("button", { name: "Update Product" }).click();

    const signIn = page.getByRole("alertdialog", { name: "Sign in to save" });
    await expect(signIn).toBeVisible();
    // Not the login page: the dialog and what was typed are still there, under the sign-in.
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toHaveCount(0);
    // (Under a modal, the product dialog is hidden from the accessibility tree: found by its slot.)
    const underneath = page.locator('[data-slot="dialog-content"]');
    await expect(underneath.getByLabel("Product Name")).toHaveValue("Desk Lamp Pro");
    await expect(underneath.getByLabel("Price (£)")).toHaveValue("19.99");
    await saveScreenshot(page, "products-sign-in-again");
    // The rest on a phone, in dark mode.
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "products-sign-in-again-phone-dark", { fullPage: false });

    // A wrong password is marked on the field, and nothing is saved yet.
    await signIn.getByLabel("Password").fill("not the password");
    await signIn.getByRole("button", { name: "Sign in and save" }).click();
    const password = signIn.getByLabel("Password");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`#${await password.getAttribute("aria-describedby")}`)).toHaveText("Invalid password");
    await password.fill("e2e admin password");
    await signIn.getByRole("button", { name: "Sign in and save" }).click();

    await expectToast(page, "Product updated successfully!");
    await expect(signIn).toBeHidden();
    await expect(dialog).toBeHidden();
    const saved = (await api.get<Product[]>("/api/products")).find((p) => p.id === product.id)!;
    expect({ name: saved.name, description: saved.description, price: saved.price }).toEqual({ name: "Desk Lamp Pro", description: "Warm light, now dimmable", price: "19.99" });
    // Sent twice in all: the refused one, and the one retry after signing in.
    expect(saves).toHaveLength(2);
    await expect(page.getByRole("button", { name: "Edit Desk Lamp Pro" }).first()).toBeVisible();
  });

  test("a dialog with unsaved edits asks before the page is left, by Back or by closing the tab, and before it is closed", async ({ adminPage: page, api }) => {
    await api.post("/api/products", { name: "Teapot", description: "Cast iron", price: "30.00", stock: 2, categoryId: null, imageUrl: null, bulkPricing: null, isActive: true });
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Products" }).click();
    await page.getByRole("button", { name: "Edit Teapot" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Edit Product" });
    await dialog.getByLabel("Product Name").fill("Teapot, large");

    // Back: asked; staying keeps the screen, the dialog and the edit.
    const asked = answerNextConfirm(page, "You have unsaved changes. Leave this page without saving them?", false);
    await page.goBack();
    await asked;
    await expect(page).toHaveURL(/\/products$/);
    await expect(dialog.getByLabel("Product Name")).toHaveValue("Teapot, large");

    // Closing the tab (or reloading): the browser's own "Leave site?" prompt.
    const beforeUnload = new Promise<string>((resolve) => page.once("dialog", (prompt) => void prompt.dismiss().then(() => resolve(prompt.type()))));
    await page.close({ runBeforeUnload: true });
    expect(await beforeUnload).toBe("beforeunload");
    expect(page.isClosed()).toBe(false);
    await expect(dialog.getByLabel("Product Name")).toHaveValue("Teapot, large");

    // Closing the dialog by Escape or its X: asked; staying keeps the dialog and the edit.
    for (const close of [() => page.keyboard.press("Escape"), () => dialog.getByRole("button", { name: "Close" }).click()]) {
      const kept = answerNextConfirm(page, "Discard your unsaved changes?", false);
      await close();
      await kept;
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel("Product Name")).toHaveValue("Teapot, large");
    }
    // Cancel, discarding: the dialog closes and nothing is saved.
    const discarded = answerNextConfirm(page, "Discard your unsaved changes?", true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await discarded;
    await expect(dialog).toBeHidden();
    expect((await api.get<Product[]>("/api/products")).map((p) => p.name)).toEqual(["Teapot"]);

    // Nothing left unsaved: Back just goes back, and an untouched dialog closes without asking.
    await page.getByRole("button", { name: "Edit Teapot" }).first().click();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });

  test("a product saved at £0.00 asks 'Save as free?'; cancel keeps the dialog, confirm saves it", async ({ adminPage: page, api }) => {
    await page.goto("/products");
    await page.getByRole("button", { name: "Add Product" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New Product" });
    await dialog.getByLabel("Product Name").fill("Sample Sachet");
    await dialog.getByLabel("Price (£)").fill("0.00");
    await dialog.getByRole("button", { name: "Create Product" }).click();

    const ask = page.getByRole("alertdialog", { name: "Save as free?" });
    await expect(ask).toContainText("The price is £0.00: customers will be able to order Sample Sachet without paying.");
    await saveScreenshot(page, "products-save-as-free");
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "products-save-as-free-phone-dark", { fullPage: false });
    await ask.getByRole("button", { name: "Cancel" }).click();
    await expect(ask).toBeHidden();
    // Nothing saved; the dialog and what was typed stay, to set a price.
    await expect(dialog.getByLabel("Product Name")).toHaveValue("Sample Sachet");
    expect(await api.get<Product[]>("/api/products")).toEqual([]);

    await dialog.getByRole("button", { name: "Create Product" }).click();
    await ask.getByRole("button", { name: "Save as free" }).click();
    await expectToast(page, "Product created successfully!");
    await expect(dialog).toBeHidden();
    expect((await api.get<Product[]>("/api/products")).map((p) => [p.name, p.price])).toEqual([["Sample Sachet", "0.00"]]);

    // A real price is saved without asking.
    await page.getByRole("button", { name: "Edit Sample Sachet" }).first().click();
    await page.getByRole("dialog", { name: "Edit Product" }).getByLabel("Price (£)").fill("0.50");
    await page.getByRole("dialog", { name: "Edit Product" }).getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Product updated successfully!");
    await expect(ask).toHaveCount(0);
  });
});
