import { eq } from "drizzle-orm";
import fc from "fast-check";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roleCan, type Role } from "../../../contract/team";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { accountRecoveryCodes, accounts, auditLog, sessions } from "../../db/schema";
import { rewrapUnderNewMasterKey } from "../../shop/privacy";
import { INVALID_CODE_MESSAGE, OWNER_USERNAME, readSecondFactorCode } from "../../shop/team";
import { TEST_STAFF_PASSWORD } from "../../../test-support/admin-password";
import { TEST_MASTER_KEY, createTestDatabase } from "../../../test-support/database";
import { startTestServer, TEST_PASSWORD, UNKNOWN_ID, type TestServer } from "../../../test-support/app";
import type { Routes } from "../deps";
import { may, registeredRoutes, STEP_UP_WINDOW_MS, TWO_FACTOR_REQUIRED_MESSAGE } from "../security";

// Two-factor sign-in (issue 25): enrolment, sign-in with a code, replays, parallel use of one code,
// recovery codes, turning it off, step-up for sensitive actions, "require two-factor for staff" and
// the master-key rotation. The clock is the server's deps.now, moved by the tests: codes are computed
// with otpauth for that clock, as an authenticator app would.

const STEP_MS = 30_000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** What an authenticator app shows for `secret` at `at`, `steps` time steps away. */
function codeAt(secret: string, at: Date, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at.getTime() + steps * STEP_MS });
}

/** `count` 6-digit codes that are none of the codes accepted at `at` (its step, the one before or after). */
function wrongCodes(secret: string, at: Date, count: number): string[] {
  const near = new Set([-1, 0, 1].map((steps) => codeAt(secret, at, steps)));
  const codes: string[] = [];
  for (let candidate = Number(codeAt(secret, at)) + 1; codes.length < count; candidate++) {
    const code = String(candidate % 1_000_000).padStart(6, "0");
    if (!near.has(code)) codes.push(code);
  }
  return codes;
}

const wrongCode = (secret: string, at: Date) => wrongCodes(secret, at, 1)[0]!;

const sessionCookieOf = (response: Response) => /(?:^|,\s*)(sid=[^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? null;

/**
 * Test-only routes: a sensitive one (as the CSV export and the staff routes declare themselves), and
 * two that staff roles may use (the shop's own routes declare their permissions too).
 */
const testRoutes: Routes = (app) => {
  app.post("/api/test-sensitive", { config: { stepUp: true } }, async () => ({ done: true }));
  app.get("/api/test-orders", { ...may("orders.read") }, async () => ({ orders: [] }));
  app.get("/api/test-messages", { ...may("messages") }, async () => ({ messages: [] }));
};

/** Clock and helpers over one test server. */
function useClockedServer(options: { database?: () => Database; secrets?: () => ReturnType<typeof createSecretBox> } = {}) {
  const state = { clock: new Date("2026-03-02T09:00:00Z"), server: undefined as TestServer | undefined };
  const server = () => state.server!;
  return {
    state,
    server,
    async start() {
      state.server = await startTestServer({
        database: options.database?.(),
        deps: { now: () => state.clock, ...(options.secrets ? { secrets: options.secrets() } : {}) },
        app: { extraRoutes: [testRoutes] },
      });
    },
    /** Moves the clock on: past every throttle window, into new time steps. */
    later(ms = FIFTEEN_MINUTES + STEP_MS * 3) {
      state.clock = new Date(state.clock.getTime() + ms);
    },
    login: (body: Record<string, unknown>) => server().request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD, ...body } }),
    post: (url: string, cookie: string, body: unknown = {}) => server().request("POST", url, { cookie, body }),
  };
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Turns two-factor on for the session's account: answers the secret and the recovery codes. */
async function enrol(server: TestServer, cookie: string, now: Date): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await server.request("POST", "/api/auth/totp/setup", { cookie, body: {} });
  expect(setup.status).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const verified = await server.request("POST", "/api/auth/totp/verify", { cookie, body: { code: codeAt(secret, now) } });
  expect(verified.status, await verified.clone().text()).toBe(200);
  const { recoveryCodes } = (await verified.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

describe("reading a typed code", () => {
  const separator = fc.constantFrom(" ", "-", "\t", "\u00a0", "  ");
  const spelled = (plain: string) =>
    fc.array(fc.tuple(fc.nat({ max: plain.length }), separator), { maxLength: 5 }).map((cuts) => {
      let text = plain;
      for (const [at, sign] of [...cuts].sort((a, b) => b[0] - a[0])) text = text.slice(0, at) + sign + text.slice(at);
      return text;
    });

  it("reads six ASCII digits with spaces and dashes anywhere as the code", () => {
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(
        digits.chain((code) => spelled(code).map((typed) => [code, typed] as const)),
        ([code, typed]) => {
          expect(readSecondFactorCode(typed)).toEqual({ kind: "totp", code });
        },
      ),
      { seed: 25_01 },
    );
  });

  it("reads a recovery code in any case, spaced or not, as its lower-case signs", () => {
    const sign = fc.constantFrom(..."23456789abcdefghjkmnpqrstuvwxyz");
    const code = fc.array(sign, { minLength: 12, maxLength: 12 }).map((signs) => signs.join(""));
    fc.assert(
      fc.property(
        code.chain((plain) => fc.tuple(fc.constant(plain), spelled(plain), fc.boolean())),
        ([plain, typed, upper]) => {
          expect(readSecondFactorCode(upper ? typed.toUpperCase() : typed)).toEqual({ kind: "recovery", code: plain });
        },
      ),
      { seed: 25_02 },
    );
  });

  it("reads no other script's digits, other lengths or other signs as a code", () => {
    // Arabic-Indic, Devanagari, full-width and mathematical digits: \d in some regex flavours, never a code here.
    const otherDigit = fc.constantFrom(..."٠١٢٣٤٥٦٧٨٩०१२३४५६७८९０１２３４５６７８９", "𝟎", "𝟗");
    const ascii = fc.constantFrom(..."0123456789");
    const withOther = fc
      .tuple(fc.array(ascii, { minLength: 5, maxLength: 5 }), otherDigit, fc.nat({ max: 5 }))
      .map(([digits, other, at]) => [...digits.slice(0, at), other, ...digits.slice(at)].join(""));
    fc.assert(
      fc.property(withOther, (typed) => {
        expect(readSecondFactorCode(typed)).toBeNull();
      }),
      { seed: 25_03 },
    );
    for (const typed of ["12345", "1234567", "12345a", "+123456", "123.456", "0x1234", "", "k7dx-9m2p-q4h", "k7dx-9m2p-q4hz1", "k7dx-9m2p-q4h0", "k7dx-9m2p-q4hi"]) {
      expect(readSecondFactorCode(typed), typed).toBeNull();
    }
  });
});

describe("two-factor sign-in", () => {
  const t = useClockedServer();
  let cookie = "";
  /** The owner signed in a second time, in another browser, with the password alone. */
  let elsewhere = "";
  /** Another account's session: turning two-factor on for the owner is none of its business. */
  let packer = "";
  let secret = "";
  let recoveryCodes: string[] = [];
  const db = () => t.server().database.db;
  const owner = async () => (await db().select().from(accounts).where(eq(accounts.username, OWNER_USERNAME)))[0]!;

  beforeAll(async () => {
    await t.start();
    cookie = (await t.server().login())!;
    elsewhere = await t.server().login();
    packer = (await t.server().loginAs("packer")).cookie;
  });
  afterAll(() => t.server().close());

  it("sets up with a secret stored encrypted, replaces a pending setup, and turns on only with the app's code", async () => {
    const first = await t.post("/api/auth/totp/setup", cookie);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const pending = (await first.json()) as { secret: string; otpauthUrl: string };
    expect(pending.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(pending.otpauthUrl);
    expect(url.protocol).toBe("otpauth:");
    expect(url.searchParams.get("secret")).toBe(pending.secret);
    expect(url.searchParams.get("issuer")).toBe("Shop Admin");
    expect(decodeURIComponent(url.pathname)).toContain(OWNER_USERNAME);
    const stored = await owner();
    expect(stored.totpEnabled).toBe(false);
    expect(stored.totpSecret).toMatch(/^enc:v1:/);
    expect(stored.totpSecret).not.toContain(pending.secret);

    // A second setup replaces the first: the first app's code no longer turns it on.
    const second = (await (await t.post("/api/auth/totp/setup", cookie)).json()) as { secret: string };
    expect(second.secret).not.toBe(pending.secret);
    const stale = await t.post("/api/auth/totp/verify", cookie, { code: codeAt(pending.secret, t.state.clock) });
    expect(stale.status).toBe(400);
    expect((await json(stale)).error).toMatch(/^Invalid two-factor code/);
    for (const code of [wrongCode(second.secret, t.state.clock), codeAt(second.secret, t.state.clock, 2), "k7dx-9m2p-q4hz"]) {
      const refused = await t.post("/api/auth/totp/verify", cookie, { code });
      expect(refused.status, code).toBe(400);
    }
    expect((await owner()).totpEnabled).toBe(false);
    // Starting a setup and failing to confirm it ends no session.
    expect((await t.server().request("GET", "/api/auth/status", { cookie: elsewhere })).status).toBe(200);

    const verified = await t.post("/api/auth/totp/verify", cookie, { code: codeAt(second.secret, t.state.clock) });
    expect(verified.status).toBe(200);
    expect(verified.headers.get("cache-control")).toBe("no-store");
    recoveryCodes = ((await verified.json()) as { recoveryCodes: string[] }).recoveryCodes;
    secret = second.secret;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}$/);
    // Only hashes are kept: no code, in any spelling, is in the table.
    const kept = await db().select().from(accountRecoveryCodes);
    expect(kept).toHaveLength(10);
    const table = JSON.stringify(kept);
    for (const code of recoveryCodes) {
      expect(table).not.toContain(code);
      expect(table).not.toContain(code.replaceAll("-", ""));
    }

    // Once on, it is not set up or confirmed again without turning it off first.
    expect((await t.post("/api/auth/totp/setup", cookie)).status).toBe(409);
    expect((await t.post("/api/auth/totp/verify", cookie, { code: codeAt(secret, t.state.clock, 1) })).status).toBe(409);
    expect(await json(await t.server().request("GET", "/api/auth/totp", { cookie }))).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect(await json(await t.server().request("GET", "/api/auth/status", { cookie }))).toMatchObject({ account: { totpEnabled: true } });
    // The audit log names what was done, never a secret or a code.
    const log = JSON.stringify(await db().select().from(auditLog));
    expect(log).toContain("two-factor.turned-on");
    for (const leaked of [secret, pending.secret, ...recoveryCodes]) expect(log).not.toContain(leaked);
    expect(log).not.toMatch(/"\d{6}"/);
  });

  it("ends the account's other sessions when two-factor turns on, keeping the one that turned it on as freshly verified", async () => {
    // The session signed in with the password alone is out, on every kind of route.
    for (const url of ["/api/auth/status", "/api/orders", "/api/auth/totp", "/api/sessions"]) {
      expect((await t.server().request("GET", url, { cookie: elsewhere })).status, url).toBe(401);
    }
    expect((await t.post("/api/auth/totp/setup", elsewhere)).status).toBe(401);
    // The one that confirmed the code works, sees itself as the account's only session, and passes a
    // sensitive action without a step-up: the code it just proved counts.
    expect((await t.server().request("GET", "/api/orders", { cookie })).status).toBe(200);
    const left = (await json(await t.server().request("GET", "/api/sessions", { cookie }))) as unknown as { current: boolean }[];
    expect(left).toEqual([expect.objectContaining({ current: true })]);
    const [kept] = await db().select().from(sessions).where(eq(sessions.accountId, (await owner()).id));
    expect(kept!.totpAt).toEqual(t.state.clock);
    expect((await t.post("/api/test-sensitive", cookie)).status).toBe(200);
    // Another account's sessions are untouched.
    expect((await t.server().request("GET", "/api/auth/status", { cookie: packer })).status).toBe(200);
  });

  it("asks for the code after the right password, without a session, and takes a right code once", async () => {
    t.later();
    const asked = await t.login({});
    expect(asked.status).toBe(401);
    expect(await asked.json()).toEqual({ error: "Enter the code from your authenticator app.", totpRequired: true });
    expect(sessionCookieOf(asked)).toBeNull();
    expect(await db().select().from(sessions).where(eq(sessions.accountId, (await owner()).id))).toHaveLength(1);

    // A wrong password says only that, whatever the code: the code is not spent on it.
    const code = codeAt(secret, t.state.clock);
    const wrongPassword = await t.login({ password: "not the password", totp: code });
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.json()).toEqual({ error: "Invalid password" });

    const wrong = await t.login({ totp: wrongCode(secret, t.state.clock) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: INVALID_CODE_MESSAGE });
    expect(sessionCookieOf(wrong)).toBeNull();

    const signedIn = await t.login({ totp: code });
    expect(signedIn.status).toBe(200);
    const newCookie = sessionCookieOf(signedIn)!;
    expect(newCookie).toBeTruthy();
    // The sign-in proved a code: the session counts as freshly verified from now.
    const [row] = await db().select().from(sessions).where(eq(sessions.totpAt, t.state.clock));
    expect(row).toBeDefined();
    expect((await t.server().request("GET", "/api/orders", { cookie: newCookie })).status).toBe(200);

    // The same code again, spelled otherwise too: refused (RFC 6238 §5.2).
    for (const replay of [code, `${code.slice(0, 3)} ${code.slice(3)}`]) {
      const again = await t.login({ totp: replay });
      expect(again.status, replay).toBe(401);
      expect((await json(again)).error).toBe(INVALID_CODE_MESSAGE);
    }
    const audit = (await db().select({ action: auditLog.action }).from(auditLog)).map((entry) => entry.action);
    expect(audit).toContain("auth.login-code-asked");
  });

  it("accepts the code of the step before and of the step after, not two steps away", async () => {
    t.later();
    expect((await t.login({ totp: codeAt(secret, t.state.clock, -1) })).status).toBe(200);
    t.later();
    expect((await t.login({ totp: codeAt(secret, t.state.clock, 1) })).status).toBe(200);
    // A code's step only moves forward: once the next step's code is taken, this step's is too old.
    expect((await t.login({ totp: codeAt(secret, t.state.clock) })).status).toBe(401);
    t.later();
    for (const steps of [-2, 2, -3, 3]) {
      const far = codeAt(secret, t.state.clock, steps);
      if ([-1, 0, 1].some((near) => codeAt(secret, t.state.clock, near) === far)) continue; // the one-in-a-million collision
      expect((await t.login({ totp: far })).status, `${steps} steps away`).toBe(401);
    }
  });

  it("lets exactly one of five parallel sign-ins with one code in", async () => {
    t.later();
    const code = codeAt(secret, t.state.clock);
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.login({ totp: code })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401, 401]);
    expect(answers.filter((answer) => sessionCookieOf(answer) !== null)).toHaveLength(1);
  });

  it("takes a recovery code once, in any case and spacing", async () => {
    t.later();
    const [code] = recoveryCodes;
    const typed = ` ${code!.toUpperCase().replaceAll("-", " ")} `;
    const used = await t.login({ totp: typed });
    expect(used.status).toBe(200);
    t.later();
    expect((await t.login({ totp: code! })).status).toBe(401);
    expect((await t.login({ totp: code!.replaceAll("-", "") })).status).toBe(401);
    const fresh = sessionCookieOf(await t.login({ totp: recoveryCodes[1]! }))!;
    expect(await json(await t.server().request("GET", "/api/auth/totp", { cookie: fresh }))).toEqual({ enabled: true, recoveryCodesLeft: 8 });
    cookie = fresh;
  });

  it("lets two parallel uses of one recovery code open one session", async () => {
    t.later();
    const answers = await Promise.all([0, 1, 2].map(() => t.login({ totp: recoveryCodes[2]! })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401]);
  });

  it("counts a missing or wrong code as a failed sign-in: after five, even the right code waits", async () => {
    t.later();
    for (let i = 0; i < 5; i++) expect((await t.login(i % 2 ? {} : { totp: wrongCode(secret, t.state.clock) })).status).toBe(401);
    const held = await t.login({ totp: codeAt(secret, t.state.clock) });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    t.later();
    expect((await t.login({ totp: codeAt(secret, t.state.clock) })).status).toBe(200);
  });

  it("takes codes in any spelling at step-up, and no other script's digits", async () => {
    t.later();
    cookie = sessionCookieOf(await t.login({ totp: codeAt(secret, t.state.clock) }))!;
    const separators = fc.constantFrom(" ", "-", "  ", "\t");
    await fc.assert(
      fc.asyncProperty(fc.tuple(separators, fc.nat({ max: 6 })), async ([separator, at]) => {
        t.later(STEP_MS);
        const code = codeAt(secret, t.state.clock);
        const typed = code.slice(0, at) + separator + code.slice(at);
        const answer = await t.post("/api/auth/step-up", cookie, { code: typed });
        expect(answer.status, JSON.stringify(typed)).toBe(200);
      }),
      { seed: 25_04, numRuns: 12 },
    );
    t.later();
    const code = codeAt(secret, t.state.clock);
    const arabic = [...code].map((digit) => String.fromCharCode(0x660 + Number(digit))).join("");
    const fullWidth = [...code].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join("");
    for (const typed of [arabic, fullWidth]) {
      const refused = await t.post("/api/auth/step-up", cookie, { code: typed });
      expect(refused.status, typed).toBe(400);
      expect((await json(refused)).error).toBe(INVALID_CODE_MESSAGE);
    }
    // The right code in ASCII still works: those refusals spent nothing.
    expect((await t.post("/api/auth/step-up", cookie, { code })).status).toBe(200);
  });

  it("asks for a fresh code before changing payment gateways or another sensitive action, for five minutes after it", async () => {
    t.later();
    cookie = sessionCookieOf(await t.login({ totp: codeAt(secret, t.state.clock) }))!;
    t.later(STEP_MS);
    const other = sessionCookieOf(await t.login({ totp: codeAt(secret, t.state.clock) }))!;
    const change = (session = cookie) => t.server().request("PUT", "/api/payment-gateways", { cookie: session, body: { coins: { BTC: "nowpayments" } } });
    const sensitive = () => t.post("/api/test-sensitive", cookie);
    // The sign-in's own code is fresh for five minutes.
    t.later(60_000);
    expect((await change()).status).toBe(200);
    t.later(STEP_UP_WINDOW_MS);
    const check = () => t.server().request("GET", "/api/auth/step-up", { cookie });
    for (const attempt of [() => change(), sensitive, check]) {
      const refused = await attempt();
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: "Enter a fresh two-factor code to do this.", stepUpRequired: true });
    }
    // Reading is not sensitive.
    expect((await t.server().request("GET", "/api/payment-gateways", { cookie })).status).toBe(200);

    const wrong = await t.post("/api/auth/step-up", cookie, { code: wrongCode(secret, t.state.clock) });
    expect(wrong.status).toBe(400);
    expect((await change()).status).toBe(403);
    const confirmed = await t.post("/api/auth/step-up", cookie, { code: codeAt(secret, t.state.clock) });
    expect(confirmed.status).toBe(200);
    expect((await change()).status).toBe(200);
    expect((await sensitive()).status).toBe(200);
    expect(await (await check()).json()).toEqual({ success: true });
    // Only this session was confirmed: another session of the same account is still asked.
    expect((await change(other)).status).toBe(403);
    // Five minutes after the step-up, this session is asked again.
    t.later(STEP_UP_WINDOW_MS);
    expect((await change()).status).toBe(200);
    t.later(1);
    expect((await change()).status).toBe(403);
    // A code used for step-up is spent like any other, whichever session sends it again.
    t.later(STEP_MS);
    const code = codeAt(secret, t.state.clock);
    expect((await t.post("/api/auth/step-up", cookie, { code })).status).toBe(200);
    expect((await t.post("/api/auth/step-up", other, { code })).status).toBe(400);
    expect((await change(other)).status).toBe(403);
  });

  it("counts wrong codes per account at step-up, so a stolen session cannot try them all", async () => {
    t.later();
    cookie = sessionCookieOf(await t.login({ totp: codeAt(secret, t.state.clock) }))!;
    const attempts = await Promise.all(wrongCodes(secret, t.state.clock, 12).map((code) => t.post("/api/auth/step-up", cookie, { code })));
    const statuses = attempts.map((answer) => answer.status);
    // Each was counted before it was checked: five were looked at, the rest wait.
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    const held = await t.post("/api/auth/step-up", cookie, { code: codeAt(secret, t.state.clock) });
    expect(held.status).toBe(429);
    expect((await json(held)).error).toMatch(/^Too many wrong two-factor codes/);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    t.later();
    expect((await t.post("/api/auth/step-up", cookie, { code: codeAt(secret, t.state.clock) })).status).toBe(200);
  });

  it("turns off only with a valid code, removing the secret and the recovery codes", async () => {
    t.later();
    cookie = sessionCookieOf(await t.login({ totp: codeAt(secret, t.state.clock) }))!;
    for (const body of [{}, { code: "" }, { code: wrongCode(secret, t.state.clock) }, { code: recoveryCodes[0]! }, { code: codeAt(secret, t.state.clock) }]) {
      const refused = await t.post("/api/auth/totp/disable", cookie, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await owner()).totpEnabled).toBe(true);
    t.later(STEP_MS);
    const off = await t.post("/api/auth/totp/disable", cookie, { code: recoveryCodes[3]! });
    expect(off.status).toBe(200);
    const row = await owner();
    expect(row).toMatchObject({ totpEnabled: false, totpSecret: null, totpLastStep: null });
    expect(await db().select().from(accountRecoveryCodes)).toHaveLength(0);
    expect(await json(await t.server().request("GET", "/api/auth/totp", { cookie }))).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect((await t.post("/api/auth/totp/disable", cookie, { code: codeAt(secret, t.state.clock) })).status).toBe(409);
    // The password alone signs in again; sensitive actions ask nothing of an account without two-factor.
    t.later();
    const plain = await t.login({});
    expect(plain.status).toBe(200);
    expect((await t.server().request("PUT", "/api/payment-gateways", { cookie: sessionCookieOf(plain)!, body: { coins: { BTC: "nowpayments" } } })).status).toBe(200);
    expect((await t.post("/api/auth/step-up", sessionCookieOf(plain)!, { code: "123456" })).status).toBe(409);
    expect((await t.server().request("GET", "/api/auth/step-up", { cookie: sessionCookieOf(plain)! })).status).toBe(200);
  });
});

describe("two-factor required for staff", () => {
  const t = useClockedServer();
  let owner = "";
  beforeAll(async () => {
    await t.start();
    owner = await t.server().login();
  });
  afterAll(() => t.server().close());

  it("is the owner's to set, and off until set", async () => {
    const { cookie: manager } = await t.server().loginAs("manager");
    expect(await json(await t.server().request("GET", "/api/team-settings", { cookie: owner }))).toEqual({ requireTwoFactor: false });
    for (const [method, body] of [["GET", undefined], ["PUT", { requireTwoFactor: true }]] as const) {
      const refused = await t.server().request(method, "/api/team-settings", { cookie: manager, body });
      expect(refused.status).toBe(403);
    }
    expect(await json(await t.server().request("GET", "/api/team-settings", { cookie: owner }))).toEqual({ requireTwoFactor: false });
    for (const body of [{}, { requireTwoFactor: "true" }, { requireTwoFactor: 1 }]) {
      expect((await t.server().request("PUT", "/api/team-settings", { cookie: owner, body })).status).toBe(400);
    }
  });

  it("holds a staff account without two-factor to its own account's routes until it turns two-factor on", async () => {
    const { cookie: packer } = await t.server().loginAs("packer");
    expect((await t.server().request("GET", "/api/test-orders", { cookie: packer })).status).toBe(200);
    const saved = await t.server().request("PUT", "/api/team-settings", { cookie: owner, body: { requireTwoFactor: true } });
    expect(await saved.json()).toEqual({ requireTwoFactor: true });

    // Every route the packer's role may use, but for its own account's, is closed until then.
    const routes = registeredRoutes(t.server().app).filter(
      (route) => route.access === "admin" && route.method !== "HEAD" && route.permission !== null && roleCan("packer" as Role, route.permission),
    );
    const closed = routes.filter((route) => route.permission !== "account");
    expect(closed.map((route) => route.url)).toContain("/api/test-orders");
    for (const route of closed) {
      // Refused before the parameters are read: any id will do.
      const url = route.url.replace(/:[A-Za-z]+/g, UNKNOWN_ID).replace("*", "");
      const answer = await t.server().request(route.method, url, { cookie: packer, ...(route.method === "GET" ? {} : { body: {} }) });
      expect(answer.status, `${route.method} ${route.url}`).toBe(403);
      expect(await answer.json(), `${route.method} ${route.url}`).toEqual({ error: TWO_FACTOR_REQUIRED_MESSAGE, twoFactorRequired: true });
    }
    // Its account's routes stay open: the status, and turning two-factor on.
    expect(await json(await t.server().request("GET", "/api/auth/status", { cookie: packer }))).toMatchObject({ account: { role: "packer", totpEnabled: false } });
    expect(await json(await t.server().request("GET", "/api/auth/totp", { cookie: packer }))).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    // The owner is never held back.
    expect((await t.server().request("GET", "/api/test-orders", { cookie: owner })).status).toBe(200);

    await enrol(t.server(), packer, t.state.clock);
    expect((await t.server().request("GET", "/api/test-orders", { cookie: packer })).status).toBe(200);
    // Signing in again now takes the code too.
    t.later();
    const asked = await t.server().request("POST", "/api/auth/login", { body: { username: "packer", password: TEST_STAFF_PASSWORD } });
    expect(await asked.json()).toMatchObject({ totpRequired: true });
  });

  it("lets staff work again once the owner no longer requires it", async () => {
    const { cookie: support } = await t.server().loginAs("support");
    expect((await t.server().request("GET", "/api/test-messages", { cookie: support })).status).toBe(403);
    await t.server().request("PUT", "/api/team-settings", { cookie: owner, body: { requireTwoFactor: false } });
    expect((await t.server().request("GET", "/api/test-messages", { cookie: support })).status).toBe(200);
  });
});

describe("two-factor after the master key is rotated", () => {
  let database: Database;
  const newMaster = Buffer.alloc(32, 9);
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it("keeps codes and recovery codes working under the new key", async () => {
    const before = useClockedServer({ database: () => database });
    await before.start();
    const cookie = await before.server().login();
    const { secret, recoveryCodes } = await enrol(before.server(), cookie, before.state.clock);
    await before.server().close();

    const moved = await rewrapUnderNewMasterKey(database.db, {
      oldMaster: TEST_MASTER_KEY,
      newMaster,
      oldSecrets: createSecretBox(TEST_MASTER_KEY),
      newSecrets: createSecretBox(newMaster),
    });
    expect(moved.secrets).toBe(1);
    const [stored] = await database.db.select({ secret: accounts.totpSecret }).from(accounts).where(eq(accounts.username, OWNER_USERNAME));
    expect(createSecretBox(newMaster).decrypt(stored!.secret!)).toBe(secret);
    expect(() => createSecretBox(TEST_MASTER_KEY).decrypt(stored!.secret!)).toThrow();

    const after = useClockedServer({ database: () => database, secrets: () => createSecretBox(newMaster) });
    after.state.clock = new Date(before.state.clock.getTime() + FIFTEEN_MINUTES * 2);
    await after.start();
    try {
      expect((await after.login({})).status).toBe(401);
      expect((await after.login({ totp: codeAt(secret, after.state.clock) })).status).toBe(200);
      after.later();
      expect((await after.login({ totp: recoveryCodes[0]! })).status).toBe(200);
    } finally {
      await after.server().close();
    }
  });
});
