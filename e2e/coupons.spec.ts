import type { Page } from "@playwright/test";
import type { Category, Coupon, Product } from "../contract";
import { answerNextConfirm, choose, holdRequests, settle } from "./fixtures/ui";
import { type Api, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// The Coupons screen (issue 23): the owner adds a code with its conditions, sees it listed with its
// uses and state, edits it, switches it off and on, is refused a code that exists in another case,
// and deletes it; on a phone the list is cards.

const DESKTOP_1366 = { width: 1366, height: 900 };

/** A datetime-local value as the browser reads it (its own time zone): the instant the API stores. */
const instantOf = (page: Page, local: string) => page.evaluate((value) => new Date(value).toISOString(), local);

async function seedCatalogue(api: Api) {
  const electronics = await api.post<Category>("/api/categories", { name: "Electronics" });
  const phone = await api.post<Product>("/api/products", { name: "Smartphone X", description: "A phone", price: "299.99", stock: 5, categoryId: electronics.id });
  const cable = await api.post<Product>("/api/products", { name: "USB Cable", description: "A cable", price: "4.99", stock: 50, categoryId: null });
  return { electronics, phone, cable };
}

test.describe("coupons", () => {
  test("adds a percentage coupon with limits, edits it, switches it off and on, refuses a duplicate code in another case, deletes it", async ({
    adminPage: page,
    api,
  }) => {
    test.slow();
    const { electronics, phone, cable } = await seedCatalogue(api);
    await page.setViewportSize(DESKTOP_1366);
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Coupons" }).click();
    await expect(nav.getByRole("link", { name: "Coupons" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("page-title")).toHaveText("Coupons");
    await expect(page).toHaveTitle("Coupons · Shop Admin");
    await expect(page.getByText("No coupons yet")).toBeVisible();

    // --- Add: the code is upper-cased as typed; the contract's own checks speak under the fields.
    await page.getByRole("button", { name: "Add Coupon" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Coupon" });
    const code = dialog.getByLabel("Code", { exact: true });
    await code.pressSequentially("summer15");
    await expect(code).toHaveValue("SUMMER15");
    // Typed in the middle, the caret stays where it was.
    await code.press("Home");
    await code.press("ArrowRight");
    await code.pressSequentially("x");
    await expect(code).toHaveValue("SXUMMER15");
    await code.fill("<script>");
    const value = dialog.getByLabel("Percentage off");
    await value.pressSequentially("15.555");
    await expect(value).toHaveValue("15.55");
    await dialog.getByRole("button", { name: "Add Coupon" }).click();
    await expect(dialog.getByText("Code must be 3 to 32 letters, digits, - or _")).toBeVisible();
    await expect(code).toHaveAttribute("aria-invalid", "true");
    await code.fill("");
    await code.pressSequentially("summer15");
    await value.fill("150");
    await dialog.getByRole("button", { name: "Add Coupon" }).click();
    await expect(dialog.getByText("A percentage can be at most 100")).toBeVisible();
    await expect(value).toHaveAttribute("aria-invalid", "true");
    await value.fill("15");
    await dialog.getByLabel("Minimum subtotal (optional)").fill("20");
    await dialog.getByLabel("Maximum discount (optional)").fill("10");
    // An end before the start is refused before anything is sent.
    await dialog.getByLabel("Starts (optional)").fill("2099-06-01T10:00");
    await dialog.getByLabel("Ends (optional)").fill("2099-05-01T10:00");
    await dialog.getByRole("button", { name: "Add Coupon" }).click();
    await expect(dialog.getByText("End must be after the start")).toBeVisible();
    await dialog.getByLabel("Starts (optional)").fill("");
    await dialog.getByLabel("Ends (optional)").fill("2099-12-31T23:30");
    await dialog.getByLabel("Usage limit (optional)").fill("10");
    await dialog.getByLabel("Uses per customer (optional)").fill("1");
    await dialog.getByRole("switch", { name: "First order only" }).click();
    await dialog.getByRole("checkbox", { name: "Smartphone X" }).check();
    await dialog.getByRole("checkbox", { name: "USB Cable" }).check();
    await dialog.getByRole("checkbox", { name: "Electronics" }).check();
    await expect(dialog.getByTestId("product-count")).toHaveText("2 products selected");

    // A product deleted behind the dialog's back: the server's refusal shows under the products.
    await api.delete(`/api/products/${cable.id}`);
    await dialog.getByRole("button", { name: "Add Coupon" }).click();
    await expect(dialog.getByText("Some of the chosen products no longer exist. Please choose again.")).toBeVisible();
    await expectToast(page, "Failed to add coupon");
    expect(await api.get<Coupon[]>("/api/coupons")).toEqual([]);
    // The dialog's catalogue is as it was opened; the id it no longer finds is removed by hand.
    await dialog.getByRole("checkbox", { name: "USB Cable" }).uncheck();
    await expect(dialog.getByTestId("product-count")).toHaveText("1 product selected");

    const hold = await holdRequests(page, "**/api/coupons", "POST");
    await dialog.getByRole("button", { name: "Add Coupon" }).click();
    await expect(dialog.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await hold.release();
    await expectToast(page, "Coupon added", "SUMMER15");
    await expect(dialog).toBeHidden();

    const row = page.getByTestId("coupon-row").filter({ hasText: "SUMMER15" });
    await expect(row.getByRole("cell")).toHaveText([
      "SUMMER15",
      "15% off",
      "min £20.00 · max £10.00 · first order · 1 per customer · 1 product · 1 category",
      "0 of 10 used",
      "Until 31/12/2099, 23:30",
      "Active",
      "",
      "",
    ]);
    let [stored] = await api.get<Coupon[]>("/api/coupons");
    expect(stored).toMatchObject({
      code: "SUMMER15",
      kind: "percent",
      value: "15.00",
      minSubtotal: "20.00",
      maxDiscount: "10.00",
      startsAt: null,
      endsAt: await instantOf(page, "2099-12-31T23:30"),
      usageLimit: 10,
      perCustomerLimit: 1,
      firstOrderOnly: true,
      productIds: [phone.id],
      categoryIds: [electronics.id],
      isActive: true,
      timesUsed: 0,
      timesHeld: 0,
      state: "active",
    });

    // --- Edit: a fixed amount has no maximum; a start ahead makes it Scheduled. The session ends
    // under the open dialog: signing in again saves what was typed, once.
    await row.getByRole("button", { name: "Edit SUMMER15" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Coupon SUMMER15" });
    await expect(edit.getByLabel("Percentage off")).toHaveValue("15");
    await expect(edit.getByLabel("Ends (optional)")).toHaveValue("2099-12-31T23:30");
    await expect(edit.getByRole("checkbox", { name: "Smartphone X" })).toBeChecked();
    await choose(page, edit.getByLabel("Discount type"), "Fixed amount");
    await expect(edit.getByLabel("Maximum discount (optional)")).toHaveCount(0);
    await edit.getByLabel("Amount off").fill("5");
    await edit.getByLabel("Starts (optional)").fill("2099-01-01T00:00");
    await page.context().clearCookies();
    const patches: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PATCH" && request.url().endsWith(`/api/coupons/${stored!.id}`)) patches.push(request.postData() ?? "");
    });
    await edit.getByRole("button", { name: "Save Changes" }).click();
    const signIn = page.getByRole("alertdialog", { name: "Sign in to save" });
    await signIn.getByLabel("Password").fill("e2e admin password");
    await signIn.getByRole("button", { name: "Sign in and save" }).click();
    await expectToast(page, "Coupon updated", "SUMMER15");
    await expect(edit).toBeHidden();
    expect(patches).toHaveLength(2);
    await expect(row.getByRole("cell")).toHaveText([
      "SUMMER15",
      "£5.00 off",
      "min £20.00 · first order · 1 per customer · 1 product · 1 category",
      "0 of 10 used",
      "01/01/2099, 00:00 – 31/12/2099, 23:30",
      "Scheduled",
      "",
      "",
    ]);
    [stored] = await api.get<Coupon[]>("/api/coupons");
    expect(stored).toMatchObject({ kind: "fixed", value: "5.00", maxDiscount: null, startsAt: await instantOf(page, "2099-01-01T00:00"), state: "scheduled" });

    // --- The switch: off and on, at once on screen; the state follows the server's answer.
    const onOff = row.getByRole("switch", { name: "SUMMER15 active" });
    await expect(onOff).toBeChecked();
    await onOff.click();
    await expect(onOff).not.toBeChecked();
    await expectToast(page, "SUMMER15 switched off");
    await expect(row.getByTestId("coupon-state")).toHaveText("Off");
    expect((await api.get<Coupon[]>("/api/coupons"))[0]).toMatchObject({ isActive: false, state: "off" });
    await onOff.click();
    await expectToast(page, "SUMMER15 switched on");
    await expect(row.getByTestId("coupon-state")).toHaveText("Scheduled");
    expect((await api.get<Coupon[]>("/api/coupons"))[0]).toMatchObject({ isActive: true, state: "scheduled" });

    // A refused switch moves at once, then back, and says why.
    let refuse!: () => void;
    const refused = new Promise<void>((resolve) => (refuse = resolve));
    await page.route(`**/api/coupons/${stored!.id}`, async (route) => {
      if (route.request().method() !== "PATCH") return route.fallback();
      await refused;
      await route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: "The coupon changed meanwhile." }) });
    });
    await onOff.click();
    await expect(onOff).not.toBeChecked();
    refuse();
    await expectToast(page, "Failed to update coupon", "The coupon changed meanwhile.");
    await expect(onOff).toBeChecked();
    await page.unrouteAll();
    // Flipped twice quickly: the server ends where the screen does.
    await onOff.click();
    await onOff.click();
    await expect(onOff).toBeChecked();
    await expect.poll(async () => (await api.get<Coupon[]>("/api/coupons"))[0]!.isActive).toBe(true);
    await expect(row.getByTestId("coupon-state")).toHaveText("Scheduled");

    // --- The same code in another case is the same code: refused, on the Code field.
    await page.getByRole("button", { name: "Add Coupon" }).click();
    await code.pressSequentially("Summer15");
    await dialog.getByLabel("Percentage off").fill("10");
    await dialog.getByRole("button", { name: "Add Coupon" }).click();
    const duplicate = "A coupon with the code SUMMER15 already exists (codes are the same whatever their case).";
    await expect(code).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`#${(await code.getAttribute("aria-describedby"))!.split(" ").at(-1)!}`)).toHaveText(duplicate);
    await expect(code).toBeFocused();
    // Not a quirk of the screen: the API refuses it in lower case too.
    const direct = await api.context.post("/api/coupons", { data: { code: "summer15", kind: "fixed", value: "1" } });
    expect(direct.status()).toBe(409);
    // What was typed is not lost by a stray Back: asked first; staying keeps the dialog as it was.
    const asked = answerNextConfirm(page, "You have unsaved changes. Leave this page without saving them?", false);
    await page.goBack();
    await asked;
    await expect(page).toHaveURL(/\/coupons$/);
    await expect(code).toHaveValue("SUMMER15");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(await api.get<Coupon[]>("/api/coupons")).toHaveLength(1);

    // --- Delete asks first; Cancel keeps it.
    const remove = row.getByRole("button", { name: "Delete SUMMER15" });
    await remove.click();
    const confirmation = page.getByRole("alertdialog", { name: "Delete coupon SUMMER15?" });
    await confirmation.getByRole("button", { name: "Cancel" }).click();
    await expect(confirmation).toBeHidden();
    await expect(remove).toBeFocused();
    await remove.click();
    await confirmation.getByRole("button", { name: "Delete coupon" }).click();
    await expectToast(page, "Coupon deleted", "SUMMER15");
    await expect(page.getByText("No coupons yet")).toBeVisible();
    expect(await api.get<Coupon[]>("/api/coupons")).toEqual([]);
  });

  test("loading rows, then the states on desktop and as cards on a phone; screenshots light and dark", async ({ adminPage: page, api }) => {
    test.slow();
    const { electronics } = await seedCatalogue(api);
    await api.post("/api/coupons", { code: "WELCOME10", kind: "percent", value: "10", maxDiscount: "25", firstOrderOnly: true, usageLimit: 100, perCustomerLimit: 1 });
    await api.post("/api/coupons", { code: "XMAS5", kind: "fixed", value: "5", minSubtotal: "30", startsAt: "2099-12-01T00:00:00Z", endsAt: "2099-12-26T00:00:00Z", categoryIds: [electronics.id] });
    await api.post("/api/coupons", { code: "SPRING2020", kind: "percent", value: "12.5", startsAt: "2020-03-01T00:00:00Z", endsAt: "2020-06-01T00:00:00Z" });
    await api.post("/api/coupons", { code: "PAUSED", kind: "fixed", value: "2.50", isActive: false });
    await api.post("/api/coupons", { code: "LAST2", kind: "fixed", value: "1", usageLimit: 2 });
    // Uses as paid orders and unpaid ones holding a use would have left them.
    expect(await api.post("/api/test/coupon-uses", { code: "WELCOME10", timesUsed: 3, timesHeld: 1 })).toEqual({ updated: 1 });
    expect(await api.post("/api/test/coupon-uses", { code: "LAST2", timesUsed: 2, timesHeld: 0 })).toEqual({ updated: 1 });

    const hold = await holdRequests(page, "**/api/coupons", "GET");
    await page.setViewportSize(DESKTOP_1366);
    await page.goto("/coupons");
    await expect(page.getByText("Loading coupons...")).toBeVisible();
    await expect(page.getByTestId("skeleton-row").first()).toBeVisible();
    await hold.release();
    const rows = page.getByTestId("coupon-row");
    await expect(rows).toHaveCount(5);
    const stateOf = (text: string) => rows.filter({ hasText: text }).getByTestId("coupon-state");
    await expect(stateOf("WELCOME10")).toHaveText("Active");
    await expect(stateOf("XMAS5")).toHaveText("Scheduled");
    await expect(stateOf("SPRING2020")).toHaveText("Expired");
    await expect(stateOf("PAUSED")).toHaveText("Off");
    await expect(stateOf("LAST2")).toHaveText("Used up");
    await expect(rows.filter({ hasText: "LAST2" })).toContainText("2 of 2 used");
    await expect(rows.filter({ hasText: "SPRING2020" })).toContainText("12.5% off");
    await expect(rows.filter({ hasText: "PAUSED" })).toContainText("None");
    await expect(rows.filter({ hasText: "WELCOME10" }).getByRole("cell").nth(3)).toHaveText("3 of 100 used +1 held");
    await expect(rows.filter({ hasText: "WELCOME10" })).toContainText("Any time");
    await saveScreenshot(page, "coupons-desktop-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "coupons-desktop-dark");
    // A refusal only the server can make (it knows the uses) shows under its field.
    await page.getByRole("button", { name: "Edit WELCOME10" }).click();
    const welcome = page.getByRole("dialog", { name: "Edit Coupon WELCOME10" });
    const limit = welcome.getByLabel("Usage limit (optional)");
    await expect(limit).toHaveValue("100");
    await limit.fill("2");
    await welcome.getByRole("button", { name: "Save Changes" }).click();
    await expect(limit).toHaveAttribute("aria-invalid", "true");
    await expect(welcome.getByText("Usage limit cannot be below 4: the coupon has been used or is held by 4 orders.")).toBeVisible();
    await expectToast(page, "Failed to update coupon");
    await welcome.getByRole("button", { name: "Cancel" }).click();
    await expect(welcome).toBeHidden();
    expect((await api.get<Coupon[]>("/api/coupons")).find((coupon) => coupon.code === "WELCOME10")).toMatchObject({ usageLimit: 100 });

    await page.getByRole("button", { name: "Edit XMAS5" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Coupon XMAS5" });
    await expect(dialog.getByRole("checkbox", { name: "Electronics" })).toBeChecked();
    await settle(page);
    await saveScreenshot(page, "coupons-dialog-desktop-dark", { fullPage: false });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await page.setViewportSize(PHONE);
    const cards = page.getByTestId("coupon-card");
    await expect(cards).toHaveCount(5);
    await expect(cards.filter({ hasText: "WELCOME10" })).toContainText("3 of 100 used +1 held");
    await expect(rows).toHaveCount(0);
    const paused = cards.filter({ hasText: "PAUSED" });
    await expect(paused).toContainText("£2.50 off");
    await paused.getByRole("switch", { name: "PAUSED active" }).click();
    await expect(paused.getByTestId("coupon-state")).toHaveText("Active");
    await saveScreenshot(page, "coupons-phone-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await saveScreenshot(page, "coupons-phone-light");
    await page.getByRole("button", { name: "Add Coupon" }).click();
    await settle(page);
    await saveScreenshot(page, "coupons-dialog-phone-light", { fullPage: false });
  });
});
