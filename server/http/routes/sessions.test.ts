import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../contract";
import { SESSION_IDLE_MS } from "../../auth/sessions";
import { startTestServer, TEST_PASSWORD, type TestServer, UNKNOWN_ID } from "../../../test-support/app";
import { TEST_STAFF_PASSWORD } from "../../../test-support/admin-password";

// Where an account is signed in (issue 25): GET/DELETE /api/sessions. Each browser below is its own
// cookie; "its next call is 401" is what the person in that browser would meet.

const LINUX_CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE_SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const WINDOWS_EDGE = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";

describe("sessions API", () => {
  let server: TestServer;
  let clock = new Date("2026-11-26T12:00:00Z");

  beforeAll(async () => {
    server = await startTestServer({ deps: { now: () => clock } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Signs in as a browser with this User-Agent; answers its cookie. */
  async function browser(userAgent: string, credentials: { username?: string; password: string } = { password: TEST_PASSWORD }) {
    const response = await server.request("POST", "/api/auth/login", { body: credentials, headers: { "user-agent": userAgent } });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.headers.get("set-cookie")!.split(";")[0]!;
  }

  const sessionsOf = async (cookie: string, query = "") => {
    const response = await server.request("GET", `/api/sessions${query}`, { cookie });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Session[];
  };
  const works = async (cookie: string) => (await server.request("GET", "/api/sessions", { cookie })).status;

  it("lists this account's sessions, in words, the latest used first, marking the current one", async () => {
    const laptop = await browser(LINUX_CHROME);
    clock = new Date(clock.getTime() + 60_000);
    const phone = await browser(IPHONE_SAFARI);
    const fromPhone = await sessionsOf(phone);
    const mine = fromPhone;
    expect(mine.map((session) => [session.device, session.current])).toEqual([
      ["Safari on iPhone", true],
      ["Chrome on Linux", false],
    ]);
    expect(mine[0]).toMatchObject({ ip: "127.0.0.1", createdAt: clock.toISOString(), lastSeenAt: clock.toISOString() });
    // The same list from the laptop marks the laptop.
    expect((await sessionsOf(laptop)).find((session) => session.current)!.device).toBe("Chrome on Linux");
    // Never the token: the cookie's value appears nowhere in the answer.
    expect(JSON.stringify(fromPhone)).not.toContain(phone.split("=")[1]!);
  });

  it("ending one session signs that browser out at its next call, and leaves the others", async () => {
    const laptop = await browser(LINUX_CHROME);
    const phone = await browser(IPHONE_SAFARI);
    const phoneSession = (await sessionsOf(phone)).find((session) => session.current)!;
    const ended = await server.request("DELETE", `/api/sessions/${phoneSession.id}`, { cookie: laptop });
    expect(ended.status).toBe(200);
    expect(await works(phone)).toBe(401);
    expect(await works(laptop)).toBe(200);
    // Again: it is gone.
    const again = await server.request("DELETE", `/api/sessions/${phoneSession.id}`, { cookie: laptop });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: string }).error).toBe("No such session: it may have ended already.");
    expect((await server.request("DELETE", `/api/sessions/${UNKNOWN_ID}`, { cookie: laptop })).status).toBe(404);
    expect((await server.request("DELETE", "/api/sessions/not-an-id", { cookie: laptop })).status).toBe(400);
  });

  it("ends every other session of the account, keeping the current one, and no other account's", async () => {
    const staff = await server.loginAs("support", "others.keep");
    const browsers = [await browser(LINUX_CHROME), await browser(IPHONE_SAFARI), await browser(WINDOWS_EDGE)];
    const [keep, ...others] = browsers;
    const response = await server.request("DELETE", "/api/sessions", { cookie: keep });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { ended: number }).ended).toBeGreaterThanOrEqual(2);
    for (const cookie of others) expect(await works(cookie!)).toBe(401);
    expect(await works(keep!)).toBe(200);
    expect((await sessionsOf(keep!)).map((session) => session.current)).toEqual([true]);
    // The support account's session was not the owner's to end this way.
    expect(await works(staff.cookie)).toBe(200);
    // Nothing left to end: 0, and still signed in.
    expect(await (await server.request("DELETE", "/api/sessions", { cookie: keep })).json()).toEqual({ ended: 0 });
  });

  it("staff cannot see or end another account's sessions: 403 to list, 404 to end, and nothing ends", async () => {
    const owner = await browser(LINUX_CHROME);
    const ownerSession = (await sessionsOf(owner)).find((session) => session.current)!;
    const { cookie: packer, accountId: packerId } = await server.loginAs("packer", "nosy.packer");
    const second = await server.loginAs("packer", "other.packer");
    const list = await server.request("GET", `/api/sessions?accountId=${ownerSession.accountId}`, { cookie: packer });
    expect(list.status).toBe(403);
    expect(((await list.json()) as { error: string }).error).toBe('Your role (Packer) does not have the "staff" permission.');
    // Its own account by id is fine.
    expect((await sessionsOf(packer, `?accountId=${packerId}`)).every((session) => session.accountId === packerId)).toBe(true);
    const otherSession = (await sessionsOf(second.cookie)).find((session) => session.current)!;
    for (const id of [ownerSession.id, otherSession.id]) {
      const response = await server.request("DELETE", `/api/sessions/${id}`, { cookie: packer });
      expect(response.status).toBe(404);
    }
    expect(await works(owner)).toBe(200);
    expect(await works(second.cookie)).toBe(200);
    expect((await server.request("GET", "/api/sessions?accountId=not-an-id", { cookie: packer })).status).toBe(400);
  });

  it("the owner sees and ends any account's sessions", async () => {
    // The owner by username too: the same account as the password-only sign-in.
    const owner = await browser(LINUX_CHROME, { username: "owner", password: TEST_PASSWORD });
    const { cookie: packer, accountId } = await server.loginAs("packer", "watched.packer");
    const listed = await sessionsOf(owner, `?accountId=${accountId}`);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ accountId, current: false });
    expect((await server.request("DELETE", `/api/sessions/${listed[0]!.id}`, { cookie: owner })).status).toBe(200);
    expect(await works(packer)).toBe(401);
    expect(await sessionsOf(owner, `?accountId=${accountId}`)).toEqual([]);
    // The packer signs in again: a new session, which the owner sees.
    const again = await server.request("POST", "/api/auth/login", { body: { username: "watched.packer", password: TEST_STAFF_PASSWORD } });
    expect(again.status).toBe(200);
    expect(await sessionsOf(owner, `?accountId=${accountId}`)).toHaveLength(1);
  });

  it("leaves out sessions that are idle too long, though their rows are not yet cleared", async () => {
    const start = clock;
    const stale = await browser(WINDOWS_EDGE);
    const staleSession = (await sessionsOf(stale)).find((session) => session.current)!;
    clock = new Date(start.getTime() + SESSION_IDLE_MS + 1);
    try {
      const fresh = await browser(LINUX_CHROME);
      expect((await sessionsOf(fresh)).some((session) => session.id === staleSession.id)).toBe(false);
    } finally {
      clock = start;
    }
  });
});
