import type { Locator } from "@playwright/test";
import type { Category } from "../contract";
import { answerNextConfirm, choose, holdRequests, settle } from "./fixtures/ui";
import { expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

const DELETE_CONFIRM = "Are you sure you want to delete this category?";

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

test.describe("categories", () => {
  test("shows the loading text, then the empty state", async ({ adminPage: page }) => {
    const hold = await holdRequests(page, "**/api/categories");
    await page.goto("/categories");
    await expect(page.getByText("Loading categories...")).toBeVisible();
    await hold.release();
    await expect(page.getByText("No categories yet")).toBeVisible();
    await expect(page.getByText("Create your first category to organize your products")).toBeVisible();
  });

  test("creates main categories and subcategories, edits and deletes them", async ({ adminPage: page, api }) => {
    await page.goto("/categories");
    await expect(page.getByText("No categories yet")).toBeVisible();

    // Create the first main category.
    await page.getByRole("button", { name: "Add Category" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Add New Category" })).toBeVisible();
    await expect(dialog.getByText("Create a new category to organize your products.")).toBeVisible();
    await expect(dialog.getByText("Available Options (0 main categories)")).toBeVisible();
    await expect(dialog.getByText("No main categories yet. This will be your first main category.")).toBeVisible();
    await expect(dialog.getByPlaceholder("e.g., fas fa-laptop")).toBeVisible();

    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("Category Name is required")).toBeVisible();

    await dialog.getByLabel("Category Name").fill("Electronics");
    await dialog.getByLabel("Description (Optional)").fill("Gadgets and gizmos");
    await dialog.getByLabel("Icon (Optional)").fill("fas fa-laptop");
    const hold = await holdRequests(page, "**/api/categories", "POST");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await hold.release();
    await expectToast(page, "Category created successfully!");
    await expect(dialog).toBeHidden();

    const electronics = page.getByTestId("category-item").filter({ hasText: "Electronics" });
    await expect(electronics).toContainText("0 products • 0 subcategories");
    await expect(electronics.getByTestId("category-custom-icon")).toHaveAttribute("data-icon", "fas fa-laptop");
    await expect(electronics.getByTestId("category-custom-icon").locator("svg")).toBeVisible();
    let stored = await api.get<Category[]>("/api/categories");
    expect(stored).toEqual([
      expect.objectContaining({ name: "Electronics", description: "Gadgets and gizmos", icon: "fas fa-laptop", parentId: null }),
    ]);
    const electronicsId = stored[0]!.id;

    // A second main category, without icon: the default folder icon.
    await page.getByRole("button", { name: "Add Category" }).click();
    await dialog.getByLabel("Category Name").fill("Clothing");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Category created successfully!");
    const clothing = page.getByTestId("category-item").filter({ hasText: "Clothing" });
    await expect(clothing.getByTestId("category-custom-icon")).toHaveCount(0);
    await expect(clothing.getByTestId("category-default-icon")).toBeVisible();

    // A subcategory: the type chooser lists every main category.
    await page.getByRole("button", { name: "Add Category" }).click();
    await expect(dialog.getByText("Available Options (2 main categories)")).toBeVisible();
    await expect(dialog.getByText("Create a subcategory under: Clothing, Electronics")).toBeVisible();
    await dialog.getByLabel("Category Name").fill("Phones");
    await dialog.getByRole("combobox", { name: "Category Type" }).click();
    await expect(page.getByRole("option")).toHaveText(["Main Category", "Subcategory of: Clothing", "Subcategory of: Electronics"]);
    await page.getByRole("option", { name: "Subcategory of: Electronics" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Category created successfully!");
    await expect(electronics).toContainText("0 products • 1 subcategories");
    await expect(electronics.getByTestId("subcategory-item")).toHaveText(/Phones \(0 products\)/);
    stored = await api.get<Category[]>("/api/categories");
    const phones = stored.find((c) => c.name === "Phones")!;
    expect(phones.parentId).toBe(electronicsId);
    expect(phones.description).toBeNull();
    expect(phones.icon).toBeNull();

    // Product counts are the products whose categoryId is the category's id.
    for (const [name, categoryId] of [
      ["Phone A", phones.id],
      ["Phone B", phones.id],
      ["Laptop", electronicsId],
    ] as const) {
      await api.post("/api/products", { name, description: "", price: "10.00", stock: 1, categoryId });
    }
    await page.reload();
    await expect(electronics).toContainText("1 products • 1 subcategories");
    await expect(electronics.getByTestId("subcategory-item")).toHaveText(/Phones \(2 products\)/);

    // Edit the subcategory: rename it and make it a main category.
    await page.getByRole("button", { name: "Edit Phones" }).click();
    await expect(dialog.getByRole("heading", { name: "Edit Category" })).toBeVisible();
    await expect(dialog.getByText("Update the category details below.")).toBeVisible();
    await expect(dialog.getByLabel("Category Name")).toHaveValue("Phones");
    await expect(dialog.getByRole("combobox", { name: "Category Type" })).toHaveText("Subcategory of: Electronics");
    await dialog.getByLabel("Category Name").fill("Mobile Phones");
    await choose(page, dialog.getByRole("combobox", { name: "Category Type" }), "Main Category");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Category updated successfully!");
    const mobile = page.getByTestId("category-item").filter({ hasText: "Mobile Phones" });
    await expect(mobile).toContainText("2 products • 0 subcategories");
    await expect(electronics).toContainText("1 products • 0 subcategories");
    expect((await api.get<Category[]>("/api/categories")).find((c) => c.id === phones.id)).toMatchObject({
      name: "Mobile Phones",
      parentId: null,
    });

    // Delete asks first; dismissing keeps the category.
    let confirmed = answerNextConfirm(page, DELETE_CONFIRM, false);
    await page.getByRole("button", { name: "Delete Clothing" }).click();
    await confirmed;
    await expect(clothing).toBeVisible();
    expect(await api.get<Category[]>("/api/categories")).toHaveLength(3);

    confirmed = answerNextConfirm(page, DELETE_CONFIRM, true);
    await page.getByRole("button", { name: "Delete Clothing" }).click();
    await confirmed;
    await expectToast(page, "Category deleted successfully!");
    await expect(clothing).toHaveCount(0);
    expect((await api.get<Category[]>("/api/categories")).map((c) => c.name).sort()).toEqual(["Electronics", "Mobile Phones"]);
  });

  test("a category with subcategories is not deleted: the server's reason shows", async ({ adminPage: page, api }) => {
    const parent = await api.post<Category>("/api/categories", { name: "Books" });
    await api.post("/api/categories", { name: "Novels", parentId: parent.id });
    await page.goto("/categories");
    const confirmed = answerNextConfirm(page, DELETE_CONFIRM, true);
    await page.getByRole("button", { name: "Delete Books" }).click();
    await confirmed;
    const toast = await expectToast(page, "Failed to delete category", "delete or move its subcategories first");
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    await expect(page.getByTestId("category-item").filter({ hasText: "Books" })).toBeVisible();
    expect(await api.get<Category[]>("/api/categories")).toHaveLength(2);
  });

  test("create and update failures show their toasts", async ({ adminPage: page, api }) => {
    const parent = await api.post<Category>("/api/categories", { name: "Garden" });
    const other = await api.post<Category>("/api/categories", { name: "Kitchen" });
    await page.goto("/categories");

    // The chosen parent disappears before saving: the server refuses.
    await page.getByRole("button", { name: "Add Category" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Category Name").fill("Tools");
    await choose(page, dialog.getByRole("combobox", { name: "Category Type" }), "Subcategory of: Garden");
    await api.delete(`/api/categories/${parent.id}`);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Failed to create category", "The chosen parent category does not exist.");
    await expect(dialog).toBeVisible();
    const discarded = answerNextConfirm(page, "Discard your unsaved changes?", true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await discarded;

    // The category being edited was deleted meanwhile.
    await page.getByRole("button", { name: "Edit Kitchen" }).click();
    await api.delete(`/api/categories/${other.id}`);
    await dialog.getByLabel("Category Name").fill("Kitchenware");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Failed to update category", "Category not found.");
  });

  test("on a phone, long category and subcategory names wrap in full instead of being cut", async ({ adminPage: page, api }) => {
    // Words of every length, and one longer than the card is wide (it must break, not overflow).
    const mainName = "Handmade Ceramics and Stoneware Kitchenware Earthenwaremugsandteapotsfromdevon";
    const childName = "Hand-thrown Teapots, Jugs and Serving Bowls in Celadon Glaze";
    const main = await api.post<Category>("/api/categories", { name: mainName, description: "Pottery" });
    await api.post("/api/categories", { name: childName, parentId: main.id });
    await page.setViewportSize(PHONE);
    await page.goto("/categories");
    const item = page.getByTestId("category-item");
    await expect(item).toHaveCount(1);
    await expectWholeTextShown(item.getByTestId("category-name"), mainName, PHONE.width);
    await expectWholeTextShown(item.getByTestId("subcategory-name"), `${childName} (0 products)`, PHONE.width);
    await expect(item.getByRole("button", { name: `Edit ${mainName}` })).toBeInViewport({ ratio: 1 });
    await expect(item.getByRole("button", { name: `Delete ${childName}` })).toBeInViewport({ ratio: 1 });
    await saveScreenshot(page, "categories-long-names-phone");
  });

  test("screenshots at desktop and phone size", async ({ adminPage: page, api }) => {
    const electronics = await api.post<Category>("/api/categories", {
      name: "Electronics",
      description: "Gadgets and gizmos",
      icon: "fas fa-laptop",
    });
    await api.post("/api/categories", { name: "Phones", parentId: electronics.id });
    await api.post("/api/categories", { name: "Laptops", parentId: electronics.id });
    await api.post("/api/categories", { name: "Clothing", icon: "fas fa-tshirt" });
    await api.post("/api/categories", { name: "Miscellaneous" });
    await page.goto("/categories");
    await expect(page.getByTestId("subcategory-item")).toHaveCount(2);
    await saveScreenshot(page, "categories-desktop");
    await page.setViewportSize(PHONE);
    await expect(page.getByRole("button", { name: "Edit Phones" })).toBeVisible();
    await saveScreenshot(page, "categories-phone");
    await page.getByRole("button", { name: "Add Category" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await settle(page);
    await saveScreenshot(page, "categories-dialog-phone");
  });
});
