import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/app";
import { rawRequest, seedShop, type ShopIds } from "../../test-support/attack";
import { databaseChecksum } from "../../test-support/checksum";
import { signIpn } from "../../test-support/sign-ipn";

// Each hostile input found by the security review, as a regression test (docs/product.md rule 8):
// answered 4xx with { error: sentence }, and nothing in the database changed.

describe("hostile input found in review", () => {
  let server: TestServer;
  let cookie: string;
  let ids: ShopIds;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
    ids = await seedShop(server, cookie);
  });
  afterAll(() => server.close());

  async function expectRefused(method: string, url: string, body: unknown, status: number, error: RegExp, headers: Record<string, string> = {}) {
    const before = await databaseChecksum(server.database.db);
    const response = await server.request(method, url, { cookie, body, headers });
    const text = await response.text();
    expect(response.status, `${method} ${url}: ${text}`).toBe(status);
    expect(JSON.parse(text)).toEqual({ error: expect.stringMatching(error) });
    expect(await databaseChecksum(server.database.db)).toBe(before);
  }

  const NUL = /must not contain NUL characters/;

  it("refuses a NUL character in any text field", async () => {
    await expectRefused("POST", "/api/categories", { name: "Tea\u0000" }, 400, /^Name must not contain NUL characters or unpaired surrogates$/);
    await expectRefused("PUT", `/api/categories/${ids.category}`, { name: "Tea", description: "\u0000" }, 400, NUL);
    await expectRefused("POST", "/api/products", { name: "A", description: "x\u0000y", price: "1.00" }, 400, /^Description must not contain NUL characters or unpaired surrogates$/);
    await expectRefused("POST", "/api/postage-options", { name: "\u0000", price: "1.00" }, 400, NUL);
    await expectRefused("POST", "/api/messages", { telegramUserId: ids.customer, message: "hi\u0000" }, 400, /^Message must not contain NUL characters or unpaired surrogates$/);
    await expectRefused("GET", "/api/messages/user/%00", undefined, 400, /^Customer must not contain NUL characters or unpaired surrogates$/);
    await expectRefused("POST", "/api/categories", { name: "Tea\uD800" }, 400, /unpaired surrogates/);
    // In a key: the request, or the field holding it, is named.
    await expectRefused("POST", "/api/categories", { name: "Tea", "ic\u0000on": "x" }, 400, /^The request has a key with NUL characters or unpaired surrogates$/);
    await expectRefused("POST", "/api/products", { ...{ name: "A", price: "1.00" }, bulkPricing: [{ "min\u0000": 2 }] }, 400, /^Bulk pricing has a key with NUL characters or unpaired surrogates$/);
  });

  it("bounds whole numbers to their columns and refuses other types", async () => {
    await expectRefused("POST", "/api/postage-options", { name: "Slow", price: "1.00", estimatedDays: 2147483648 }, 400, /^Estimated days must be at most 365$/);
    const product = { name: "A", description: "", price: "1.00" };
    for (const stock of [[[[]]], false, "1e2", "5", 2147483648, -1, 1.5, null]) {
      await expectRefused("POST", "/api/products", { ...product, stock }, 400, /^Stock must be/);
    }
    await expectRefused("POST", "/api/products", { ...product, bulkPricing: [{ minQuantity: 2, price: 0.001 }] }, 400, /at most two decimals/);
    await expectRefused("POST", "/api/products", { ...product, bulkPricing: [{ minQuantity: "2", price: 1 }] }, 400, /^Minimum quantity must be a whole number$/);
  });

  it("accepts only an image this server stored as a product's imageUrl", async () => {
    for (const imageUrl of ["javascript:alert(1)", "https://tracker.example/pixel.gif", "/objects/../secret", "//evil.example/x.png"]) {
      await expectRefused("POST", "/api/products", { name: "A", description: "", price: "1.00", imageUrl }, 400, /^Image must be an \/objects\/ path from this server \(upload the image first\)$/);
    }
    const ok = await server.request("POST", "/api/products", { cookie, body: { name: "A", description: "", price: "1.00", imageUrl: "/objects/abc_DEF-1" } });
    expect(ok.status).toBe(201);
  });

  it("refuses JSON nested deeper than any real request before any recursive work, signed or not", async () => {
    const deep = '{"a":'.repeat(5000) + "1" + "}".repeat(5000);
    for (const url of ["/api/payments/webhook", "/api/categories"]) {
      const before = await databaseChecksum(server.database.db);
      const answer = await rawRequest(server.baseUrl, "POST", url, { body: deep, headers: { cookie, "x-nowpayments-sig": "00" } });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error).toMatch(/nested more than 32 levels/);
      expect(await databaseChecksum(server.database.db)).toBe(before);
    }
  });

  it("answers 400 to a signed IPN whose fields have the wrong types", async () => {
    const valid = { payment_id: 5000000009, payment_status: "finished", order_id: ids.order, price_amount: 4.99, price_currency: "gbp", pay_currency: "btc" };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...valid, payment_id: { $gt: 1 } }, /^Invalid payment_id: must be a string$/],
      [{ ...valid, payment_status: ["finished"] }, /^Invalid payment_status: must be a string$/],
      [{ ...valid, order_id: [ids.order] }, /^Invalid order_id: must be a string$/],
      [{ ...valid, actually_paid: "lots" }, /^Invalid actually_paid: must be an amount$/],
      [{ ...valid, pay_currency: { coin: "btc" } }, /^Invalid pay_currency: must be a string$/],
      [{ ...valid, payment_status: "bogus" }, /payment status/i],
    ];
    for (const [body, error] of cases) {
      await expectRefused("POST", "/api/payments/webhook", body, 400, error, { "x-nowpayments-sig": signIpn(body, "attack-ipn-secret") });
    }
  });

  it("answers the framework's own refusals in the { error } shape", async () => {
    const badUrl = await rawRequest(server.baseUrl, "GET", "/api/orders/%FF%FE/items", { headers: { cookie } });
    expect(badUrl.status).toBe(400);
    expect(JSON.parse(badUrl.body)).toEqual({ error: "The request path is not a valid URL." });

    const longParam = await rawRequest(server.baseUrl, "GET", `/api/orders/${"a".repeat(500)}/items`, { headers: { cookie } });
    expect(longParam.status).toBe(414);
    expect(JSON.parse(longParam.body)).toEqual({ error: "The request path is too long." });

    const badJson = await rawRequest(server.baseUrl, "POST", "/api/categories", { headers: { cookie }, body: "{" });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body)).toEqual({ error: "The request body is not valid JSON." });

    const proto = await rawRequest(server.baseUrl, "POST", "/api/categories", { headers: { cookie }, body: '{"name":"x","__proto__":{"admin":true}}' });
    expect(proto.status).toBe(400);
    expect(JSON.parse(proto.body)).toEqual({ error: "The request body is not valid JSON." });

    // Headers over Node's limit never reach Fastify: the HTTP parser's refusal is answered as JSON too.
    const huge = await rawHttp(server.baseUrl, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.slice(huge.indexOf("\r\n\r\n") + 4))).toEqual({ error: "The request headers are too large." });
  });
});

/** Sends bytes as they are and answers everything the server wrote back. */
function rawHttp(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    let out = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (out += chunk));
    socket.on("end", () => resolve(out));
    socket.on("error", (error) => (out ? resolve(out) : reject(error)));
  });
}
