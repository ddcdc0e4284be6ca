import type { PostageOption } from "../contract";
import { answerNextConfirm, holdRequests, settle } from "./fixtures/ui";
import { expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

const DELETE_CONFIRM = "Are you sure you want to delete this postage option?";

test.describe("postage", () => {
  test("shows the loading text, then the empty state", async ({ adminPage: page }) => {
    const hold = await holdRequests(page, "**/api/postage-options");
    await page.goto("/postage");
    await expect(page.getByText("Loading postage options...")).toBeVisible();
    await hold.release();
    await expect(page.getByText("No postage options")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Postage Options" })).toBeVisible();
    await expect(page.getByText("Manage shipping methods and pricing for your store")).toBeVisible();
    // docs/product.md §2: the top bar has no title for /postage, so it falls back to Dashboard.
    await expect(page.getByTestId("page-title")).toHaveText("Dashboard");
  });

  test("adds, edits, toggles and deletes an option", async ({ adminPage: page, api }) => {
    await page.goto("/postage");
    await page.getByRole("button", { name: "Add Postage Option" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Add Postage Option" })).toBeVisible();

    // The price input lets only a valid price in.
    const price = dialog.getByLabel("Price (£)");
    await price.pressSequentially("4.999");
    await expect(price).toHaveValue("4.99");
    await price.fill("");
    await price.pressSequentially("abc");
    await expect(price).toHaveValue("");

    await dialog.getByLabel("Service Name").fill("Royal Mail 1st Class");
    await dialog.getByRole("button", { name: "Add Option" }).click();
    await expect(dialog.getByText("Price is required")).toBeVisible();
    await price.pressSequentially("4.");
    await dialog.getByRole("button", { name: "Add Option" }).click();
    await expect(dialog.getByText("Please enter a valid price (e.g., 4.99)")).toBeVisible();
    await price.pressSequentially("5");
    // Estimated days: at least 1, or empty.
    await dialog.getByLabel("Estimated Days").fill("0");
    await dialog.getByRole("button", { name: "Add Option" }).click();
    await expect(dialog.getByText("Estimated days must be a whole number of at least 1")).toBeVisible();
    await dialog.getByLabel("Estimated Days").fill("2");
    const hold = await holdRequests(page, "**/api/postage-options", "POST");
    await dialog.getByRole("button", { name: "Add Option" }).click();
    await expect(dialog.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await hold.release();
    await expectToast(page, "Postage option added successfully!");
    await expect(dialog).toBeHidden();

    const row = page.getByTestId("postage-row").filter({ hasText: "Royal Mail 1st Class" });
    await expect(row.getByRole("cell")).toHaveText(["Royal Mail 1st Class", "-", "£4.50", "2 days", "Active", ""]);
    let [option] = await api.get<PostageOption[]>("/api/postage-options");
    expect(option).toMatchObject({ name: "Royal Mail 1st Class", description: null, price: "4.50", estimatedDays: 2, isActive: true });

    // Edit: a description, no estimate.
    await row.getByRole("button", { name: "Edit Royal Mail 1st Class" }).click();
    await expect(dialog.getByRole("heading", { name: "Edit Postage Option" })).toBeVisible();
    await expect(price).toHaveValue("4.50");
    await dialog.getByLabel("Description").fill("Tracked, signed for");
    await price.fill("3.95");
    await dialog.getByLabel("Estimated Days").fill("");
    await dialog.getByRole("button", { name: "Update Option" }).click();
    await expectToast(page, "Postage option updated successfully!");
    await expect(row.getByRole("cell")).toHaveText(["Royal Mail 1st Class", "Tracked, signed for", "£3.95", "-", "Active", ""]);
    [option] = await api.get<PostageOption[]>("/api/postage-options");
    expect(option).toMatchObject({ description: "Tracked, signed for", price: "3.95", estimatedDays: null });

    // One day is "1 day", not "1 days" (issue 13).
    await row.getByRole("button", { name: "Edit Royal Mail 1st Class" }).click();
    await dialog.getByLabel("Estimated Days").fill("1");
    await dialog.getByRole("button", { name: "Update Option" }).click();
    await expectToast(page, "Postage option updated successfully!");
    await expect(row.getByRole("cell")).toHaveText(["Royal Mail 1st Class", "Tracked, signed for", "£3.95", "1 day", "Active", ""]);

    // The status badge toggles Active / Inactive.
    await row.getByRole("button", { name: "Active", exact: true }).click();
    await expectToast(page, "Postage option updated successfully!");
    await expect(row.getByRole("button", { name: "Inactive", exact: true })).toBeVisible();
    expect((await api.get<PostageOption[]>("/api/postage-options"))[0]!.isActive).toBe(false);
    await row.getByRole("button", { name: "Inactive", exact: true }).click();
    await expect(row.getByRole("button", { name: "Active", exact: true })).toBeVisible();
    await expect.poll(async () => (await api.get<PostageOption[]>("/api/postage-options"))[0]!.isActive).toBe(true);

    // Delete asks first.
    let confirmed = answerNextConfirm(page, DELETE_CONFIRM, false);
    await row.getByRole("button", { name: "Delete Royal Mail 1st Class" }).click();
    await confirmed;
    await expect(row).toBeVisible();
    confirmed = answerNextConfirm(page, DELETE_CONFIRM, true);
    await row.getByRole("button", { name: "Delete Royal Mail 1st Class" }).click();
    await confirmed;
    await expectToast(page, "Postage option deleted successfully!");
    await expect(page.getByText("No postage options")).toBeVisible();
    expect(await api.get<PostageOption[]>("/api/postage-options")).toEqual([]);
  });

  test("server refusals show the add, update and delete failure toasts", async ({ adminPage: page, api }) => {
    await page.goto("/postage");
    const dialog = page.getByRole("dialog");

    // Whatever slips past the form, the server checks again: its reason ends the toast's title.
    await page.route("**/api/postage-options", (route) =>
      route.request().method() === "POST"
        ? route.fallback({ postData: JSON.stringify({ ...route.request().postDataJSON(), price: "-1" }) })
        : route.fallback(),
    );
    await page.getByRole("button", { name: "Add Postage Option" }).click();
    await dialog.getByLabel("Service Name").fill("Courier");
    await dialog.getByLabel("Price (£)").fill("9.99");
    await dialog.getByRole("button", { name: "Add Option" }).click();
    const toast = await expectToast(page, "Failed to add postage option: Please enter a valid price (e.g., 4.99)");
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    expect(await api.get<PostageOption[]>("/api/postage-options")).toEqual([]);
    await page.unrouteAll();
    const discarded = answerNextConfirm(page, "Discard your unsaved changes?", true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await discarded;

    // The option disappears behind the screen's back: edit, toggle and delete are refused.
    const option = await api.post<PostageOption>("/api/postage-options", { name: "Courier", price: "9.99" });
    await page.reload();
    const row = page.getByTestId("postage-row").filter({ hasText: "Courier" });
    await expect(row).toBeVisible();
    await api.delete(`/api/postage-options/${option.id}`);
    await row.getByRole("button", { name: "Edit Courier" }).click();
    await dialog.getByRole("button", { name: "Update Option" }).click();
    await expectToast(page, "Failed to update postage option", "Postage option not found.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await row.getByRole("button", { name: "Active", exact: true }).click();
    await expectToast(page, "Failed to update postage option", "Postage option not found.");
    const confirmed = answerNextConfirm(page, DELETE_CONFIRM, true);
    await row.getByRole("button", { name: "Delete Courier" }).click();
    await confirmed;
    await expectToast(page, "Failed to delete postage option", "Postage option not found.");
  });

  test("phone size: cards; screenshots", async ({ adminPage: page, api }) => {
    await api.post("/api/postage-options", { name: "Royal Mail 1st Class", description: "Tracked", price: "3.95", estimatedDays: 2 });
    await api.post("/api/postage-options", { name: "Royal Mail 2nd Class", price: "2.85", estimatedDays: 4 });
    await api.post("/api/postage-options", { name: "Collection", description: "Pick up in store", price: "0", isActive: false });
    await page.goto("/postage");
    await expect(page.getByTestId("postage-row")).toHaveCount(3);
    await saveScreenshot(page, "postage-desktop");

    await page.setViewportSize(PHONE);
    const cards = page.getByTestId("postage-card");
    await expect(cards).toHaveCount(3);
    const collection = cards.filter({ hasText: "Collection" });
    await expect(collection).toContainText("£0.00");
    await expect(collection).toContainText("Est. -");
    await collection.getByRole("button", { name: "Inactive", exact: true }).click();
    await expect(collection.getByRole("button", { name: "Active", exact: true })).toBeVisible();
    await saveScreenshot(page, "postage-phone");
    await page.getByRole("button", { name: "Add Postage Option" }).click();
    await settle(page);
    await saveScreenshot(page, "postage-dialog-phone");
  });
});
