import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/app";
import { rawRequest } from "../../test-support/attack";
import { createWebRoutes } from "./web";

// Browser hardening headers (docs/product.md rule 9) on the app's pages, its API answers and errors.

function webDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "shop-headers-web-"));
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
  fs.mkdirSync(path.join(dist, "storefront"));
  fs.writeFileSync(path.join(dist, "storefront/index.html"), "<!doctype html><title>storefront</title>");
  return dist;
}

describe("security headers", () => {
  let plain: TestServer;
  let behindHttps: TestServer;
  beforeAll(async () => {
    plain = await startTestServer({ app: { extraRoutes: [createWebRoutes(webDist())] } });
    behindHttps = await startTestServer({ config: { publicUrl: "https://shop.example" }, app: { extraRoutes: [createWebRoutes(webDist())] } });
  });
  afterAll(async () => {
    await plain.close();
    await behindHttps.close();
  });

  it("sends a CSP that allows only this origin's scripts and forbids framing, on pages, API answers and errors", async () => {
    for (const url of ["/", "/orders", "/api/health", "/api/orders", "/api/nothing"]) {
      const response = await plain.request("GET", url);
      await response.arrayBuffer();
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).toContain("img-src 'self' data:");
      expect(csp, url).not.toContain("upgrade-insecure-requests");
      expect(response.headers.get("x-frame-options"), url).toBe("DENY");
      expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), url).toBe("no-referrer");
      expect(response.headers.get("strict-transport-security"), url).toBeNull();
    }
  });

  it("lets Telegram's web client frame the storefront Mini App's page, and nothing else (issue 27)", async () => {
    for (const url of ["/shop/", "/shop/orders?x=1"]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await plain.request(method, url);
        await response.arrayBuffer();
        const csp = response.headers.get("content-security-policy") ?? "";
        expect(csp, `${method} ${url}`).toContain("frame-ancestors 'self' https://web.telegram.org");
        expect(csp, url).toContain("script-src 'self'");
        expect(csp, url).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
        expect(csp, url).toContain("connect-src 'self'");
        expect(csp, url).toContain("object-src 'none'");
        expect(response.headers.get("x-frame-options"), url).toBeNull();
        expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
        expect(response.headers.get("referrer-policy"), url).toBe("no-referrer");
      }
    }
    // The storefront's API, other spellings of its path, the dashboard, a POST to /shop/: never framable.
    const strict: [string, string][] = [
      ["GET", "/api/storefront/catalogue"],
      ["GET", "/shopping"],
      ["GET", "/%73hop/"],
      ["GET", "/x/../shop/"],
      ["GET", "//shop/"],
      ["GET", "/storefront/index.html"],
      ["GET", "/"],
      ["POST", "/shop/"],
    ];
    for (const [method, url] of strict) {
      const answer = await rawRequest(plain.baseUrl, method, url);
      expect(answer.headers["content-security-policy"], `${method} ${url}`).toContain("frame-ancestors 'none'");
      expect(answer.headers["x-frame-options"], `${method} ${url}`).toBe("DENY");
    }
  });

  it("sends the same headers on answers to posts, refused ones included (the webhooks, a login)", async () => {
    for (const [url, body] of [
      ["/api/telegram/webhook", { update_id: 1 }],
      ["/api/payments/webhook", {}],
      ["/api/auth/login", { password: "wrong" }],
    ] as const) {
      const response = await plain.request("POST", url, { body });
      await response.arrayBuffer();
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.headers.get("content-security-policy") ?? "", url).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), url).toBe("no-referrer");
    }
  });

  it("adds HSTS only when the shop is served over https", async () => {
    const response = await behindHttps.request("GET", "/");
    await response.arrayBuffer();
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(response.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });
});
