import { getTableName, is, sql, Table } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../server/db/schema";
import { queryRows } from "../server/db/rows";
import { seedRoutes } from "../e2e/support/seed-routes";
import { startTestServer, TEST_PASSWORD, type TestServer } from "./app";

// The browser tests' reset (POST /api/test/reset, e2e/support/seed-routes.ts) truncates only the
// tables holding rows (docs/PERFORMANCE.md "Third round"): every test must still start from an empty
// shop, with the owner's account (its password) and session kept, and no staff account left.

const KEPT = ["accounts", "sessions"];
const TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is Table => is(value, Table))
  .map((table) => getTableName(table))
  .sort();

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ app: { extraRoutes: [seedRoutes] } });
  cookie = await server.login();
});
afterAll(() => server?.close());

/** The tables holding rows, by name, with their row counts. */
async function filledTables(): Promise<Record<string, number>> {
  const rows = await queryRows<{ name: string; count: string | number }>(
    server.database.db,
    sql.raw(TABLES.map((name) => `select '${name}' as name, count(*) as count from "${name}"`).join(" union all ")),
  );
  return Object.fromEntries(rows.filter((row) => Number(row.count) > 0).map((row) => [row.name, Number(row.count)]));
}

async function call(method: string, url: string, body?: unknown) {
  const response = await server.request(method, url, { cookie, body: body ?? (method === "GET" ? undefined : {}) });
  expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown>>;
}

/** Rows in many tables, through the API and the seed routes, a hostile name among them. */
async function fillShop(tag: string) {
  await call("POST", "/api/bot-settings", { botName: "Shop Bot", botToken: "123:abc", acceptedCurrencies: ["BTC"], welcomeMessage: "Hi", faqContent: "FAQ" });
  const category = await call("POST", "/api/categories", { name: `Cat'"; truncate table sessions; -- ${tag}` });
  const product = await call("POST", "/api/products", { name: `Thing ${tag}`, description: "x", price: "1.00", stock: 3, categoryId: category.id });
  await call("POST", "/api/postage-options", { name: `Post ${tag}`, description: null, price: "1.00", estimatedDays: 1, isActive: true });
  const order = await call("POST", "/api/test/orders", {
    telegramUserId: "9001",
    status: "processing",
    items: [{ productId: product.id, productName: product.name, price: "1.00" }],
  });
  await call("POST", "/api/test/messages", { telegramUserId: "9001", message: `hello ${tag}`, orderId: order.id });
  await call("POST", "/api/test/accounts", { username: `packer-${tag}`, role: "packer", password: `packer password ${tag}` });
}

/** The roles of the accounts left. */
async function accountRoles(): Promise<string[]> {
  return (await server.database.db.select({ role: schema.accounts.role }).from(schema.accounts)).map((row) => row.role);
}

describe("POST /api/test/reset", () => {
  it("empties every shop table the tests filled, keeps the password and the session, and an empty shop stays empty", async () => {
    await call("POST", "/api/test/reset");
    expect(Object.keys(await filledTables()).sort()).toEqual(KEPT);

    await fillShop("one");
    await call("POST", "/api/test/accounts", { username: "pat", role: "packer", password: "pat's password here" });
    const filled = Object.keys(await filledTables());
    for (const table of ["bot_settings", "categories", "products", "postage_options", "orders", "order_items", "customer_messages", "audit_log"]) {
      expect(filled).toContain(table);
    }

    expect((await accountRoles()).sort()).toEqual(["owner", "packer", "packer"]);
    const answer = await call("POST", "/api/test/reset");
    expect(await accountRoles()).toEqual(["owner"]);
    // It still names every table it empties (the shop's tables but the kept ones).
    expect([...(answer.reset as string[])].sort()).toEqual(TABLES.filter((name) => !KEPT.includes(name)));
    expect(Object.keys(await filledTables()).sort()).toEqual(KEPT);
    // The owner's account stays; the staff accounts a test made go.
    expect((await queryRows<{ role: string }>(server.database.db, sql`select role from accounts`)).map((row) => row.role)).toEqual(["owner"]);
    // The session survived: the same cookie still reads.
    expect(await call("GET", "/api/categories")).toEqual([]);

    // Again on an empty shop: nothing to truncate, still empty, still answered.
    await call("POST", "/api/test/reset");
    expect(Object.keys(await filledTables()).sort()).toEqual(KEPT);
  });

  it("resets raced by writes end empty once the last reset is done", async () => {
    // A write the reset emptied the ground under (its category gone) may be refused; a reset never is.
    const fills = [fillShop("a"), fillShop("b")].map((fill) => fill.catch(() => undefined));
    const resets = Array.from({ length: 3 }, () => server.request("POST", "/api/test/reset", { cookie, body: {} }));
    const [answers] = await Promise.all([Promise.all(resets), ...fills]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await call("POST", "/api/test/reset");
    expect(Object.keys(await filledTables()).sort()).toEqual(KEPT);
    expect(await accountRoles()).toEqual(["owner"]);
  });

  it("turns the owner's two-factor off again, so the next test signs in by password", async () => {
    await server.database.db.update(schema.accounts).set({ totpEnabled: true, totpSecret: "sealed-secret" });
    await call("POST", "/api/test/reset");
    const [owner] = await server.database.db.select().from(schema.accounts);
    expect(owner).toMatchObject({ role: "owner", totpEnabled: false, totpSecret: null, totpLastStep: null });
    expect((await server.request("POST", "/api/auth/login", { body: { password: TEST_PASSWORD } })).status).toBe(200);
  });
});
