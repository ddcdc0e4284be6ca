import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITE_LIFETIME_MS, type StaffMember } from "../../../contract";
import { accountInvites, auditLog } from "../../db/schema";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";
import { COMMON_PASSWORD_MESSAGE, INVITE_GONE_MESSAGE } from "../../shop/team";

// The owner's staff (issue 25): inviting, the one-time link, the password policy, roles, disabling,
// deleting, and what the audit log keeps of it. Attacked the way an outsider would: replayed and
// expired links, parallel acceptances, other spellings of a username, guessing links fast.

const GOOD_PASSWORD = "plum tree in the yard 42";
/** The invitee's browser: each test its own address (TRUST_PROXY names the test's loopback), so the throttle counts each apart. */
let nextAddress = 1;
const newAddress = () => `198.51.100.${nextAddress++}`;

describe("staff API", () => {
  let server: TestServer;
  let owner: string;
  let clock = new Date("2026-11-26T12:00:00Z");

  beforeAll(async () => {
    server = await startTestServer({ config: { trustProxy: ["127.0.0.1"] }, deps: { now: () => clock } });
    owner = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const errorOf = async (response: Response, status: number) => {
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return (JSON.parse(text) as { error: string }).error;
  };

  async function invite(body: { username: string; name: string; role: string }) {
    const response = await server.request("POST", "/api/staff", { cookie: owner, body });
    expect(response.status, await response.clone().text()).toBe(201);
    const answer = (await response.json()) as { id: string; inviteUrl: string };
    return { ...answer, token: new URL(answer.inviteUrl).pathname.replace("/invite/", "") };
  }

  const greet = (token: string, address: string) =>
    server.request("GET", `/api/staff/invites/${token}`, { headers: { "x-forwarded-for": address } });
  const accept = (token: string, password: string, address: string) =>
    server.request("POST", `/api/staff/invites/${token}`, { body: { password }, headers: { "x-forwarded-for": address } });

  /** Signs in from an address of its own: the sign-ins refused on purpose here must not throttle the others. */
  async function signIn(username: string, password: string) {
    const response = await server.request("POST", "/api/auth/login", { body: { username, password }, headers: { "x-forwarded-for": newAddress() } });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.headers.get("set-cookie")!.split(";")[0]!;
  }

  const staffList = async () => (await (await server.request("GET", "/api/staff", { cookie: owner })).json()) as StaffMember[];

  /** An invited account that has set its password and signed in: its id and session cookie. */
  async function joined(username: string, role = "packer") {
    const { id, token } = await invite({ username, name: `Name of ${username}`, role });
    expect((await accept(token, GOOD_PASSWORD, newAddress())).status).toBe(200);
    return { id, cookie: await signIn(username, GOOD_PASSWORD) };
  }

  it("invites, greets, accepts once, and the new packer signs in with the packer's rights", async () => {
    const { id, inviteUrl, token } = await invite({ username: "Sam.Packer", name: "  Sam Smith ", role: "packer" });
    expect(inviteUrl).toBe(`${server.baseUrl}/invite/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the token's hash is stored.
    const [stored] = await server.database.db.select().from(accountInvites).where(eq(accountInvites.accountId, id));
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.expiresAt.getTime() - clock.getTime()).toBe(INVITE_LIFETIME_MS);

    expect((await staffList()).find((member) => member.id === id)).toMatchObject({
      username: "sam.packer",
      name: "Sam Smith",
      role: "packer",
      status: "invited",
      totpEnabled: false,
      lastSeenAt: null,
    });
    const address = newAddress();
    const greeting = await greet(token, address);
    expect(greeting.status).toBe(200);
    expect(greeting.headers.get("cache-control")).toBe("no-store");
    expect(await greeting.json()).toEqual({ username: "sam.packer", name: "Sam Smith", role: "packer" });

    expect((await accept(token, GOOD_PASSWORD, address)).status).toBe(200);
    const cookie = await signIn("SAM.PACKER", GOOD_PASSWORD);
    const status = (await (await server.request("GET", "/api/auth/status", { cookie })).json()) as { account: { id: string; role: string } };
    expect(status.account).toMatchObject({ id, role: "packer" });
    // Every role has "account": its own sessions.
    expect((await server.request("GET", "/api/sessions", { cookie })).status).toBe(200);
    // The Staff screen is the owner's alone.
    expect((await server.request("GET", "/api/staff", { cookie })).status).toBe(403);
    expect((await server.request("POST", "/api/staff", { cookie, body: { username: "mallory", name: "M", role: "manager" } })).status).toBe(403);
    expect((await staffList()).find((member) => member.id === id)).toMatchObject({ status: "active", lastSeenAt: clock.toISOString() });

    // A used link is refused, read or replayed, and the password stays the one set.
    expect(await errorOf(await accept(token, "another long password 99", address), 410)).toBe(INVITE_GONE_MESSAGE);
    expect(await errorOf(await greet(token, address), 410)).toBe(INVITE_GONE_MESSAGE);
    await signIn("sam.packer", GOOD_PASSWORD);
  });

  it("refuses an expired link, at 48 hours to the millisecond", async () => {
    const address = newAddress();
    const { token } = await invite({ username: "late", name: "Late Comer", role: "support" });
    const start = clock;
    try {
      clock = new Date(start.getTime() + INVITE_LIFETIME_MS - 1);
      expect((await greet(token, address)).status).toBe(200);
      clock = new Date(start.getTime() + INVITE_LIFETIME_MS);
      expect(await errorOf(await greet(token, address), 410)).toBe(INVITE_GONE_MESSAGE);
      expect(await errorOf(await accept(token, GOOD_PASSWORD, address), 410)).toBe(INVITE_GONE_MESSAGE);
    } finally {
      clock = start;
    }
    // Back in time the link works again: proof the refusal above was the clock's, not a broken link.
    expect((await accept(token, GOOD_PASSWORD, address)).status).toBe(200);
  });

  it("refuses short, common and username passwords with a sentence, and the link still works after", async () => {
    const address = newAddress();
    const { token } = await invite({ username: "rosalind.franklin", name: "Rosalind", role: "support" });
    expect(await errorOf(await accept(token, "elevenchars", address), 400)).toBe("Password must be at least 12 characters.");
    // Twelve characters counted as a person sees them: eleven emoji are eleven, not twenty-two.
    expect(await errorOf(await accept(token, "🔑".repeat(11), address), 400)).toBe("Password must be at least 12 characters.");
    for (const common of ["leavemealone", "LeaveMeAlone", "QWERTY123456", "1qaz2wsx3edc"]) {
      expect(await errorOf(await accept(token, common, address), 400), common).toBe(COMMON_PASSWORD_MESSAGE);
    }
    expect(await errorOf(await accept(token, "Rosalind.Franklin", address), 400)).toBe("Password must not be your username.");
    expect(await errorOf(await accept(token, "aaaaaaaaaaaaaaaa", address), 400)).toBe("Password must not be one character repeated.");
    expect(await errorOf(await accept(token, "x".repeat(257), address), 400)).toMatch(/at most 256 characters/);
    expect(await errorOf(await server.request("POST", `/api/staff/invites/${token}`, { body: {}, headers: { "x-forwarded-for": address } }), 400)).toBe(
      "Password is required",
    );
    // Policy refusals are no guesses: this address is not throttled after nine of them.
    expect((await accept(token, GOOD_PASSWORD, address)).status).toBe(200);
  });

  it("takes a username once whatever its case, also from parallel invites, with a sentence", async () => {
    await invite({ username: "twin", name: "First Twin", role: "packer" });
    for (const username of ["twin", "TWIN", " Twin "]) {
      const response = await server.request("POST", "/api/staff", { cookie: owner, body: { username, name: "Second", role: "packer" } });
      expect(await errorOf(response, 409)).toBe('The username "twin" is taken: choose another.');
    }
    // The owner's own username is taken too.
    expect(await errorOf(await server.request("POST", "/api/staff", { cookie: owner, body: { username: "owner", name: "X", role: "manager" } }), 409)).toMatch(
      /"owner" is taken/,
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => server.request("POST", "/api/staff", { cookie: owner, body: { username: i % 2 ? "RACE" : "race", name: `Racer ${i}`, role: "support" } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect((await staffList()).filter((member) => member.username === "race")).toHaveLength(1);
  });

  it("refuses invites the contract does not take, naming the field", async () => {
    const post = (body: unknown) => server.request("POST", "/api/staff", { cookie: owner, body });
    expect(await errorOf(await post({ username: "ok.name", name: "", role: "packer" }), 400)).toBe("Name is required");
    expect(await errorOf(await post({ username: "ok.name", name: "x".repeat(81), role: "packer" }), 400)).toBe("Name can be at most 80 characters");
    expect(await errorOf(await post({ username: "ok.name", name: "Bell\u0007", role: "packer" }), 400)).toBe("Name must not hold control characters");
    expect(await errorOf(await post({ username: "ok.name", name: "Ann", role: "owner" }), 400)).toMatch(/^Role/);
    expect(await errorOf(await post({ username: "ok.name", name: "Ann", role: "admin" }), 400)).toMatch(/^Role/);
    for (const username of ["a", "-dash", "has space", "x".repeat(33), "ünïcode", "semi;colon", "<script>"]) {
      expect(await errorOf(await post({ username, name: "Ann", role: "packer" }), 400), username).toMatch(/^Username must be 2 to 32/);
    }
    // Names are shown as text, never markup: a hostile one is kept as typed.
    const hostile = await invite({ username: "hostile", name: `<img src=x onerror=alert(1)> "quoted" 'n' \\`, role: "packer" });
    expect((await staffList()).find((member) => member.id === hostile.id)!.name).toBe(`<img src=x onerror=alert(1)> "quoted" 'n' \\`);
  });

  it("lets exactly one of many parallel acceptances of one link win", async () => {
    const { token } = await invite({ username: "racer", name: "Racer", role: "packer" });
    const passwords = Array.from({ length: 6 }, (_, i) => `parallel password number ${i}`);
    const answers = await Promise.all(passwords.map((password) => accept(token, password, newAddress())));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 410)).toHaveLength(5);
    const winner = passwords[statuses.indexOf(200)]!;
    await signIn("racer", winner);
    for (const loser of passwords.filter((password) => password !== winner)) {
      const response = await server.request("POST", "/api/auth/login", { body: { username: "racer", password: loser }, headers: { "x-forwarded-for": newAddress() } });
      expect(response.status).toBe(401);
    }
  });

  it("disabling ends the account's sessions at once; enabling lets it sign in again", async () => {
    const packer = await joined("disable.me");
    const second = await signIn("disable.me", GOOD_PASSWORD);
    const patched = await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: { disabled: true } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: packer.id, status: "disabled" });
    for (const cookie of [packer.cookie, second]) expect((await server.request("GET", "/api/sessions", { cookie })).status).toBe(401);
    const refused = await server.request("POST", "/api/auth/login", { body: { username: "disable.me", password: GOOD_PASSWORD }, headers: { "x-forwarded-for": newAddress() } });
    expect(refused.status).toBe(401);

    const enabled = await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: { disabled: false } });
    expect(await enabled.json()).toMatchObject({ status: "active" });
    const cookie = await signIn("disable.me", GOOD_PASSWORD);
    expect((await server.request("GET", "/api/sessions", { cookie })).status).toBe(200);
  });

  it("a new role takes effect at once: the old sessions end and the next sign-in has the new role", async () => {
    const packer = await joined("promote.me");
    const roleOf = async (cookie: string) => ((await (await server.request("GET", "/api/auth/status", { cookie })).json()) as { account?: { role: string } }).account?.role;
    expect(await roleOf(packer.cookie)).toBe("packer");
    const patched = await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: { role: "manager" } });
    expect(await patched.json()).toMatchObject({ role: "manager", status: "active" });
    expect((await server.request("GET", "/api/sessions", { cookie: packer.cookie })).status).toBe(401);
    const cookie = await signIn("promote.me", GOOD_PASSWORD);
    expect(await roleOf(cookie)).toBe("manager");
    // The same role again changes nothing and ends nothing.
    await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: { role: "manager", disabled: false } });
    expect((await server.request("GET", "/api/sessions", { cookie })).status).toBe(200);
    // A manager is still no owner: the Staff screen stays closed.
    expect((await server.request("GET", "/api/staff", { cookie })).status).toBe(403);
    // Nothing to change, an unknown role, another type: refused with the field's sentence.
    expect(await errorOf(await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: {} }), 400)).toBe("Give a role or disabled to change");
    expect(await errorOf(await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: { role: "owner" } }), 400)).toMatch(/^Role/);
    expect(await errorOf(await server.request("PATCH", `/api/staff/${packer.id}`, { cookie: owner, body: { disabled: "yes" } }), 400)).toBe(
      "Disabled must be true or false",
    );
  });

  it("deletes an account with its sessions; the audit log keeps its username", async () => {
    const packer = await joined("leaver");
    // Something the packer did: its entries name it.
    expect((await server.request("POST", "/api/auth/logout", { cookie: await signIn("leaver", GOOD_PASSWORD) })).status).toBe(200);
    const deleted = await server.request("DELETE", `/api/staff/${packer.id}`, { cookie: owner });
    expect(deleted.status).toBe(200);
    expect((await staffList()).some((member) => member.id === packer.id)).toBe(false);
    expect((await server.request("GET", "/api/sessions", { cookie: packer.cookie })).status).toBe(401);
    expect(await errorOf(await server.request("DELETE", `/api/staff/${packer.id}`, { cookie: owner }), 404)).toMatch(/No staff account has this id/);

    const entries = (await (await server.request("GET", `/api/audit-log?accountId=${packer.id}`, { cookie: owner })).json()) as { action: string; accountUsername: string }[];
    expect(entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(["auth.logout", "auth.login", "staff.invite-accepted"]));
    expect(new Set(entries.map((entry) => entry.accountUsername))).toEqual(new Set(["leaver"]));
    const [deletion] = (await (await server.request("GET", "/api/audit-log?targetType=staff&limit=1", { cookie: owner })).json()) as { action: string; summary: string }[];
    expect(deletion).toMatchObject({ action: "staff.delete", summary: 'Deleted the account "leaver" (Name of leaver)' });
  });

  it("never lets the owner's account be changed or deleted here, and answers 404 for an unknown id", async () => {
    const { account } = (await (await server.request("GET", "/api/auth/status", { cookie: owner })).json()) as { account: { id: string } };
    const refusal = "The owner's account cannot be changed or deleted on the Staff screen.";
    expect(await errorOf(await server.request("DELETE", `/api/staff/${account.id}`, { cookie: owner }), 400)).toBe(refusal);
    expect(await errorOf(await server.request("PATCH", `/api/staff/${account.id}`, { cookie: owner, body: { disabled: true } }), 400)).toBe(refusal);
    expect(await errorOf(await server.request("POST", `/api/staff/${account.id}/invite`, { cookie: owner }), 400)).toBe(refusal);
    expect((await server.request("GET", "/api/orders", { cookie: owner })).status).toBe(200);
    expect((await staffList())[0]).toMatchObject({ id: account.id, role: "owner", status: "active" });
    for (const [method, path] of [
      ["PATCH", `/api/staff/${UNKNOWN_ID}`],
      ["DELETE", `/api/staff/${UNKNOWN_ID}`],
      ["POST", `/api/staff/${UNKNOWN_ID}/invite`],
    ] as const) {
      expect(await errorOf(await server.request(method, path, { cookie: owner, body: method === "PATCH" ? { disabled: true } : {} }), 404)).toMatch(/No staff account/);
    }
    expect(await errorOf(await server.request("DELETE", "/api/staff/not-a-uuid", { cookie: owner }), 400)).toBe("ID must be a valid id");
  });

  it("a new invite link ends the old one; an account that set its password gets none", async () => {
    const address = newAddress();
    const first = await invite({ username: "relink", name: "Re Link", role: "support" });
    const renewed = await server.request("POST", `/api/staff/${first.id}/invite`, { cookie: owner });
    expect(renewed.status).toBe(200);
    const { inviteUrl } = (await renewed.json()) as { inviteUrl: string };
    const token = new URL(inviteUrl).pathname.replace("/invite/", "");
    expect(token).not.toBe(first.token);
    expect(await errorOf(await greet(first.token, address), 410)).toBe(INVITE_GONE_MESSAGE);
    expect((await accept(token, GOOD_PASSWORD, address)).status).toBe(200);
    expect(await errorOf(await server.request("POST", `/api/staff/${first.id}/invite`, { cookie: owner }), 409)).toBe(
      "Re Link has already set a password: an invite link is only for an account that has not.",
    );
  });

  it("builds the link on PUBLIC_URL when it is set", async () => {
    const behindProxy = await startTestServer({ config: { publicUrl: "https://shop.example" } });
    try {
      const cookie = await behindProxy.login();
      const response = await behindProxy.request("POST", "/api/staff", { cookie, body: { username: "remote", name: "Remote", role: "packer" }, headers: { origin: "https://shop.example" } });
      expect(response.status).toBe(201);
      expect(((await response.json()) as { inviteUrl: string }).inviteUrl).toMatch(/^https:\/\/shop\.example\/invite\/[A-Za-z0-9_-]{43}$/);
    } finally {
      await behindProxy.close();
    }
  });

  it("throttles guessed links by address; a real link is not counted, so it buys no extra guesses", async () => {
    const address = newAddress();
    const { token } = await invite({ username: "guessed", name: "Guessed", role: "packer" });
    // Four wrong guesses, many right reads in between, one more wrong: five failures, still allowed.
    for (let i = 0; i < 4; i++) expect((await greet(`wrong-${i}`, address)).status).toBe(410);
    for (let i = 0; i < 6; i++) expect((await greet(token, address)).status).toBe(200);
    expect((await greet("wrong-4", address)).status).toBe(410);
    // The sixth failure in the window is refused before the token is looked at, and so is the real link now.
    const refused = await greet("wrong-5", address);
    expect(await errorOf(refused, 429)).toMatch(/^Too many attempts\. Try again in 15 minutes\.$/);
    expect(refused.headers.get("retry-after")).toBe("900");
    expect((await accept(token, GOOD_PASSWORD, address)).status).toBe(429);
    // Another address is not held back by this one.
    expect((await accept(token, GOOD_PASSWORD, newAddress())).status).toBe(200);
  });

  it("answers 410 for any other spelling of a token, and never a 5xx", async () => {
    const address = newAddress();
    const { token } = await invite({ username: "spelled", name: "Spelled", role: "packer" });
    const others = [token.toUpperCase(), `${token}=`, `${token} `, token.slice(0, -1), `${token}x`, encodeURIComponent(`${token}/..`)];
    for (const other of others) {
      // Each from its own address: six failures from one would be throttled (the test above).
      const response = await greet(encodeURIComponent(other), newAddress());
      expect(await errorOf(response, 410), other).toBe(INVITE_GONE_MESSAGE);
    }
    // "." and ".." are path steps the client resolves before sending: another route, not a token.
    const guesses = fc.string({ minLength: 1, maxLength: 100 }).filter((guess) => guess !== "." && guess !== "..");
    await fc.assert(
      fc.asyncProperty(guesses, async (guess) => {
        const response = await greet(encodeURIComponent(guess), newAddress());
        expect([400, 404, 410]).toContain(response.status);
        expect(typeof ((await response.json()) as { error: unknown }).error).toBe("string");
      }),
      { numRuns: 25, seed: 25 },
    );
    expect((await greet(token, address)).status).toBe(200);
  });

  it("keeps secrets out of the audit log: no link, token or password; entries name the acting account", async () => {
    const address = newAddress();
    const { token, inviteUrl, id } = await invite({ username: "audited", name: "Audited Person", role: "support" });
    await accept(token, "too short", address);
    expect((await accept(token, GOOD_PASSWORD, address)).status).toBe(200);
    const rows = await server.database.db.select().from(auditLog);
    const text = JSON.stringify(rows);
    for (const secret of [token, inviteUrl, GOOD_PASSWORD, "too short", token.slice(0, 12)]) expect(text).not.toContain(secret);
    const invited = rows.find((row) => row.action === "staff.invite" && row.targetId === id);
    expect(invited).toMatchObject({ targetType: "staff", summary: 'Invited "audited" (Audited Person) as Support', accountUsername: "owner" });
    const accepted = rows.find((row) => row.action === "staff.invite-accepted" && row.targetId === id);
    expect(accepted).toMatchObject({ accountId: id, accountUsername: "audited", summary: '"audited" set a password from the invite link' });
  });
});
