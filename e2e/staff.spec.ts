import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { choose } from "./fixtures/ui";
import { expect, expectToast, PHONE, test } from "./support/fixtures";

// The Staff screen (issue 25): the owner invites a packer, the packer opens the one-time link in a
// browser of their own, is refused a common password, sets a good one and signs in; the owner sees
// their session, disables them, and the packer's next page load is signed out. The Activity screen
// shows who did what, filtered by the packer.

const SHOTS = "/tmp/shots-staff";
const PACKER_PASSWORD = "blue kettle on the stove 7";

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test.describe("staff", () => {
  test("the owner invites a packer, the packer sets a password from the link and signs in, the owner disables them and their next load is signed out", async ({
    adminPage: page,
    browser,
  }) => {
    test.slow();
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Staff" }).click();
    await expect(page.getByTestId("page-title")).toHaveText("Staff");
    await expect(page).toHaveTitle("Staff · Shop Admin");
    const ownerRow = page.getByTestId("staff-row").filter({ hasText: "owner" });
    await expect(ownerRow).toContainText("Owner");
    await expect(page.getByText("No staff yet")).toBeVisible();

    // --- Invite: the contract's sentence for a bad username, then the link, shown once.
    await page.getByRole("button", { name: "Invite staff" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite staff" });
    await dialog.getByLabel("Name", { exact: true }).fill("Pat Packer");
    await dialog.getByLabel("Username").fill("pat packer");
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByTestId("invite-error")).toHaveText(/^Username must be 2 to 32/);
    await dialog.getByLabel("Username").fill("Pat");
    await choose(page, dialog.getByLabel("Role"), "Packer");
    await dialog.getByRole("button", { name: "Invite" }).click();
    const invited = page.getByRole("dialog", { name: "Staff invited" });
    await expect(invited.getByText("It works once, within 48 hours")).toBeVisible();
    const inviteUrl = await invited.getByLabel("Invite link for Pat Packer").inputValue();
    expect(inviteUrl).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    await shot(page, "invite-dialog-link");
    await invited.getByRole("button", { name: "Done" }).click();
    const patRow = page.getByTestId("staff-row").filter({ hasText: "Pat Packer" });
    await expect(patRow.getByTestId("staff-status")).toHaveText("Invited");
    await expect(patRow).toContainText("pat");
    await expect(patRow).toContainText("Never");

    // --- The packer's own browser: the link greets them by name; a common password is refused in the server's words.
    const packerContext = await browser.newContext();
    const packer = await packerContext.newPage();
    await packer.goto(inviteUrl);
    await expect(packer.getByRole("heading", { name: "Welcome, Pat Packer" })).toBeVisible();
    await expect(packer.getByText("as Packer")).toBeVisible();
    await packer.getByLabel("New password").fill("LeaveMeAlone");
    await packer.getByLabel("Repeat the password").fill("LeaveMeAlone");
    await packer.getByRole("button", { name: "Set password" }).click();
    await expect(packer.getByRole("alert")).toHaveText("This password is too common: choose another.");
    await packer.getByLabel("New password").fill(PACKER_PASSWORD);
    await packer.getByLabel("Repeat the password").fill(`${PACKER_PASSWORD}!`);
    await packer.getByRole("button", { name: "Set password" }).click();
    await expect(packer.getByRole("alert")).toHaveText("The two passwords are not the same.");
    await shot(packer, "invite-page-refused");
    await packer.setViewportSize(PHONE);
    await shot(packer, "invite-page-phone");
    await packer.getByLabel("Repeat the password").fill(PACKER_PASSWORD);
    await packer.getByRole("button", { name: "Set password" }).click();
    await expectToast(packer, "Your password is set");
    await expect(packer).toHaveURL(/\/$/);
    // The link worked once: opened again, it says so.
    await packer.goto(inviteUrl);
    await expect(packer.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
    await expect(packer.getByText("has expired or has already been used")).toBeVisible();

    // --- Signed in through the API (the login page is being rebuilt): the app opens, without Staff in its menu.
    const login = await packerContext.request.post("/api/auth/login", { data: { username: "pat", password: PACKER_PASSWORD } });
    expect(login.ok()).toBe(true);
    await packer.setViewportSize({ width: 1440, height: 900 });
    await packer.goto("/");
    const packerNav = packer.getByRole("navigation", { name: "Main" });
    await expect(packerNav.getByRole("link", { name: "Orders" })).toBeVisible();
    await expect(packerNav.getByRole("link", { name: "Staff" })).toHaveCount(0);

    // --- The owner sees Pat active, and the session Pat's browser has open.
    await page.reload();
    await expect(patRow.getByTestId("staff-status")).toHaveText("Active");
    await patRow.getByRole("button", { name: "Sessions of Pat Packer" }).click();
    const sessions = page.getByRole("dialog", { name: "Sessions of Pat Packer" });
    await expect(sessions.getByTestId("session-row")).toHaveCount(1);
    await expect(sessions.getByTestId("session-row")).toContainText("Chrome on Linux");
    await shot(page, "staff-sessions-dialog");
    await page.keyboard.press("Escape");
    await expect(sessions).toBeHidden();
    await shot(page, "staff-desktop");

    // --- Disabled on the Staff screen: Pat's next page load is signed out.
    await patRow.getByRole("switch", { name: "Pat Packer can sign in" }).click();
    await expectToast(page, "Pat Packer is disabled", "They were signed out everywhere.");
    await expect(patRow.getByTestId("staff-status")).toHaveText("Disabled");
    await packer.reload();
    await expect(packer.getByLabel("Password", { exact: true })).toBeVisible();
    await expect(packer.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    const refused = await packerContext.request.post("/api/auth/login", { data: { username: "pat", password: PACKER_PASSWORD } });
    expect(refused.status()).toBe(401);
    await packerContext.close();

    // --- The Activity screen names who did what, and filters by Pat.
    await nav.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("switch", { name: "Show sign-ins" }).click();
    await choose(page, page.getByRole("combobox", { name: "Show activity by" }), "Pat Packer (pat)");
    const entries = page.getByTestId("activity-entry");
    await expect(entries.first()).toBeVisible();
    await expect(page.getByTestId("activity-who")).not.toHaveCount(0);
    for (const who of await page.getByTestId("activity-who").allTextContents()) expect(who).toBe("pat");
    await expect(entries.filter({ hasText: "Invite accepted, password set" })).toHaveCount(1);
    await expect(entries.filter({ hasText: "Logged in" })).toHaveCount(1);
    await shot(page, "activity-by-pat");
    await choose(page, page.getByRole("combobox", { name: "Show activity by" }), "Everyone");
    await expect(entries.filter({ hasText: "Staff account invited" })).toHaveCount(1);
    await expect(entries.filter({ hasText: "Staff account invited" }).getByTestId("activity-who")).toHaveText("owner");

    // --- On a phone the list is cards, and deleting asks first.
    await page.setViewportSize(PHONE);
    await page.goto("/staff");
    const card = page.getByTestId("staff-card").filter({ hasText: "Pat Packer" });
    await expect(card.getByTestId("staff-status")).toHaveText("Disabled");
    await shot(page, "staff-phone");
    await card.getByRole("button", { name: "Delete Pat Packer" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Pat Packer's account?" });
    await confirm.getByRole("button", { name: "Delete account" }).click();
    await expectToast(page, "Account deleted", "Pat Packer");
    await expect(page.getByTestId("staff-card")).toHaveCount(1);
  });

  test("the owner changes a role and makes a new invite link; the old link stops working", async ({ adminPage: page, api, browser }) => {
    const first = await api.post<{ id: string; inviteUrl: string }>("/api/staff", { username: "sue", name: "Sue Support", role: "support" });
    await page.goto("/staff");
    const row = page.getByTestId("staff-row").filter({ hasText: "Sue Support" });
    await choose(page, row.getByRole("combobox", { name: "Role of Sue Support" }), "Manager");
    await expectToast(page, "Sue Support is now Manager");
    await row.getByRole("button", { name: "New invite link for Sue Support" }).click();
    const renewed = page.getByRole("dialog", { name: "New invite link" });
    const newUrl = await renewed.getByLabel("Invite link for Sue Support").inputValue();
    expect(newUrl).not.toBe(first.inviteUrl);
    await renewed.getByRole("button", { name: "Done" }).click();

    const context = await browser.newContext();
    const invitee = await context.newPage();
    await invitee.goto(first.inviteUrl);
    await expect(invitee.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
    await invitee.goto(newUrl);
    await expect(invitee.getByRole("heading", { name: "Welcome, Sue Support" })).toBeVisible();
    await expect(invitee.getByText("as Manager")).toBeVisible();
    await context.close();
  });
});
