import fs from "node:fs";
import path from "node:path";
import type { Order } from "../contract";
import { createBotSettings, settle } from "./fixtures/ui";
import { DESKTOP, expect, expectToast, PHONE, saveScreenshot, SCREENSHOT_DIR, test } from "./support/fixtures";

// The dispatch workstation (issue 13): carrier and tracking number, Mark as Completed, the address
// with copy buttons, packing slips and the bulk dispatch.

const ADDRESS = { name: "Jane Smith", streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: "07700 900123" };
const PRODUCT_A = "0a1b2c3d-0000-4000-8000-000000000001";
const PRODUCT_B = "9f8e7d6c-0000-4000-8000-000000000002";
const short = (id: string) => id.slice(0, 8);

test.describe("dispatch workstation", () => {
  test("dispatch with a carrier and tracking number reaches the customer with the tracking link; then Mark as Completed", async ({
    adminPage: page,
    seed,
    api,
    telegram,
  }) => {
    await createBotSettings(api);
    const order = await seed.order({ telegramUserId: "6001", status: "processing", paymentStatus: "confirmed", shippingAddress: ADDRESS });
    await page.goto("/orders");
    await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
    const dialog = page.getByRole("dialog", { name: `Order Details - #${short(order.id)}` });
    await dialog.getByRole("button", { name: "Mark as Dispatched" }).click();
    const dispatchDialog = page.getByRole("dialog", { name: `Dispatch order #${short(order.id)}` });
    const form = dispatchDialog.getByRole("form", { name: "Dispatch" });
    await form.getByLabel("Carrier (optional)").fill("royal mail");
    await form.getByLabel("Tracking number (optional)").fill("AB123456789GB");
    const expected = [
      `Good news! Your order #${short(order.id)} has been dispatched.`,
      "Carrier: Royal Mail",
      "Tracking number: AB123456789GB",
      "Track your parcel: https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
      "Thank you for shopping with us.",
    ].join("\n");
    // The preview is the message itself, the carrier spelt as it will be stored.
    await expect(form.getByRole("status", { name: "Message to the customer" })).toHaveText(expected);
    await settle(page);
    await saveScreenshot(page, "dispatch-form-desktop");

    const from = telegram.calls.length;
    await form.getByRole("button", { name: "Dispatch and notify" }).click();
    await expectToast(page, "Order dispatched and customer notified!");
    const call = await telegram.waitForCall((c) => c.method === "sendMessage" && String(c.payload.chat_id) === "6001", { from });
    expect(String(call.payload.text)).toBe(expected);

    // The dialog now shows how the parcel travels, with the carrier's page one click away.
    const customer = dialog.getByRole("region", { name: "Customer Information" });
    await expect(customer).toContainText("CarrierRoyal Mail");
    await expect(customer.getByRole("link", { name: /AB123456789GB/ })).toHaveAttribute(
      "href",
      "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
    );
    await expect(form).toHaveCount(0);

    await dialog.getByRole("button", { name: "Mark as Completed" }).click();
    await expectToast(page, "Order updated successfully!");
    await expect(dialog.getByText("Completed", { exact: true })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Mark as Completed" })).toHaveCount(0);
    const saved = (await api.get<Order[]>("/api/orders")).find((o) => o.id === order.id)!;
    expect(saved).toMatchObject({ status: "completed", carrier: "Royal Mail", trackingNumber: "AB123456789GB" });
    await settle(page);
    await saveScreenshot(page, "dispatch-completed-desktop");
  });

  test("the truck opens the dispatch dialog with the message previewed; Undo within the window restores the order and nothing is sent; focus returns to the row", async ({
    adminPage: page,
    seed,
    api,
    telegram,
  }) => {
    await createBotSettings(api);
    const order = await seed.order({ telegramUserId: "6101", telegramUsername: "undo_me", status: "processing", paymentStatus: "confirmed" });
    await page.goto("/orders");
    const row = page.getByTestId("order-row").filter({ hasText: short(order.id) });
    const truck = row.getByRole("button", { name: `Dispatch order ${short(order.id)}` });
    await truck.click();
    const dispatchDialog = page.getByRole("dialog", { name: `Dispatch order #${short(order.id)}` });
    await expect(dispatchDialog).toContainText("To @undo_me.");
    const preview = dispatchDialog.getByRole("status", { name: "Message to the customer" });
    await expect(preview).toHaveText(`Good news! Your order #${short(order.id)} has been dispatched.\nThank you for shopping with us.`);
    // Hostile text stays text: the preview shows it as typed, and nothing is sent while the dialog is open.
    await dispatchDialog.getByLabel("Carrier (optional)").fill("dpd");
    await dispatchDialog.getByLabel("Tracking number (optional)").fill("1550 1234");
    await dispatchDialog.getByLabel("Note to the customer (optional)").fill("<img src=x onerror=alert(1)> ring twice");
    await expect(preview).toHaveText(
      [
        `Good news! Your order #${short(order.id)} has been dispatched.`,
        "Carrier: DPD",
        "Tracking number: 1550 1234",
        "Track your parcel: https://track.dpd.co.uk/parcels/15501234",
        "Note from the shop: <img src=x onerror=alert(1)> ring twice",
        "Thank you for shopping with us.",
      ].join("\n"),
    );
    // Cancel: nothing changed, the focus is back on the truck.
    await dispatchDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dispatchDialog).toHaveCount(0);
    await expect(truck).toBeFocused();

    const from = telegram.calls.length;
    await truck.click();
    await dispatchDialog.getByLabel("Tracking number (optional)").fill("1550 1234");
    await dispatchDialog.getByRole("button", { name: "Dispatch and notify" }).click();
    const toast = await expectToast(page, "Order dispatched and customer notified!", "Undo puts the order back to Ready to Dispatch.");
    await expect(row.getByRole("cell").nth(5)).toHaveText("Dispatched");
    // The truck is gone with the dispatch: the focus is on the row's view button, not lost to <body>.
    await expect(row.getByRole("button", { name: `View order ${short(order.id)}` })).toBeFocused();
    await settle(page);
    await saveScreenshot(page, "dispatch-undo-toast-desktop");

    await toast.getByRole("button", { name: "Undo" }).click();
    await expectToast(page, "Dispatch undone", `Order #${short(order.id)} is Ready to Dispatch again. The customer was not told.`);
    await expect(row.getByRole("cell").nth(5)).toHaveText("Processing");
    await expect(truck).toBeFocused();
    const saved = (await api.get<Order[]>("/api/orders")).find((o) => o.id === order.id)!;
    expect(saved).toMatchObject({ status: "processing", trackingNumber: null, dispatchNotice: null });
    // No message is held any more (dispatchNotice null above), so none can be sent; none was.
    expect(telegram.calls.slice(from).filter((c) => c.method === "sendMessage" && String(c.payload.chat_id) === "6101")).toEqual([]);
  });

  test("a refused tracking number shows the server's sentence and the order stays Ready to Dispatch", async ({ adminPage: page, seed, api }) => {
    const order = await seed.order({ status: "processing", paymentStatus: "confirmed" });
    await page.goto("/orders");
    await page.getByRole("button", { name: `Dispatch order ${short(order.id)}` }).click();
    const form = page.getByRole("dialog", { name: `Dispatch order #${short(order.id)}` }).getByRole("form", { name: "Dispatch" });
    await form.getByLabel("Tracking number (optional)").fill("RM1 <script>");
    await form.getByRole("button", { name: "Dispatch and notify" }).click();
    await expectToast(page, "Failed to update order", "Tracking number may contain only letters, digits, spaces and hyphens");
    // The dialog stays open with what was typed, to be corrected.
    await expect(form.getByLabel("Tracking number (optional)")).toHaveValue("RM1 <script>");
    expect((await api.get<Order[]>("/api/orders")).find((o) => o.id === order.id)!.status).toBe("processing");
  });

  test("View Address: the full address with a copy button per line and Copy all", async ({ adminPage: page, seed, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const order = await seed.order({ status: "processing", paymentStatus: "confirmed", shippingAddress: ADDRESS });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.goto("/orders");
      await page.getByRole("button", { name: `View order ${short(order.id)}` }).click();
      await page.getByRole("button", { name: "View Address" }).click();
      const addressDialog = page.getByRole("dialog", { name: `Shipping Address - #${short(order.id)}` });
      await expect(addressDialog).toBeVisible();
      for (const [line, value] of [
        ["Name", ADDRESS.name],
        ["Street address", ADDRESS.streetAddress],
        ["Postcode", ADDRESS.postcode],
        ["Contact", ADDRESS.contact],
      ]) {
        await expect(addressDialog.getByRole("group", { name: line })).toContainText(value!);
      }
      await addressDialog.getByRole("button", { name: "Copy postcode" }).click();
      await expectToast(page, "Postcode copied!");
      expect(await clipboard()).toBe("SW1A 1AA");
      await addressDialog.getByRole("button", { name: "Copy all" }).click();
      await expectToast(page, "Address copied!");
      expect(await clipboard()).toBe("Jane Smith\n1 High Street, London\nSW1A 1AA\n07700 900123");
      await settle(page);
      await saveScreenshot(page, `dispatch-address-${size}`);

      // Closing the address returns to the order's details.
      await addressDialog.getByRole("button", { name: "Close" }).click();
      await expect(addressDialog).toHaveCount(0);
      const details = page.getByRole("dialog", { name: `Order Details - #${short(order.id)}` });
      await expect(details).toBeVisible();
      await expect(details.getByRole("button", { name: "View Address" })).toBeFocused();
      await details.getByRole("button", { name: "Close" }).click();
    }
  });

  test("packing slips: every order Ready to Dispatch, or the selection, one A4 page each", async ({ adminPage: page, seed }) => {
    const first = await seed.order({
      status: "processing",
      paymentStatus: "confirmed",
      shippingAddress: ADDRESS,
      postageName: "Royal Mail 1st Class",
      postagePrice: "3.95",
      items: [
        { productId: PRODUCT_A, productName: "Wireless Headphones", price: "10.00", quantity: 2 },
        { productId: PRODUCT_B, productName: "USB Cable", price: "5.00", quantity: 3 },
      ],
      createdAt: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
    });
    const second = await seed.order({
      status: "processing",
      paymentStatus: "confirmed",
      shippingAddress: { name: "Bob Jones", streetAddress: "22 Mill Road, Leeds", postcode: "LS1 4AB", contact: null },
      items: [{ productId: PRODUCT_A, productName: "Wireless Headphones", price: "10.00", quantity: 1 }],
    });
    const pending = await seed.order({ status: "pending", items: [{ productId: PRODUCT_B, productName: "USB Cable", price: "5.00" }] });

    // Nothing ticked: every order Ready to Dispatch, oldest first.
    await page.goto("/orders");
    await page.getByRole("link", { name: "Print packing slips" }).click();
    await expect(page).toHaveURL(/\/orders\/packing-slips$/);
    await expect(page).toHaveTitle("Packing slips · Shop Admin");
    const slips = page.getByTestId("packing-slip");
    await expect(slips).toHaveCount(2);
    await expect(page.getByText("2 slips, one A4 page each")).toBeVisible();
    const firstSlip = slips.nth(0);
    await expect(firstSlip).toContainText(`#${short(first.id)}`);
    await expect(firstSlip.getByTestId("full-order-id")).toHaveText(first.id);
    await expect(firstSlip.getByRole("region", { name: "Ship to" })).toContainText("Jane Smith1 High Street, LondonSW1A 1AA07700 900123");
    await expect(firstSlip.getByTestId("packing-slip-item")).toHaveText([/USB Cable\s*3/, /Wireless Headphones\s*2/]);
    await expect(firstSlip).toContainText("Total items5");
    await expect(firstSlip).toContainText("Postage: Royal Mail 1st Class (£3.95)");
    await expect(slips.nth(1)).toContainText(`#${short(second.id)}`);
    await expect(slips.nth(1)).toContainText("Bob Jones22 Mill Road, LeedsLS1 4AB");
    await expect(slips.nth(1)).toContainText("Postage: No Postage Method Selected");
    await expect(page.getByText(short(pending.id))).toHaveCount(0);
    // No app frame on the print view.
    await expect(page.getByRole("navigation")).toHaveCount(0);
    await saveScreenshot(page, "packing-slips-desktop");

    // On paper: the toolbar is gone and each slip starts a new A4 page.
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
    await expect(slips.nth(0)).toHaveCSS("break-after", "page");
    await saveScreenshot(page, "packing-slips-print");
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    fs.writeFileSync(path.join(SCREENSHOT_DIR, "packing-slips.pdf"), pdf);
    const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages).toHaveLength(2);
    await page.emulateMedia({ media: "screen" });

    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "packing-slips-phone");
    await page.setViewportSize(DESKTOP);

    // One order ticked: only its slip.
    await page.getByRole("link", { name: "Back to Orders" }).click();
    await page.getByRole("checkbox", { name: `Select order ${short(second.id)}` }).check();
    await expect(page.getByText("1 order selected")).toBeVisible();
    await page.getByRole("link", { name: "Print packing slips" }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/packing-slips\\?ids=${second.id}$`));
    await expect(slips).toHaveCount(1);
    await expect(slips.nth(0)).toContainText(`#${short(second.id)}`);
    await expect(page.getByRole("heading", { name: "Packing slips for the selected orders" })).toBeVisible();
  });

  test("bulk dispatch: the ticked orders Ready to Dispatch, each customer told, one toast with the count", async ({
    adminPage: page,
    seed,
    api,
    telegram,
  }) => {
    await createBotSettings(api);
    const ready = await Promise.all(
      ["7001", "7002", "7003", "7004"].map((userId) => seed.order({ telegramUserId: userId, status: "processing", paymentStatus: "confirmed" })),
    );
    const pending = await seed.order({ telegramUserId: "7009", status: "pending" });
    await page.goto("/orders");
    const statusOf = async (id: string) => (await api.get<Order[]>("/api/orders")).find((o) => o.id === id)!.status;
    const bulk = page.getByRole("button", { name: /Dispatch selected/ });
    await expect(bulk).toBeDisabled();

    // Two ready orders and a pending one ticked: the pending one is left alone.
    let from = telegram.calls.length;
    for (const order of [ready[0]!, ready[1]!, pending]) {
      await page.getByRole("checkbox", { name: `Select order ${short(order.id)}` }).check();
    }
    await expect(page.getByText("3 orders selected")).toBeVisible();
    await expect(bulk).toHaveText("Dispatch selected (2)");
    await settle(page);
    await saveScreenshot(page, "dispatch-selected-desktop");
    await bulk.click();
    const confirm = page.getByRole("alertdialog", { name: "Dispatch selected orders" });
    await expect(confirm).toContainText("2 orders Ready to Dispatch will be marked as dispatched");
    await expect(confirm).toContainText("1 selected order is not Ready to Dispatch and will be left as it is.");
    // One request for them all, by id: the pending one is not sent.
    const bulkRequest = page.waitForRequest((request) => request.url().endsWith("/api/orders/bulk-dispatch"));
    await confirm.getByRole("button", { name: "Dispatch" }).click();
    expect(new Set(((await bulkRequest).postDataJSON() as { ids: string[] }).ids)).toEqual(new Set([ready[0]!.id, ready[1]!.id]));
    await expectToast(page, "2 orders dispatched and customers notified!");
    for (const order of [ready[0]!, ready[1]!]) {
      const call = await telegram.waitForCall(
        (c) => c.method === "sendMessage" && String(c.payload.chat_id) === order.telegramUserId,
        { from },
      );
      expect(String(call.payload.text)).toContain(`#${short(order.id)} has been dispatched`);
      expect(await statusOf(order.id)).toBe("dispatched");
    }
    expect(await statusOf(pending.id)).toBe("pending");
    expect(telegram.calls.slice(from).filter((c) => c.method === "sendMessage" && String(c.payload.chat_id) === "7009")).toEqual([]);
    await expect(page.getByText("Tick orders to print their packing slips or dispatch them together.")).toBeVisible();

    // The select-all box, one refusal and one customer Telegram will not reach: the toast says so.
    from = telegram.calls.length;
    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "Processing" }).click();
    await expect(page.getByTestId("order-row")).toHaveCount(2);
    await page.getByRole("checkbox", { name: "Select all orders shown" }).check();
    await expect(bulk).toHaveText("Dispatch selected (2)");
    // One request for both (POST /api/orders/bulk-dispatch); the server refuses one of them, as when
    // another tab dispatched it meanwhile, and says why in its answer.
    let sentIds: string[] = [];
    await page.route("**/api/orders/bulk-dispatch", async (route) => {
      sentIds = (route.request().postDataJSON() as { ids: string[] }).ids;
      const response = await route.fetch({ postData: JSON.stringify({ ids: sentIds.filter((id) => id !== ready[2]!.id) }) });
      const result = (await response.json()) as { skipped: unknown[] };
      const refusal = { id: ready[2]!.id, reason: `Order #${short(ready[2]!.id)} is already dispatched.` };
      await route.fulfill({ response, json: { ...result, skipped: [...result.skipped, refusal] } });
    });
    telegram.failNext("sendMessage", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
    await bulk.click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Dispatch" }).click();
    const toast = await expectToast(page, "Dispatched 1 of 2 orders");
    expect(new Set(sentIds)).toEqual(new Set([ready[2]!.id, ready[3]!.id]));
    await expect(toast).toContainText(`1 order was not dispatched. #${short(ready[2]!.id)}: Order #${short(ready[2]!.id)} is already dispatched.`);
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    // Telegram refuses the held message once the undo window ends: the owner is told then.
    await expectToast(page, "Order updated but notification failed");
    expect(await statusOf(ready[3]!.id)).toBe("dispatched");
    expect(await statusOf(ready[2]!.id)).toBe("processing");
  });

  test("phone size: ticking orders and the dispatch tools fit", async ({ adminPage: page, seed }) => {
    await page.setViewportSize(PHONE);
    const order = await seed.order({ telegramUsername: "alice", status: "processing", paymentStatus: "confirmed", shippingAddress: ADDRESS });
    await seed.order({ telegramUsername: "bob", status: "dispatched", paymentStatus: "confirmed" });
    await page.goto("/orders");
    await expect(page.getByTestId("order-card")).toHaveCount(2);
    await page.getByRole("checkbox", { name: `Select order ${short(order.id)}` }).check();
    await expect(page.getByRole("button", { name: "Dispatch selected (1)" })).toBeEnabled();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await settle(page);
    await saveScreenshot(page, "dispatch-tools-phone");

    await page.getByRole("button", { name: `Dispatch order ${short(order.id)}` }).click();
    await expect(page.getByRole("dialog").getByRole("form", { name: "Dispatch" })).toBeVisible();
    await settle(page);
    await saveScreenshot(page, "dispatch-form-phone");
  });
});
