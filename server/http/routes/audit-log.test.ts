import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../contract";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";

// GET /api/audit-log?accountId= (issue 25): every entry names the account that acted, and the
// Activity screen shows one account's doings. The filter holds across pages (the cursor keeps it).

describe("the audit log by account", () => {
  let server: TestServer;
  let owner: string;
  let ownerId: string;
  let packer: { cookie: string; accountId: string };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.login();
    ownerId = ((await (await server.request("GET", "/api/auth/status", { cookie: owner })).json()) as { account: { id: string } }).account.id;
    expect((await server.request("POST", "/api/categories", { cookie: owner, body: { name: "Teas" } })).status).toBe(201);
    packer = await server.loginAs("packer");
    // A write every role may make: ending its other sessions.
    expect((await server.request("DELETE", "/api/sessions", { cookie: packer.cookie })).status).toBe(200);
    // A failed sign-in under a name that is no account: named, with no account id.
    expect((await server.request("POST", "/api/auth/login", { body: { username: "nobody", password: "wrong password" } })).status).toBe(401);
  });
  afterAll(async () => {
    await server?.close();
  });

  const entries = async (query: string) => {
    const response = await server.request("GET", `/api/audit-log?${query}`, { cookie: owner });
    expect(response.status, await response.clone().text()).toBe(200);
    return { rows: (await response.json()) as AuditEntry[], total: Number(response.headers.get("x-total-count")), link: response.headers.get("link") };
  };

  it("names the acting account on every entry", async () => {
    const { rows } = await entries("limit=50");
    const who = rows.map((entry) => [entry.action, entry.accountUsername, entry.accountId]);
    expect(who).toEqual(
      expect.arrayContaining([
        ["auth.login", "owner", ownerId],
        ["category.create", "owner", ownerId],
        ["auth.login", "packer", packer.accountId],
        ["session.end-others", "packer", packer.accountId],
        ["auth.login-failed", "nobody", null],
      ]),
    );
  });

  it("answers one account's entries only, page after page", async () => {
    const mine = await entries(`accountId=${packer.accountId}&limit=1`);
    expect(mine.total).toBe(2);
    expect(mine.rows.map((entry) => entry.action)).toEqual(["session.end-others"]);
    const cursor = new URL(/<([^>]+)>/.exec(mine.link!)![1]!, server.baseUrl).searchParams.get("cursor")!;
    const next = await entries(`accountId=${packer.accountId}&limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(next.rows.map((entry) => entry.action)).toEqual(["auth.login"]);
    expect(next.link).toBeNull();

    const owners = await entries(`accountId=${ownerId}&signIns=false`);
    expect(owners.rows.map((entry) => entry.action)).toEqual(["category.create"]);
    expect((await entries(`accountId=${UNKNOWN_ID}`)).rows).toEqual([]);
  });

  it("refuses an accountId that is not an id, with a sentence", async () => {
    const response = await server.request("GET", "/api/audit-log?accountId=owner", { cookie: owner });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/must be a valid id$/);
  });
});
