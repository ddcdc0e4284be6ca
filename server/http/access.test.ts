import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingPermissionMessage, type Permission, type Role, ROLE_LABELS, ROLES, roleCan } from "../../contract/team";
import { startTestServer, UNKNOWN_ID, type TestServer } from "../../test-support/app";
import { BUDGETS_FOR_FORGED_FLOODS, fillPath, rawRequest, seedShop, spellings, type ShopIds } from "../../test-support/attack";
import { databaseChecksum } from "../../test-support/checksum";
import { insertOrder } from "../../test-support/factories";
import { accounts, sessions } from "../db/schema";
import type { Routes } from "./deps";
import { registeredRoutes, type RegisteredRoute } from "./security";
import { createWebRoutes } from "./web";

// Access is decided on the matched route, deny by default (docs/product.md rule 9). These tests are
// generated from the router itself: every route the app registers, in every spelling of its path,
// without a session and from another site, and for every role against the permission the route
// declares (issue 25, contract/team.ts). A route added later is covered without editing this file.

/**
 * The routes anyone may call. A new route that declares itself public (or webhook) without being
 * added here fails the first test: opening a door is a decision someone must write down.
 */
const OPEN_ROUTES: Record<string, "public" | "webhook" | "storefront"> = {
  "POST /api/auth/login": "public",
  "GET /api/auth/status": "public",
  "HEAD /api/auth/status": "public",
  "POST /api/auth/logout": "public",
  "GET /api/staff/invites/:token": "public",
  "HEAD /api/staff/invites/:token": "public",
  "POST /api/staff/invites/:token": "public",
  "GET /api/health": "public",
  "HEAD /api/health": "public",
  "GET /objects/:id": "public",
  "HEAD /objects/:id": "public",
  "GET /*": "public",
  "HEAD /*": "public",
  "POST /api/telegram/webhook": "webhook",
  "POST /api/payments/webhook": "webhook",
  "POST /api/payments/btcpay/webhook": "webhook",
  // The Telegram Mini App's (issue 27): no session, Telegram's signed init data instead (storefront-auth.ts).
  "GET /api/storefront/catalogue": "storefront",
  "HEAD /api/storefront/catalogue": "storefront",
  "POST /api/storefront/quote": "storefront",
  "POST /api/storefront/orders": "storefront",
  "GET /api/storefront/orders": "storefront",
  "HEAD /api/storefront/orders": "storefront",
  "GET /api/storefront/orders/:id": "storefront",
  "HEAD /api/storefront/orders/:id": "storefront",
  "GET /api/storefront/messages": "storefront",
  "HEAD /api/storefront/messages": "storefront",
  "POST /api/storefront/messages": "storefront",
};

/**
 * The admin routes that name no permission, so only the owner may call them (security.ts: deny by
 * default). A route added without `may(...)` fails the roles' first test until it is listed here:
 * keeping a route from every staff role is a decision too. The one here is the test's own.
 */
const OWNER_ONLY_ROUTES = ["GET /api/test/undeclared", "HEAD /api/test/undeclared", "POST /api/test/undeclared"];

/** A route that declares no permission, as a route someone forgot to give one would be. */
const undeclaredRoutes: Routes = (app) => {
  app.get("/api/test/undeclared", async () => ({ ok: true }));
  app.post("/api/test/undeclared", async () => ({ ok: true }));
};

/** Whether `role` may call a route declaring `permission`, as security.ts decides (none declared: the owner alone). */
const allows = (role: Role, permission: Permission | null) => (permission ? roleCan(role, permission) : role === "owner");

/** The sentence a refused role gets: it names the missing permission, or says the route is the owner's. */
const refusal = (role: Role, permission: Permission | null) =>
  permission ? missingPermissionMessage(role, permission) : `Only the shop's owner can do this (your role: ${ROLE_LABELS[role]}).`;

/** Ids that name nothing, for the writes a role may make: the access check is what is tested, the seeded shop stays. */
const NOTHING: ShopIds = {
  category: UNKNOWN_ID,
  product: UNKNOWN_ID,
  postage: UNKNOWN_ID,
  order: UNKNOWN_ID,
  message: UNKNOWN_ID,
  settings: UNKNOWN_ID,
  customer: "999999999",
  broadcast: UNKNOWN_ID,
  coupon: UNKNOWN_ID,
};

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const NOT_FOUND = /^Not found: /;

describe("access to every route (generated from the router)", () => {
  let server: TestServer;
  let cookie: string;
  let ids: ShopIds;
  let routes: readonly RegisteredRoute[];
  /** Each role's session: the owner's and one staff account per staff role (issue 25). */
  const cookies = {} as Record<Role, string>;
  const accountIds = {} as Record<Role, string>;

  beforeAll(async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), "shop-access-web-"));
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
    server = await startTestServer({ app: { extraRoutes: [createWebRoutes(dist), undeclaredRoutes], storefrontBudgets: BUDGETS_FOR_FORGED_FLOODS } });
    cookie = await server.login();
    ids = await seedShop(server, cookie);
    routes = registeredRoutes(server.app);
    cookies.owner = cookie;
    for (const role of ["manager", "packer", "support"] as const) ({ cookie: cookies[role], accountId: accountIds[role] } = await server.loginAs(role));
  });
  afterAll(() => server.close());

  it("opens only the routes listed as open; every other route needs the admin", () => {
    expect(routes.length).toBeGreaterThan(30);
    const open = Object.fromEntries(routes.filter((r) => r.access !== "admin").map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(open).toEqual(OPEN_ROUTES);
  });

  /** The answer an unauthorised request may get: refused (401/403), or no route at all (the JSON 404, a bad URL). */
  function expectRefused(answer: { status: number; body: string }, what: string) {
    // HEAD answers carry no body; everything else must be our JSON error.
    const body = what.startsWith("HEAD ") ? { error: answer.status === 404 ? "Not found: " : "" } : (JSON.parse(answer.body) as { error?: unknown });
    expect(typeof body.error, `${what}: ${answer.status} ${answer.body}`).toBe("string");
    const refused =
      answer.status === 401 ||
      answer.status === 403 ||
      (answer.status === 404 && NOT_FOUND.test(String(body.error))) ||
      (answer.status === 400 && body.error === "The request path is not a valid URL.");
    expect(refused, `${what}: ${answer.status} ${answer.body}`).toBe(true);
  }

  it("refuses every admin route, in every spelling, without a session, and changes nothing", async () => {
    const before = await databaseChecksum(server.database.db);
    let tried = 0;
    // A route's spellings are sent together (the refusals are independent; a route at a time keeps
    // the sockets few): thousands of requests one after another outlast the time limit on a busy host.
    for (const route of routes.filter((r) => r.access === "admin")) {
      const targets = spellings(fillPath(route.url, ids));
      const answers = await Promise.all(targets.map((target) => rawRequest(server.baseUrl, route.method, target, UNSAFE.has(route.method) ? { body: "{}" } : {})));
      answers.forEach((answer, i) => expectRefused(answer, `${route.method} ${targets[i]}`));
      tried += answers.length;
    }
    expect(tried).toBeGreaterThan(500);
    expect(await databaseChecksum(server.database.db)).toBe(before);
  });

  it("refuses every storefront route, in every spelling, without Telegram's init data (an admin's session is none), and changes nothing", async () => {
    const before = await databaseChecksum(server.database.db);
    let tried = 0;
    for (const route of routes.filter((r) => r.access === "storefront")) {
      const targets = spellings(fillPath(route.url, ids));
      const answers = await Promise.all(
        targets.map((target) => rawRequest(server.baseUrl, route.method, target, { headers: { cookie }, ...(UNSAFE.has(route.method) ? { body: "{}" } : {}) })),
      );
      answers.forEach((answer, i) => expectRefused(answer, `${route.method} ${targets[i]}`));
      tried += answers.length;
    }
    expect(tried).toBeGreaterThan(150);
    expect(await databaseChecksum(server.database.db)).toBe(before);
  });

  it("refuses every write from another site, in every spelling, even with the admin's session", async () => {
    const before = await databaseChecksum(server.database.db);
    const crossSite: Record<string, string>[] = [
      { cookie, origin: "https://evil.example" },
      { cookie, "sec-fetch-site": "cross-site" },
      { cookie, "sec-fetch-site": "same-site" },
      { cookie, origin: "null" },
      // Same host, other scheme: https://host is not http://host.
      { cookie, origin: server.baseUrl.replace("http://", "https://") },
    ];
    for (const route of routes.filter((r) => UNSAFE.has(r.method) && r.access !== "webhook")) {
      const tries = spellings(fillPath(route.url, ids)).flatMap((target) => crossSite.map((headers) => ({ target, headers })));
      const answers = await Promise.all(tries.map(({ target, headers }) => rawRequest(server.baseUrl, route.method, target, { headers, body: "{}" })));
      answers.forEach((answer, i) => {
        const { target, headers } = tries[i]!;
        expect([403, 404, 400], `${route.method} ${target} ${JSON.stringify(headers)}: ${answer.body}`).toContain(answer.status);
        if (answer.status !== 403) expectRefused(answer, `${route.method} ${target}`);
      });
    }
    expect(await databaseChecksum(server.database.db)).toBe(before);
  });

  it("gives the bot settings' secrets to nobody but the admin", async () => {
    for (const target of spellings("/api/bot-settings")) {
      const answer = await rawRequest(server.baseUrl, "GET", target);
      expect(answer.body).not.toContain("attack-ipn-secret");
      expect(answer.body).not.toContain("attack-test-token");
    }
    // The admin gets them masked (docs/SECURITY.md): proof the route answered, and nothing more.
    const admin = await server.request("GET", "/api/bot-settings", { cookie });
    expect(await admin.json()).toMatchObject({ botName: "Attack Shop", nowpaymentsIpnSecret: "••••••••cret" });
  });

  it("lets the admin in by the plain path, so the refusals above are about access and not a broken route", async () => {
    for (const route of routes.filter((r) => r.access === "admin" && r.method === "GET" && !r.url.includes(":token"))) {
      const response = await server.request("GET", fillPath(route.url, ids), { cookie });
      // The live event stream (GET /api/events) never ends: its status is all there is to read.
      const text = response.status === 200 ? "" : await response.text();
      await response.body?.cancel();
      expect(response.status, `GET ${route.url}: ${text}`).toBe(200);
    }
  });

  it("keeps the webhooks reachable from anywhere, and each still checks its own secret", async () => {
    const telegram = await rawRequest(server.baseUrl, "POST", "/%61pi/telegram/webhook", {
      headers: { origin: "https://evil.example" },
      body: JSON.stringify({ update_id: 1 }),
    });
    expect(telegram.status).toBe(401);
    const ipn = await rawRequest(server.baseUrl, "POST", "/api/payments/webhook", {
      headers: { origin: "https://evil.example", "x-nowpayments-sig": "00" },
      body: JSON.stringify({ payment_id: 1, payment_status: "finished", order_id: ids.order }),
    });
    expect(ipn.status).toBe(401);
  });

  it("answers an unknown path with the JSON 404 in every spelling, never the web app", async () => {
    for (const target of spellings("/api/no-such-call")) {
      const answer = await rawRequest(server.baseUrl, "GET", target, { headers: { cookie } });
      expect(answer.status, `${target}: ${answer.body}`).toBe(404);
      expect(answer.headers["content-type"]).toContain("application/json");
    }
  });

  // Roles (issue 25, contract/team.ts): every admin route, for every role, as the route table declares it.

  it("names a permission on every admin route but those listed as the owner's", () => {
    const undeclared = routes.filter((r) => r.access === "admin" && r.permission === null).map((r) => `${r.method} ${r.url}`);
    expect(undeclared.sort()).toEqual([...OWNER_ONLY_ROUTES].sort());
  });

  it("refuses every admin route to each role without its permission, naming the permission, and changes nothing", async () => {
    const before = await databaseChecksum(server.database.db);
    let refused = 0;
    for (const route of routes.filter((r) => r.access === "admin")) {
      for (const role of ROLES.filter((role) => !allows(role, route.permission))) {
        const what = `${role}: ${route.method} ${route.url}`;
        const response = await server.request(route.method, fillPath(route.url, ids), {
          cookie: cookies[role],
          ...(UNSAFE.has(route.method) ? { body: {} } : {}),
        });
        expect(response.status, what).toBe(403);
        // A refusal is not kept by any cache: another account's answer may differ.
        expect(response.headers.get("cache-control"), what).toBe("no-store");
        if (route.method !== "HEAD") expect(await response.json(), what).toEqual({ error: refusal(role, route.permission) });
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(150);
    expect(await databaseChecksum(server.database.db)).toBe(before);
  });

  it("refuses a packer in every spelling of the paths it may not take, and changes nothing", async () => {
    const before = await databaseChecksum(server.database.db);
    // The role is checked on the route the router matched: one route per permission and method the
    // packer lacks shows whether any spelling reaches a route it may take (every route: ~10 s more).
    const sample = new Map<string, RegisteredRoute>();
    for (const route of routes.filter((r) => r.access === "admin" && !allows("packer", r.permission))) {
      const key = `${route.permission} ${route.method}`;
      if (!sample.has(key)) sample.set(key, route);
    }
    let tried = 0;
    for (const route of sample.values()) {
      for (const target of spellings(fillPath(route.url, ids))) {
        const answer = await rawRequest(server.baseUrl, route.method, target, {
          headers: { cookie: cookies.packer },
          ...(UNSAFE.has(route.method) ? { body: "{}" } : {}),
        });
        expectRefused(answer, `${route.method} ${target}`);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(300);
    expect(await databaseChecksum(server.database.db)).toBe(before);
  });

  it("lets each role through where its permission allows: every GET answers 200, no write is refused for its role", async () => {
    let allowed = 0;
    for (const route of routes.filter((r) => r.access === "admin" && r.method !== "HEAD" && !r.url.includes(":token"))) {
      for (const role of ROLES.filter((role) => allows(role, route.permission))) {
        const what = `${role}: ${route.method} ${route.url}`;
        const unsafe = UNSAFE.has(route.method);
        // Writes name nothing (ids of nothing, an empty body): the seeded shop stays for the other tests.
        const response = await server.request(route.method, fillPath(route.url, unsafe ? NOTHING : ids), {
          cookie: cookies[role],
          ...(unsafe ? { body: {} } : {}),
        });
        // The live event stream (GET /api/events) never ends: its status is all there is to read.
        const readBody = response.status !== 200 || unsafe;
        const text = readBody ? await response.text() : "";
        if (!readBody) await response.body?.cancel();
        if (unsafe) expect([401, 403], `${what}: ${response.status} ${text}`).not.toContain(response.status);
        else expect(response.status, `${what}: ${text}`).toBe(200);
        allowed++;
      }
    }
    expect(allowed).toBeGreaterThan(150);
  });

  /**
   * What each role may do on a few routes that matter, written out rather than derived from
   * contract/team.ts: a permission moved to the wrong route, or given to the wrong role, shows here.
   */
  const MATRIX: [route: string, allowed: Role[]][] = [
    ["GET /api/orders", ["owner", "manager", "packer", "support"]],
    ["GET /api/orders/:id/items", ["owner", "manager", "packer", "support"]],
    ["PUT /api/orders/:id", ["owner", "manager", "packer"]],
    ["POST /api/orders/:id/notify-dispatch", ["owner", "manager", "packer"]],
    ["POST /api/orders/bulk-dispatch", ["owner", "manager", "packer"]],
    ["POST /api/orders/:id/undo-dispatch", ["owner", "manager", "packer"]],
    ["POST /api/orders/:id/cancel", ["owner", "manager"]],
    ["POST /api/orders/:id/accept-payment", ["owner", "manager"]],
    ["GET /api/orders/export.csv", ["owner", "manager"]],
    ["GET /api/products", ["owner", "manager"]],
    ["PUT /api/product-images", ["owner", "manager"]],
    ["GET /api/coupons", ["owner", "manager"]],
    ["GET /api/messages", ["owner", "manager", "support"]],
    ["POST /api/messages", ["owner", "manager", "support"]],
    ["GET /api/messages/unread-count", ["owner", "manager", "support"]],
    ["GET /api/customers", ["owner", "manager", "support"]],
    ["GET /api/customers/:telegramUserId", ["owner", "manager", "support"]],
    ["PUT /api/customers/:telegramUserId/notes", ["owner", "manager"]],
    ["POST /api/customers/:telegramUserId/forget", ["owner", "manager"]],
    ["POST /api/broadcasts", ["owner", "manager"]],
    ["GET /api/dashboard/stats", ["owner", "manager"]],
    ["GET /api/audit-log", ["owner", "manager"]],
    ["GET /api/bot-settings", ["owner", "manager"]],
    ["GET /api/bot/simulator", ["owner", "manager"]],
    ["GET /api/owner-alerts", ["owner", "manager"]],
    ["GET /api/payment-gateways", ["owner"]],
    ["PUT /api/payment-gateways", ["owner"]],
    ["GET /api/privacy-settings", ["owner"]],
    ["GET /api/private-addresses", ["owner"]],
    ["PUT /api/private-addresses/passphrase", ["owner"]],
    ["GET /api/events", ["owner", "manager", "packer", "support"]],
    ["GET /api/openapi.json", ["owner", "manager"]],
    ["GET /api/docs/", ["owner", "manager"]],
    ["GET /api/docs/json", ["owner", "manager"]],
  ];

  it("gives each role exactly the key routes the roles' table says", async () => {
    for (const [name, expected] of MATRIX) {
      const [method, url] = name.split(" ") as [string, string];
      const route = routes.find((r) => r.method === method && r.url === url);
      expect(route, `${name} is registered`).toBeDefined();
      for (const role of ROLES) {
        const response = await server.request(method, fillPath(url, UNSAFE.has(method) ? NOTHING : ids), {
          cookie: cookies[role],
          ...(UNSAFE.has(method) ? { body: {} } : {}),
        });
        await response.body?.cancel();
        expect(response.status === 403, `${role}: ${name} answered ${response.status}`).toBe(!expected.includes(role));
      }
    }
  });

  it("lets only the roles with \"bot\" use Bot Preview's tester through the Telegram webhook", async () => {
    for (const role of ROLES) {
      const response = await server.request("POST", "/api/telegram/webhook", {
        cookie: cookies[role],
        body: { message: { message_id: 1, date: 0, chat: { id: 1, type: "private" }, text: "/start" } },
      });
      const answer = (await response.json()) as { error?: string };
      if (allows(role, "bot")) expect(response.status, `${role}: ${JSON.stringify(answer)}`).not.toBe(403);
      else expect([response.status, answer], role).toEqual([403, { error: refusal(role, "bot") }]);
    }
  });

  it("asks a manager with two-factor on for a fresh code before the CSV export, and takes one proved a minute ago", async () => {
    const { db } = server.database;
    const exportCsv = () => server.request("GET", "/api/orders/export.csv", { cookie: cookies.manager });
    await db.update(accounts).set({ totpEnabled: true }).where(eq(accounts.id, accountIds.manager));
    try {
      const stale = await exportCsv();
      expect(stale.status).toBe(403);
      expect(await stale.json()).toEqual({ error: "Enter a fresh two-factor code to do this.", stepUpRequired: true });
      await db.update(sessions).set({ totpAt: new Date(Date.now() - 60_000) }).where(eq(sessions.accountId, accountIds.manager));
      const fresh = await exportCsv();
      expect(fresh.status, await fresh.clone().text()).toBe(200);
      expect(fresh.headers.get("content-type")).toContain("text/csv");
      await fresh.body?.cancel();
    } finally {
      await db.update(accounts).set({ totpEnabled: false }).where(eq(accounts.id, accountIds.manager));
    }
  });

  it("lets a packer dispatch an order, with its tracking, and hold the customer's message", async () => {
    const { order } = await insertOrder(server.database.db, { status: "processing" });
    const dispatched = await server.request("PUT", `/api/orders/${order.id}`, {
      cookie: cookies.packer,
      body: { status: "dispatched", trackingNumber: "AB 123", carrier: "Royal Mail" },
    });
    expect(dispatched.status, await dispatched.clone().text()).toBe(200);
    expect(await dispatched.json()).toMatchObject({ status: "dispatched", trackingNumber: "AB 123" });
    const notified = await server.request("POST", `/api/orders/${order.id}/notify-dispatch`, { cookie: cookies.packer, body: {} });
    expect(notified.status, await notified.clone().text()).toBe(200);
    // ...but not cancel it, nor take its money: those are the manager's.
    const cancel = await server.request("POST", `/api/orders/${order.id}/cancel`, { cookie: cookies.packer, body: {} });
    expect(cancel.status).toBe(403);
    expect(await cancel.json()).toEqual({ error: 'Your role (Packer) does not have the "orders.manage" permission.' });
  });
});

describe("the cross-site check behind PUBLIC_URL", () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer({ config: { publicUrl: "https://shop.example" } });
    cookie = await server.login();
  });
  afterAll(() => server.close());

  it("takes the shop's own origin, and refuses the same host by another scheme or port", async () => {
    const post = (origin: string) => server.request("POST", "/api/categories", { cookie, body: { name: `From ${origin}` }, headers: { origin } });
    expect((await post("https://shop.example")).status).toBe(201);
    for (const origin of ["http://shop.example", "https://shop.example:8443", "https://evil.shop.example", "null"]) {
      const response = await post(origin);
      expect(response.status, origin).toBe(403);
      expect(await response.json()).toEqual({ error: "Cross-site requests are not allowed." });
    }
  });
});
