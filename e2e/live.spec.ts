import type { Page } from "@playwright/test";
import type { Order } from "../contract";
import { signIpn } from "../test-support/sign-ipn";
import { expect, expectToast, saveScreenshot, test, toasts, type Api, type Seed } from "./support/fixtures";

// Live updates (issue 13, item 1): with the Dashboard, Orders or Messages screen open, an order paid
// through the payment gateway's notification (a signed IPN, as NOWPayments sends it) and a customer's
// new message show up without a reload, and the sidebar's badges follow. The rows are written behind
// the browser's back (seed routes, the webhook), as the bot and the gateway do.

const IPN_SECRET = "e2e-live-ipn-secret";
let nextPaymentId = 7_100_000;

async function saveSettingsWithIpnSecret(api: Api) {
  await api.post("/api/bot-settings", {
    botName: "Live Shop",
    botToken: "123456:LIVE-TEST-TOKEN",
    acceptedCurrencies: ["BTC"],
    welcomeMessage: "Welcome!",
    faqContent: "FAQ",
    nowpaymentsApiKey: "e2e-live-api-key",
    nowpaymentsIpnSecret: IPN_SECRET,
  });
}

/** An order placed at checkout and waiting for its bitcoin, as the bot leaves it. */
async function placeOrder(seed: Seed, totalAmount: string) {
  const paymentId = String(nextPaymentId++);
  const order = await seed.order({
    status: "pending",
    totalAmount,
    paymentMethod: "btc",
    payCurrency: "btc",
    payAmount: "0.0004",
    paymentStatus: "waiting",
    paymentId,
  });
  return { order, paymentId };
}

/** NOWPayments' notification that the payment finished in full, signed with the shop's IPN secret. */
async function payThroughGateway(api: Api, order: Order, paymentId: string) {
  const body = {
    payment_id: Number(paymentId),
    payment_status: "finished",
    order_id: order.id,
    price_amount: Number(order.totalAmount),
    price_currency: "gbp",
    pay_amount: 0.0004,
    actually_paid: 0.0004,
    pay_currency: "btc",
  };
  const response = await api.context.post("/api/payments/webhook", { data: body, headers: { "x-nowpayments-sig": signIpn(body, IPN_SECRET) } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Marks the page, so the test can tell at the end that it was never reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { liveMark: string }).liveMark = "not reloaded"));
}
async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe("not reloaded");
}

/** The browser's notifications, recorded instead of shown (the permission is granted). */
async function recordNotifications(page: Page) {
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    class RecordedNotification {
      static permission = "granted";
      static requestPermission = async () => "granted";
      constructor(title: string, options?: { body?: string }) {
        shown.push(`${title} | ${options?.body ?? ""}`);
      }
    }
    (window as unknown as { Notification: unknown }).Notification = RecordedNotification;
  });
}
function shownNotifications(page: Page) {
  return page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications);
}

/** The owner turns the paid-order alert on from the user menu (off by default). */
async function turnPaidAlertsOn(page: Page) {
  await page.getByRole("button", { name: "User menu" }).click();
  const alertToggle = page.getByRole("menuitemcheckbox", { name: "Paid order alerts" });
  await expect(alertToggle).toHaveAttribute("aria-checked", "false");
  await alertToggle.click();
  expect(await page.evaluate(() => localStorage.getItem("shop-admin.paid-order-alerts"))).toBe("on");
}

/** Waits until the page's event stream is open (its first event arrived), so no change happens before it. */
async function waitForLiveStream(page: Page) {
  await page.waitForResponse((response) => response.url().endsWith("/api/events") && response.status() === 200);
}

test.describe("live updates", () => {
  test("an order placed and paid through the gateway appears on the open Dashboard and Orders page, with the alert", async ({ adminPage: page, api, seed }) => {
    await saveSettingsWithIpnSecret(api);
    await recordNotifications(page);
    const streamOpen = waitForLiveStream(page);
    await page.goto("/");
    await streamOpen;
    await markPage(page);
    await expect(page.getByTestId("recent-orders")).toContainText("No recent orders");
    await expect(page.getByTestId("stat-Ready to Dispatch")).toContainText("0");
    await expect(page.getByTestId("nav-badge-orders")).toHaveCount(0);

    // The owner turns the paid-order alert on (off by default).
    await turnPaidAlertsOn(page);

    // A customer checks out: the order shows up as pending.
    const first = await placeOrder(seed, "24.50");
    const recent = page.getByTestId("recent-orders");
    await expect(recent).toContainText(`Order #${first.order.id.slice(0, 8)}`);
    await expect(recent).toContainText("Pending");
    await expect(page.getByTestId("stat-Pending Orders")).toContainText("1");

    // The gateway says it is paid: Ready to Dispatch, the badge, the alert.
    await payThroughGateway(api, first.order, first.paymentId);
    await expect(recent).toContainText("Processing");
    await expect(page.getByTestId("stat-Ready to Dispatch")).toContainText("1");
    await expect(page.getByTestId("stat-Pending Orders")).toContainText("0");
    await expect(page.getByTestId("nav-badge-orders")).toHaveText("1 ready to dispatch");
    await expect
      .poll(() => shownNotifications(page))
      .toEqual([`Order paid: £24.50 | Order ${first.order.id.slice(0, 8)} is ready to dispatch.`]);
    await saveScreenshot(page, "live-dashboard-order-paid");

    // On the Orders page (reached through the sidebar, no reload), the next order arrives and is paid.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Orders/ }).click();
    await expect(page.getByTestId("order-row")).toHaveCount(1);
    const second = await placeOrder(seed, "9.99");
    const secondRow = page.getByTestId("order-row").filter({ hasText: second.order.id.slice(0, 8) });
    await expect(secondRow).toBeVisible();
    await expect(secondRow).toContainText("Pending");
    await payThroughGateway(api, second.order, second.paymentId);
    await expect(secondRow).toContainText("Processing");
    await expect(page.getByTestId("nav-badge-orders")).toHaveText("2 ready to dispatch");
    await saveScreenshot(page, "live-orders-order-paid");
    await expectNotReloaded(page);
  });

  test("no alert for a payment the owner accepts by hand in the dashboard; a gateway payment still alerts", async ({ adminPage: page, api, seed }) => {
    await saveSettingsWithIpnSecret(api);
    await recordNotifications(page);
    // Paid short through the gateway: the order waits for the owner to accept what arrived.
    const underpaid = await seed.order({
      status: "pending",
      totalAmount: "30.00",
      paymentMethod: "btc",
      payCurrency: "btc",
      payAmount: "0.001",
      actuallyPaid: "0.0009",
      paymentStatus: "partially_paid",
      paymentId: String(nextPaymentId++),
    });
    const streamOpen = waitForLiveStream(page);
    await page.goto("/orders");
    await streamOpen;
    await turnPaidAlertsOn(page);

    // The owner accepts it here: the server announces it as paid, this browser stays quiet.
    const underpaidRef = underpaid.id.slice(0, 8);
    await page.getByRole("button", { name: `View order ${underpaidRef}` }).filter({ visible: true }).click();
    const dialog = page.getByRole("dialog", { name: `Order Details - #${underpaidRef}` });
    await dialog.getByRole("button", { name: "Accept payment" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Accept payment" }).click();
    await expect(toasts(page).filter({ hasText: "Payment accepted" })).toBeVisible();
    await expect(dialog.getByText("Processing", { exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("nav-badge-orders")).toHaveText("1 ready to dispatch");

    // Then a customer pays through the gateway: that alert shows, and it is the only one. (Its event
    // comes after the accepted order's, so by now that one has been heard and skipped.)
    const paid = await placeOrder(seed, "9.99");
    await payThroughGateway(api, paid.order, paid.paymentId);
    await expect(page.getByTestId("nav-badge-orders")).toHaveText("2 ready to dispatch");
    await expect
      .poll(() => shownNotifications(page))
      .toEqual([`Order paid: £9.99 | Order ${paid.order.id.slice(0, 8)} is ready to dispatch.`]);
  });

  test("a customer's new message appears on the open Messages screen and the unread badge follows", async ({ adminPage: page, seed }) => {
    await seed.message({ telegramUserId: "8101", telegramUsername: "early_bird", message: "Hello there", isRead: true });
    const streamOpen = waitForLiveStream(page);
    await page.goto("/messages");
    await streamOpen;
    await markPage(page);
    await expect(page.getByTestId("conversation")).toHaveCount(1);
    await expect(page.getByTestId("nav-badge-messages")).toHaveCount(0);

    await seed.message({ telegramUserId: "8202", telegramUsername: "night_owl", message: "Is the parcel on its way?" });
    const conversation = page.getByTestId("conversation").filter({ hasText: "@night_owl" });
    await expect(conversation).toContainText("Is the parcel on its way?");
    await expect(conversation.getByTestId("unread-dot")).toBeVisible();
    await expect(page.getByTestId("unread-count")).toHaveText(/^1 unread message/);
    await expect(page.getByTestId("nav-badge-messages")).toHaveText("1 unread");

    await seed.message({ telegramUserId: "8101", telegramUsername: "early_bird", message: "One more thing" });
    await expect(page.getByTestId("nav-badge-messages")).toHaveText("2 unread");
    await expect(page.getByTestId("conversation").first()).toContainText("One more thing");
    await saveScreenshot(page, "live-messages-new-message");
    await expectNotReloaded(page);
  });

  test("a new message and a new order while the owner is on another screen: toasts, a count in the title until seen, notifications once allowed", async ({ adminPage: page, seed }) => {
    // The browser's notifications, recorded; the permission is asked only by the owner's click.
    await page.addInitScript(() => {
      const record = { shown: [] as string[], asked: 0 };
      (window as unknown as { notifications: typeof record }).notifications = record;
      class RecordedNotification {
        static permission = "default";
        static requestPermission = async () => {
          record.asked += 1;
          RecordedNotification.permission = "granted";
          return "granted";
        };
        constructor(title: string, options?: { body?: string }) {
          record.shown.push(`${title} | ${options?.body ?? ""}`);
        }
      }
      (window as unknown as { Notification: unknown }).Notification = RecordedNotification;
      // The owner is in another window: a notification is what tells them.
      document.hasFocus = () => false;
    });
    const notifications = () => page.evaluate(() => (window as unknown as { notifications: { shown: string[]; asked: number } }).notifications);
    await seed.message({ telegramUserId: "8301", telegramUsername: "old_news", message: "Already here" });
    const streamOpen = waitForLiveStream(page);
    await page.goto("/products");
    await streamOpen;
    await expect(page).toHaveTitle("Products · Shop Admin");
    const allow = page.getByRole("button", { name: "Allow notifications" });
    await expect(allow).toBeVisible();
    expect((await notifications()).asked).toBe(0);

    // A message arrives: a toast and the count, no notification (not allowed yet).
    await seed.message({ telegramUserId: "8302", telegramUsername: "night_owl", message: "Is the parcel on its way? <b>x</b>" });
    await expectToast(page, "New message from @night_owl", "Is the parcel on its way? <b>x</b>");
    await expect(page).toHaveTitle("(1) Products · Shop Admin");
    await saveScreenshot(page, "live-new-message-toast", { fullPage: false });

    // The owner allows notifications: the browser asks now, and the button goes.
    await allow.click();
    await expect(allow).toHaveCount(0);
    expect((await notifications()).asked).toBe(1);

    const order = await seed.order({ status: "pending", totalAmount: "9.99", telegramUserId: "8303", telegramUsername: "alice" });
    const line = `Order #${order.id.slice(0, 8)} · £9.99 · @alice`;
    await expectToast(page, "New order", line);
    await expect(page).toHaveTitle("(2) Products · Shop Admin");
    await expect.poll(async () => (await notifications()).shown).toEqual([`New order | ${line}`]);

    // Seen where they are shown: the Messages screen clears the message, the Orders screen the order.
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: /^Messages/ }).click();
    await expect(page).toHaveTitle("(1) Messages · Shop Admin");
    await nav.getByRole("link", { name: /^Orders/ }).click();
    await expect(page).toHaveTitle("Orders · Shop Admin");

    // On the screen that shows it, a new order is seen at once: the toast, no count.
    await seed.order({ status: "pending", totalAmount: "3.50", telegramUserId: "8304", telegramUsername: "bob" });
    await expectToast(page, "New order", "£3.50 · @bob");
    await expect(page).toHaveTitle("Orders · Shop Admin");
    expect((await notifications()).asked).toBe(1);
  });

  test("without the event stream the app works as before", async ({ adminPage: page, seed }) => {
    await page.route("**/api/events", (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"Unavailable"}' }));
    await seed.order({ status: "processing", paymentStatus: "finished", totalAmount: "5.00" });
    await page.goto("/");
    await expect(page.getByTestId("stat-Ready to Dispatch")).toContainText("1");
    await expect(page.getByTestId("nav-badge-orders")).toHaveText("1 ready to dispatch");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Orders/ }).click();
    await expect(page.getByTestId("order-row")).toHaveCount(1);
  });
});
