import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/app";
import { createWebRoutes } from "./web";

// Browser hardening headers (docs/product.md rule 9) on the app's pages, its API answers and errors.

function webDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "shop-headers-web-"));
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
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
