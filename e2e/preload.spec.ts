import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

// The first screen after a reload (issue 12: the Orders screen's first rows under 1 s): a browser that
// was signed in last time loads the signed-in app's and the screen's code while the session is being
// checked, not after; a browser that never signed in loads only the login screen's code.

/** The paths of the script files the page asks for, as it asks. */
function scriptsAskedFor(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith(".js")) scripts.push(url.pathname);
  });
  return scripts;
}

const APP_CHUNK = /\/authenticated-app-[\w-]+\.js$/;
/** The signed-in shell around it (the owner's keys, the packing slips route: web/components/layout/signed-in-app.tsx). */
const SHELL_CHUNK = /\/signed-in-app-[\w-]+\.js$/;
const ORDERS_CHUNK = /\/orders-[\w-]+\.js$/;

test.describe("preloading the first screen", () => {
  test("a browser signed in last time starts the app's and the screen's code before the session check answers", async ({ adminPage: page }) => {
    await page.goto("/orders");
    await expect(page.getByText("No orders found")).toBeVisible();

    // The session check is held: the code must be asked for without waiting for it.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/status", async (route) => {
      await held;
      await route.continue();
    });
    const scripts = scriptsAskedFor(page);
    await page.reload();
    await expect(page.getByRole("status", { name: "Checking your session" })).toBeVisible();
    await expect.poll(() => scripts.some((path) => APP_CHUNK.test(path))).toBe(true);
    await expect.poll(() => scripts.some((path) => SHELL_CHUNK.test(path))).toBe(true);
    await expect.poll(() => scripts.some((path) => ORDERS_CHUNK.test(path))).toBe(true);
    release();
    await expect(page.getByText("No orders found")).toBeVisible();
  });

  test("a browser that never signed in loads only the login screen's code", async ({ page }) => {
    const scripts = scriptsAskedFor(page);
    await page.goto("/orders");
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
    // Anything the app would load for later has been asked for within a second of the login showing.
    await page.waitForTimeout(1000);
    expect(scripts.filter((path) => APP_CHUNK.test(path) || SHELL_CHUNK.test(path) || ORDERS_CHUNK.test(path))).toEqual([]);
    expect(scripts.length).toBeGreaterThan(0);
  });
});
