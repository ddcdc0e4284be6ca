import { ADMIN_PASSWORD, DESKTOP, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

test.describe("login", () => {
  test("a spinner shows while the session is checked", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/status", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/");
    await expect(page.getByRole("status", { name: "Checking your session" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toHaveCount(0);
    release();
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
  });

  test("shows only the login screen until the admin logs in", async ({ page }) => {
    await page.goto("/orders");
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await saveScreenshot(page, "login-desktop");
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "login-phone");
    await page.setViewportSize(DESKTOP);
  });

  test("a wrong password shows 'Login failed' with the server's reason and stays on the login", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    const toast = await expectToast(page, "Login failed", "Invalid password");
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeEnabled();
  });

  test("a wrong password marks the field, with the reason shown under it and tied to it", async ({ page }) => {
    await page.goto("/");
    const password = page.getByLabel("Password");
    await expect(password).not.toHaveAttribute("aria-invalid");
    await password.fill("not the password");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(password).toHaveAttribute("aria-invalid", "true");
    const reason = page.locator(`#${await password.getAttribute("aria-describedby")}`);
    await expect(reason).toBeVisible();
    await expect(reason).toHaveText("Invalid password");
    // Screen readers read the reason with the field.
    await expect(password).toHaveAccessibleDescription("Invalid password");
    await saveScreenshot(page, "login-wrong-password");
    // Typing again clears the mark.
    await password.fill("another try");
    await expect(password).not.toHaveAttribute("aria-invalid");
    await expect(reason).toHaveCount(0);
  });

  test("a network failure says so", async ({ page }) => {
    await page.goto("/");
    await page.route("**/api/auth/login", (route) => route.abort("internetdisconnected"));
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expectToast(page, "Error", "Network error. Please try again.");
  });

  test("the right password shows 'Logging in...', then 'Login successful!' and the dashboard", async ({ page }) => {
    await page.goto("/");
    // Hold the answer to see the pending state.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/login", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(page.getByRole("button", { name: "Logging in..." })).toBeDisabled();
    release();
    await expectToast(page, "Login successful!");
    await expect(page.getByTestId("page-title")).toHaveText("Dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 2 })).toBeVisible();
  });

  test("the browser keeps a device cookie for /api/auth and sends it with its next sign-in", async ({ page, context }) => {
    await page.goto("/");
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(page.getByTestId("page-title")).toHaveText("Dashboard");
    const device = (await context.cookies()).find((cookie) => cookie.name === "device");
    expect(device).toMatchObject({ path: "/api/auth", httpOnly: true, sameSite: "Strict" });

    // The session ends (a week later, say); the device cookie stays, and the login form's request carries it.
    await context.clearCookies({ name: "sid" });
    await page.reload();
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    const sent = page.waitForRequest("**/api/auth/login");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    expect(await (await sent).headerValue("cookie")).toContain(`device=${device!.value}`);
    await expect(page.getByTestId("page-title")).toHaveText("Dashboard");
  });
});
