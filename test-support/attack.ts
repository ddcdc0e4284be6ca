import http from "node:http";
import { insertCustomerMessage, insertOrder } from "./factories";
import { STOREFRONT_BUDGETS, type StorefrontBudgets } from "../server/http/storefront-limits";
import type { TestServer } from "./app";

// What the attack tests (access, fuzz) share: a shop with one of everything, real ids to put in
// route paths, other spellings of a path, and requests sent byte for byte as written (fetch would
// normalise "./", "../" and absolute-form targets away before they reach the server).

export type ShopIds = Record<"category" | "product" | "postage" | "order" | "message" | "settings" | "customer" | "broadcast" | "coupon", string>;

/**
 * The storefront's budgets (docs/decisions/0041) for a test that sends hundreds of refused sign-ins
 * from its one address on purpose (every spelling, every forged header), each to be answered 401:
 * failed sign-ins are not limited there. server/http/storefront-limits.test.ts tests that limit.
 */
export const BUDGETS_FOR_FORGED_FLOODS: StorefrontBudgets = { ...STOREFRONT_BUDGETS, failedSignIns: { max: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } };

/** The bot token seedShop saves: the storefront's init data is signed with it. */
export const SEEDED_BOT_TOKEN = "7000000002:attack-test-token-abcdefghij";

export async function seedShop(server: TestServer, cookie: string): Promise<ShopIds> {
  const post = async (url: string, body: unknown) => {
    const response = await server.request("POST", url, { cookie, body });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const settings = await post("/api/bot-settings", {
    botName: "Attack Shop",
    botToken: SEEDED_BOT_TOKEN,
    acceptedCurrencies: ["BTC"],
    welcomeMessage: "Welcome",
    faqContent: "FAQ",
    nowpaymentsApiKey: "attack-api-key",
    nowpaymentsIpnSecret: "attack-ipn-secret",
  });
  const category = await post("/api/categories", { name: "Tea" });
  const product = await post("/api/products", { name: "Sencha", description: "Green", price: "4.99", stock: 10, categoryId: category.id });
  const postage = await post("/api/postage-options", { name: "Courier", price: "5.00" });
  const { order } = await insertOrder(server.database.db, {
    status: "failed",
    items: [{ product: { id: product.id, name: "Sencha", price: "4.99" } }],
  });
  const message = await insertCustomerMessage(server.database.db, { telegramUserId: order.telegramUserId });
  // The order's customer is the audience "an order in the last 30 days" (issue 14).
  const broadcast = await post("/api/broadcasts", { text: "Hello", audience: { kind: "recent", days: 30 } });
  const coupon = await post("/api/coupons", { code: "ATTACK10", kind: "percent", value: 10, productIds: [product.id] });
  return {
    category: category.id,
    product: product.id,
    postage: postage.id,
    order: order.id,
    message: message.id,
    settings: settings.id,
    customer: order.telegramUserId,
    broadcast: broadcast.id,
    coupon: coupon.id,
  };
}

/** The route's path with real ids in place of its parameters. */
export function fillPath(url: string, ids: ShopIds): string {
  const resource = url.split("/")[2] ?? "";
  const idFor: Record<string, string> = {
    categories: ids.category,
    products: ids.product,
    "postage-options": ids.postage,
    orders: ids.order,
    messages: ids.message,
    "bot-settings": ids.settings,
    broadcasts: ids.broadcast,
    coupons: ids.coupon,
  };
  return url
    .replace(":telegramUserId", ids.customer)
    .replace(":id", idFor[resource] ?? "nothing-here")
    .replace(":token", "no-such-token")
    .replace("*", "");
}

/** Other spellings of an /api/... or /objects/... path that a router may take for the same route. */
export function spellings(path: string): string[] {
  const [, first = "", ...rest] = path.split("/");
  const tail = rest.length ? `/${rest.join("/")}` : "";
  const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
  return [
    path,
    `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${tail}`,
    `/${encodeAll(first)}${tail}`,
    `/${encodeAll(first).toUpperCase()}${tail}`,
    `//${first}${tail}`,
    `///${first}${tail}`,
    `/./${first}${tail}`,
    `/x/../${first}${tail}`,
    `/${first}/./${rest.join("/")}`,
    `/${first}//${rest.join("/")}`,
    `/${first}%2F${rest.join("%2F")}`,
    `/${first.toUpperCase()}${tail}`,
    `${path}/`,
    `${path}?x=1`,
    `${path};x=1`,
    `${path}%00`,
    `${path}#frag`,
    `http://evil.example${path}`,
    `http://127.0.0.1${path}`,
  ];
}

export type RawAnswer = { status: number; body: string; headers: http.IncomingHttpHeaders };

/** One request with the target exactly as given. */
export function rawRequest(
  baseUrl: string,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port,
        method,
        path: target,
        headers: {
          ...(options.body !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(options.body) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}
