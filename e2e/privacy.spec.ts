import { DESKTOP, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// Privacy on the dashboard (issue 15): the retention settings on Bot Settings, and erasing a
// customer's data from their page, after which their orders say when the address was erased.

const ADDRESS = { name: "Greta Hollow", streetAddress: "9 Quiet Mews, York", postcode: "YO1 7HH", contact: null };
const short = (id: string) => id.slice(0, 8);
const today = () => new Date().toLocaleDateString("en-GB");

test.describe("privacy", () => {
  test("the owner sets how long addresses and messages are kept; a bad value is refused with the reason", async ({ adminPage: page }) => {
    await page.goto("/bot-settings");
    const card = page.getByRole("form", { name: "Privacy" });
    const addresses = card.getByLabel("Erase addresses after (days)");
    const messages = card.getByLabel("Erase customer messages after (days)");
    await expect(addresses).toHaveValue("30");
    await expect(messages).toHaveValue("0");

    await addresses.fill("-5");
    await card.getByRole("button", { name: "Save Privacy Settings" }).click();
    await expectToast(page, "Failed to save privacy settings", "Address retention must be at least 0");

    await addresses.fill("90");
    await messages.fill("365");
    await card.getByRole("button", { name: "Save Privacy Settings" }).click();
    await expectToast(page, "Privacy settings saved");
    await page.reload();
    await expect(page.getByRole("form", { name: "Privacy" }).getByLabel("Erase addresses after (days)")).toHaveValue("90");
    await expect(page.getByRole("form", { name: "Privacy" }).getByLabel("Erase customer messages after (days)")).toHaveValue("365");
  });

  test("erasing a customer's data: confirmed first, then their delivered orders say when the address was erased", async ({ adminPage: page, seed }) => {
    const greta = { telegramUserId: "7301", telegramUsername: "greta_h" };
    const delivered = await seed.order({ ...greta, status: "completed", totalAmount: "18.00", shippingAddress: ADDRESS });
    const toSend = await seed.order({ ...greta, status: "processing", totalAmount: "9.50", shippingAddress: ADDRESS });
    await seed.message({ ...greta, message: "Leave it with the neighbour please" });

    await page.setViewportSize(PHONE);
    await page.goto("/customers/7301");
    await expect(page.getByTestId("customer-title")).toContainText("@greta_h");
    // On a phone both actions are whole, one above the other.
    const erase = page.getByRole("button", { name: "Erase customer data" });
    const block = page.getByRole("button", { name: "Block customer" });
    const [eraseBox, blockBox] = [await erase.boundingBox(), await block.boundingBox()];
    expect(eraseBox!.y + eraseBox!.height).toBeLessThanOrEqual(blockBox!.y);
    expect(eraseBox!.x + eraseBox!.width).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "privacy-customer-phone");
    await page.setViewportSize(DESKTOP);
    // Cancel changes nothing.
    await page.getByRole("button", { name: "Erase customer data" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Erase @greta_h's data?" });
    await expect(confirm).toContainText("keeps its address until it is dispatched");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByText("Leave it with the neighbour please")).toBeVisible();

    await page.getByRole("button", { name: "Erase customer data" }).click();
    await saveScreenshot(page, "privacy-erase-confirm", { fullPage: false });
    await confirm.getByRole("button", { name: "Erase customer data" }).click();
    await expectToast(page, "@greta_h's data is erased", "1 address and 1 message erased. 1 address of orders still to be sent will be erased once dispatched.");
    await expect(page.getByText("Leave it with the neighbour please")).toHaveCount(0);

    await page.goto("/orders");
    await page.getByRole("button", { name: `View order ${short(delivered.id)}` }).click();
    const details = page.getByRole("dialog", { name: `Order Details - #${short(delivered.id)}` });
    await expect(details).toContainText(`Address erased on ${today()}`);
    await expect(details).not.toContainText("Greta Hollow");
    await details.getByRole("button", { name: "View Address" }).click();
    const addressDialog = page.getByRole("dialog", { name: `Shipping Address - #${short(delivered.id)}` });
    await expect(addressDialog).toContainText(`Address erased on ${today()}`);
    await saveScreenshot(page, "privacy-address-erased", { fullPage: false });
    await addressDialog.getByRole("button", { name: "Close" }).click();
    await expect(addressDialog).toHaveCount(0);
    await details.getByRole("button", { name: "Close" }).click();
    await expect(details).toHaveCount(0);

    // The order still to be sent keeps what the parcel needs.
    await page.getByRole("button", { name: `View order ${short(toSend.id)}` }).click();
    await expect(page.getByRole("dialog", { name: `Order Details - #${short(toSend.id)}` })).toContainText("Greta Hollow");
  });
});
