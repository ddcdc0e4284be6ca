import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Customer, CustomerDetail, Order } from "../../contract";
import { createOwnerKey } from "../../contract/owner-seal";
import type { Role } from "../../contract/team";
import { startTestServer, type TestServer } from "../../test-support/app";
import { insertOrder } from "../../test-support/factories";
import { protectNewAddress } from "../shop/vaults";
import { withoutAddresses } from "./address-withholding";

// Issue 25: shipping addresses only for roles with "orders.addresses" (contract/team.ts). The support
// role reads orders, their status and their customers, never an address: not in an answer, and not
// by searching for a name or a postcode and seeing what comes back.

const ADDRESS_FIELDS = ["shippingAddress", "sealedShippingAddress"];

/** Every value found under an address field, however deep. */
function addressValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(addressValues);
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, field]) => (ADDRESS_FIELDS.includes(key) ? [field] : addressValues(field)));
}

/** The value with its address fields left out: what must come through unchanged. */
function withoutAddressKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAddressKeys);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !ADDRESS_FIELDS.includes(key)).map(([key, field]) => [key, withoutAddressKeys(field)]));
}

describe("withoutAddresses", () => {
  // JSON answers with address fields at any depth, holding anything (an object, text, an array).
  const answers = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue({ maxDepth: 2 }),
      fc.array(tie("node"), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...ADDRESS_FIELDS, "__proto__", "constructor", "id"), fc.string()), tie("node"), { maxKeys: 5 }),
    ),
  })).node;

  it("nulls every address field at any depth, keeps everything else, and leaves the answer given untouched", () => {
    fc.assert(
      fc.property(answers, (answer) => {
        const before = JSON.stringify(answer);
        const withheld = withoutAddresses(answer);
        expect(addressValues(withheld).every((value) => value === null)).toBe(true);
        expect(withoutAddressKeys(withheld)).toEqual(withoutAddressKeys(answer));
        expect(JSON.stringify(answer)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});

describe("order answers for a role without orders.addresses", () => {
  let server: TestServer;
  const cookies = {} as Record<Role, string>;
  let clear: { id: string; telegramUserId: string };
  let sealed: { id: string; telegramUserId: string };

  beforeAll(async () => {
    server = await startTestServer();
    cookies.owner = await server.login();
    for (const role of ["manager", "packer", "support"] as const) cookies[role] = (await server.loginAs(role)).cookie;
    const { db } = server.database;
    ({ order: clear } = await insertOrder(db, {
      telegramUsername: "jane_tea",
      shippingAddress: { name: "Jane Marple", streetAddress: "1 St Mary Mead", postcode: "EC1A 1BB", contact: "jane@example.com" },
    }));
    // A second order sealed to the owner's key (docs/decisions/0025): its sealed text is an address too.
    const key = await createOwnerKey("plum orchard lantern river");
    const enabled = await server.request("POST", "/api/private-addresses", {
      cookie: cookies.owner,
      body: { publicKey: key.publicKey, wrappedPrivateKey: key.wrappedPrivateKey, salt: key.salt, iterations: key.iterations },
    });
    expect(enabled.status).toBe(200);
    // Stored as a checkout stores it (the factory's own address is the server key's, whatever the mode).
    const id = crypto.randomUUID();
    const stored = await protectNewAddress(db, id, { name: "Hercule Poirot", streetAddress: "56B Whitehaven Mansions", postcode: "W1A 1AA", contact: null });
    ({ order: sealed } = await insertOrder(db, { id, telegramUsername: "hercule", ...stored }));
  });
  afterAll(() => server.close());

  const get = async <T,>(role: Role, url: string) => {
    const response = await server.request("GET", url, { cookie: cookies[role] });
    const text = await response.text();
    expect(response.status, `${role} GET ${url}: ${text}`).toBe(200);
    return { body: JSON.parse(text) as T, text };
  };
  const foundIds = async (role: Role, q: string) =>
    (await get<Order[]>(role, `/api/orders?q=${encodeURIComponent(q)}`)).body.map((order) => order.id).sort();

  it("shows the roles with it the addresses, clear and sealed", async () => {
    for (const role of ["owner", "manager", "packer"] as const) {
      const { body } = await get<Order[]>(role, "/api/orders");
      const byId = new Map(body.map((order) => [order.id, order]));
      expect(byId.get(clear.id)?.shippingAddress, role).toMatchObject({ name: "Jane Marple", postcode: "EC1A 1BB" });
      expect(byId.get(sealed.id)?.sealedShippingAddress, role).toMatch(/^owner-seal:v1:/);
    }
  });

  it("answers support's order list, page and customer page with no address at all", async () => {
    for (const url of ["/api/orders", "/api/orders?limit=1", "/api/orders?limit=10&status=all", `/api/customers/${clear.telegramUserId}`, `/api/customers/${sealed.telegramUserId}`]) {
      const { body, text } = await get<Order[] | CustomerDetail>("support", url);
      const orders = Array.isArray(body) ? body : body.orders;
      expect(orders.length, url).toBeGreaterThan(0);
      for (const order of orders) expect([order.shippingAddress, order.sealedShippingAddress], url).toEqual([null, null]);
      for (const secret of ["St Mary Mead", "EC1A", "jane@example.com", "Whitehaven", "W1A", "owner-seal:"]) {
        expect(text, `${url} holds ${secret}`).not.toContain(secret);
      }
      if (!Array.isArray(body)) expect(JSON.stringify(body.orders), url).not.toMatch(/Marple|Poirot/);
    }
    // The Customers screen still names the customer (the name on their latest order, as for every role):
    // support talks to them. Where they live is what it does not show.
    const { body } = await get<CustomerDetail>("support", `/api/customers/${clear.telegramUserId}`);
    expect(body.customer.name).toBe("Jane Marple");
  });

  it("does not let support find orders or customers by a name or a postcode, but by id, @username and Telegram id", async () => {
    for (const q of ["EC1A 1BB", "ec1a1bb", "EC1A", "Marple", "Jane Marple", "W1A 1AA", "Poirot"]) {
      expect(await foundIds("owner", q), `owner: ${q}`).not.toEqual([]);
      expect(await foundIds("support", q), `support: ${q}`).toEqual([]);
      const customers = await get<Customer[]>("support", `/api/customers?q=${encodeURIComponent(q)}`);
      expect(customers.body, `support customers: ${q}`).toEqual([]);
    }
    expect(await foundIds("support", clear.id.slice(0, 8))).toEqual([clear.id]);
    expect(await foundIds("support", "@jane_t")).toEqual([clear.id]);
    expect(await foundIds("support", sealed.telegramUserId)).toEqual([sealed.id]);
    const byUsername = await get<Customer[]>("support", "/api/customers?q=hercule");
    expect(byUsername.body.map((customer) => customer.telegramUserId)).toEqual([sealed.telegramUserId]);
  });

  it("does not let support take the export, whose file holds the addresses", async () => {
    const response = await server.request("GET", "/api/orders/export.csv", { cookie: cookies.support });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Your role (Support) does not have the "orders.export" permission.' });
  });
});
