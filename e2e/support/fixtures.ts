import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import type { CustomerMessage, Language, Order, OrderItem } from "../../contract";
import { bundled } from "../../test-support/bundles";
import { migratedDataDir } from "../../test-support/data-dir-template";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";

// Playwright fixtures for every spec (import { test, expect } from "./support/fixtures"):
//   worker-scoped: `telegram` (a fake Telegram Bot API on 127.0.0.1) and `shop` (the real server,
//   started by e2e/support/server.ts on a fresh DATA_DIR with PGlite, a copy of the run's migrated one
//   (test-support/data-dir-template.ts), reaching that fake Telegram);
//   test-scoped: `baseURL` (the shop's), `api` (logged-in JSON requests), `seed` (orders and customer
//   messages straight into the database), `adminPage` (a page already logged in).
// Before each test the shop's data is emptied (admin password and sessions stay).

export const ADMIN_PASSWORD = "e2e admin password";
export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** The e2e server's undo window of a dispatch (server/config.ts DISPATCH_UNDO_MS). */
export const E2E_DISPATCH_UNDO_MS = 3_000;
const ROOT = path.resolve(import.meta.dirname, "../..");
export const SCREENSHOT_DIR = path.join(ROOT, "e2e/output/screenshots");

export type ShopServer = { baseURL: string; dataDir: string };

/** JSON requests with the admin's session; a non-OK answer throws with its status and body. */
export type Api = {
  get<T = unknown>(url: string): Promise<T>;
  post<T = unknown>(url: string, body?: unknown): Promise<T>;
  put<T = unknown>(url: string, body?: unknown): Promise<T>;
  patch<T = unknown>(url: string, body?: unknown): Promise<T>;
  delete<T = unknown>(url: string): Promise<T>;
  /** The underlying logged-in Playwright request context, for answers a test wants to inspect itself. */
  context: APIRequestContext;
};

export type SeedOrderItem = {
  productId: string;
  productName: string;
  price: string;
  quantity?: number;
  /** Issue 23: the variant bought (the product's default variant when left out), its label and SKU. */
  variantId?: string;
  variantLabel?: string | null;
  sku?: string | null;
};
export type SeedOrder = Partial<
  Pick<
    Order,
    | "telegramUserId"
    | "telegramUsername"
    | "status"
    | "totalAmount"
    | "paymentMethod"
    | "paymentStatus"
    | "paymentId"
    | "postageOptionId"
    | "postageName"
    | "postagePrice"
    | "couponCode"
    | "discountAmount"
    | "payAmount"
    | "actuallyPaid"
    | "payCurrency"
    | "paymentExpiresAt"
    | "adminFlag"
    | "shippingAddress"
    | "createdAt"
  >
> & {
  items?: SeedOrderItem[];
  /** Take the items' quantities off their products' stock, as a real checkout does. */
  reserveStock?: boolean;
};
export type SeedMessage = Partial<
  Pick<CustomerMessage, "telegramUserId" | "telegramUsername" | "message" | "isFromCustomer" | "isRead" | "orderId" | "createdAt">
>;

/** Rows the API cannot create. Every field has a plausible default. */
export type Seed = {
  order(order?: SeedOrder): Promise<Order & { items: OrderItem[] }>;
  message(message?: SeedMessage): Promise<CustomerMessage>;
  /** Someone who started the bot, and the language it speaks to them (issue 26). */
  botCustomer(customer: { telegramUserId: string; telegramUsername?: string | null; language?: Language | null }): Promise<unknown>;
};

function findChromium(): string {
  const candidate = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(candidate)) {
    throw new Error(`Chromium was not found at ${candidate}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  return candidate;
}
export const CHROMIUM_PATH = findChromium();

async function startShop(telegram: FakeTelegram): Promise<{ server: ShopServer; child: ChildProcess }> {
  const dataDir = migratedDataDir("shop-e2e-");
  // Bundled by the global set-up (test-support/bundles.ts): no tsx compiling the server in each worker.
  const child = spawn(process.execPath, [bundled("e2e/support/server.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      // Nothing listens there: no test reaches the real gateway by accident.
      NOWPAYMENTS_API_URL: "http://127.0.0.1:9/v1",
      PUBLIC_URL: "",
      // The undo window of a dispatch (10 s in production), short so a test waiting for the customer's
      // message waits little, long enough to click Undo in its toast.
      DISPATCH_UNDO_MS: String(E2E_DISPATCH_UNDO_MS),
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
  });
  let output = "";
  const baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The e2e server did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /E2E_SERVER_READY (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The e2e server exited with code ${code}:\n${output}`));
    });
  });
  // Keep the server's later errors visible in the test output.
  child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(`[e2e server] ${chunk.toString()}`));
  return { server: { baseURL, dataDir }, child };
}

async function stopShop(child: ChildProcess, dataDir: string) {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function loggedInContext(baseURL: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL });
  const response = await context.post("/api/auth/login", { data: { password: ADMIN_PASSWORD } });
  if (!response.ok()) throw new Error(`e2e login failed: ${response.status()} ${await response.text()}`);
  return context;
}

function createApi(context: APIRequestContext): Api {
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await context.fetch(url, { method, ...(body !== undefined ? { data: body } : {}) });
    const text = await response.text();
    if (!response.ok()) throw new Error(`${method} ${url} answered ${response.status()}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  return {
    get: (url) => call("GET", url),
    post: (url, body) => call("POST", url, body ?? {}),
    put: (url, body) => call("PUT", url, body ?? {}),
    patch: (url, body) => call("PATCH", url, body ?? {}),
    delete: (url) => call("DELETE", url),
    context,
  };
}

/** The toast on screen (at most one at a time); `.filter({ hasText })` to pick by text. */
export function toasts(page: Page) {
  return page.locator('[data-slot="toast"]');
}

/** Expects the toast with this title (and description, when given) to show; answers it. */
export async function expectToast(page: Page, title: string, description?: string | RegExp) {
  const toast = toasts(page).filter({ hasText: title });
  await expect(toast).toBeVisible();
  if (description !== undefined) await expect(toast).toContainText(description);
  return toast;
}

/**
 * A screenshot saved as e2e/output/screenshots/<name>.png: the whole page by default, once the
 * opening animations (drawers, dialogs, toasts) have finished.
 */
export async function saveScreenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  await page.evaluate(async () => {
    // From the top: the sticky top bar and fixed sidebar then sit where a visitor sees them.
    window.scrollTo(0, 0);
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/** What a page reports of each `securitypolicyviolation` event (see the `page` fixture). */
type CspViolation = { directive: string; blockedUri: string; sourceFile: string; line: number; sample: string };
const CSP_VIOLATION_BINDING = "__e2eReportCspViolation";

/** "script-src blocked eval (at http://.../assets/index-abc.js:1)": the directive, what it blocked, and where. */
function describeCspViolation(violation: CspViolation): string {
  const where = violation.sourceFile ? ` (at ${violation.sourceFile}:${violation.line})` : "";
  const sample = violation.sample ? ` [${violation.sample}]` : "";
  return `${violation.directive} blocked ${violation.blockedUri || "(no URI)"}${sample}${where}`;
}

/**
 * Playwright's own test with the CSP guard on its page: for specs that start a server of their own
 * (bot health, owner alerts, the chat simulator) and so must not start the worker's shop.
 */
export const guardedTest = base.extend<{
  /** The CSP violations the test's page reported so far; any left at the end fail the test. */
  cspViolations: string[];
}>({
  // Filled by the `page` fixture below; a test may read it (e2e/csp.spec.ts).
  // eslint-disable-next-line no-empty-pattern
  cspViolations: async ({}, use) => {
    await use([]);
  },
  // Every page runs under the server's Content-Security-Policy (docs/SECURITY.md, "Headers"); a
  // violation (a blocked script, eval, style or image) fails the test that caused it. The console
  // alone misses some: a blocked `new Function` whose error the page catches (zod's probe for eval
  // did that on every page) logs nothing there. Every violation fires a `securitypolicyviolation`
  // event in its document, so each document reports those to the test as they happen.
  page: async ({ page, cspViolations: violations }, use) => {
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeBinding(CSP_VIOLATION_BINDING, (_source, violation: CspViolation) => {
      violations.push(describeCspViolation(violation));
    });
    await page.addInitScript((binding) => {
      // Capturing on the document: the event is fired at the offending element or at the document, and bubbles.
      document.addEventListener(
        "securitypolicyviolation",
        (event) => {
          const report = (window as unknown as Record<string, (violation: CspViolation) => Promise<void>>)[binding];
          void report?.({
            directive: event.effectiveDirective || event.violatedDirective,
            blockedUri: event.blockedURI,
            sourceFile: event.sourceFile,
            line: event.lineNumber,
            sample: event.sample,
          });
        },
        true,
      );
    }, CSP_VIOLATION_BINDING);
    await use(page);
    // The event is dispatched in a task of its own: one more round trip lets a violation from the
    // test's last step arrive. A page the test closed has nothing more to report.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))).catch(() => {});
    expect(violations, "Content-Security-Policy violations").toEqual([]);
  },
});

export const test = guardedTest.extend<
  {
    api: Api;
    seed: Seed;
    adminPage: Page;
    freshShop: void;
  },
  { telegram: FakeTelegram; shop: ShopServer }
>({
  telegram: [
    // Playwright reads the fixtures a fixture needs from this parameter's destructuring: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const telegram = await startFakeTelegram();
      await use(telegram);
      await telegram.close();
    },
    { scope: "worker" },
  ],
  shop: [
    async ({ telegram }, use) => {
      const { server, child } = await startShop(telegram);
      await use(server);
      await stopShop(child, server.dataDir);
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ shop }, use) => {
    await use(shop.baseURL);
  },
  api: async ({ shop }, use) => {
    const context = await loggedInContext(shop.baseURL);
    await use(createApi(context));
    await context.dispose();
  },
  freshShop: [
    async ({ api }, use) => {
      await api.post("/api/test/reset");
      await use();
    },
    { auto: true },
  ],
  seed: async ({ api }, use) => {
    await use({
      order: (order = {}) => api.post("/api/test/orders", order),
      message: (message = {}) => api.post("/api/test/messages", message),
      botCustomer: (customer) => api.post("/api/test/bot-customers", customer),
    });
  },
  adminPage: async ({ page }, use) => {
    const response = await page.request.post("/api/auth/login", { data: { password: ADMIN_PASSWORD } });
    if (!response.ok()) throw new Error(`e2e login failed: ${response.status()} ${await response.text()}`);
    await use(page);
  },
});

/**
 * The page stops hearing the server's live events (GET /api/events): it keeps showing what it loaded,
 * as a tab whose stream dropped would. For tests of the server refusing a stale page's action: with
 * live updates on, the page would refresh before the click.
 */
export async function withoutLiveUpdates(page: Page): Promise<void> {
  await page.route("**/api/events", (route) => route.abort());
}

export { expect };
