import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/app";
import { rawRequest } from "../../test-support/attack";
import { createWebRoutes } from "./web";

describe("web app serving", () => {
  let dist: string;
  let server: TestServer;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), "web-dist-"));
    fs.mkdirSync(path.join(dist, "assets"));
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
    fs.writeFileSync(path.join(dist, "assets/app-abc123.js"), "console.log('app')");
    fs.writeFileSync(path.join(dist, "favicon.svg"), "<svg/>");
    fs.mkdirSync(path.join(dist, "storefront"));
    fs.writeFileSync(path.join(dist, "storefront/index.html"), "<!doctype html><title>storefront</title>");
    server = await startTestServer({ app: { extraRoutes: [createWebRoutes(dist)] } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("serves index.html for the app's routes, revalidated on every load", async () => {
    for (const url of ["/", "/orders", "/bot-settings?x=1", "/no/such/page"]) {
      const response = await server.request("GET", url);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toContain("<title>app</title>");
    }
  });

  it("serves hashed assets as immutable, other files revalidated", async () => {
    const asset = await server.request("GET", "/assets/app-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    const icon = await server.request("GET", "/favicon.svg");
    expect(icon.headers.get("cache-control")).toBe("no-cache");
  });

  it("serves the storefront Mini App's page at /shop/ and under it, revalidated on every load (issue 27)", async () => {
    for (const url of ["/shop/", "/shop/?tgWebAppStartParam=x", "/shop/catalogue", "/shop/a/b/c", "/shop/assets/x.js"]) {
      const response = await server.request("GET", url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("cache-control"), url).toBe("no-cache");
      expect(await response.text(), url).toContain("<title>storefront</title>");
    }
    // Other spellings are not the storefront: the dashboard's page (under the dashboard's headers, headers.test.ts).
    for (const url of ["/shopping", "/%73hop/", "/x/../shop/", "//shop/", "/Shop/", "/shop%2F"]) {
      const answer = await rawRequest(server.baseUrl, "GET", url);
      expect(answer.body, url).not.toContain("storefront");
    }
  });

  it("sends /shop to /shop/, keeping the query (and so the browser keeps Telegram's hash)", async () => {
    const bare = await rawRequest(server.baseUrl, "GET", "/shop");
    expect(bare.status).toBe(302);
    expect(bare.headers.location).toBe("/shop/");
    const withQuery = await rawRequest(server.baseUrl, "GET", "/shop?startapp=abc");
    expect(withQuery.headers.location).toBe("/shop/?startapp=abc");
  });

  it("says how to build when the storefront's page is missing from the build", async () => {
    fs.renameSync(path.join(dist, "storefront"), path.join(dist, "storefront-away"));
    try {
      const response = await server.request("GET", "/shop/");
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/npm run build/);
    } finally {
      fs.renameSync(path.join(dist, "storefront-away"), path.join(dist, "storefront"));
    }
  });

  it("serves a file added after start (a rebuild while running)", async () => {
    fs.writeFileSync(path.join(dist, "assets/late-def456.js"), "1");
    expect((await server.request("GET", "/assets/late-def456.js")).status).toBe(200);
  });

  it("answers JSON 404s for missing assets, API paths and non-GET requests, and never leaves the folder", async () => {
    const asset = await server.request("GET", "/assets/missing-000.js");
    expect(asset.status).toBe(404);
    expect(await asset.json()).toEqual({ error: "Not found: GET /assets/missing-000.js" });
    const cookie = await server.login();
    const api = await server.request("GET", "/api/nothing-here", { cookie });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: "Not found: GET /api/nothing-here" });
    expect((await server.request("POST", "/orders")).status).toBe(404);
    for (const url of ["/..%2f..%2f..%2fetc%2fpasswd", "/assets%2f..%2f..%2f..%2fetc%2fhostname"]) {
      const escape = await server.request("GET", url);
      expect(await escape.text()).not.toMatch(/root:|^[\w.-]+\n$/);
    }
  });

  it("says how to build when there is no build", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "web-empty-"));
    const bare = await startTestServer({ app: { extraRoutes: [createWebRoutes(empty)] } });
    try {
      const response = await bare.request("GET", "/");
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/npm run build/);
    } finally {
      await bare.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
