import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { Category, PostageOption, Product } from "../contract";
import { expectNoSeriousViolations } from "./support/axe";
import { ADMIN_PASSWORD, type Api, DESKTOP, expect, expectToast, PHONE, saveScreenshot, type Seed, test } from "./support/fixtures";

// Issue 13 item 7, issue 22 item 10: axe-core (WCAG 2.0 and 2.1, A and AA) finds no serious or
// critical violation on any screen or open dialog, at desktop and phone size, in light and dark mode.

const CUSTOMER_ID = "5001";
const PNG = path.join(import.meta.dirname, "fixtures/product.png");

async function seedShop(api: Api, seed: Seed) {
  await api.post("/api/bot-settings", {
    botName: "Shop Bot",
    botToken: "123:abc",
    acceptedCurrencies: ["BTC", "LTC", "XMR"],
    welcomeMessage: "Welcome!",
    faqContent: "FAQ",
    nowpaymentsApiKey: "key",
    nowpaymentsIpnSecret: "secret",
  });
  const category = await api.post<Category>("/api/categories", { name: "Electronics" });
  await api.post("/api/categories", { name: "Phones", parentId: category.id });
  // Two photos (issue 23): the Edit Product dialog is checked with its sortable thumbnails.
  const photos: string[] = [];
  for (let i = 0; i < 2; i++) {
    const { uploadURL } = await api.post<{ uploadURL: string }>("/api/objects/upload");
    await api.context.put(uploadURL, { data: fs.readFileSync(PNG), headers: { "Content-Type": "image/png" } });
    photos.push((await api.put<{ objectPath: string }>("/api/product-images", { imageURL: uploadURL })).objectPath);
  }
  const product = await api.post<Product>("/api/products", {
    name: "Smartphone X",
    description: "A phone",
    price: "299.99",
    stock: 5,
    categoryId: category.id,
    imageUrls: photos,
  });
  await api.post("/api/products", { name: "Sold Out Thing", description: "Gone", price: "9.99", stock: 0, categoryId: null });
  const postage = await api.post<PostageOption>("/api/postage-options", { name: "Royal Mail 1st Class", description: "Tracked", price: "4.99", estimatedDays: 2, isActive: true });
  await api.post("/api/postage-options", { name: "Collection", description: null, price: "0.00", estimatedDays: null, isActive: false });
  const order = await seed.order({
    telegramUserId: CUSTOMER_ID,
    telegramUsername: "alice",
    status: "processing",
    totalAmount: "304.98",
    paymentMethod: "btc",
    paymentStatus: "confirmed",
    postageOptionId: postage.id,
    shippingAddress: { name: "Alice Smith", streetAddress: "1 High Street", postcode: "AB1 2CD", contact: null },
    items: [{ productId: product.id, productName: product.name, price: "299.99" }],
  });
  await seed.order({ telegramUserId: "5002", status: "pending", totalAmount: "9.99", paymentMethod: "ltc" });
  await seed.order({ telegramUserId: "5003", status: "failed", totalAmount: "9.99", paymentMethod: "xmr" });
  await seed.message({ telegramUserId: CUSTOMER_ID, telegramUsername: "alice", message: "Where is my order?", isRead: false });
  await seed.message({ telegramUserId: "5002", message: "Hello", isRead: true });
  // Coupons in each state the list colours differently (issue 23).
  await api.post("/api/coupons", { code: "WELCOME10", kind: "percent", value: "10", maxDiscount: "25", usageLimit: 100, firstOrderOnly: true, productIds: [product.id] });
  await api.post("/api/coupons", { code: "XMAS5", kind: "fixed", value: "5", startsAt: "2099-12-01T00:00:00Z", categoryIds: [category.id] });
  await api.post("/api/coupons", { code: "SPRING2020", kind: "percent", value: "12.5", endsAt: "2020-06-01T00:00:00Z" });
  await api.post("/api/coupons", { code: "PAUSED", kind: "fixed", value: "2.50", isActive: false });
  await api.post("/api/test/coupon-uses", { code: "WELCOME10", timesUsed: 3, timesHeld: 1 });
  // Past broadcasts: a table wider than a phone.
  await api.post("/api/broadcasts", { text: "Spring sale: 10% off every phone this week", audience: { kind: "recent", days: 30 } });
  return { order };
}

/** axe on the page or one part of it (e2e/support/axe.ts); soft: the walk goes on and reports every screen that fails. */
const expectAccessible = (page: Page, where: string, include?: string) => expectNoSeriousViolations(page, where, include, { soft: true });

/**
 * Waits until the screen has loaded its code and data (no loading rows, spinner or loading text)
 * and its animations settled.
 */
async function settle(page: Page) {
  await expect(page.locator("main")).toBeVisible();
  await expect(page.getByTestId("loading-rows")).toHaveCount(0);
  await expect(page.getByText(/^Loading .*\.\.\.$/)).toHaveCount(0);
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** The tab's title of each signed-in screen checked here (web/components/layout/nav.ts). */
const SCREENS: Record<string, string> = {
  "/": "Dashboard",
  "/bot-settings": "Bot Settings",
  "/categories": "Categories",
  "/products": "Products",
  "/postage": "Postage",
  "/coupons": "Coupons",
  "/orders": "Orders",
  "/messages": "Messages",
  "/customers": "Customers",
  [`/customers/${CUSTOMER_ID}`]: "Customer",
  "/broadcasts": "Broadcasts",
  "/activity": "Activity",
  "/bot-preview": "Bot Preview",
  "/staff": "Staff",
};

/**
 * Opens a signed-in screen in the app already loaded, as its sidebar link does (the router follows
 * history.pushState), instead of loading the whole app again: the screen renders the same, and the
 * pass over every screen costs a page load per scheme and size instead of one per screen (issue 21;
 * docs/PERFORMANCE.md "Third round"). The tab's title is set once the router has the new path, so no
 * check can run on the screen before it.
 */
async function openScreen(page: Page, route: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.scrollTo(0, 0);
  }, route);
  await expect(page).toHaveTitle(new RegExp(`^(\\(\\d+\\) )?${SCREENS[route]} · Shop Admin$`));
  await settle(page);
}

async function openedDialog(page: Page) {
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await page.evaluate(async () => {
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  });
  return dialog;
}

// One page per scheme and size walks the screens, and another opens the dialogs: two tests each, so
// Playwright spreads the 8 over both workers (each with its own server), and each pays for one new
// page, one sign-in, one seeded shop and one load of the app, not one per screen (issue 21;
// docs/PERFORMANCE.md "Third round").
for (const scheme of ["light", "dark"] as const) {
  for (const [sizeName, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    test.describe(`axe, ${scheme}, ${sizeName}`, () => {
      test.beforeEach(async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
      });

      test("the login screen, then every signed-in screen", async ({ page, api, seed }) => {
        test.slow();
        await seedShop(api, seed);
        await page.goto("/");
        await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
        await expectAccessible(page, "the login screen");

        // Signed in through the form: the app shows the Dashboard without loading again.
        await page.getByLabel("Password").fill(ADMIN_PASSWORD);
        await page.getByRole("button", { name: "Access Dashboard" }).click();
        await expect(page).toHaveTitle(/^(\(\d+\) )?Dashboard · Shop Admin$/);
        await settle(page);
        await expectAccessible(page, "/");
        for (const route of Object.keys(SCREENS).filter((route) => route !== "/")) {
          await openScreen(page, route);
          await expectAccessible(page, route);
        }
      });

      test("the dialogs: catalogue, a form's errors, the order's (details, dispatch, address, bulk dispatch); Bot Settings replacing a secret", async ({
        adminPage: page,
        api,
        seed,
      }) => {
        test.slow();
        const { order } = await seedShop(api, seed);
        const short = order.id.slice(0, 8);

        await page.goto("/products");
        await expect(page).toHaveTitle(/^(\(\d+\) )?Products · Shop Admin$/);
        await settle(page);
        await page.getByRole("button", { name: "Add Product" }).click();
        const addProduct = await openedDialog(page);
        await expectAccessible(page, "the Add Product dialog", '[role="dialog"]');
        // Sent empty: the form's error messages, read against the dialog's background.
        await addProduct.getByRole("button", { name: "Create Product" }).click();
        await expect(addProduct.locator('[data-slot="form-message"]').first()).toBeVisible();
        await expectAccessible(page, "the Add Product dialog with its errors", '[role="dialog"]');
        await saveScreenshot(page, `a11y-form-errors-${scheme}-${sizeName}`, { fullPage: false });
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page.getByRole("button", { name: "Edit Smartphone X" }).filter({ visible: true }).first().click();
        const editProduct = await openedDialog(page);
        await expect(editProduct.getByTestId("product-image")).toHaveCount(2);
        await expectAccessible(page, "the Edit Product dialog", '[role="dialog"]');
        await editProduct.getByTestId("product-image").first().scrollIntoViewIfNeeded();
        await saveScreenshot(page, `a11y-product-photos-${scheme}-${sizeName}`, { fullPage: false });
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);

        await openScreen(page, "/categories");
        await page.getByRole("button", { name: "Add Category" }).click();
        await openedDialog(page);
        await expectAccessible(page, "the category dialog", '[role="dialog"]');
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);

        await openScreen(page, "/postage");
        await page.getByRole("button", { name: "Add Postage Option" }).click();
        await openedDialog(page);
        await expectAccessible(page, "the postage dialog", '[role="dialog"]');
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);

        await openScreen(page, "/coupons");
        await page.getByRole("button", { name: "Add Coupon" }).click();
        const addCoupon = await openedDialog(page);
        await expectAccessible(page, "the Add Coupon dialog", '[role="dialog"]');
        // Sent empty: the errors, read against the dialog's background.
        await addCoupon.getByRole("button", { name: "Add Coupon" }).click();
        await expect(addCoupon.locator('[data-slot="form-message"]').first()).toBeVisible();
        await expectAccessible(page, "the Add Coupon dialog with its errors", '[role="dialog"]');
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page.getByRole("button", { name: "Edit WELCOME10" }).filter({ visible: true }).first().click();
        await openedDialog(page);
        await expectAccessible(page, "the Edit Coupon dialog", '[role="dialog"]');
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page.getByRole("button", { name: "Delete PAUSED" }).filter({ visible: true }).first().click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        await expectAccessible(page, "the delete coupon confirmation", '[role="alertdialog"]');
        await page.keyboard.press("Escape");
        await expect(page.getByRole("alertdialog")).toHaveCount(0);

        await openScreen(page, "/orders");
        await page.getByRole("checkbox", { name: `Select order ${short}` }).filter({ visible: true }).first().check();
        await page.getByRole("button", { name: "Dispatch selected (1)" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        await expectAccessible(page, "the bulk dispatch confirmation", '[role="alertdialog"]');
        await page.keyboard.press("Escape");
        await expect(page.getByRole("alertdialog")).toBeHidden();

        await page.getByRole("button", { name: `View order ${short}` }).filter({ visible: true }).first().click();
        const details = await openedDialog(page);
        await expect(details.getByText("Smartphone X")).toBeVisible();
        await expect(details.getByRole("button", { name: "Mark as Dispatched" })).toBeVisible();
        await expectAccessible(page, "the order details dialog", '[role="dialog"]');

        await details.getByRole("button", { name: "View Address" }).click();
        const address = page.getByRole("dialog", { name: `Shipping Address - #${short}` });
        await expect(address).toBeVisible();
        await expectAccessible(page, "the shipping address dialog", '[role="dialog"]');
        await address.getByRole("button", { name: "Close" }).click();
        await expect(address).toHaveCount(0);

        // Dispatched with a known carrier: the details show the tracking link.
        await details.getByRole("button", { name: "Mark as Dispatched" }).click();
        const dispatch = page.getByRole("dialog", { name: `Dispatch order #${short}` });
        await expect(dispatch.getByRole("status", { name: "Message to the customer" })).toBeVisible();
        await dispatch.getByLabel("Carrier (optional)").fill("Royal Mail");
        await dispatch.getByLabel("Tracking number (optional)").fill("AB123456789GB");
        await expectAccessible(page, "the dispatch dialog with the customer's message previewed", '[role="dialog"]');
        await dispatch.getByRole("button", { name: "Dispatch and notify" }).click();
        await expect(dispatch).toHaveCount(0);
        await expect(details.getByRole("link", { name: /AB123456789GB/ })).toBeVisible();
        await expectAccessible(page, "the order details dialog with its tracking link", '[role="dialog"]');
        await saveScreenshot(page, `a11y-tracking-link-${scheme}-${sizeName}`, { fullPage: false });
        // On a phone the dispatch's toast sits at the top, over the dialog's Close: closed first, as a
        // person would, so the Close below is not a tap that lands on the toast as it slides away.
        const dispatched = await expectToast(page, "Order dispatched and customer notified!");
        // (by its attribute: beside a modal dialog the toast is outside the accessibility tree)
        await dispatched.hover();
        await dispatched.locator("[toast-close]").click();
        await expect(dispatched).toHaveCount(0);
        await details.getByRole("button", { name: "Close" }).click();
        await expect(page.getByRole("dialog")).toHaveCount(0);

        await openScreen(page, "/bot-settings");
        await page.getByRole("button", { name: "Replace Bot Token" }).click();
        await expect(page.getByRole("button", { name: "Cancel replacing Bot Token" })).toBeVisible();
        await expectAccessible(page, "Bot Settings replacing the bot token");
      });
    });
  }
}

test.describe("keyboard, titles, session, theme", () => {
  test("on a phone, the keyboard reaches and scrolls the past broadcasts; the image input says whose image it is", async ({ adminPage: page, api, seed }) => {
    await seedShop(api, seed);
    await page.setViewportSize(PHONE);
    await page.goto("/broadcasts");
    await expect(page.getByLabel("Broadcast image file")).toBeAttached();
    await expect(page.getByLabel("Product image file")).toHaveCount(0);
    const region = page.getByRole("region", { name: "Past broadcasts" });
    await expect(region.getByRole("row")).toHaveCount(2);
    await region.focus();
    await expect(region).toBeFocused();
    const before = await region.evaluate((element) => element.scrollLeft);
    expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(before);
    await saveScreenshot(page, "a11y-broadcasts-scroll-region-phone");
  });

  test("each screen sets the tab's title; the login too", async ({ page }) => {
    await page.goto("/orders");
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
    await expect(page).toHaveTitle("Login · Shop Admin");
    await page.request.post("/api/auth/login", { data: { password: "e2e admin password" } });
    const titles: Record<string, string> = {
      "/": "Dashboard · Shop Admin",
      "/orders": "Orders · Shop Admin",
      "/postage": "Postage · Shop Admin",
      "/coupons": "Coupons · Shop Admin",
      "/bot-settings": "Bot Settings · Shop Admin",
      "/customers/5001": "Customer · Shop Admin",
      "/broadcasts": "Broadcasts · Shop Admin",
      "/no/such/page": "Page Not Found · Shop Admin",
    };
    for (const [route, title] of Object.entries(titles)) {
      await page.goto(route);
      await expect(page).toHaveTitle(title);
    }
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Messages" }).click();
    await expect(page).toHaveTitle("Messages · Shop Admin");
  });

  test("a skip link is the first stop of the keyboard and moves focus to the main region", async ({ adminPage: page }) => {
    await page.goto("/products");
    await expect(page.getByRole("button", { name: "Add Product" })).toBeVisible();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.locator("main :focus")).toHaveCount(1);
  });

  test("focus returns to the control that opened a dialog", async ({ adminPage: page, api, seed }) => {
    await seedShop(api, seed);
    await page.goto("/products");
    const add = page.getByRole("button", { name: "Add Product" });
    await add.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(add).toBeFocused();

    const edit = page.getByRole("button", { name: "Edit Smartphone X" }).filter({ visible: true }).first();
    await edit.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await expect(edit).toBeFocused();

    await page.goto("/postage");
    const editPostage = page.getByRole("button", { name: "Edit Royal Mail 1st Class" }).filter({ visible: true }).first();
    await editPostage.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(editPostage).toBeFocused();

    await page.goto("/orders");
    const view = page.getByRole("button", { name: /^View order/ }).filter({ visible: true }).first();
    await view.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(view).toBeFocused();
  });

  test("focus returns to the control that opened a confirmation, after Cancel and after Esc", async ({ adminPage: page, api, seed }) => {
    const { order: readyOrder } = await seedShop(api, seed);
    const failed = await seed.order({ telegramUserId: "5004", status: "failed", totalAmount: "3.00", paymentMethod: "btc" });
    const pending = await seed.order({ telegramUserId: "5005", status: "pending", totalAmount: "4.00", paymentMethod: "btc" });
    await page.setViewportSize(DESKTOP);
    await page.goto("/orders");
    const confirmation = page.getByRole("alertdialog");

    // Delete Order, opened by the row's bin button (no AlertDialog trigger of its own).
    const deleteButton = page.getByRole("button", { name: `Delete order ${failed.id.slice(0, 8)}` });
    await deleteButton.click();
    await expect(confirmation.getByRole("heading", { name: "Delete Order" })).toBeVisible();
    await confirmation.getByRole("button", { name: "Cancel" }).click();
    await expect(confirmation).toBeHidden();
    await expect(deleteButton).toBeFocused();
    await deleteButton.click();
    await expect(confirmation).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(confirmation).toBeHidden();
    await expect(deleteButton).toBeFocused();

    // Dispatch selected, for the ticked orders.
    await page.getByRole("checkbox", { name: `Select order ${readyOrder.id.slice(0, 8)}` }).check();
    const dispatchSelected = page.getByRole("button", { name: "Dispatch selected (1)" });
    await dispatchSelected.click();
    await expect(confirmation.getByRole("heading", { name: "Dispatch selected orders" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(confirmation).toBeHidden();
    await expect(dispatchSelected).toBeFocused();

    // Cancel order, a confirmation over the order details dialog: back to its button in the dialog.
    await page.getByRole("button", { name: `View order ${pending.id.slice(0, 8)}` }).click();
    const details = page.getByRole("dialog");
    const cancelOrder = details.getByRole("button", { name: "Cancel order" });
    await cancelOrder.click();
    await expect(confirmation.getByRole("heading", { name: `Cancel order #${pending.id.slice(0, 8)}?` })).toBeVisible();
    await confirmation.getByRole("button", { name: "Keep order" }).click();
    await expect(confirmation).toBeHidden();
    await expect(cancelOrder).toBeFocused();
    await cancelOrder.click();
    await expect(confirmation).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(confirmation).toBeHidden();
    await expect(details).toBeVisible();
    await expect(cancelOrder).toBeFocused();
  });

  test("a 401 after login (logged out elsewhere) shows the login with 'Your session ended', then returns to the same screen", async ({
    adminPage: page,
    api,
  }) => {
    await api.post("/api/categories", { name: "Electronics" });
    await page.goto("/categories");
    await expect(page.getByText("Electronics")).toBeVisible();
    // Another tab logs out: the same session cookie ends on the server.
    await page.request.post("/api/auth/logout", { data: {} });
    // A read with no work at stake (a save keeps its dialog and signs in over it: e2e/products.spec.ts).
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Products" }).click();
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
    await expect(page.locator('[data-slot="toast"]').filter({ hasText: "Your session ended" })).toBeVisible();
    await expect(page).toHaveURL(/\/products$/);
    await page.getByLabel("Password").fill("e2e admin password");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(page.getByRole("button", { name: "Add Product" })).toBeVisible();
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByTestId("page-title")).toHaveText("Products");
  });

  test("dark mode follows the system; the user menu's choice overrides it and is remembered", async ({ adminPage: page, api, seed }) => {
    await seedShop(api, seed);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/orders");
    const html = page.locator("html");
    await expect(html).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/\bdark\b/);

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect(html).toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(html).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await expect(page.getByRole("button", { name: /^View order/ }).first()).toBeVisible();
    await saveScreenshot(page, "dark-orders-desktop");
    // BTC, LTC and XMR each have their own mark.
    for (const coin of ["btc", "ltc", "xmr"]) await expect(page.locator(`[data-coin-icon="${coin}"]`).filter({ visible: true })).toHaveCount(1);
    await page.goto("/");
    await expect(page.getByTestId("stat-Total Products")).toBeVisible();
    await saveScreenshot(page, "dark-dashboard-desktop");
    await page.setViewportSize(PHONE);
    await page.goto("/products");
    await expect(page.getByText("Smartphone X").first()).toBeVisible();
    await saveScreenshot(page, "dark-products-phone");

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitemradio", { name: "System" }).click();
    await expect(html).not.toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
  });
});
