import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { settle } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { DESKTOP, expect, expectToast, test } from "./support/fixtures";

// Staff access to sealed addresses (issue 25; docs/decisions/0037-sealed-address-grants.md): the owner
// turns private addresses on, a packer sets up a key of their own on the Orders screen, the owner
// checks its fingerprint and grants access in Bot Settings, and the packer's passphrase then opens the
// sealed address on the Orders screen; once revoked, the packer sees it sealed again.

const OWNER_PASSPHRASE = "amber falcon quietly sings";
const PACKER_PASSPHRASE = "pat packs parcels on tuesdays";
const PACKER = { username: "pat", name: "Pat Packer", role: "packer", password: "pat's sign-in password" } as const;
const ADDRESS = { name: "Jane Smith", streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: "07700 900123" };
const SHOTS = "/tmp/shots-grants";
const short = (id: string) => id.slice(0, 8);


/** A screenshot of the viewport (or of one part) to look at by eye; the assertions are the test. */
async function shot(page: Page, name: string, part?: Locator) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await settle(page);
  const file = path.join(SHOTS, `${name}.png`);
  await (part ? part.screenshot({ path: file }) : page.screenshot({ path: file }));
}

test("the owner grants a packer access to sealed addresses, the packer reads one on the Orders screen, and revoking seals it again", async ({
  adminPage: owner,
  api,
  seed,
  browser,
  baseURL,
}) => {
  // Two browsers, several passphrase stretchings (PBKDF2, 600,000 rounds each) on a shared 2-core host.
  test.slow();
  await owner.setViewportSize(DESKTOP);
  await owner.goto("/bot-settings");
  const card = owner.getByTestId("private-addresses-card");
  await card.getByLabel("Passphrase", { exact: true }).fill(OWNER_PASSPHRASE);
  await card.getByLabel("Passphrase again").fill(OWNER_PASSPHRASE);
  await card.getByRole("checkbox").check();
  await card.getByRole("button", { name: "Turn on private addresses" }).click();
  await expectToast(owner, "Private addresses are on");
  const access = card.getByTestId("staff-address-access");
  await expect(access).toContainText("No staff account may read addresses yet");

  const order = await seed.order({ telegramUserId: "6101", status: "processing", paymentStatus: "confirmed", shippingAddress: ADDRESS });
  await api.post("/api/test/accounts", PACKER);

  // The packer, in a browser of their own, signed in through the API (the login page is another helper's).
  const packerContext = await browser.newContext({ baseURL, viewport: DESKTOP });
  const packer = await packerContext.newPage();
  const login = await packer.request.post("/api/auth/login", { data: { username: PACKER.username, password: PACKER.password } });
  expect(login.status()).toBe(200);

  // No key, no access: sealed, with the way to set up a key.
  await packer.goto("/orders");
  await packer.getByRole("button", { name: `View order ${short(order.id)}` }).click();
  const details = packer.getByRole("dialog", { name: `Order Details - #${short(order.id)}` });
  const customer = details.getByRole("region", { name: "Customer Information" });
  await expect(customer.getByTestId("sealed-address")).toContainText("Sealed: ask the owner for access");
  await expect(details.getByText(ADDRESS.name)).toHaveCount(0);
  await shot(packer, "packer-sealed-no-key");

  await customer.getByRole("button", { name: "Set up your key" }).click();
  const setUp = packer.getByRole("dialog", { name: "Set up your key" });
  await setUp.getByLabel("Your passphrase", { exact: true }).fill("too short");
  await setUp.getByRole("button", { name: "Set up your key" }).click();
  await expect(setUp.getByRole("alert")).toContainText("at least 12 characters");
  await setUp.getByLabel("Your passphrase", { exact: true }).fill(PACKER_PASSPHRASE);
  await setUp.getByLabel("Your passphrase again").fill(PACKER_PASSPHRASE);
  await shot(packer, "packer-set-up-key");
  await expectNoSeriousViolations(packer, "the set-up dialog", '[role="dialog"]');
  await setUp.getByRole("button", { name: "Set up your key" }).click();
  await expectToast(packer, "Your key is set up");
  const ask = packer.getByRole("dialog", { name: "Ask the owner for access" });
  await expect(ask.getByTestId("ask-owner-for-access")).toContainText("Ask the owner for access");
  const packerFingerprint = (await ask.getByTestId("staff-key-fingerprint").textContent())!;
  expect(packerFingerprint).toMatch(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
  await shot(packer, "packer-ask-owner");
  await packer.keyboard.press("Escape");

  // The owner sees the packer's key, checks the fingerprint, and grants access with the owner's passphrase.
  await owner.reload();
  const row = access.getByRole("listitem", { name: PACKER.name });
  await expect(row.getByTestId("staff-access-state")).toHaveText("Has a key; no access.");
  await expect(row).toContainText(packerFingerprint);
  await row.getByRole("button", { name: "Grant access" }).click();
  const grant = owner.getByRole("dialog", { name: `Grant ${PACKER.name} access` });
  await expect(grant.getByTestId("grant-fingerprint")).toHaveText(packerFingerprint);
  await grant.getByLabel("Your passphrase").fill(OWNER_PASSPHRASE);
  await grant.getByRole("button", { name: "Grant access" }).click();
  await expect(grant.getByRole("alert")).toHaveText(`Check the fingerprint with ${PACKER.name} first.`);
  await grant.getByRole("checkbox").check();
  await grant.getByLabel("Your passphrase").fill("not the owner's passphrase");
  await grant.getByRole("button", { name: "Grant access" }).click();
  await expect(grant.getByRole("alert")).toHaveText("That passphrase does not unlock the private addresses. Check it and try again.");
  await grant.getByLabel("Your passphrase").fill(OWNER_PASSPHRASE);
  await shot(owner, "owner-grant-dialog");
  await expectNoSeriousViolations(owner, "the grant dialog", '[role="dialog"]');
  await grant.getByRole("button", { name: "Grant access" }).click();
  await expectToast(owner, `${PACKER.name} can read sealed addresses`);
  await expect(row.getByTestId("staff-access-state")).toHaveText("Can read sealed addresses.");
  await shot(owner, "owner-staff-access-granted", access);
  await expectNoSeriousViolations(owner, "the staff access list", '[data-testid="staff-address-access"]');

  // The packer unlocks with their own passphrase and reads the address on the Orders screen.
  await packer.goto("/orders");
  await packer.getByRole("button", { name: `View order ${short(order.id)}` }).click();
  await expect(customer.getByTestId("sealed-address")).toContainText("Sealed: unlock to read");
  await customer.getByRole("button", { name: "Unlock addresses" }).click();
  const unlock = packer.getByRole("dialog", { name: "Unlock addresses" });
  await unlock.getByLabel("Passphrase").fill(OWNER_PASSPHRASE);
  await unlock.getByRole("button", { name: "Unlock" }).click();
  await expect(unlock.getByRole("alert")).toHaveText("That passphrase does not unlock the private addresses. Check it and try again.");
  await unlock.getByLabel("Passphrase").fill(PACKER_PASSPHRASE);
  await unlock.getByRole("button", { name: "Unlock" }).click();
  await expectToast(packer, "Addresses unlocked");
  await expect(customer).toContainText(`Name${ADDRESS.name}`);
  await expect(customer).toContainText(`Postcode${ADDRESS.postcode}`);
  await shot(packer, "packer-unlocked-address");

  // The owner revokes; the packer's next load is sealed again, and the unlock button says why.
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(owner.getByRole("alertdialog")).toContainText("may have kept");
  await owner.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
  await expectToast(owner, `${PACKER.name} can no longer open sealed addresses`);
  await expect(row.getByTestId("staff-access-state")).toHaveText("Has a key; no access.");

  await packer.goto("/orders");
  await packer.getByRole("button", { name: `View order ${short(order.id)}` }).click();
  await expect(customer.getByTestId("sealed-address")).toContainText("Sealed: ask the owner for access");
  await expect(details.getByText(ADDRESS.name)).toHaveCount(0);
  await details.getByRole("button", { name: "Close" }).click();
  await packer.getByRole("button", { name: "Unlock addresses" }).click();
  const noAccess = packer.getByRole("dialog", { name: "Ask the owner for access" });
  await noAccess.getByLabel("Your passphrase").fill(PACKER_PASSPHRASE);
  await noAccess.getByRole("button", { name: "Show my key's fingerprint" }).click();
  await expect(noAccess.getByTestId("staff-key-fingerprint")).toHaveText(packerFingerprint);
  await shot(packer, "packer-revoked");
  await packerContext.close();
});
