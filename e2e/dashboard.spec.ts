import type { Product } from "../contract";
import { DESKTOP, expect, PHONE, saveScreenshot, test, type Api, type Seed } from "./support/fixtures";

/** Milliseconds since midnight in the shop's time zone (the server's default TZ, Europe/London). */
function msSinceShopMidnight(at: Date): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" })
    .formatToParts(at)
    .reduce<Record<string, number>>((all, part) => ({ ...all, [part.type]: Number(part.value) }), {});
  return ((parts.hour! * 60 + parts.minute!) * 60 + parts.second!) * 1000 + at.getMilliseconds();
}

/**
 * "n minutes ago", squeezed into today when the test runs shortly after midnight: Daily Revenue
 * counts from the shop's midnight, and a CI run at 00:05 once saw orders from 23:25 count as
 * yesterday. The order of the times is kept; only their spacing shrinks.
 */
const OLDEST_MINUTES = 50;
function minutesAgo(n: number): string {
  const now = new Date();
  const minuteMs = Math.min(60_000, (msSinceShopMidnight(now) - 1000) / (OLDEST_MINUTES + 1));
  return new Date(now.getTime() - n * Math.max(minuteMs, 1)).toISOString();
}

async function stockedProduct(api: Api) {
  return api.post<Product>("/api/products", { name: "Vintage Lamp", description: "Brass", price: "10.00", stock: 5 });
}

/** Two paid orders waiting for dispatch, one unpaid, one dispatched; newest first: B, A, D, C. */
async function seedOrders(seed: Seed, product: Product) {
  // Leave a few seconds of today so that the squeezed minutes are still distinct times.
  const sinceMidnight = msSinceShopMidnight(new Date());
  if (sinceMidnight < 5000) await new Promise((resolve) => setTimeout(resolve, 5000 - sinceMidnight));
  const item = { productId: product.id, productName: product.name, price: "10.00" };
  const c = await seed.order({ status: "dispatched", totalAmount: "20.00", paymentMethod: "ltc", createdAt: minutesAgo(40), items: [item] });
  const d = await seed.order({ status: "pending", totalAmount: "7.25", paymentMethod: null, createdAt: minutesAgo(30), items: [item] });
  const a = await seed.order({ status: "processing", totalAmount: "10.00", paymentMethod: "btc", createdAt: minutesAgo(20), items: [item] });
  const b = await seed.order({ status: "processing", totalAmount: "5.50", paymentMethod: "xmr", createdAt: minutesAgo(10), items: [item] });
  return { a, b, c, d };
}

test.describe("dashboard", () => {
  test("an empty shop: zero counters, £0.00 revenue, the empty texts and the payment methods", async ({ adminPage: page }) => {
    // Hold the stats to see the loading text first.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/dashboard/stats", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/");
    await expect(page.getByText("Loading dashboard...")).toBeVisible();
    release();

    for (const title of ["Total Products", "Pending Orders", "Ready to Dispatch", "Unread Messages"]) {
      const card = page.getByTestId(`stat-${title}`);
      await expect(card).toContainText(title);
      await expect(card).toContainText("0");
      await expect(card).toHaveAttribute("data-alert", "false");
    }
    for (const title of ["Daily Revenue", "Weekly Revenue", "Total Revenue"]) {
      await expect(page.getByTestId(`stat-${title}`)).toContainText("£0.00");
    }
    await expect(page.getByTestId("dispatch-banner")).toHaveCount(0);
    await expect(page.getByTestId("pulse-dot")).toHaveCount(0);
    await expect(page.getByTestId("recent-orders")).toContainText("No recent orders");
    await expect(page.getByTestId("recent-messages")).toContainText("No customer messages");

    const methods = page.getByTestId("payment-methods");
    for (const name of ["Bitcoin (BTC)", "Litecoin (LTC)", "Monero (XMR)"]) await expect(methods).toContainText(name);
    // No gateway keys yet: no coin claims to be Active (issue 22, item 8).
    await expect(methods.getByRole("link", { name: "Setup needed" })).toHaveCount(3);
    await expect(methods.getByText("Active", { exact: true })).toHaveCount(0);
    await expect(methods).toContainText("NOWPayments");
  });

  test("an empty shop's setup checklist: every step to do, each done where its link leads, then gone", async ({ adminPage: page, api, seed }) => {
    await page.goto("/");
    const checklist = page.getByTestId("setup-checklist");
    await expect(checklist).toContainText("Set up your shop");
    await expect(page.getByTestId("setup-progress")).toHaveText("0 of 6 done");
    const steps = checklist.getByRole("listitem");
    await expect(steps).toHaveText([
      /Connect your Telegram bot.*To do/,
      /Set up payments.*To do/,
      /Add a category.*To do/,
      /Add a product.*To do/,
      /Add a postage option.*To do/,
      /Place a test order.*To do/,
    ]);
    const links = { "bot-token": "/bot-settings", "payment-gateway": "/bot-settings#payment-gateway", category: "/categories", product: "/products", postage: "/postage", "test-order": "/bot-preview" };
    for (const [id, href] of Object.entries(links)) await expect(page.getByTestId(`setup-step-${id}`).getByRole("link")).toHaveAttribute("href", href);
    await saveScreenshot(page, "dashboard-setup-desktop");
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "dashboard-setup-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "dashboard-setup-phone-dark", { fullPage: false });
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(DESKTOP);

    // The category step's link leads to Categories; a category added there turns the step done.
    await page.getByTestId("setup-step-category").getByRole("link", { name: "Add a category" }).click();
    await expect(page).toHaveURL(/\/categories$/);
    await page.getByRole("button", { name: "Add Category" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Category Name").fill("Tea");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByTestId("setup-step-category")).toHaveAttribute("data-done", "true");
    await expect(page.getByTestId("setup-step-category").getByTestId("setup-step-state")).toHaveText("Done");
    await expect(page.getByTestId("setup-step-category").getByRole("link")).toHaveCount(0);
    await expect(page.getByTestId("setup-progress")).toHaveText("1 of 6 done");

    // The payments link lands on Bot Settings' gateway card.
    await page.getByTestId("setup-step-payment-gateway").getByRole("link", { name: "Set up payments" }).click();
    await expect(page).toHaveURL(/\/bot-settings#payment-gateway$/);
    await expect(page.locator("#payment-gateway")).toBeInViewport();

    // The gateway's keys make the coins Bot Settings accept Active; the other one says it is not accepted.
    await api.post("/api/bot-settings", {
      botName: "Setup Bot",
      botToken: "123456:SETUP-TOKEN",
      acceptedCurrencies: ["BTC", "XMR"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: "setup-api-key",
      nowpaymentsIpnSecret: "setup-ipn-secret",
    });
    await api.post("/api/products", { name: "Green tea", description: "Loose leaf", price: "4.00", stock: 3 });
    await api.post("/api/postage-options", { name: "Royal Mail", price: "2.99", description: null, estimatedDays: 2, isActive: true });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByTestId("setup-progress")).toHaveText("5 of 6 done");
    const methods = page.getByTestId("payment-methods");
    await expect(methods.getByTestId("payment-method-BTC")).toContainText("Active");
    await expect(methods.getByTestId("payment-method-XMR")).toContainText("Active");
    await expect(methods.getByTestId("payment-method-LTC").getByRole("link", { name: "Not accepted" })).toHaveAttribute("href", "/bot-settings");
    await expect(methods.getByText("Setup needed")).toHaveCount(0);

    // The last step: an order arrives (a customer's counts as well as the simulator's test order; its
    // own test is server/http/routes/setup.test.ts), live, and the checklist goes once every step is done.
    await seed.order({ status: "pending", totalAmount: "6.99" });
    await expect(checklist).toHaveCount(0);
  });

  test("orders ready to dispatch: red banner and cards, recent orders and messages, revenue", async ({ adminPage: page, api, seed }) => {
    const product = await stockedProduct(api);
    const { a, b, c } = await seedOrders(seed, product);
    await seed.message({ telegramUsername: "alice", telegramUserId: "501", message: "Where is my parcel?", createdAt: minutesAgo(9) });
    await seed.message({ telegramUsername: null, telegramUserId: "777000", message: "Do you ship to Spain?", createdAt: minutesAgo(8) });
    await seed.message({ telegramUsername: "carol", telegramUserId: "503", message: "Thanks, all good", isRead: true, createdAt: minutesAgo(7) });
    await seed.message({ telegramUsername: "dave", telegramUserId: "504", message: "Oldest, not shown", isRead: true, createdAt: minutesAgo(50) });
    // The admin's own reply is not a customer message.
    await seed.message({ telegramUsername: "alice", telegramUserId: "501", message: "Sent today!", isFromCustomer: false, isRead: true, createdAt: minutesAgo(1) });

    // The lists the Dashboard reads: only the 3 rows of each it shows (issue 12).
    const listReads: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (/^\/api\/(orders|messages)$/.test(url.pathname)) listReads.push(url.pathname + url.search);
    });
    await page.goto("/");
    const banner = page.getByTestId("dispatch-banner");
    await expect(banner).toContainText("Orders Ready to Dispatch");
    await expect(banner).toContainText("You have 2 paid orders waiting to be dispatched.");

    const ready = page.getByTestId("stat-Ready to Dispatch");
    await expect(ready).toContainText("2");
    await expect(ready).toHaveAttribute("data-alert", "true");
    await expect(ready.getByTestId("pulse-dot")).toBeVisible();
    const unread = page.getByTestId("stat-Unread Messages");
    await expect(unread).toContainText("2");
    await expect(unread).toHaveAttribute("data-alert", "true");
    await expect(page.getByTestId("stat-Total Products")).toContainText("1");
    await expect(page.getByTestId("stat-Pending Orders")).toContainText("1");
    // Paid orders count as revenue: 10.00 + 5.50 + 20.00 (dispatched); the pending 7.25 does not.
    for (const title of ["Daily Revenue", "Weekly Revenue", "Total Revenue"]) {
      await expect(page.getByTestId(`stat-${title}`)).toContainText("£35.50");
    }

    const orders = page.getByTestId("recent-orders").getByRole("listitem");
    await expect(orders).toHaveCount(3);
    await expect(orders.nth(0)).toContainText(`Order #${b.id.slice(0, 8)}`);
    await expect(orders.nth(0)).toContainText("£5.50");
    await expect(orders.nth(0)).toContainText("XMR");
    await expect(orders.nth(0)).toContainText("Processing");
    await expect(orders.nth(1)).toContainText(`Order #${a.id.slice(0, 8)}`);
    await expect(orders.nth(2)).toContainText("£7.25");
    await expect(orders.nth(2)).toContainText("Pending");
    await expect(page.getByTestId("recent-orders")).not.toContainText(c.id.slice(0, 8));

    const messages = page.getByTestId("recent-messages").getByRole("listitem");
    await expect(messages).toHaveCount(3);
    // Newest first.
    await expect(messages.nth(0)).toContainText("@carol");
    await expect(messages.nth(0).getByTestId("unread-dot")).toHaveCount(0);
    await expect(messages.nth(1)).toContainText("777000");
    await expect(messages.nth(1)).not.toContainText("@");
    await expect(messages.nth(2)).toContainText("@alice");
    await expect(messages.nth(2)).toContainText("Where is my parcel?");
    await expect(messages.nth(2).getByTestId("unread-dot")).toBeVisible();
    await expect(page.getByTestId("recent-messages")).not.toContainText("Sent today!");
    expect(listReads.sort()).toEqual(["/api/messages?limit=3&sender=customer", "/api/orders?limit=3"]);

    await saveScreenshot(page, "dashboard-desktop");
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, "dashboard-phone");

    await banner.getByRole("link", { name: "View Orders" }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.getByTestId("page-title")).toHaveText("Orders");
  });

  test("a slow load keeps the heading and shows skeleton rows, not a page-wide spinner", async ({ adminPage: page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/dashboard/stats", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 2 })).toBeVisible();
    const loading = page.getByTestId("loading-rows");
    await expect(loading).toContainText("Loading dashboard...");
    await expect(loading.getByTestId("skeleton-row")).toHaveCount(5);
    await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
    await saveScreenshot(page, "dashboard-loading");
    release();
    await expect(page.getByText("Total Products")).toBeVisible();
    await expect(loading).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 2 })).toBeVisible();

    // Orders the same: its heading and filters stay while grey rows stand where the list will be.
    let releaseOrders: () => void = () => {};
    const ordersHeld = new Promise<void>((resolve) => (releaseOrders = resolve));
    await page.route("**/api/orders?**", async (route) => {
      await ordersHeld;
      await route.continue();
    });
    await page.goto("/orders");
    await expect(page.getByRole("heading", { name: "Order Management", level: 2 })).toBeVisible();
    const loadingOrders = page.getByTestId("loading-rows");
    await expect(loadingOrders).toContainText("Loading orders...");
    await expect(loadingOrders.getByTestId("skeleton-row")).toHaveCount(6);
    await expect(page.getByLabel("Search orders")).toBeVisible();
    releaseOrders();
    await expect(loadingOrders).toHaveCount(0);
  });

  test("View All links open Orders and Messages", async ({ adminPage: page }) => {
    await page.goto("/");
    await page.getByTestId("recent-orders").getByRole("link", { name: "View All" }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await page.goBack();
    await page.getByTestId("recent-messages").getByRole("link", { name: "View All" }).click();
    await expect(page).toHaveURL(/\/messages$/);
    await expect(page.getByTestId("page-title")).toHaveText("Messages");
  });
});
