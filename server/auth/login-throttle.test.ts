import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSecretBox } from "../crypto";
import { openPostgres, type Database } from "../db/client";
import { loginThrottle } from "../db/schema";
import { startTestServer, TEST_PASSWORD, type TestServer } from "../../test-support/app";
import { createTestDatabase } from "../../test-support/database";
import { TEST_STAFF_PASSWORD } from "../../test-support/admin-password";
import { OWNER_USERNAME as ADMIN_LOGIN } from "../shop/team";
import { createDeviceCookies, DEVICE_COOKIE, DEVICE_COOKIE_KEY_PURPOSE, DEVICE_COOKIE_LIFETIME_MS } from "./device-cookies";
import { ACCOUNT_WINDOW, clientKey, CLIENT_WINDOW, DEVICE_WINDOW, GLOBAL_WINDOW } from "./login-throttle";

// Failed-login throttling through the real HTTP API (docs/product.md rule 9): atomic under parallel
// bursts, blind to X-Forwarded-For unless TRUST_PROXY says otherwise, capped globally, and shared
// by every server instance on one database.

const login = (server: TestServer, password: string, headers: Record<string, string> = {}, username?: string) =>
  server.request("POST", "/api/auth/login", { body: username === undefined ? { password } : { username, password }, headers });

/** The device cookie ("device=...") a sign-in set. */
function deviceCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${DEVICE_COOKIE}=`));
  expect(cookie, "a sign-in sets a device cookie").toBeDefined();
  return cookie!.split(";")[0]!;
}

async function signIn(server: TestServer, headers: Record<string, string> = {}): Promise<string> {
  const response = await login(server, TEST_PASSWORD, headers);
  expect(response.status).toBe(200);
  return deviceCookieOf(response);
}

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
    // 25 clients behind the proxy, 4 wrong guesses each at an account of its own: none hits its own
    // limit nor its account's, 100 failures in all.
    for (let client = 1; client <= 25; client++) {
      const counts = await statuses(
        Array.from({ length: 4 }, (_, i) => login(server, `guess-${i}`, { "x-forwarded-for": `198.51.100.${client}` }, `user${client}`)),
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
    expect(rows.map((row) => row.key).sort()).toEqual(["global", "ip:192.0.2.78", "login:owner"]);
  });

  it("caps the guesses at one account from many addresses; that account's own browser still gets in", async () => {
    clock = new Date("2026-11-22T18:00:00Z");
    const server = await start({ config: { trustProxy: 1 } });
    const { cookie } = await server.loginAs("packer", "pat");
    await server.request("POST", "/api/auth/logout", { cookie });
    const device = deviceCookieOf(await login(server, TEST_STAFF_PASSWORD, {}, "pat"));
    // 10 addresses, 3 guesses each at "pat" (none reaches its own limit): 20 are checked, then the account is closed to strangers.
    const guesses = [];
    for (let client = 1; client <= 10; client++) {
      guesses.push(...Array.from({ length: 3 }, (_, i) => login(server, `guess-${i}`, { "x-forwarded-for": `198.51.100.${client}` }, "Pat")));
    }
    expect(ACCOUNT_WINDOW.maxFailures).toBe(20);
    expect(await statuses(guesses)).toEqual({ 401: 20, 429: 10 });
    const stranger = await login(server, TEST_STAFF_PASSWORD, { "x-forwarded-for": "192.0.2.9" }, "pat");
    expect(stranger.status).toBe(429);
    expect((await stranger.json()).error).toMatch(/^Too many failed attempts for this account\. Try again in \d+ minutes?\.$/);
    // Other accounts are not affected, and pat's own browser (its device cookie) signs in.
    expect((await login(server, TEST_PASSWORD, { "x-forwarded-for": "192.0.2.9" })).status).toBe(200);
    expect((await login(server, TEST_STAFF_PASSWORD, { cookie: device, "x-forwarded-for": "192.0.2.10" }, "pat")).status).toBe(200);
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

    it("accept each other's device cookies and share their count: of 30 parallel guesses with one cookie, 5 are checked", async () => {
      clock = new Date("2026-11-22T20:00:00Z");
      const a = await start({ database });
      const b = await start({ database: second });
      const device = await signIn(a);
      // The address is locked out first, so a guess that slips past the cookie's count would show as a 401.
      expect(await statuses(Array.from({ length: 5 }, (_, i) => login(i % 2 ? a : b, `guess-${i}`)))).toEqual({ 401: 5 });
      const counts = await statuses(Array.from({ length: 30 }, (_, i) => login(i % 2 ? a : b, `guess-${i}`, { cookie: device })));
      expect(counts).toEqual({ 401: DEVICE_WINDOW.maxFailures, 429: 30 - DEVICE_WINDOW.maxFailures });
    });
  });
});

// OWASP "Slow Down Online Guessing Attacks with Device Cookies" (docs/SECURITY.md, "Login throttling"):
// a browser that signed in before is counted by its cookie, so failures from elsewhere cannot lock the
// owner out; without a valid cookie nothing changes.
describe("device cookies", () => {
  let clock = new Date("2027-03-01T08:00:00Z");
  let server: TestServer;
  beforeAll(async () => {
    // No TRUST_PROXY: every client is 127.0.0.1, as behind a proxy it does not name.
    server = await startTestServer({ deps: { now: () => clock } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    // Each test starts with every window of the one before over (and its rows dropped).
    clock = new Date(clock.getTime() + 2 * GLOBAL_WINDOW.windowMs);
  });

  const lockTheAddress = async () => {
    for (let i = 0; i < CLIENT_WINDOW.maxFailures; i++) expect((await login(server, `attacker-${i}`)).status).toBe(401);
    expect((await login(server, TEST_PASSWORD)).status).toBe(429);
  };

  it("behind a proxy TRUST_PROXY does not name, the attacker locks the address out and the owner's browser still gets in", async () => {
    const device = await signIn(server);
    const attack = await statuses(
      Array.from({ length: 20 }, (_, i) => login(server, `guess-${i}`, { "x-forwarded-for": `203.0.113.${i + 1}` })),
    );
    expect(attack).toEqual({ 401: CLIENT_WINDOW.maxFailures, 429: 20 - CLIENT_WINDOW.maxFailures });
    // Another browser, without the cookie, is locked out like the attacker.
    expect((await login(server, TEST_PASSWORD)).status).toBe(429);

    const owner = await login(server, TEST_PASSWORD, { cookie: device });
    expect(owner.status).toBe(200);
    const session = owner.headers.get("set-cookie")!.split(";")[0]!;
    expect((await server.request("GET", "/api/auth/status", { cookie: session })).status).toBe(200);
    // The cookie is renewed (a new nonce), and the owner's sign-in gave the attacker no fresh guesses.
    const renewed = deviceCookieOf(owner);
    expect(renewed).not.toBe(device);
    expect((await login(server, "guess-again")).status).toBe(429);
    expect((await login(server, TEST_PASSWORD, { cookie: renewed })).status).toBe(200);
  });

  it("lets the owner's browser in when failures from everywhere have reached the global cap", async () => {
    const device = await signIn(server);
    // 100 failures from 100 addresses, as the TRUST_PROXY test above makes them: written directly,
    // to spare 100 password checks.
    await server.database.db
      .insert(loginThrottle)
      .values({ key: "global", failures: GLOBAL_WINDOW.maxFailures, windowStartedAt: clock })
      .onConflictDoUpdate({ target: loginThrottle.key, set: { failures: GLOBAL_WINDOW.maxFailures, windowStartedAt: clock } });
    const stranger = await login(server, TEST_PASSWORD);
    expect(stranger.status).toBe(429);
    expect((await stranger.json()).error).toMatch(/^Too many failed logins on this shop\./);
    const shopCount = async () =>
      (await server.database.db.select().from(loginThrottle).where(sql`${loginThrottle.key} = 'global'`))[0]!.failures;
    const before = await shopCount();

    expect((await login(server, "a typo", { cookie: device })).status).toBe(401);
    expect((await login(server, TEST_PASSWORD, { cookie: device })).status).toBe(200);
    // Neither the typo nor the sign-in moved the shop's count.
    expect(await shopCount()).toBe(before);
  });

  it("a right password with the cookie clears the cookie's failures, and never the address's", async () => {
    const device = await signIn(server);
    await lockTheAddress();
    for (let i = 0; i < DEVICE_WINDOW.maxFailures - 1; i++) expect((await login(server, `typo-${i}`, { cookie: device })).status).toBe(401);
    expect((await login(server, TEST_PASSWORD, { cookie: device })).status).toBe(200);
    // The same (older) cookie has its five tries again, and no more: the address is still locked.
    const counts = await statuses(Array.from({ length: 8 }, (_, i) => login(server, `typo-${i}`, { cookie: device })));
    expect(counts).toEqual({ 401: DEVICE_WINDOW.maxFailures, 429: 8 - DEVICE_WINDOW.maxFailures });
  });

  it("a stolen cookie gets 5 guesses, then is treated as absent: the address's throttle applies", async () => {
    const stolen = await signIn(server);
    const ownersOtherBrowser = await signIn(server);
    for (let i = 0; i < DEVICE_WINDOW.maxFailures; i++) expect((await login(server, `thief-${i}`, { cookie: stolen })).status).toBe(401);
    // The cookie's failures were not the address's: a client without it still has its five.
    expect((await login(server, "someone else's typo")).status).toBe(401);
    for (let i = 1; i < CLIENT_WINDOW.maxFailures; i++) expect((await login(server, `thief-more-${i}`, { cookie: stolen })).status).toBe(401);
    const refused = await login(server, TEST_PASSWORD, { cookie: stolen });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/^Too many failed attempts\. Try again in 15 minutes\.$/);
    expect((await login(server, TEST_PASSWORD)).status).toBe(429);
    // Another cookie of the owner's is its own count.
    expect((await login(server, TEST_PASSWORD, { cookie: ownersOtherBrowser })).status).toBe(200);
  });

  it("forged, altered, other-login, expired and other-key cookies give no way past a locked address", async () => {
    const device = await signIn(server);
    const value = device.slice(DEVICE_COOKIE.length + 1);
    await lockTheAddress();
    const refused = async (cookieValue: string) => {
      const response = await login(server, TEST_PASSWORD, { cookie: `${DEVICE_COOKIE}=${cookieValue}` });
      return response.status === 429;
    };

    const sameKey = createDeviceCookies(server.deps.secrets.deriveKey(DEVICE_COOKIE_KEY_PURPOSE));
    const handmade = {
      otherLogin: sameKey.issue("someone-else", clock),
      expired: sameKey.issue(ADMIN_LOGIN, new Date(clock.getTime() - DEVICE_COOKIE_LIFETIME_MS - 1000)),
      otherMasterKey: createDeviceCookies(createSecretBox(Buffer.alloc(32, 8)).deriveKey(DEVICE_COOKIE_KEY_PURPOSE)).issue(ADMIN_LOGIN, clock),
      otherPurpose: createDeviceCookies(server.deps.secrets.deriveKey("another purpose")).issue(ADMIN_LOGIN, clock),
      rawMasterKey: createDeviceCookies(Buffer.alloc(32, 7)).issue(ADMIN_LOGIN, clock),
    };
    for (const [name, forged] of Object.entries(handmade)) expect(await refused(forged), name).toBe(true);

    // Mutations of the real cookie. Left out of the alphabet: whitespace, '"' and '%', the cookie
    // syntax's other spellings of the same value (trimmed, quoted, percent-decoded), not forgeries.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/,:";
    const char = fc.constantFrom(...alphabet.split(""));
    const at = fc.nat({ max: value.length - 1 });
    const parts = value.split(".");
    const mutation = fc.oneof(
      fc.tuple(at, char).map(([i, c]) => value.slice(0, i) + c + value.slice(i + 1)),
      at.map((i) => value.slice(0, i) + value.slice(i + 1)),
      fc.tuple(at, char).map(([i, c]) => value.slice(0, i) + c + value.slice(i)),
      at.map((i) => value.slice(0, i)),
      fc.tuple(fc.nat({ max: parts.length - 1 }), fc.nat({ max: parts.length - 1 })).map(([i, j]) => {
        const swapped = [...parts];
        [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
        return swapped.join(".");
      }),
      fc.tuple(fc.nat({ max: parts.length - 1 }), fc.stringMatching(/^[A-Za-z0-9_-]{0,44}$/)).map(([i, part]) =>
        parts.map((p, k) => (k === i ? part : p)).join("."),
      ),
      fc.constant(`${value}.${parts[4]}`),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (mutated) => {
        fc.pre(mutated !== value);
        expect(await refused(mutated)).toBe(true);
      }),
      { numRuns: 150 },
    );
    // The real cookie, unaltered, does get in: the refusals above were the mutations'.
    expect(await refused(value)).toBe(false);
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
