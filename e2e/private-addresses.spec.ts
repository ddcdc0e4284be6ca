import fs from "node:fs";
import type { Order, PrivateAddresses } from "../contract";
import { createBotSettings, settle } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { ADMIN_PASSWORD, DESKTOP, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// Private addresses, the owner-only mode (issue 15, item 2): the owner sets a passphrase in Bot
// Settings, the key pair is made in this browser, a new order's address is stored sealed (the seed
// route stores it as checkout does), and the screens show "Sealed: unlock to read" until the owner
// unlocks with the passphrase; then the details, View Address, the packing slip and the export show
// it, and dispatching is the usual one click.

const PASSPHRASE = "amber falcon quietly sings";
const ADDRESS = { name: "Jane Smith", streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: "07700 900123" };
const short = (id: string) => id.slice(0, 8);


test.describe("private addresses", () => {
  test("set up in Bot Settings, sealed until unlocked, then shown everywhere and dispatched in one click", async ({ adminPage: page, seed, api, telegram }) => {
    await createBotSettings(api);
    await page.setViewportSize(DESKTOP);
    await page.goto("/bot-settings");
    const card = page.getByTestId("private-addresses-card");
    await expect(card.getByTestId("private-addresses-state")).toContainText("Off:");
    await expect(card.getByTestId("lost-passphrase-warning")).toContainText("If it is lost, every address sealed with it is lost for good");

    // Refused before anything is made: too short, not the same twice, the warning not acknowledged.
    await card.getByLabel("Passphrase", { exact: true }).fill("short");
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expect(card.getByRole("alert")).toContainText("at least 12 characters");
    await card.getByLabel("Passphrase", { exact: true }).fill(PASSPHRASE);
    await card.getByLabel("Passphrase again").fill(`${PASSPHRASE}!`);
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expect(card.getByRole("alert")).toHaveText("The two passphrases are not the same.");
    await card.getByLabel("Passphrase again").fill(PASSPHRASE);
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expect(card.getByRole("alert")).toContainText("kept the passphrase somewhere safe");
    await card.getByRole("checkbox").check();
    await settle(page);
    await saveScreenshot(page, "private-addresses-setup-desktop");
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expectToast(page, "Private addresses are on");

    const setup = await api.get<PrivateAddresses>("/api/private-addresses");
    expect(setup).toMatchObject({ enabled: true, activeKeyId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    await expect(card.getByTestId("private-addresses-fingerprint")).toHaveText(setup.activeKeyId!.match(/.{4}/g)!.join(" "));
    await expect(card.getByTestId("private-addresses-state")).toContainText("Unlocked in this tab");
    await settle(page);
    await saveScreenshot(page, "private-addresses-on-desktop");

    // A new order, its address stored as checkout stores it: sealed to the owner's key.
    const order = await seed.order({ telegramUserId: "6101", status: "processing", paymentStatus: "confirmed", shippingAddress: ADDRESS });
    const [answered] = await api.get<Order[]>(`/api/orders?q=${order.id}`);
    expect(answered).toMatchObject({ shippingAddress: null, sealedShippingAddress: expect.stringMatching(/^owner-seal:v1:/) });
    expect(JSON.stringify(answered)).not.toContain(ADDRESS.name);

    // A reload forgets the unlocked key: the order says it is sealed.
    await page.goto("/orders");
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    const dialog = page.getByRole("dialog", { name: `Order Details - #${short(order.id)}` });
    const customer = dialog.getByRole("region", { name: "Customer Information" });
    await expect(customer.getByTestId("sealed-address")).toContainText("Sealed: unlock to read");
    await expect(dialog.getByText(ADDRESS.name)).toHaveCount(0);
    await settle(page);
    await saveScreenshot(page, "private-addresses-sealed-details-desktop");

    // A wrong passphrase is refused with a clear message; the right one opens the address.
    await customer.getByRole("button", { name: "Unlock addresses" }).click();
    const unlock = page.getByRole("dialog", { name: "Unlock addresses" });
    await unlock.getByLabel("Passphrase").fill("not the passphrase at all");
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await expect(unlock.getByRole("alert")).toHaveText("That passphrase does not unlock the private addresses. Check it and try again.");
    await settle(page);
    await saveScreenshot(page, "private-addresses-wrong-passphrase-desktop");
    await unlock.getByLabel("Passphrase").fill(PASSPHRASE);
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await expectToast(page, "Addresses unlocked");
    await expect(unlock).toHaveCount(0);
    await expect(customer).toContainText(`Name${ADDRESS.name}`);
    await expect(customer).toContainText(`Address${ADDRESS.streetAddress}`);
    await expect(customer).toContainText(`Postcode${ADDRESS.postcode}`);
    await expect(customer).toContainText(`Contact${ADDRESS.contact}`);
    await settle(page);
    await saveScreenshot(page, "private-addresses-unlocked-details-desktop");

    // View Address: the label's lines with their copy buttons.
    await dialog.getByRole("button", { name: "View Address" }).click();
    const label = page.getByTestId("shipping-label");
    await expect(label.getByRole("group", { name: "Name" })).toContainText(ADDRESS.name);
    await expect(label.getByRole("group", { name: "Postcode" })).toContainText(ADDRESS.postcode);
    await page.keyboard.press("Escape");
    await expect(label).toHaveCount(0);

    // The packing slip, reached in the app: this tab is still unlocked.
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    await page.getByRole("checkbox", { name: `Select order ${short(order.id)}` }).check();
    await page.getByRole("link", { name: "Print packing slips" }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/packing-slips\\?ids=${order.id}$`));
    await expect(page.getByTestId("packing-slip").getByRole("region", { name: "Ship to" })).toContainText(ADDRESS.streetAddress);
    await page.getByRole("link", { name: "Back to Orders" }).click();

    // Dispatch, through the dispatch dialog.
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    await expect(customer).toContainText(`Name${ADDRESS.name}`);
    const from = telegram.calls.length;
    await dialog.getByRole("button", { name: "Mark as Dispatched" }).click();
    await page.getByRole("form", { name: "Dispatch" }).getByRole("button", { name: "Dispatch and notify" }).click();
    await expectToast(page, "Order dispatched and customer notified!");
    await telegram.waitForCall((c) => c.method === "sendMessage" && String(c.payload.chat_id) === "6101", { from });
    expect((await api.get<Order[]>(`/api/orders?q=${order.id}`))[0]!.status).toBe("dispatched");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);

    // Export from the unlocked tab: the browser fills in the address it opened.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), "utf8");
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toContain(`Jane Smith (@`);
    expect(csv).toContain(`"1 High Street, London",SW1A 1AA,07700 900123`);
    expect(csv).not.toContain("owner-seal:v1:");

    await page.goto(`/orders/packing-slips?ids=${order.id}`);
    // A fresh load of the print view is a new page: locked again, with the unlock button at hand.
    const slip = page.getByTestId("packing-slip");
    await expect(slip.getByTestId("sealed-address")).toContainText("Sealed: unlock to read");
    await saveScreenshot(page, "private-addresses-sealed-slip-desktop");
    await page.getByRole("button", { name: "Unlock addresses" }).first().click();
    await page.getByRole("dialog", { name: "Unlock addresses" }).getByLabel("Passphrase").fill(PASSPHRASE);
    await page.getByRole("dialog", { name: "Unlock addresses" }).getByRole("button", { name: "Unlock" }).click();
    await expect(slip.getByRole("region", { name: "Ship to" })).toContainText(ADDRESS.name);
    await expect(slip.getByRole("region", { name: "Ship to" })).toContainText(ADDRESS.postcode);
    await settle(page);
    await saveScreenshot(page, "private-addresses-unlocked-slip-desktop");
  });

  test("export without unlocking carries the sealed form; change the passphrase; turn off keeps sealed addresses sealed", async ({
    adminPage: page,
    seed,
    api,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/bot-settings");
    const card = page.getByTestId("private-addresses-card");
    await card.getByLabel("Passphrase", { exact: true }).fill(PASSPHRASE);
    await card.getByLabel("Passphrase again").fill(PASSPHRASE);
    await card.getByRole("checkbox").check();
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expectToast(page, "Private addresses are on");
    const sealedOrder = await seed.order({ status: "processing", shippingAddress: ADDRESS });

    // Change the passphrase: a wrong current one is refused; the new one opens what was sealed before.
    const change = card.getByRole("form", { name: "Change passphrase" });
    await change.getByLabel("Current passphrase").fill("wrong wrong wrong");
    await change.getByLabel("New passphrase", { exact: true }).fill("a new passphrase for the shop");
    await change.getByLabel("New passphrase again").fill("a new passphrase for the shop");
    await change.getByRole("button", { name: "Change passphrase" }).click();
    await expect(change.getByRole("alert")).toHaveText("That passphrase does not unlock the private addresses. Check it and try again.");
    await change.getByLabel("Current passphrase").fill(PASSPHRASE);
    await change.getByRole("button", { name: "Change passphrase" }).click();
    await expectToast(page, "Passphrase changed");
    await settle(page);
    await saveScreenshot(page, "private-addresses-on-phone");

    // Turn off: new addresses go back to the server's key; the sealed one stays sealed.
    await card.getByRole("button", { name: "Turn off private addresses" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Addresses sealed until now stay sealed");
    await page.getByRole("alertdialog").getByRole("button", { name: "Turn off" }).click();
    await expectToast(page, "Private addresses are off");
    await expect(card.getByTestId("private-addresses-state")).toContainText("Off:");
    const clearOrder = await seed.order({ status: "processing", shippingAddress: { ...ADDRESS, name: "Later Customer" } });
    const orders = await api.get<Order[]>("/api/orders");
    expect(orders.find((o) => o.id === clearOrder.id)).toMatchObject({ shippingAddress: { name: "Later Customer" }, sealedShippingAddress: null });
    expect(orders.find((o) => o.id === sealedOrder.id)).toMatchObject({ shippingAddress: null, sealedShippingAddress: expect.stringMatching(/^owner-seal:v1:/) });

    // A fresh tab (locked): the export carries the sealed form, not the address.
    await page.setViewportSize(DESKTOP);
    await page.goto("/orders");
    await expect(page.getByRole("button", { name: "Unlock addresses" })).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export" }).click()]);
    const csv = fs.readFileSync(await download.path(), "utf8");
    expect(csv).toContain("Sealed address");
    expect(csv).toContain(orders.find((o) => o.id === sealedOrder.id)!.sealedShippingAddress!);
    expect(csv).not.toContain("Jane Smith");
    expect(csv).toContain("Later Customer");

    // The new passphrase opens the old sealed address; the old one no longer does.
    await page.getByRole("button", { name: `View order ${short(sealedOrder.id)}` }).click();
    const dialog = page.getByRole("dialog", { name: `Order Details - #${short(sealedOrder.id)}` });
    await dialog.getByRole("button", { name: "Unlock addresses" }).click();
    const unlock = page.getByRole("dialog", { name: "Unlock addresses" });
    await unlock.getByLabel("Passphrase").fill(PASSPHRASE);
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await expect(unlock.getByRole("alert")).toContainText("does not unlock");
    await unlock.getByLabel("Passphrase").fill("a new passphrase for the shop");
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await expect(dialog.getByRole("region", { name: "Customer Information" })).toContainText("Jane Smith");

    // Logging out forgets the key: after logging in again the address is sealed until unlocked.
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Owner user menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await page.getByRole("button", { name: `View order ${short(sealedOrder.id)}` }).click();
    await expect(dialog.getByTestId("sealed-address")).toContainText("Sealed: unlock to read");
    await expect(dialog.getByText("Jane Smith")).toHaveCount(0);
  });

  test("axe finds nothing serious on the card, the sealed details and the unlock dialog", async ({ adminPage: page, seed }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto("/bot-settings");
    const card = page.getByTestId("private-addresses-card");
    await expect(card.getByRole("button", { name: "Turn on private addresses" })).toBeVisible();
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expect(card.getByRole("alert")).toHaveCount(1);
    await expectNoSeriousViolations(page, "the card, off, with an error", '[data-testid="private-addresses-card"]');
    await card.getByLabel("Passphrase", { exact: true }).fill(PASSPHRASE);
    await card.getByLabel("Passphrase again").fill(PASSPHRASE);
    await card.getByRole("checkbox").check();
    await card.getByRole("button", { name: "Turn on private addresses" }).click();
    await expectToast(page, "Private addresses are on");
    await expectNoSeriousViolations(page, "the card, on", '[data-testid="private-addresses-card"]');

    const order = await seed.order({ status: "processing", shippingAddress: ADDRESS });
    await page.goto("/orders");
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    await expect(page.getByTestId("sealed-address")).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(page, "the sealed order details");
    await page.getByTestId("sealed-address").getByRole("button", { name: "Unlock addresses" }).click();
    const unlock = page.getByRole("dialog", { name: "Unlock addresses" });
    await unlock.getByLabel("Passphrase").fill("wrong passphrase here");
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await expect(unlock.getByRole("alert")).toBeVisible();
    await settle(page);
    await expectNoSeriousViolations(page, "the unlock dialog with its error", '[role="dialog"][aria-labelledby]');
  });
});
