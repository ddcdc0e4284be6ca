import path from "node:path";
import type { Product, ProductVariantInput } from "../contract";
import { settle } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { type Api, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// Issue 23, the dashboard's side of product variants: the product dialog's "Options & variants"
// section (options, the table of combinations, set all, a stale stock refused), the products list's
// "6 variants · 25 in stock", and orders naming the variant and SKU they were bought with.

const PNG = path.join(import.meta.dirname, "fixtures/product.png");
const short = (id: string) => id.slice(0, 8);


/** The product as the server holds it now. */
const stored = (api: Api, id: string) => api.get<Product>(`/api/products/${id}`);
const variantOf = (product: Product, label: string) => product.variants.find((variant) => variant.label === label)!;

/** The product's variants as a PUT body, with `stock` changed for the given labels (another editor's save). */
function withStock(product: Product, stock: Record<string, number>): { options: Product["options"]; variants: ProductVariantInput[] } {
  return {
    options: product.options,
    variants: product.variants.map((variant) => ({
      optionValues: variant.optionValues,
      sku: variant.sku,
      price: variant.price,
      stock: stock[variant.label] ?? variant.stock,
      imageUrl: variant.imageUrl,
      isActive: variant.isActive,
      expectedStock: variant.stock,
    })),
  };
}

test.describe("variants", () => {
  test("creates a product with sizes and colours in one visit, keeps it, and refuses a stale stock until reloaded", async ({ adminPage: page, api }) => {
    await page.goto("/products");
    await page.getByRole("button", { name: "Add Product" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Product Name").fill("Acceptance Tee");
    await dialog.getByLabel("Price (£)").fill("12.00");
    await dialog.getByTestId("product-image-input").setInputFiles(PNG);
    await expectToast(page, "Image uploaded successfully!");

    // Options: values typed as a comma list and added by Enter, or one by one with the Add button.
    const section = dialog.getByRole("region", { name: "Options & variants" });
    await expect(section.getByText("No options: the product is sold in one kind.")).toBeVisible();
    await section.getByRole("button", { name: "Add Option" }).click();
    await section.getByLabel("Option 1 name").fill("Size");
    await section.getByRole("textbox", { name: "New values for Size" }).fill("S, M, L");
    await section.getByRole("textbox", { name: "New values for Size" }).press("Enter");
    await expect(section.getByRole("list", { name: "Values of Size" }).getByRole("listitem")).toHaveText(["S", "M", "L"]);
    await section.getByRole("button", { name: "Add Option" }).click();
    await section.getByLabel("Option 2 name").fill("Colour");
    for (const colour of ["Black", "White", "black"]) {
      await section.getByRole("textbox", { name: "New values for Colour" }).fill(colour);
      await section.getByRole("button", { name: "Add to Colour" }).click();
    }
    // The same value in another case is refused where it was typed.
    await expect(section.getByRole("alert")).toHaveText("black is already a value of this option.");
    await section.getByRole("textbox", { name: "New values for Colour" }).fill("");
    const rows = section.getByTestId("variant-row");
    await expect(rows.getByRole("rowheader")).toHaveText(["S / Black", "S / White", "M / Black", "M / White", "L / Black", "L / White"]);

    // The product's own stock is the variants' sum, read-only.
    const stock = dialog.getByLabel("Stock", { exact: true });
    await expect(stock).toHaveValue("0");
    await expect(stock).toHaveAttribute("readonly", "");
    await expect(dialog.getByText("Sum of the variants")).toBeVisible();
    await section.getByLabel("Set all stock", { exact: true }).fill("5");
    await section.getByRole("button", { name: "Apply: set all stock" }).click();
    await expect(stock).toHaveValue("30");
    await expect(section.getByLabel("Price of M / Black")).toHaveAttribute("placeholder", "12.00");
    await section.getByLabel("Price of M / Black").fill("14.50");
    await section.getByLabel("SKU of M / Black").fill("TEE-M-BLK");
    await section.getByLabel("Image of M / Black").selectOption({ label: "Image 1" });
    await section.getByRole("switch", { name: "Active: L / White" }).click();
    await expect(stock).toHaveValue("25");
    await dialog.getByRole("button", { name: "Create Product" }).click();
    await expectToast(page, "Product created successfully!");
    await expect(dialog).toBeHidden();

    const row = page.getByTestId("product-row").filter({ hasText: "Acceptance Tee" });
    await expect(row.getByTestId("product-stock")).toHaveText("6 variants · 25 in stock");
    const [created] = await api.get<Product[]>("/api/products");
    expect(created!.options).toEqual([
      { name: "Size", values: ["S", "M", "L"] },
      { name: "Colour", values: ["Black", "White"] },
    ]);
    expect(created!.stock).toBe(25);
    expect(created!.variants.map((variant) => variant.label)).toEqual(["S / Black", "S / White", "M / Black", "M / White", "L / Black", "L / White"]);
    expect(variantOf(created!, "M / Black")).toMatchObject({ sku: "TEE-M-BLK", price: "14.50", stock: 5, imageUrl: created!.imageUrls[0], isActive: true });
    expect(variantOf(created!, "L / White")).toMatchObject({ sku: null, price: null, stock: 5, imageUrl: null, isActive: false });

    // After a reload the dialog shows it as saved.
    await page.reload();
    await row.getByRole("button", { name: "Edit Acceptance Tee" }).click();
    await expect(rows).toHaveCount(6);
    await expect(section.getByLabel("Price of M / Black")).toHaveValue("14.50");
    await expect(section.getByLabel("SKU of M / Black")).toHaveValue("TEE-M-BLK");
    await expect(section.getByLabel("Image of M / Black")).toHaveValue(created!.imageUrls[0]!);
    await expect(section.getByRole("switch", { name: "Active: L / White" })).not.toBeChecked();
    await expect(section.getByLabel("Stock of S / Black")).toHaveValue("5");
    await expect(stock).toHaveValue("25");
    await settle(page);
    await expectNoSeriousViolations(page, "the Edit Product dialog with its variants", '[role="dialog"]');
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "variants-dialog", { fullPage: false });

    // Another editor sells down S / Black meanwhile; this dialog still shows 5 and changes it to 9: refused, nothing changes.
    await api.put(`/api/products/${created!.id}/variants`, withStock(created!, { "S / Black": 2 }));
    await section.getByLabel("Stock of S / Black").fill("9");
    await section.getByLabel("SKU of S / Black").fill("TEE-S-BLK");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    const sentence = "The stock of S / Black changed meanwhile: it is now 2. Reload the variants before changing them.";
    await expectToast(page, "Failed to update product", sentence);
    const stale = section.getByTestId("stale-variant-stock");
    await expect(stale).toContainText(sentence);
    await expect(dialog).toBeVisible();
    let now = await stored(api, created!.id);
    expect(variantOf(now, "S / Black")).toMatchObject({ stock: 2, sku: null });
    expect(now.stock).toBe(22);
    await settle(page);
    await stale.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "variants-stale-stock", { fullPage: false });

    // Reload takes the stock the server has (other edits stay); a stock changed meanwhile in a row left
    // untouched keeps the database's count when the dialog saves.
    await stale.getByRole("button", { name: "Reload variants" }).click();
    await expect(stale).toHaveCount(0);
    await expect(section.getByLabel("Stock of S / Black")).toHaveValue("2");
    await expect(section.getByLabel("SKU of S / Black")).toHaveValue("TEE-S-BLK");
    await api.put(`/api/products/${created!.id}/variants`, withStock(now, { "M / White": 3 }));
    await section.getByLabel("Stock of S / Black").fill("9");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Product updated successfully!");
    await expect(dialog).toBeHidden();
    now = await stored(api, created!.id);
    expect(variantOf(now, "S / Black")).toMatchObject({ stock: 9, sku: "TEE-S-BLK" });
    expect(variantOf(now, "M / White")).toMatchObject({ stock: 3 });
    await expect(row.getByTestId("product-stock")).toHaveText(`6 variants · ${now.stock} in stock`);

    // On a phone the card says the same, and the dialog's table scrolls sideways inside the dialog.
    await page.setViewportSize(PHONE);
    await expect(page.getByTestId("product-card").getByTestId("product-card-stock")).toHaveText(`6 variants · ${now.stock} in stock`);
    await page.getByTestId("product-card").getByRole("button", { name: "Edit Acceptance Tee" }).click();
    await section.getByLabel("Stock of S / Black").scrollIntoViewIfNeeded();
    await settle(page);
    await saveScreenshot(page, "variants-dialog-phone", { fullPage: false });
  });

  test("refuses before sending: a slash in a value, a duplicate SKU; hostile values show as text", async ({ adminPage: page, api }) => {
    const product = await api.post<Product>("/api/products", { name: "Mug", description: "", price: "8.00", stock: 4 });
    await page.goto("/products");
    await page.getByRole("button", { name: "Edit Mug" }).click();
    const dialog = page.getByRole("dialog");
    const section = dialog.getByRole("region", { name: "Options & variants" });
    await section.getByRole("button", { name: "Add Option" }).click();
    await section.getByLabel("Option 1 name").fill("Glaze");
    const values = section.getByRole("textbox", { name: "New values for Glaze" });
    await values.fill("Red/Blue");
    await values.press("Enter");
    await expect(section.getByRole("alert")).toHaveText("A value cannot hold a slash.");
    const hostile = `<img src=x onerror="window.__pwned=1">`;
    await values.fill(`${hostile}, Plain`);
    await values.press("Enter");
    await expect(section.getByRole("rowheader")).toHaveText([hostile, "Plain"]);
    await section.getByLabel(`SKU of ${hostile}`).fill("MUG-1");
    await section.getByLabel("SKU of Plain").fill("mug-1");
    const puts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") puts.push(request.url());
    });
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expect(section.getByTestId("variants-problem")).toHaveText("SKU mug-1 is given to two variants");
    await expectToast(page, "Failed to update product", "SKU mug-1 is given to two variants");
    expect(puts).toEqual([]);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    // Fixed, it saves; the product's own stock becomes the variants' sum.
    await section.getByLabel("SKU of Plain").fill("MUG-2");
    await dialog.getByRole("button", { name: "Update Product" }).click();
    await expectToast(page, "Product updated successfully!");
    const saved = await stored(api, product.id);
    expect(saved.variants.map((variant) => [variant.label, variant.sku, variant.stock])).toEqual([
      [hostile, "MUG-1", 0],
      ["Plain", "MUG-2", 0],
    ]);
    await expect(page.getByTestId("product-row").getByTestId("product-stock")).toHaveText("2 variants · 0 in stock");
  });

  test("an order line names its variant and SKU in the list, the details and the packing slip", async ({ adminPage: page, api, seed }) => {
    const product = await api.post<Product>("/api/products", { name: "Acceptance Tee", description: "", price: "12.00" });
    const withOptions = await api.put<Product>(`/api/products/${product.id}/variants`, {
      options: [{ name: "Size", values: ["M"] }, { name: "Colour", values: ["Black"] }],
      variants: [{ optionValues: { Size: "M", Colour: "Black" }, sku: "TEE-M-BLK", stock: 4 }],
    });
    const variant = withOptions.variants[0]!;
    const order = await seed.order({
      status: "processing",
      paymentStatus: "confirmed",
      shippingAddress: { name: "Jane Smith", streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: null },
      items: [
        { productId: product.id, productName: "Acceptance Tee", price: "12.00", quantity: 2, variantId: variant.id, variantLabel: "M / Black", sku: "TEE-M-BLK" },
        { productId: "00000000-0000-4000-8000-000000000001", productName: "USB Cable", price: "5.00" },
      ],
    });

    await page.goto("/orders");
    await expect(page.getByTestId("order-items-summary").first()).toHaveText(/^2 × Acceptance Tee \(M \/ Black\)\s*and 1 more$/);
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    const items = page.getByRole("dialog").getByTestId("order-item");
    await expect(items.filter({ hasText: "Acceptance Tee" })).toContainText("Acceptance Tee (M / Black)");
    await expect(items.filter({ hasText: "Acceptance Tee" }).getByTestId("order-item-sku")).toHaveText("SKU TEE-M-BLK");
    await expect(items.filter({ hasText: "USB Cable" }).getByTestId("order-item-sku")).toHaveCount(0);

    await page.goto("/orders/packing-slips");
    await expect(page.getByTestId("packing-slip-item")).toHaveText([/^Acceptance Tee \(M \/ Black\)SKU TEE-M-BLK\s*2/, /^USB Cable\s*1/]);
  });
});
