import fs from "node:fs";
import path from "node:path";
import type { Page, Request } from "@playwright/test";
import type { Order } from "../contract";
import { createOwnerKey, openSealedAddress, SEALED_PREFIX, unlockOwnerKey } from "../contract/owner-seal";
import { STOREFRONT_PATH, type StorefrontCatalogue, type StorefrontOrderInput } from "../contract/storefront";
import { storefrontScriptSize } from "../scripts/build-web";
import { TELEGRAM_DEFAULT_THEMES } from "../web/storefront/telegram-default-themes";
import { startFakeNowPayments, type FakeNowPayments } from "../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../test-support/fake-telegram";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../test-support/server-process";
import { signInitData } from "../test-support/init-data";
import { signIpn } from "../test-support/sign-ipn";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, guardedTest as test, PHONE, saveScreenshot } from "./support/fixtures";

// The storefront Mini App (issue 27) at /shop/, as a customer opens it from the bot: Telegram's
// launch parameters in the hash (init data signed with the shop's bot token, its theme colours), a
// whole purchase through the page (browse, search, a variant, the cart, checkout with a coupon, the
// payment screen), the payment arriving through the gateway's signed notification, My Orders, and
// the order in the owner's dashboard. Then a purchase with owner-only addresses on: the address
// leaves the page sealed, and a retry after a lost answer finds the order the first attempt made, also
// after a reload. Then the page inside a Telegram client (a stand-in for its TelegramWebviewProxy:
// Main Button, Back Button, haptics, a dark theme) for a customer whose Telegram speaks German (the
// shop offers English and German), its words in German from the first "Loading…", the page readable
// in Telegram's own default palettes, and the page opened without Telegram, in English and German. Checkout reaches a payment gateway, so this
// starts a server of its own with a fake NOWPayments (as e2e/chat-simulator.spec.ts does); its tests
// share it, in order.
test.describe.configure({ mode: "default" });

const PASSWORD = "storefront e2e admin password";
const BOT_TOKEN = "424242:AAE-storefront-e2e";
const IPN_SECRET = "storefront-e2e-ipn-secret";
const CUSTOMER = { id: 777_000_111, firstName: "Tess", username: "tess_t", languageCode: "en" };
const GERMAN_CUSTOMER = { id: 777_000_222, firstName: "Greta", username: "greta_g", languageCode: "de" };
const PRIVATE_CUSTOMER = { id: 777_000_333, firstName: "Priya", username: "priya_p", languageCode: "en" };
const RELOADING_CUSTOMER = { id: 777_000_444, firstName: "Rey", username: "rey_r", languageCode: "en" };
const OWNER_PASSPHRASE = "storefront sealed amber falcon";
const PNG = path.resolve(import.meta.dirname, "fixtures/product.png");

/** Telegram's colours as a client sends them (tgWebAppThemeParams); readable at WCAG AA, as the axe check wants. */
const LIGHT_THEME = {
  bg_color: "#ffffff",
  text_color: "#000000",
  hint_color: "#5e5e63",
  link_color: "#2264b0",
  button_color: "#2264b0",
  button_text_color: "#ffffff",
  secondary_bg_color: "#f0f0f3",
  section_bg_color: "#ffffff",
  section_separator_color: "#d9d9de",
  destructive_text_color: "#c8281e",
};
const DARK_THEME = {
  bg_color: "#212121",
  text_color: "#ffffff",
  hint_color: "#aaaaaa",
  link_color: "#8cb4ff",
  button_color: "#8774e1",
  button_text_color: "#ffffff",
  secondary_bg_color: "#0f0f0f",
  section_bg_color: "#212121",
};

function launchUrl(base: string, theme: Record<string, string>, initData = signInitData({ botToken: BOT_TOKEN, user: CUSTOMER })) {
  const hash = new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: "8.0", tgWebAppPlatform: "tdesktop", tgWebAppThemeParams: JSON.stringify(theme) });
  return `${base}${STOREFRONT_PATH}#${hash.toString()}`;
}

test.describe("storefront Mini App", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let server: ServerProcess | undefined;
  let base: string;

  /** The page's first order: the server makes it, but its answer is lost on the way back (the page hears nothing). */
  async function loseFirstOrderAnswer(page: Page) {
    let answersLost = 0;
    await page.route(`${base}/api/storefront/orders`, async (route) => {
      if (route.request().method() !== "POST" || answersLost > 0) return route.fallback();
      answersLost += 1;
      await route.fetch();
      await route.abort("connectionreset");
    });
  }

  test.beforeAll(async ({ request }) => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments({ apiKey: "storefront-e2e-key" });
    server = await startServerProcess("e2e-storefront", { ADMIN_PASSWORD: PASSWORD, TELEGRAM_API_ROOT: telegram.apiRoot, NOWPAYMENTS_API_URL: gateway.url });
    base = server.baseUrl;

    // The shop, as the owner sets it up: the bot, two categories (one with a subcategory), a tee in
    // sizes and colours (one sold out, one nearly), a tea sold in one kind, postage and a coupon.
    const post = async <T>(url: string, data: unknown, method: "post" | "put" = "post") => {
      const response = await request[method](`${base}${url}`, { data });
      expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
      return (await response.json()) as T;
    };
    expect((await request.post(`${base}/api/auth/login`, { data: { password: PASSWORD } })).ok()).toBe(true);
    await post("/api/bot-settings", {
      botName: "Corner Shop Bot",
      botToken: BOT_TOKEN,
      acceptedCurrencies: ["BTC", "LTC"],
      languages: ["en", "de"],
      defaultLanguage: "en",
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: "storefront-e2e-key",
      nowpaymentsIpnSecret: IPN_SECRET,
    });
    const upload = await post<{ uploadURL: string }>("/api/objects/upload", {});
    await request.put(new URL(upload.uploadURL, base).toString(), { data: fs.readFileSync(PNG), headers: { "Content-Type": "image/png" } });
    const image = await post<{ objectPath: string }>("/api/product-images", { imageURL: upload.uploadURL }, "put");
    const clothing = await post<{ id: string }>("/api/categories", { name: "Clothing" });
    const tees = await post<{ id: string }>("/api/categories", { name: "T-shirts", parentId: clothing.id });
    const tea = await post<{ id: string }>("/api/categories", { name: "Tea" });
    const tee = await post<{ id: string }>("/api/products", {
      name: "Acceptance Tee",
      description: "Soft cotton.",
      price: "12.00",
      categoryId: tees.id,
      imageUrl: image.objectPath,
      lowStockThreshold: 3,
    });
    await post(
      `/api/products/${tee.id}/variants`,
      {
        options: [
          { name: "Size", values: ["S", "M"] },
          { name: "Colour", values: ["Black", "White"] },
        ],
        variants: [
          { optionValues: { Size: "S", Colour: "Black" }, sku: "TEE-S-BLK", stock: 0 },
          { optionValues: { Size: "S", Colour: "White" }, sku: "TEE-S-WHT", stock: 10 },
          { optionValues: { Size: "M", Colour: "Black" }, sku: "TEE-M-BLK", stock: 2 },
          { optionValues: { Size: "M", Colour: "White" }, sku: "TEE-M-WHT", stock: 10 },
        ],
      },
      "put",
    );
    await post("/api/products", { name: "Earl Grey", description: "Loose leaf, 100 g", price: "6.50", stock: 20, categoryId: tea.id });
    await post("/api/postage-options", { name: "Royal Mail 2nd Class", price: "3.00", estimatedDays: 3 });
    await post("/api/coupons", { code: "WELCOME10", kind: "percent", value: "10" });
  });

  test.afterAll(async () => {
    if (server) {
      await stopServerProcess(server);
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    await gateway?.close();
    await telegram?.close();
  });

  test("a customer buys a tee in the Mini App, sees the payment arrive and the order in My Orders; the owner sees it in Orders", async ({ page }) => {
    test.slow();
    await page.setViewportSize(PHONE);
    const catalogueCall = page.waitForRequest((request) => request.url().endsWith("/api/storefront/catalogue"));
    const initData = signInitData({ botToken: BOT_TOKEN, user: CUSTOMER });
    await page.goto(launchUrl(base, LIGHT_THEME, initData));
    // Every call names the customer by Telegram's signed init data, as the page was given it.
    expect((await catalogueCall).headers().authorization).toBe(`tma ${initData}`);

    // The catalogue, in Telegram's colours.
    const products = page.getByRole("list", { name: "Shop" });
    await expect(products.getByRole("listitem")).toHaveCount(2);
    await expect(page.locator("body")).toHaveCSS("background-color", "rgb(240, 240, 243)");
    await expectNoSeriousViolations(page, "the storefront's catalogue");
    await saveScreenshot(page, "storefront-catalogue-light");

    // Search, then the category filter: a main category takes in its subcategory.
    const search = page.getByRole("searchbox", { name: "Search products" });
    await search.fill("earl");
    await expect(products.getByRole("listitem")).toHaveText([/Earl Grey/]);
    await search.fill("");
    await page.getByRole("combobox", { name: "Category" }).selectOption({ label: "Clothing" });
    await expect(products.getByRole("listitem")).toHaveText([/Acceptance Tee.*from £12\.00|Acceptance Tee.*£12\.00/]);

    // The tee: S in black is sold out, M in black nearly.
    await products.getByRole("button", { name: /Acceptance Tee/ }).click();
    await expect(page.getByRole("heading", { name: "Acceptance Tee", level: 1 })).toBeFocused();
    await expect(page.getByRole("img", { name: "Acceptance Tee, photo 1 of 1" })).toBeVisible();
    const addToCart = page.getByTestId("primary-action");
    await page.getByRole("group", { name: "Choose Size" }).getByText("S", { exact: true }).click();
    await expect(page.getByRole("radio", { name: "Black (Out of stock)" })).toBeDisabled();
    await page.getByRole("group", { name: "Choose Size" }).getByText("M", { exact: true }).click();
    await page.getByRole("group", { name: "Choose Colour" }).getByText("Black", { exact: true }).click();
    await expect(page.getByTestId("product-stock")).toHaveText("Only 2 left");
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await expect(page.getByRole("button", { name: "Increase quantity" })).toBeDisabled();
    await saveScreenshot(page, "storefront-product-light");
    await addToCart.click();
    await expect(page.getByRole("status").filter({ hasText: "Added to your cart." })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("2");
    // The sold-out choice is now all there is left of M in black: the page says so.
    await expect(addToCart).toHaveText("Out of stock");

    // The cart.
    await page.getByRole("button", { name: /^Cart/ }).click();
    const line = page.getByRole("region", { name: "Acceptance Tee (M / Black)" });
    await expect(line).toContainText("£12.00 each");
    await expect(page.getByTestId("cart-items-total")).toHaveText("£24.00");
    await page.getByTestId("primary-action").click();

    // Checkout: the bot's own address rule, errors under the fields.
    await expect(page.getByRole("heading", { name: "Checkout", level: 1 })).toBeVisible();
    await expect(page.getByTestId("quote-total")).toHaveText("£27.00");
    await page.getByTestId("primary-action").click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleDescription("Name is required");
    await expect(page.getByLabel("Postcode")).toHaveAccessibleDescription("Postcode is required");
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
    await page.getByLabel("Name", { exact: true }).fill("Tess Tester");
    await page.getByLabel("Street address").fill("1 Test Street, Testtown");
    await page.getByLabel("Postcode").fill("TE5 7ST");
    await page.getByLabel("Coupon code").fill("nosuchcode");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByLabel("Coupon code")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Coupon code").fill("welcome10");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Coupon WELCOME10 applied.")).toBeVisible();
    await expect(page.getByTestId("quote-discount")).toHaveText("−£2.40");
    await expect(page.getByTestId("quote-total")).toHaveText("£24.60");
    await page.getByRole("radio", { name: "BTC" }).check();
    await saveScreenshot(page, "storefront-checkout-light");
    await page.getByTestId("primary-action").click();

    // The payment screen: amount and address to copy, the QR code, the time left.
    await expect(page.getByRole("heading", { name: "Payment", level: 1 })).toBeVisible();
    expect(gateway.created).toHaveLength(1);
    const [payment] = [...gateway.payments.values()];
    await expect(page.getByTestId("payment-amount")).toHaveText(`${payment!.pay_amount} BTC`);
    await expect(page.getByTestId("payment-address")).toHaveText(payment!.pay_address);
    await expect(page.getByRole("img", { name: "QR code of the BTC payment" })).toBeVisible();
    await expect(page.getByTestId("payment-countdown")).toHaveText(/^Expires in \d+:\d\d:\d\d$/);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy the address" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payment!.pay_address);
    await saveScreenshot(page, "storefront-payment-light");

    // NOWPayments says it is paid: the page, asking every few seconds, says so.
    const ipn = gateway.ipnBody(payment!.payment_id, "finished");
    const notified = await page.request.post(`${base}/api/payments/webhook`, { data: ipn, headers: { "x-nowpayments-sig": signIpn(ipn, IPN_SECRET) } });
    expect(notified.status(), await notified.text()).toBe(200);
    await expect(page.getByTestId("payment-status")).toContainText("Payment received");
    await saveScreenshot(page, "storefront-paid-light");

    // My Orders.
    await page.getByTestId("primary-action").click();
    const order = page.getByTestId("storefront-order");
    await expect(order).toHaveCount(1);
    await expect(order).toContainText("2 × Acceptance Tee (M / Black)");
    await expect(order).toContainText("£24.60");
    await expect(order.getByRole("button", { name: "Pay now" })).toHaveCount(0);
    await saveScreenshot(page, "storefront-orders-light");

    // The owner finds it in Orders.
    expect((await page.request.post(`${base}/api/auth/login`, { data: { password: PASSWORD } })).ok()).toBe(true);
    await page.goto(`${base}/orders`);
    await expect(page.getByTestId("order-items-summary").first()).toHaveText(/2 × Acceptance Tee \(M \/ Black\)/);
  });

  test("with owner-only addresses on, the address leaves the page sealed, a retry after a lost answer finds the order, and the owner's key opens what was typed", async ({
    page,
    request,
  }) => {
    await page.setViewportSize(PHONE);
    // The owner turns private addresses on, with a key pair made as Bot Settings makes it in the owner's browser.
    expect((await request.post(`${base}/api/auth/login`, { data: { password: PASSWORD } })).ok()).toBe(true);
    const ownerKey = await createOwnerKey(OWNER_PASSPHRASE);
    const enabled = await request.post(`${base}/api/private-addresses`, {
      data: { publicKey: ownerKey.publicKey, wrappedPrivateKey: ownerKey.wrappedPrivateKey, salt: ownerKey.salt, iterations: ownerKey.iterations },
    });
    expect(enabled.ok(), await enabled.text()).toBe(true);
    try {
      await loseFirstOrderAnswer(page);
      const paymentsBefore = gateway.created.length;
      await page.goto(launchUrl(base, LIGHT_THEME, signInitData({ botToken: BOT_TOKEN, user: PRIVATE_CUSTOMER })));
      await page.getByRole("button", { name: /Earl Grey/ }).click();
      await page.getByTestId("primary-action").click();
      await expect(page.getByTestId("cart-count")).toHaveText("1");
      await page.getByRole("button", { name: /^Cart/ }).click();
      await page.getByTestId("primary-action").click();
      await expect(page.getByText("Your address is encrypted on this device for the shop's owner alone.")).toBeVisible();
      const typed = { name: "Priya Sealwright", streetAddress: "7 Hidden Lane, Quietville", postcode: "QV1 2ZZ", contact: "priya.hidden@example.org" };
      await page.getByLabel("Name", { exact: true }).fill(typed.name);
      await page.getByLabel("Street address").fill(typed.streetAddress);
      await page.getByLabel("Postcode").fill(typed.postcode);
      await page.getByLabel("Contact (optional)").fill(typed.contact);
      await expect(page.getByTestId("quote-total")).toHaveText("£9.50");

      /** The order as the page sent it: sealed, with the page's id, and not one typed word (nor a part of one) in it. */
      const sentOrder = async (sent: Promise<Request>) => {
        const raw = (await sent).postData() ?? "";
        const body = JSON.parse(raw) as StorefrontOrderInput;
        expect(body).toMatchObject({ orderId: expect.stringMatching(/^[0-9a-f-]{36}$/), sealedAddress: expect.stringMatching(new RegExp(`^${SEALED_PREFIX}`)), quotedTotal: "9.50" });
        expect(body).not.toHaveProperty("address");
        // (Nothing shorter than five letters: three could turn up in the sealed base64 by chance.)
        for (const word of [...Object.values(typed), "Priya", "Sealwright", "Hidden Lane", "Quietville"]) expect(raw).not.toContain(word);
        return body;
      };
      const isOrderPost = (sent: Request) => sent.method() === "POST" && sent.url() === `${base}/api/storefront/orders`;
      const firstSent = page.waitForRequest(isOrderPost);
      await page.getByTestId("primary-action").click();
      const first = await sentOrder(firstSent);
      await expect(page.getByText("No connection to the shop. Check your connection and try again.")).toBeVisible();

      // The customer taps again: the same order under the same id; the server's 409 for it leads to the order made.
      const retrySent = page.waitForRequest(isOrderPost);
      const retryAnswer = page.waitForResponse((answer) => isOrderPost(answer.request()));
      await page.getByTestId("primary-action").click();
      expect((await sentOrder(retrySent)).orderId).toBe(first.orderId);
      expect((await retryAnswer).status()).toBe(409);
      await expect(page.getByRole("heading", { name: "Payment", level: 1 })).toBeVisible();
      await expect(page.getByText(`Order #${first.orderId!.slice(0, 8)} · £9.50`)).toBeVisible();
      expect(gateway.created.length - paymentsBefore).toBe(1);
      await expect(page.getByTestId("payment-address")).toHaveText([...gateway.payments.values()].at(-1)!.pay_address);
      await expect(page.getByTestId("cart-count")).toHaveCount(0);

      // The owner's view: one order, its address sealed (the server could not read it), opened by the owner's key to what was typed.
      const found = await request.get(`${base}/api/orders?q=${first.orderId}`);
      const [listed, ...others] = (await found.json()) as Order[];
      expect(others).toEqual([]);
      expect(listed).toMatchObject({ id: first.orderId, telegramUserId: String(PRIVATE_CUSTOMER.id), shippingAddress: null, sealedShippingAddress: expect.stringMatching(new RegExp(`^${SEALED_PREFIX}`)) });
      expect(JSON.stringify(listed)).not.toContain(typed.name);
      const owner = await unlockOwnerKey(ownerKey, OWNER_PASSPHRASE);
      expect(await openSealedAddress(owner, listed!.sealedShippingAddress!, first.orderId!)).toEqual(typed);
      expect((await (await request.get(`${base}/api/orders?q=${PRIVATE_CUSTOMER.id}`)).json()) as Order[]).toHaveLength(1);
    } finally {
      expect((await request.delete(`${base}/api/private-addresses`)).ok()).toBe(true);
    }
  });

  test("a reload after an order's answer was lost keeps its id: the next tap finds that order, and no second one is made", async ({ page, request }) => {
    await page.setViewportSize(PHONE);
    await loseFirstOrderAnswer(page);
    const paymentsBefore = gateway.created.length;
    await page.goto(launchUrl(base, LIGHT_THEME, signInitData({ botToken: BOT_TOKEN, user: RELOADING_CUSTOMER })));
    await page.getByRole("button", { name: /Earl Grey/ }).click();
    await page.getByTestId("primary-action").click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");

    const checkOut = async () => {
      await page.getByRole("button", { name: /^Cart/ }).click();
      await page.getByTestId("primary-action").click();
      await page.getByLabel("Name", { exact: true }).fill("Rey Reloader");
      await page.getByLabel("Street address").fill("3 Refresh Row, Reloadham");
      await page.getByLabel("Postcode").fill("RL3 0AD");
      await expect(page.getByTestId("quote-total")).toHaveText("£9.50");
    };
    const isOrderPost = (sent: Request) => sent.method() === "POST" && sent.url() === `${base}/api/storefront/orders`;
    const orderIdOf = async (sent: Promise<Request>) => (JSON.parse((await sent).postData() ?? "{}") as StorefrontOrderInput).orderId;

    await checkOut();
    const firstSent = page.waitForRequest(isOrderPost);
    await page.getByTestId("primary-action").click();
    const firstId = await orderIdOf(firstSent);
    expect(firstId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(page.getByText("No connection to the shop. Check your connection and try again.")).toBeVisible();

    // The customer reloads the page (the cart stays, as does the unanswered order's id) and checks out again.
    await page.reload();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await checkOut();
    const retrySent = page.waitForRequest(isOrderPost);
    const retryAnswer = page.waitForResponse((answer) => isOrderPost(answer.request()));
    await page.getByTestId("primary-action").click();
    expect(await orderIdOf(retrySent)).toBe(firstId);
    expect((await retryAnswer).status()).toBe(409);
    await expect(page.getByRole("heading", { name: "Payment", level: 1 })).toBeVisible();
    await expect(page.getByText(`Order #${firstId!.slice(0, 8)} · £9.50`)).toBeVisible();
    expect(gateway.created.length - paymentsBefore).toBe(1);
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
    // Answered: the id is let go, so the next order is a new one.
    expect(await page.evaluate(() => sessionStorage.getItem("storefront-order-attempt"))).toBeNull();

    expect((await request.post(`${base}/api/auth/login`, { data: { password: PASSWORD } })).ok()).toBe(true);
    const orders = (await (await request.get(`${base}/api/orders?q=${RELOADING_CUSTOMER.id}`)).json()) as Order[];
    expect(orders.map((order) => order.id)).toEqual([firstId]);
  });

  test("inside Telegram, in German: its Main Button and Back Button, haptics, and a dark theme; no in-page button", async ({ page }) => {
    await page.setViewportSize(PHONE);
    // A stand-in for the desktop client's bridge: it records what the page posts to Telegram.
    await page.addInitScript(() => {
      const posted: [string, unknown][] = [];
      (window as unknown as { posted: typeof posted }).posted = posted;
      (window as unknown as { TelegramWebviewProxy: unknown }).TelegramWebviewProxy = {
        postEvent: (type: string, data?: string) => posted.push([type, data ? JSON.parse(data) : null]),
      };
    });
    await page.goto(launchUrl(base, DARK_THEME, signInitData({ botToken: BOT_TOKEN, user: GERMAN_CUSTOMER })));
    const posted = () => page.evaluate(() => (window as unknown as { posted: [string, Record<string, unknown> | null][] }).posted);
    /** What Telegram would send the page when its own buttons are pressed. */
    const press = (event: "main_button_pressed" | "back_button_pressed") =>
      page.evaluate((type) => (window as unknown as { Telegram: { WebView: { receiveEvent(t: string, d?: unknown): void } } }).Telegram.WebView.receiveEvent(type), event);

    await expect(page.getByRole("list", { name: "Shop" }).getByRole("listitem")).toHaveCount(2);
    await expect(page.locator("html")).toHaveClass(/dark/);
    // The customer's Telegram speaks German, and so does the shop: the page's own words are German.
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("body")).toHaveCSS("background-color", "rgb(15, 15, 15)");
    expect((await posted()).map(([type]) => type)).toContain("web_app_ready");
    await saveScreenshot(page, "storefront-catalogue-dark");

    await page.getByRole("button", { name: /Earl Grey/ }).click();
    await expect(page.getByRole("heading", { name: "Earl Grey", level: 1 })).toBeVisible();
    await expect(page.getByTestId("primary-action")).toHaveCount(0);
    await expect.poll(async () => (await posted()).filter(([type]) => type === "web_app_setup_main_button").at(-1)?.[1]).toMatchObject({ is_visible: true, text: "In den Warenkorb" });
    await expect.poll(async () => (await posted()).filter(([type]) => type === "web_app_setup_back_button").at(-1)?.[1]).toEqual({ is_visible: true });
    await saveScreenshot(page, "storefront-product-dark");

    await press("main_button_pressed");
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    expect(await posted()).toContainEqual(["web_app_trigger_haptic_feedback", { type: "impact", impact_style: "light" }]);

    await press("back_button_pressed");
    await expect(page.getByRole("heading", { name: "Shop", level: 1 })).toBeVisible();
    await expect.poll(async () => (await posted()).filter(([type]) => type === "web_app_setup_back_button").at(-1)?.[1]).toEqual({ is_visible: false });

    // Support: the message goes with the Main Button and shows in the conversation.
    await page.getByRole("button", { name: "Hilfe" }).click();
    await expect(page.getByText("Noch keine Nachrichten.")).toBeVisible();
    await page.getByLabel("Deine Nachricht").fill("Liefert ihr nach Jersey?");
    await expect.poll(async () => (await posted()).filter(([type]) => type === "web_app_setup_main_button").at(-1)?.[1]).toMatchObject({ is_visible: true, text: "Senden", is_active: true });
    await press("main_button_pressed");
    await expect(page.getByRole("list", { name: "Kundenservice" }).getByRole("listitem")).toHaveText([/Du: Liefert ihr nach Jersey\?/]);
    await expect(page.getByLabel("Deine Nachricht")).toHaveValue("");

    // Greta already holds 3 orders waiting for payment (placed elsewhere; docs/decisions/0040): the
    // checkout screen says so above the form as it opens, and its Main Button is off.
    const authorization = `tma ${signInitData({ botToken: BOT_TOKEN, user: GERMAN_CUSTOMER })}`;
    const shop = (await (await page.request.get(`${base}/api/storefront/catalogue`, { headers: { authorization } })).json()) as StorefrontCatalogue;
    const earlGrey = shop.products.find((product) => product.name === "Earl Grey")!;
    for (let i = 0; i < 3; i++) {
      const placed = await page.request.post(`${base}/api/storefront/orders`, {
        headers: { authorization },
        data: { items: [{ productId: earlGrey.id, quantity: 1 }], postageOptionId: null, coin: "BTC", address: { name: "Greta G", streetAddress: "1 Hauptstraße, Berlin", postcode: "10115" } },
      });
      expect(placed.status(), await placed.text()).toBe(201);
    }
    await page.getByRole("button", { name: /^Warenkorb/ }).click();
    await press("main_button_pressed");
    await expect(page.getByRole("heading", { name: "Kasse", level: 1 })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(/^Du hast schon 3 Bestellungen, die auf deine Zahlung warten\./);
    await expect(page.getByRole("alert")).toBeInViewport();
    await expect.poll(async () => (await posted()).filter(([type]) => type === "web_app_setup_main_button").at(-1)?.[1]).toMatchObject({ text: "Bestellen und bezahlen", is_active: false });
    await saveScreenshot(page, "storefront-checkout-too-many-unpaid-dark");
  });

  test("for a customer whose Telegram speaks German, the page says \"Loading…\" in German before the catalogue answers", async ({ page }) => {
    await page.setViewportSize(PHONE);
    // The catalogue's answer is held back until the loading state has been seen.
    let answer!: () => void;
    const answerHeld = new Promise<void>((resolve) => (answer = resolve));
    await page.route(`${base}/api/storefront/catalogue`, async (route) => {
      await answerHeld;
      await route.fallback();
    });
    await page.goto(launchUrl(base, DARK_THEME, signInitData({ botToken: BOT_TOKEN, user: GERMAN_CUSTOMER })));
    await expect(page.getByRole("status")).toHaveText("Wird geladen…");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await saveScreenshot(page, "storefront-loading-de");
    answer();
    await expect(page.getByRole("list", { name: "Shop" }).getByRole("listitem")).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Hilfe" })).toBeVisible();
  });

  for (const [palette, theme] of Object.entries(TELEGRAM_DEFAULT_THEMES)) {
    test(`in Telegram's default ${palette} palette every text reads at WCAG AA: pairs that fall short are corrected`, async ({ page }) => {
      await page.setViewportSize(PHONE);
      await page.goto(launchUrl(base, theme));
      await expect(page.getByRole("list", { name: "Shop" }).getByRole("listitem")).toHaveCount(2);
      // axe's WCAG AA rules include color-contrast: 4.5:1 for every text on what is behind it.
      await expectNoSeriousViolations(page, `the catalogue in Telegram's default ${palette} palette`);
      await saveScreenshot(page, `storefront-catalogue-telegram-default-${palette}`);

      // The button under white text: Telegram's colour (4.1:1 light, 3.7:1 dark) is darkened, and reads.
      await page.getByRole("button", { name: /Earl Grey/ }).click();
      const addToCart = page.getByTestId("primary-action");
      await expect(addToCart).toHaveText("Add to cart");
      // (The pointer off the button: hovered, it fades by a tenth, which axe would measure instead.)
      await page.mouse.move(PHONE.width - 1, PHONE.height - 1);
      await expect(addToCart).not.toHaveCSS("background-color", hexToRgb(theme.button_color));
      await expectNoSeriousViolations(page, `a product in Telegram's default ${palette} palette`);
      await addToCart.click();
      await page.getByRole("button", { name: /^Cart/ }).click();
      await expect(page.getByTestId("cart-items-total")).toHaveText("£6.50");
      await expectNoSeriousViolations(page, `the cart in Telegram's default ${palette} palette`);
      await saveScreenshot(page, `storefront-cart-telegram-default-${palette}`);
    });
  }

  test("without Telegram's launch parameters the page says to open the shop from its bot", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(`${base}/shop`);
    await expect(page).toHaveURL(`${base}/shop/`);
    await expect(page.getByRole("heading", { name: "Open this shop from its Telegram bot." })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await saveScreenshot(page, "storefront-outside-telegram");
  });

  test.describe("in a browser set to German", () => {
    test.use({ locale: "de-DE" });

    test("without Telegram's launch parameters the page says it in German", async ({ page }) => {
      await page.setViewportSize(PHONE);
      await page.goto(`${base}/shop/`);
      await expect(page.getByRole("heading", { name: "Öffne diesen Shop über seinen Telegram-Bot." })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await saveScreenshot(page, "storefront-outside-telegram-de");
    });
  });

  test("the storefront's JavaScript, lazy chunks included, stays under 150 kB gzipped", () => {
    const { files, gzipBytes } = storefrontScriptSize();
    expect(files.length).toBeGreaterThan(0);
    expect(gzipBytes).toBeLessThan(150 * 1024);
  });
});

/** "#2481cc" as the browser computes it: "rgb(36, 129, 204)". */
function hexToRgb(colour: string): string {
  const value = Number.parseInt(colour.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}
