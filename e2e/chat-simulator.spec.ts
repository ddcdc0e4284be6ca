import fs from "node:fs";
import path from "node:path";
import type { Locator } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, guardedTest as test } from "./support/fixtures";
import { TEST_CUSTOMER_ID } from "../contract/simulator";
import { startFakeNowPayments, type FakeNowPayments } from "../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../test-support/fake-telegram";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../test-support/server-process";
import { DESKTOP, E2E_DISPATCH_UNDO_MS, PHONE, saveScreenshot, SCREENSHOT_DIR } from "./support/fixtures";

// Bot Preview's chat simulator (issue 14, item 1): the owner walks a whole purchase in the browser
// (browse, cart, checkout, Simulate payment), finds the order in Orders flagged as a test order and
// dispatches it, while the real server runs its real bot against a fake Telegram and has a fake
// NOWPayments as its gateway: neither hears of the test customer. The worker's usual e2e server runs
// no bot, so this starts the real server (server/main.ts) in a process of its own.

// Its tests share the server its beforeAll starts: kept together on one worker, in order
// (playwright.config.ts runs the other specs' tests fully in parallel).
test.describe.configure({ mode: "default" });

const PASSWORD = "chat simulator admin password";
const PNG = path.resolve(import.meta.dirname, "fixtures/product.png");
const TEST_CUSTOMER = Number(TEST_CUSTOMER_ID);

test.describe("chat simulator", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let server: ServerProcess | undefined;
  test.beforeAll(async () => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments({ apiKey: "sim-e2e-key" });
    server = await startServerProcess("e2e-chat-simulator", {
      ADMIN_PASSWORD: PASSWORD,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      NOWPAYMENTS_API_URL: gateway.url,
      DISPATCH_UNDO_MS: String(E2E_DISPATCH_UNDO_MS),
    });
  });
  test.afterAll(async () => {
    if (server) {
      await stopServerProcess(server);
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    await gateway?.close();
    await telegram?.close();
  });

  /** The newest button with this label in the simulated chat. */
  const button = (chat: Locator, name: string | RegExp) => chat.getByRole("button", { name }).last();

  test("walks browse, cart, checkout and a simulated payment, then dispatches the test order; nothing reaches Telegram or the gateway", async ({ page }) => {
    test.slow();
    const base = server!.baseUrl;
    const request = page.request;
    expect((await request.post(`${base}/api/auth/login`, { data: { password: PASSWORD } })).ok()).toBe(true);
    const saved = await request.post(`${base}/api/bot-settings`, {
      data: {
        botName: "Corner Shop Bot",
        botToken: "424242:AAE-chat-simulator",
        acceptedCurrencies: ["BTC", "LTC"],
        welcomeMessage: "Hello and welcome to the Corner Shop!",
        faqContent: "FAQ",
        nowpaymentsApiKey: "sim-e2e-key",
        nowpaymentsIpnSecret: "sim-e2e-ipn-secret",
      },
    });
    expect(saved.status()).toBe(201);
    const upload = (await (await request.post(`${base}/api/objects/upload`)).json()) as { uploadURL: string };
    await request.put(new URL(upload.uploadURL, base).toString(), { data: fs.readFileSync(PNG), headers: { "Content-Type": "image/png" } });
    const image = (await (await request.put(`${base}/api/product-images`, { data: { imageURL: upload.uploadURL } })).json()) as { objectPath: string };
    const category = (await (await request.post(`${base}/api/categories`, { data: { name: "Tea" } })).json()) as { id: string };
    const product = await request.post(`${base}/api/products`, {
      data: { name: "Earl Grey", description: "Loose leaf, 100 g", price: "6.50", stock: 10, categoryId: category.id, imageUrl: image.objectPath },
    });
    expect(product.status()).toBe(201);
    // The real bot runs (long polling the fake Telegram): the simulator must stay beside it, not through it.
    await expect.poll(() => telegram.pollsWaiting(), { timeout: 45_000 }).toBeGreaterThan(0);

    await page.setViewportSize(DESKTOP);
    await page.goto(`${base}/bot-preview`);
    const simulator = page.getByTestId("bot-simulator");
    const chat = simulator.getByTestId("simulator-chat");
    await expect(simulator).toContainText("Send /start to begin");
    // The JSON tester stays, beside it.
    await expect(page.getByRole("button", { name: "Test Webhook" })).toBeVisible();

    const input = simulator.getByLabel("Message");
    await input.fill("/start");
    await simulator.getByRole("button", { name: "Send" }).click();
    await expect(chat).toContainText("Hello and welcome to the Corner Shop!");

    await button(chat, "Browse Products").click();
    await expect(chat).toContainText("Choose a category:");
    // The menu message was edited in place: one bot message, marked edited.
    await expect(chat.locator('[data-from="bot"]')).toHaveCount(1);
    await expect(chat.locator('[data-from="bot"]')).toContainText("edited");
    await button(chat, "Tea").click();
    await button(chat, /Earl Grey/).click();
    const card = chat.locator('[data-from="bot"]').last();
    await expect(card.locator("img")).toHaveAttribute("src", image.objectPath);
    await expect(card).toContainText("Earl Grey");
    await button(chat, "➕").click();
    await button(chat, "Add 2 to cart").click();
    // The button's answer shows as a passing notice.
    await expect(simulator.getByTestId("simulator-notices")).toBeVisible();
    await button(chat, /My Cart/).click();
    await expect(chat).toContainText("Earl Grey");
    await button(chat, /Checkout/).click();
    for (const answer of ["Tess Tester", "1 Test Street, Testtown", "TE5 7ST"]) {
      await expect(simulator.getByTestId("simulator-typing")).toHaveCount(0);
      await input.fill(answer);
      await input.press("Enter");
      await expect(chat.locator('[data-from="customer"]').last()).toHaveText(new RegExp(answer));
    }
    await button(chat, "Skip").click();
    await button(chat, /Bitcoin/).click();
    await expect(chat).toContainText("Total: £13.00");
    await saveScreenshot(page, "chat-simulator-desktop");
    // A full chat (bubbles, a photo, keyboards, a notice) passes axe as the other screens do (e2e/a11y.spec.ts).
    await expectNoSeriousViolations(page, "the chat simulator", '[data-testid="bot-simulator"]');
    await button(chat, /Confirm and pay/).click();
    await expect(chat).toContainText("To pay, send exactly");
    await expect(chat).toContainText("SIMULATION-ONLY");
    const pending = simulator.getByTestId("simulator-pending-payment");
    await expect(pending).toContainText("£13.00");

    await pending.getByRole("button", { name: "Simulate payment" }).click();
    await expect(pending).toHaveCount(0);
    await expect(chat.locator('[data-from="bot"]').last()).toContainText(/payment/i);

    await page.setViewportSize(PHONE);
    await simulator.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "chat-simulator-phone");
    await simulator.screenshot({ path: path.join(SCREENSHOT_DIR, "chat-simulator-phone-close.png") });
    await page.setViewportSize(DESKTOP);

    // The order is in Orders, flagged as a test order, ready to dispatch.
    await page.goto(`${base}/orders`);
    const badge = page.getByTestId("test-order-badge").first();
    await expect(badge).toHaveText("Test order");
    const orders = (await (await request.get(`${base}/api/orders`)).json()) as { id: string; isTest: boolean; status: string }[];
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ isTest: true, status: "processing" });
    await page.getByRole("button", { name: `View order ${orders[0]!.id.slice(0, 8)}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByTestId("test-order-badge")).toBeVisible();
    await dialog.getByRole("button", { name: "Mark as Dispatched" }).click();
    await page.getByRole("form", { name: "Dispatch" }).getByRole("button", { name: "Dispatch and notify" }).click();
    await expect(page.locator('[data-slot="toast"]').filter({ hasText: "Order dispatched and customer notified!" })).toBeVisible();
    await saveScreenshot(page, "chat-simulator-test-order");

    // The dispatch message reached the simulated chat; revenue counts nothing of it.
    await page.goto(`${base}/bot-preview`);
    await expect(page.getByTestId("simulator-chat")).toContainText("has been dispatched");
    const stats = (await (await request.get(`${base}/api/dashboard/stats`)).json()) as { totalRevenue: string; processingOrders: number };
    expect(stats).toMatchObject({ totalRevenue: "0.00", processingOrders: 0 });

    // Neither Telegram nor the gateway heard of the test customer.
    expect(telegram.calls.filter((call) => JSON.stringify(call.payload).includes(TEST_CUSTOMER_ID))).toEqual([]);
    expect(telegram.messages(TEST_CUSTOMER)).toEqual([]);
    expect(gateway.created).toEqual([]);
    expect(gateway.statusChecks).toEqual([]);

    // Reset: the chat starts afresh and the test order goes, its stock back on sale.
    await page.getByRole("button", { name: "Reset test customer" }).click();
    await expect(page.getByTestId("simulator-chat")).toContainText("Send /start to begin");
    expect((await (await request.get(`${base}/api/orders`)).json()) as unknown[]).toEqual([]);
  });
});
