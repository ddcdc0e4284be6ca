import fs from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expectNoSeriousViolations } from "./support/axe";
import { ADMIN_PASSWORD, expect, expectToast, test } from "./support/fixtures";

// Two-factor sign-in in the browser (issue 25): the owner turns it on under Your account (the key is
// read from the page and codes are computed here, as an authenticator app would), signs out, and is
// asked for a code at the next sign-in; a recovery code works once; a sensitive action met with a
// stale session asks for a fresh code over the page and then goes through.

const SHOTS = "/tmp/shots-twofactor";
fs.mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });


/** The code an app shows for `secret`, `steps` time steps from now (the server takes the one before and after too). */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

/** An unused recovery code of the owner's, once a test turned two-factor on: the reset's way back in. */
let spareRecoveryCode: string | null = null;

// The reset before each test turns the owner's two-factor off again (e2e/support/seed-routes.ts), but
// the next test's own sign-in comes before it: reset once more here. Turning two-factor on ended every
// other session of the owner, the `api` fixture's among them (docs/SECURITY.md), so this signs in
// afresh, with the spare recovery code when two-factor is on (without it, the code is not asked).
test.afterEach(async ({ baseURL }) => {
  const context = await playwrightRequest.newContext({ baseURL });
  try {
    const login = await context.post("/api/auth/login", { data: { password: ADMIN_PASSWORD, ...(spareRecoveryCode ? { totp: spareRecoveryCode } : {}) } });
    expect(login.ok(), await login.text()).toBe(true);
    expect((await context.post("/api/test/reset", { data: {} })).ok()).toBe(true);
  } finally {
    spareRecoveryCode = null;
    await context.dispose();
  }
});

async function signOut(page: Page) {
  await page.getByRole("button", { name: /user menu/ }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Access Dashboard" })).toBeVisible();
}

/** Password first; the code step follows for an account with two-factor on. */
async function signIn(page: Page, code: string) {
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Access Dashboard" }).click();
  const field = page.getByLabel("Two-factor code");
  await expect(field).toBeVisible();
  await expect(field).toHaveAttribute("autocomplete", "one-time-code");
  await field.fill(code);
  await page.getByRole("button", { name: "Access Dashboard" }).click();
}

test("the owner turns two-factor on, then signs in with a code; a recovery code works once", async ({ adminPage: page }) => {
  test.slow();
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Your account", level: 2 })).toBeVisible();
  await expect(page.getByTestId("page-title")).toHaveText("Your account");
  await expect(page.getByLabel("Require two-factor for all staff")).not.toBeChecked();
  await page.getByRole("button", { name: "Turn on two-factor" }).click();

  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot(page, "account-setup");
  await expectNoSeriousViolations(page, "the page");

  // A wrong code leaves it off, and says why.
  const codeField = page.getByLabel("Code from the app");
  await codeField.fill(codeFor(secret, 5));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert").filter({ hasText: "Invalid two-factor code" })).toBeVisible();

  await codeField.fill(codeFor(secret));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expectToast(page, "Two-factor sign-in is on", "Your other sessions were ended.");
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  spareRecoveryCode = recoveryCodes.at(-1)!;
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await expect(page.getByText("Save your recovery codes now")).toBeVisible();
  await expect(page.getByRole("button", { name: "Download" })).toBeVisible();
  await shot(page, "account-recovery-codes");
  await expectNoSeriousViolations(page, "the page");
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page.getByTestId("recovery-codes-left")).toHaveText("10 of 10 recovery codes left.");
  await shot(page, "account-on");

  // Signed out, the password alone is not enough: the second step asks for the code.
  await signOut(page);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Access Dashboard" }).click();
  await expect(page.getByLabel("Two-factor code")).toBeVisible();
  await expect(page.getByText("Login failed")).toHaveCount(0);
  await shot(page, "login-code-step");
  await expectNoSeriousViolations(page, "the page");
  // The code of the next time step: the one the setup took cannot be used again.
  await page.getByLabel("Two-factor code").fill(codeFor(secret, 1));
  await page.getByRole("button", { name: "Access Dashboard" }).click();
  await expectToast(page, "Login successful!");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();

  // A recovery code, typed in capitals with spaces, signs in once.
  await signOut(page);
  await signIn(page, recoveryCodes[0]!.toUpperCase().replaceAll("-", " "));
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.goto("/account");
  await expect(page.getByTestId("recovery-codes-left")).toHaveText("9 of 10 recovery codes left.");

  await signOut(page);
  await signIn(page, recoveryCodes[0]!);
  await expectToast(page, "Login failed", "Invalid two-factor code");
  const field = page.getByLabel("Two-factor code");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await shot(page, "login-recovery-code-used");
  // Back to the password: it starts again from the first step.
  await page.getByRole("button", { name: "Back to the password" }).click();
  await expect(page.getByLabel("Password")).toHaveValue("");
});

test("a sensitive action on a session without a fresh code asks for one over the page, then goes through", async ({ adminPage: page, api, seed }) => {
  test.slow();
  await seed.order({ status: "processing" });
  // Two-factor turned on from another session, which ends the page's: the page signs in again with a
  // recovery code, and then its code is as old as a step-up allows (the seed route ages every session's).
  const { secret } = await api.post<{ secret: string }>("/api/auth/totp/setup");
  const { recoveryCodes } = await api.post<{ recoveryCodes: string[] }>("/api/auth/totp/verify", { code: codeFor(secret) });
  spareRecoveryCode = recoveryCodes.at(-1)!;
  const signedIn = await page.request.post("/api/auth/login", { data: { password: ADMIN_PASSWORD, totp: recoveryCodes[0] } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  await api.post("/api/test/step-up-expired");

  await page.goto("/orders");
  await expect(page.getByRole("link", { name: "Export" })).toBeVisible();
  const downloads: string[] = [];
  page.on("download", (download) => downloads.push(download.suggestedFilename()));
  await page.getByRole("link", { name: "Export" }).click();
  const dialog = page.getByTestId("step-up");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await shot(page, "step-up-dialog");
  await expectNoSeriousViolations(page, "the page");

  // A wrong code is refused in the dialog; nothing is downloaded.
  const accepted = new Set([-1, 0, 1, 2].map((steps) => codeFor(secret, steps)));
  await dialog.getByLabel("Two-factor code").fill(["000000", "111111", "222222"].find((code) => !accepted.has(code))!);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Invalid two-factor code");
  expect(downloads).toEqual([]);

  await dialog.getByLabel("Two-factor code").fill(codeFor(secret, 1));
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Confirm" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(dialog).toBeHidden();

  // Fresh for five minutes: the next export asks nothing.
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export" }).click()]);
  expect(again.suggestedFilename()).toMatch(/\.csv$/);
  await expect(dialog).toBeHidden();
});
