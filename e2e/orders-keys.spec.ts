import type { Order } from "../contract";
import { createBotSettings, inBatches, settle } from "./fixtures/ui";
import { expectNoSeriousViolations } from "./support/axe";
import { DESKTOP, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

// Issue 22 item 4 ("Select all N matching" acts on every order the filter matches: bulk dispatch,
// packing slips, export) and item 11 (keyboard shortcuts for the daily loop; the first row's actions
// in under 10 key presses).

const short = (id: string) => id.slice(0, 8);
const MINUTE = 60_000;


test.describe("orders: select all matching and the keyboard", () => {
  test("Select all N matching: the count, every page ticked, packing slips (capped), export and bulk dispatch take the whole filter", async ({
    adminPage: page,
    seed,
    api,
  }) => {
    test.slow();
    await createBotSettings(api);
    const start = Date.now();
    // 30 Ready to Dispatch and 2 pending orders match "@keys"; one ready order and 201 completed ones do not.
    const ready = await inBatches(30, 10, (i) =>
      seed.order({ telegramUsername: `keys${i}`, status: "processing", paymentStatus: "confirmed", createdAt: new Date(start - i * MINUTE).toISOString() }),
    );
    const pending = await inBatches(2, 2, (i) =>
      seed.order({ telegramUsername: `keyspending${i}`, status: "pending", createdAt: new Date(start - (40 + i) * MINUTE).toISOString() }),
    );
    const other = await seed.order({ telegramUsername: "someone", status: "processing", paymentStatus: "confirmed" });
    await inBatches(201, 15, (i) =>
      seed.order({ telegramUserId: String(990000 + i), status: "completed", createdAt: new Date(start - (60 + i) * MINUTE).toISOString() }),
    );

    await page.goto("/orders");
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toContainText("1–25 of 234 orders");
    const offer = page.getByRole("button", { name: /^Select all \d+ matching$/ });
    const headerBox = page.getByRole("checkbox", { name: "Select all orders shown" });
    const bulk = page.getByRole("button", { name: /Dispatch selected/ });
    const slipsLink = page.getByRole("link", { name: "Print packing slips" });
    // Nothing offered until every order shown is ticked.
    await expect(offer).toHaveCount(0);
    await headerBox.check();
    await expect(page.getByText("25 orders selected")).toBeVisible();
    await expect(offer).toHaveText("Select all 234 matching");
    await offer.click();
    await expect(page.getByText("All 234 matching orders selected")).toBeVisible();
    await expect(offer).toHaveCount(0);
    // Every order Ready to Dispatch among them, counted by the server: beyond the 25 shown.
    await expect(bulk).toHaveText("Dispatch selected (31)");
    await settle(page);
    await saveScreenshot(page, "orders-all-matching-desktop");
    await expectNoSeriousViolations(page, "the Orders screen", "main");
    // More than the print view takes at once: it says so, and prints nothing rather than some.
    await expect(slipsLink).toHaveAttribute("href", "/orders/packing-slips?matching=1");
    await slipsLink.click();
    await expect(page.getByRole("heading", { name: "Packing slips for every matching order" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(
      "234 orders match: packing slips print at most 200 at once. Narrow the filter (a status or dates), then print them in parts.",
    );
    await expect(page.getByTestId("packing-slip")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Print" })).toBeDisabled();
    await page.goBack();

    // A search: its own count, its own offer.
    const search = page.getByRole("searchbox", { name: "Search orders" });
    await search.fill("@keys");
    await expect(pager).toContainText("1–25 of 32 orders");
    await headerBox.check();
    await offer.click();
    await expect(page.getByText("All 32 matching orders selected")).toBeVisible();
    // Ready to Dispatch among them: 30; the 2 pending ones are left alone.
    await expect(bulk).toHaveText("Dispatch selected (30)");
    // Unticking one leaves the orders shown ticked, and the offer comes back once all are again.
    const firstBox = page.getByRole("checkbox", { name: `Select order ${short(ready[0]!.id)}` });
    await firstBox.uncheck();
    await expect(page.getByText("24 orders selected")).toBeVisible();
    await expect(offer).toHaveCount(0);
    await firstBox.check();
    await offer.click();
    // Every page is ticked, not just the first.
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(pager).toContainText("26–32 of 32 orders");
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(7);
    for (const box of await rows.getByRole("checkbox").all()) await expect(box).toBeChecked();
    await expect(page.getByText("All 32 matching orders selected")).toBeVisible();
    // The export takes the filter: every matching order.
    await expect(page.getByRole("link", { name: "Export" })).toHaveAttribute("href", "/api/orders/export.csv?q=%40keys");
    // The packing slips: one per matching order, in the list's order.
    await expect(slipsLink).toHaveAttribute("href", "/orders/packing-slips?matching=1&q=%40keys");
    await slipsLink.click();
    const slips = page.getByTestId("packing-slip");
    await expect(slips).toHaveCount(32);
    await expect(page.getByText("32 slips, one A4 page each")).toBeVisible();
    await expect(slips.first()).toContainText(`#${short(ready[0]!.id)}`);
    await expect(slips.last()).toContainText(`#${short(pending[1]!.id)}`);
    await expect(page.getByText(`#${short(other.id)}`)).toHaveCount(0);
    // A hand-made link: a search is literal (LIKE's % _ \ match only themselves); a bad status, sort or day is left out.
    await page.goto(`/orders/packing-slips?matching=1&q=${encodeURIComponent("%_\\")}&status=bogus&sort=%27%3Bdrop&from=2026-13-45`);
    await expect(page.getByText("No orders match")).toBeVisible();
    await page.goto("/orders?q=%40keys");

    // The bulk dispatch sends the filter, not 32 ids: the server dispatches what matches.
    await expect(search).toHaveValue("@keys");
    await headerBox.check();
    await offer.click();
    await bulk.click();
    const confirm = page.getByRole("alertdialog", { name: "Dispatch selected orders" });
    await expect(confirm).toContainText("30 orders Ready to Dispatch will be marked as dispatched");
    await expect(confirm).toContainText("2 selected orders are not Ready to Dispatch and will be left as they are.");
    const request = page.waitForRequest((r) => r.url().endsWith("/api/orders/bulk-dispatch"));
    await confirm.getByRole("button", { name: "Dispatch" }).click();
    expect((await request).postDataJSON()).toEqual({ filter: { status: "processing", q: "@keys" } });
    await expectToast(page, "30 orders dispatched and customers notified!");
    const statuses = new Map((await api.get<Order[]>("/api/orders")).map((order) => [order.id, order.status]));
    for (const order of ready) expect(statuses.get(order.id)).toBe("dispatched");
    for (const order of pending) expect(statuses.get(order.id)).toBe("pending");
    expect(statuses.get(other.id)).toBe("processing");
    await expect(page.getByText("Tick orders to print their packing slips or dispatch them together.")).toBeVisible();
  });

  test("keyboard: the first row's actions in under 10 key presses; / j k o d ? and their limits", async ({ adminPage: page, seed }) => {
    const start = Date.now();
    const newest = await seed.order({ telegramUsername: "first", status: "processing", paymentStatus: "confirmed", createdAt: new Date(start).toISOString() });
    const middle = await seed.order({ telegramUsername: "second", status: "completed", createdAt: new Date(start - MINUTE).toISOString() });
    const oldest = await seed.order({ telegramUsername: "third", status: "processing", paymentStatus: "confirmed", createdAt: new Date(start - 2 * MINUTE).toISOString() });
    await page.goto("/orders");
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(3);

    // From a fresh load, Tab (and Enter on a skip link) reaches the first row's actions in under 10 presses.
    const firstView = page.getByRole("button", { name: `View order ${short(newest.id)}` });
    const presses: string[] = [];
    while (presses.length < 10 && !(await firstView.evaluate((button) => button === document.activeElement))) {
      const onSkipLink = await page.evaluate(() => {
        const focused = document.activeElement;
        return focused instanceof HTMLAnchorElement && /^Skip to/.test(focused.textContent ?? "");
      });
      const key = onSkipLink ? "Enter" : "Tab";
      presses.push(key);
      await page.keyboard.press(key);
    }
    await expect(firstView).toBeFocused();
    expect(presses.length, presses.join(" ")).toBeLessThan(10);

    // The row the focus is in is the current one: marked, for the eye and for assistive technology.
    const current = page.locator('[data-testid="order-row"][aria-current="true"]');
    await expect(current).toHaveCount(1);
    await expect(current).toContainText("@first");

    // ?: the list of shortcuts; also behind a visible button.
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toBeVisible();
    for (const line of ["/Search orders", "jNext order", "kPrevious order", "oOpen the order's details", "dDispatch the order", "?Show these shortcuts"]) {
      await expect(help).toContainText(line);
    }
    await settle(page);
    await saveScreenshot(page, "orders-shortcuts-desktop");
    await expectNoSeriousViolations(page, "the dialog", '[role="dialog"]');
    await page.keyboard.press("Escape");
    await expect(help).toHaveCount(0);
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    await expect(help).toBeVisible();
    // While a dialog is open the keys are its own: j moves nothing behind it.
    await page.keyboard.press("j");
    await page.keyboard.press("Escape");
    await expect(help).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Keyboard shortcuts" })).toBeFocused();
    await expect(current).toContainText("@first");

    // j and k move the current row and focus its view button; they stop at the ends.
    await page.keyboard.press("j");
    await expect(current).toContainText("@second");
    await expect(page.getByRole("button", { name: `View order ${short(middle.id)}` })).toBeFocused();
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect(current).toContainText("@third");
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await expect(current).toContainText("@first");
    await expect(firstView).toBeFocused();
    await page.keyboard.press("j");
    await expect(current).toContainText("@second");
    await settle(page);
    await saveScreenshot(page, "orders-current-row-desktop", { fullPage: false });

    // With Ctrl, Alt or Cmd the key is the browser's; Shift+J is not j.
    await page.keyboard.press("Alt+j");
    await page.keyboard.press("Shift+J");
    await expect(current).toContainText("@second");

    // d on an order not Ready to Dispatch does nothing; o opens its details.
    await page.keyboard.press("d");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.keyboard.press("o");
    const details = page.getByRole("dialog", { name: `Order Details - #${short(middle.id)}` });
    await expect(details).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]order=${middle.id}`));
    await page.keyboard.press("Escape");
    await expect(details).toHaveCount(0);
    await expect(page.getByRole("button", { name: `View order ${short(middle.id)}` })).toBeFocused();

    // d on an order Ready to Dispatch opens its dispatch dialog.
    await page.keyboard.press("j");
    await expect(current).toContainText("@third");
    await page.keyboard.press("d");
    const dispatch = page.getByRole("dialog", { name: `Dispatch order #${short(oldest.id)}` });
    await expect(dispatch).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dispatch).toHaveCount(0);
    // The focus is back on the row, as after a click.
    await expect(page.getByRole("button", { name: `Dispatch order ${short(oldest.id)}` })).toBeFocused();

    // /: the search box; what is typed there is text, not a shortcut.
    await page.keyboard.press("/");
    const search = page.getByRole("searchbox", { name: "Search orders" });
    await expect(search).toBeFocused();
    await expect(search).toHaveValue("");
    await page.keyboard.type("jk?");
    await expect(search).toHaveValue("jk?");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // The same mark on a phone's cards.
    await search.fill("");
    await page.setViewportSize(PHONE);
    await page.getByRole("heading", { name: "Order Management" }).click();
    // The current order is still the last one: k moves up from it.
    await page.keyboard.press("k");
    await expect(page.locator('[data-testid="order-card"][aria-current="true"]')).toContainText("@second");
    await settle(page);
    await saveScreenshot(page, "orders-current-card-phone", { fullPage: false });
    await page.setViewportSize(DESKTOP);
  });
});
