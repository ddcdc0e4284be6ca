import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type Database } from "../db/client";
import { loginThrottle } from "../db/schema";
import { startTestServer, TEST_PASSWORD, type TestServer } from "../testing/app";
import { createTestDatabase } from "../testing/database";
import { clientKey, CLIENT_WINDOW, GLOBAL_WINDOW } from "./login-throttle";

// Failed-login throttling through the real HTTP API (DESIGN decision 9): atomic under parallel
// bursts, blind to X-Forwarded-For unless TRUST_PROXY says otherwise, capped globally, and shared
// by every server instance on one database.

const login = (server: TestServer, password: string, headers: Record<string, string> = {}) =>
  server.request("POST", "/api/auth/login", { body: { password }, headers });

async function statuses(responses: Promise<Response>[]): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const response of await Promise.all(responses)) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

describe("login throttling", () => {
  let clock = new Date("2026-11-22T10:00:00Z");
  const now = () => clock;
  const servers: TestServer[] = [];
  const start = async (options: Parameters<typeof startTestServer>[0] = {}) => {
    const server = await startTestServer({ ...options, deps: { now, ...options.deps } });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
  });

  it("lets exactly five of thirty parallel guesses be checked; the rest wait with Retry-After", async () => {
    const server = await start();
    const counts = await statuses(Array.from({ length: 30 }, (_, i) => login(server, `guess-${i}`)));
    expect(counts).toEqual({ 401: CLIENT_WINDOW.maxFailures, 429: 30 - CLIENT_WINDOW.maxFailures });
    const blocked = await login(server, TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect((await blocked.json()).error).toMatch(/^Too many failed attempts\. Try again in 15 minutes\.$/);
  });

  it("ignores X-Forwarded-For without TRUST_PROXY, also when PUBLIC_URL is set", async () => {
    for (const config of [{}, { publicUrl: "https://shop.example" }]) {
      const server = await start({ config });
      const counts = await statuses(
        Array.from({ length: 20 }, (_, i) => login(server, `guess-${i}`, { "x-forwarded-for": `203.0.113.${i + 1}` })),
      );
      expect(counts[429]).toBe(20 - CLIENT_WINDOW.maxFailures);
    }
  });

  // 100 password checks (scrypt, by design slow): a generous bound for a busy 2-core machine.
  it("with TRUST_PROXY counts per forwarded client, and caps all clients together at 100 failures an hour", { timeout: 120_000 }, async () => {
    clock = new Date("2026-11-22T12:00:00Z");
    const server = await start({ config: { trustProxy: 1 } });
    // 25 clients behind the proxy, 4 wrong guesses each: none hits its own limit, 100 failures in all.
    for (let client = 1; client <= 25; client++) {
      const counts = await statuses(
        Array.from({ length: 4 }, (_, i) => login(server, `guess-${i}`, { "x-forwarded-for": `198.51.100.${client}` })),
      );
      expect(counts).toEqual({ 401: 4 });
    }
    expect(GLOBAL_WINDOW.maxFailures).toBe(100);
    // The 101st failure anywhere is refused, even from a client never seen, even with the right password.
    const fresh = await login(server, TEST_PASSWORD, { "x-forwarded-for": "192.0.2.77" });
    expect(fresh.status).toBe(429);
    expect((await fresh.json()).error).toMatch(/^Too many failed logins on this shop\. Try again in \d+ minutes?\.$/);
    // An hour later the shop opens again, and a right password resets nothing it should not.
    clock = new Date(clock.getTime() + GLOBAL_WINDOW.windowMs + 1000);
    expect((await login(server, TEST_PASSWORD, { "x-forwarded-for": "192.0.2.77" })).status).toBe(200);
    // Rows of windows long over are dropped: memory never grows with the number of attackers.
    clock = new Date(clock.getTime() + GLOBAL_WINDOW.windowMs + 1000);
    await login(server, "one more wrong", { "x-forwarded-for": "192.0.2.78" });
    const rows = await server.database.db.select().from(loginThrottle);
    expect(rows.map((row) => row.key).sort()).toEqual(["global", "ip:192.0.2.78"]);
  });

  it("a right password lets the client in and clears its failures", async () => {
    clock = new Date("2026-11-22T15:00:00Z");
    const server = await start();
    for (let i = 0; i < 4; i++) expect((await login(server, `wrong-${i}`)).status).toBe(401);
    expect((await login(server, TEST_PASSWORD)).status).toBe(200);
    const counts = await statuses(Array.from({ length: 5 }, (_, i) => login(server, `again-${i}`)));
    expect(counts).toEqual({ 401: 5 });
  });

  describe("two server instances on one database", () => {
    let database: Database & { url?: string };
    let second: Database;
    beforeAll(async () => {
      database = await createTestDatabase();
      // On PostgreSQL the second instance has its own connection pool, as a second machine would.
      second = database.url ? await openPostgres(database.url) : database;
    });
    afterAll(async () => {
      if (second !== database) await second.close();
      await database.close();
    });

    it("share one count: guesses spread over both are limited as if sent to one", async () => {
      clock = new Date("2026-11-22T18:00:00Z");
      const a = await start({ database });
      const b = await start({ database: second });
      const counts = await statuses(Array.from({ length: 20 }, (_, i) => login(i % 2 ? a : b, `guess-${i}`)));
      expect(counts).toEqual({ 401: CLIENT_WINDOW.maxFailures, 429: 20 - CLIENT_WINDOW.maxFailures });
    });
  });
});

describe("clientKey", () => {
  it("counts IPv4 addresses one by one and IPv6 clients by their /64", () => {
    expect(clientKey("203.0.113.9")).toBe("ip:203.0.113.9");
    expect(clientKey("::ffff:203.0.113.9")).toBe("ip:203.0.113.9");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("ip6:2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("ip6:2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("ip6:2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("ip6:0:0:0:0::/64");
  });
});
