import { loginScriptSize } from "../scripts/build-web";
import { DESKTOP, expect, expectToast, PHONE, saveScreenshot, test, toasts } from "./support/fixtures";

const ENTRIES = ["Dashboard", "Bot Settings", "Categories", "Products", "Postage", "Orders", "Messages", "Customers", "Broadcasts", "Bot Preview", "Activity"];

test.describe("layout", () => {
  test("the sidebar lists the screens in order; each opens with its top-bar title", async ({ adminPage: page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(ENTRIES);
    const titles: Record<string, string> = { Postage: "Dashboard" }; // docs/product.md §2: no title for /postage
    for (const entry of ENTRIES) {
      await nav.getByRole("link", { name: entry, exact: true }).click();
      await expect(nav.getByRole("link", { name: entry, exact: true })).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("page-title")).toHaveText(titles[entry] ?? entry);
    }
    await expect(page).toHaveURL(/\/activity$/);
  });

  test("/postage falls back to the Dashboard title", async ({ adminPage: page }) => {
    await page.goto("/postage");
    await expect(page.getByTestId("page-title")).toHaveText("Dashboard");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Postage" })).toHaveAttribute("aria-current", "page");
  });

  test("any other path shows 'Page Not Found'", async ({ adminPage: page }) => {
    await page.goto("/no/such/page");
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await saveScreenshot(page, "not-found-desktop");
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "not-found-phone");
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard", level: 2 })).toBeVisible();
  });

  test("on a phone the sidebar is a slide-out drawer", async ({ adminPage: page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("button", { name: "Open navigation" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await expect(drawer.getByRole("link")).toHaveText(ENTRIES);
    await saveScreenshot(page, "navigation-drawer-phone", { fullPage: false });
    await drawer.getByRole("link", { name: "Bot Settings" }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByTestId("page-title")).toHaveText("Bot Settings");
    await page.setViewportSize(DESKTOP);
    await expect(page.getByRole("button", { name: "Open navigation" })).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  });

  test("logout from the user menu returns to the login and forgets the session's data", async ({ adminPage: page }) => {
    await page.goto("/");
    await expect(page.getByTestId("stat-Total Products")).toBeVisible();
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
    const status = await page.request.get("/api/auth/status");
    expect(status.status()).toBe(401);

    // Logging in again loads the dashboard afresh, nothing served from the old session's cache.
    const statsLoaded = page.waitForRequest("**/api/dashboard/stats");
    await page.getByLabel("Password").fill("e2e admin password");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await statsLoaded;
    await expect(page.getByTestId("stat-Total Products")).toBeVisible();
  });
});

test.describe("toasts", () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  });

  test("bottom right and at most 420 px wide on wide screens; closed by its button", async ({ adminPage: page }) => {
    await page.goto("/bot-settings");
    await page.getByRole("button", { name: "Copy" }).first().click();
    const toast = await expectToast(page, "Telegram webhook URL copied!");
    const box = (await toast.boundingBox())!;
    expect(DESKTOP.height - (box.y + box.height)).toBeLessThan(40);
    expect(DESKTOP.width - (box.x + box.width)).toBeLessThan(40);
    expect(box.width).toBeLessThanOrEqual(420);
    await toast.hover();
    await toast.getByRole("button", { name: "Close" }).click();
    await expect(toasts(page)).toBeHidden();
  });

  test("at the top on phones; swiping right dismisses it", async ({ adminPage: page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/bot-settings");
    await page.getByRole("button", { name: "Copy" }).first().click();
    const toast = await expectToast(page, "Telegram webhook URL copied!");
    const box = (await toast.boundingBox())!;
    expect(box.y).toBeLessThan(40);
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    await page.mouse.down();
    for (const dx of [20, 40, 60, 80, 120]) await page.mouse.move(box.x + 40 + dx, box.y + box.height / 2);
    await page.mouse.up();
    await expect(toasts(page)).toBeHidden();
  });

  test("F8 moves focus to the notifications; a toast closes by itself after its display time", async ({ adminPage: page }) => {
    await page.goto("/bot-settings");
    await page.getByRole("button", { name: "Copy" }).first().click();
    const toast = await expectToast(page, "Telegram webhook URL copied!");
    const viewport = page.getByRole("region", { name: "Notifications (F8)" });
    await page.keyboard.press("F8");
    await expect(viewport.getByRole("list")).toBeFocused();
    // Focus pauses the timer (so a reader is never cut off); moving on lets it run out: 5000 ms.
    await page.getByLabel("Bot Name").focus();
    await expect(toast).toBeHidden();
  });
});

test.describe("serving", () => {
  test("index.html is revalidated, hashed assets are cached for good, client routes fall back, the API keeps JSON 404s", async ({ api, request }) => {
    const index = await request.get("/");
    expect(index.headers()["cache-control"]).toBe("no-cache");
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const script = await request.get(asset);
    expect(script.status()).toBe(200);
    expect(script.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

    const deepLink = await request.get("/orders");
    expect(deepLink.status()).toBe(200);
    expect(await deepLink.text()).toBe(html);

    const apiMissing = await api.context.get("/api/no-such-thing");
    expect(apiMissing.status()).toBe(404);
    expect(await apiMissing.json()).toEqual({ error: "Not found: GET /api/no-such-thing" });
    expect((await request.get("/assets/missing-file.js")).status()).toBe(404);
  });

  test("the login screen's JavaScript stays under 120 kB gzipped", () => {
    const { gzipBytes } = loginScriptSize();
    expect(gzipBytes).toBeLessThan(120 * 1024);
  });
});

// One date format everywhere (issue 22, item 12): every screen shows a date in the owner's locale
// (the browser's), as its own date inputs do: day first in en-GB (the suite's locale,
// playwright.config.ts), month first in en-US. 4 March 2026 is told apart from 3 April either way.
const LOCALES = [
  { locale: "en-GB", day: "04/03/2026", otherDay: "03/04/2026", time: "\\d{2}:\\d{2}" },
  { locale: "en-US", day: "03/04/2026", otherDay: "04/03/2026", time: "\\d{2}:\\d{2} [AP]M" },
];
for (const { locale, day, otherDay, time } of LOCALES) {
  test.describe(`dates in ${locale}`, () => {
    test.use({ locale });

    test(`every screen shows the same date the same way (${day})`, async ({ adminPage: page, seed }) => {
      // Noon UTC: the same day in this machine's time zone whatever it is (within ±11 h).
      const placed = "2026-03-04T12:00:00.000Z";
      const customer = "97000001";
      const order = await seed.order({ telegramUserId: customer, telegramUsername: "dana", status: "processing", paymentStatus: "finished", totalAmount: "10.00", createdAt: placed });
      await seed.message({ telegramUserId: customer, telegramUsername: "dana", message: "Where is my parcel?", createdAt: placed });
      expect(await page.evaluate(() => navigator.language)).toBe(locale);

      await page.goto("/");
      await expect(page.getByTestId("recent-orders")).toContainText(day);
      await expect(page.getByTestId("recent-messages")).toContainText(day);
      // Orders, customers, a customer, messages, packing slips: the same day, the same way.
      for (const path of ["/orders", "/customers", `/customers/${customer}`, "/messages", `/orders/packing-slips?ids=${order.id}`]) {
        await page.goto(path);
        const screen = path.startsWith("/orders/packing-slips") ? page.locator("body") : page.getByRole("main");
        await expect(screen, path).toContainText(day);
        await expect(screen, path).not.toContainText(otherDay);
      }
      // Moments (Activity, Broadcasts, order timelines): that day format, then the time.
      const today = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date());
      await page.goto("/activity");
      await expect(page.getByRole("main")).toContainText(new RegExp(`${today.replaceAll("/", "\\/")}, ${time}`));
    });
  });
}
