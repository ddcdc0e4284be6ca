import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, TEST_PASSWORD, type TestServer } from "../../../test-support/app";

describe("authentication", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers 401 on status and on protected calls without a session", async () => {
    const status = await server.request("GET", "/api/auth/status");
    expect(status.status).toBe(401);
    expect(await status.json()).toEqual({ authenticated: false });
    const products = await server.request("GET", "/api/products");
    expect(products.status).toBe(401);
    expect(await products.json()).toEqual({ error: "Not logged in." });
  });

  it("refuses a wrong password with the server's error text", async () => {
    const response = await server.request("POST", "/api/auth/login", {
      body: { password: "wrong" },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Invalid password" });
  });

  it("requires a password", async () => {
    const response = await server.request("POST", "/api/auth/login", { body: {} });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/password/i);
  });

  it("logs in with a HttpOnly SameSite=Lax cookie, a new id each time, and logs out", async () => {
    const first = await server.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
    expect(first.status).toBe(200);
    const setCookie = first.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // plain http here
    const cookie = setCookie.split(";")[0]!;

    const second = await server.login();
    expect(second).not.toEqual(cookie);

    const status = await server.request("GET", "/api/auth/status", { cookie });
    expect(await status.json()).toMatchObject({ authenticated: true, account: { username: "owner", name: "Owner", role: "owner", totpEnabled: false } });

    const logout = await server.request("POST", "/api/auth/logout", { body: {}, cookie });
    expect(logout.status).toBe(200);
    const after = await server.request("GET", "/api/auth/status", { cookie });
    expect(after.status).toBe(401);
    // The other session is untouched.
    expect((await server.request("GET", "/api/auth/status", { cookie: second })).status).toBe(200);
  });

  it("sets a device cookie sent only to /api/auth: HttpOnly, SameSite=Strict, a year, kept at logout", async () => {
    const first = await server.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
    const [session, device] = first.headers.getSetCookie();
    // The session cookie comes first: scripts and tests read the first Set-Cookie as the session.
    expect(session).toMatch(/^sid=/);
    expect(device).toMatch(/^device=d1\.[^;]+; Max-Age=31536000; Path=\/api\/auth; HttpOnly; SameSite=Strict$/);
    // A new one at every sign-in.
    const again = await server.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
    expect(again.headers.getSetCookie()[1]!.split(";")[0]).not.toBe(device!.split(";")[0]);
    // Logging out ends the session, not the browser's standing.
    const logout = await server.request("POST", "/api/auth/logout", { body: {}, cookie: session!.split(";")[0] });
    expect(logout.headers.getSetCookie().join("\n")).not.toMatch(/device=/);

    const https = await startTestServer({ config: { publicUrl: "https://shop.example" } });
    try {
      const secure = await https.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
      expect(secure.headers.getSetCookie()[1]).toMatch(/^device=[^;]+;.*; Secure(;|$)/);
    } finally {
      await https.close();
    }
  });

  it("refuses a cross-site write even with a valid session", async () => {
    const cookie = await server.login();
    const response = await server.request("POST", "/api/auth/logout", {
      body: {},
      cookie,
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatch(/cross-site/i);
    expect((await server.request("GET", "/api/auth/status", { cookie })).status).toBe(200);
  });

  it("answers 404 as JSON for an unknown API path", async () => {
    const cookie = await server.login();
    const response = await server.request("GET", "/api/nothing-here", { cookie });
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatch(/not found/i);
  });
});

describe("login throttling", () => {
  let server: TestServer;
  let clock = new Date("2026-01-01T10:00:00Z");
  beforeAll(async () => {
    server = await startTestServer({ deps: { now: () => clock } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers 429 with Retry-After after five failures, and lets the client in once the window passes", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await server.request("POST", "/api/auth/login", { body: { password: `wrong-${i}` } });
      expect(r.status).toBe(401);
    }
    const blocked = await server.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await blocked.json()).error).toMatch(/too many/i);

    clock = new Date(clock.getTime() + 16 * 60 * 1000);
    const allowed = await server.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } });
    expect(allowed.status).toBe(200);
  });
});
