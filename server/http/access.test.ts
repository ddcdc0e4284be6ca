import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/app";
import { fillPath, rawRequest, seedShop, spellings, type ShopIds } from "../../test-support/attack";
import { databaseChecksum } from "../../test-support/checksum";
import { registeredRoutes, type RegisteredRoute } from "./security";
import { createWebRoutes } from "./web";

// Access is decided on the matched route, deny by default (docs/product.md rule 9). These tests are
// generated from the router itself: every route the app registers, in every spelling of its path,
// without a session and from another site. A route added later is covered without editing this file.

/**
 * The routes anyone may call. A new route that declares itself public (or webhook) without being
 * added here fails the first test: opening a door is a decision someone must write down.
 */
const OPEN_ROUTES: Record<string, "public" | "webhook"> = {
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
};

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const NOT_FOUND = /^Not found: /;

describe("access to every route (generated from the router)", () => {
  let server: TestServer;
  let cookie: string;
  let ids: ShopIds;
  let routes: readonly RegisteredRoute[];

  beforeAll(async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), "shop-access-web-"));
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
    server = await startTestServer({ app: { extraRoutes: [createWebRoutes(dist)] } });
    cookie = await server.login();
    ids = await seedShop(server, cookie);
    routes = registeredRoutes(server.app);
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
    for (const route of routes.filter((r) => r.access === "admin")) {
      for (const target of spellings(fillPath(route.url, ids))) {
        const answer = await rawRequest(server.baseUrl, route.method, target, UNSAFE.has(route.method) ? { body: "{}" } : {});
        expectRefused(answer, `${route.method} ${target}`);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(500);
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
      for (const target of spellings(fillPath(route.url, ids))) {
        for (const headers of crossSite) {
          const answer = await rawRequest(server.baseUrl, route.method, target, { headers, body: "{}" });
          expect([403, 404, 400], `${route.method} ${target} ${JSON.stringify(headers)}: ${answer.body}`).toContain(answer.status);
          if (answer.status !== 403) expectRefused(answer, `${route.method} ${target}`);
        }
      }
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
