import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/app";
import { insertOrder } from "../../test-support/factories";

// Issue 12: JSON answers travel compressed when the client accepts it (a page of orders is mostly
// repeated keys); small answers and images go as they are; request bodies are never inflated.

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A request whose answer is read as raw bytes (fetch would decompress it out of sight). */
function rawGet(server: TestServer, path: string, headers: Record<string, string>, method = "GET", body?: Buffer): Promise<Answer> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(8000)]);

describe("compressed answers", () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
    for (let i = 0; i < 40; i++) await insertOrder(server.database.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("gzips or brotli-compresses a JSON list for a client that accepts it, and sends it plain otherwise", async () => {
    const plain = await rawGet(server, "/api/orders", { cookie });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const list = JSON.parse(plain.body.toString("utf8")) as unknown[];
    expect(list).toHaveLength(40);

    const gzipped = await rawGet(server, "/api/orders", { cookie, "accept-encoding": "gzip" });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(zlib.gunzipSync(gzipped.body).toString("utf8"))).toEqual(list);

    const brotli = await rawGet(server, "/api/orders?limit=20", { cookie, "accept-encoding": "br, gzip" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    // The paging headers survive compression.
    expect(brotli.headers["x-total-count"]).toBe("40");
    expect(brotli.headers.link).toMatch(/rel="next"$/);
    expect(JSON.parse(zlib.brotliDecompressSync(brotli.body).toString("utf8"))).toEqual(list.slice(0, 20));
  });

  it("leaves small answers and error answers under a kilobyte as they are", async () => {
    const status = await rawGet(server, "/api/auth/status", { cookie, "accept-encoding": "gzip" });
    expect(status.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(status.body.toString("utf8"))).toMatchObject({ authenticated: true, account: { username: "owner", role: "owner" } });
    const refused = await rawGet(server, "/api/orders?limit=0", { cookie, "accept-encoding": "gzip" });
    expect(refused.status).toBe(400);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(refused.body.toString("utf8"))).toEqual({ error: "Page size must be a whole number from 1 to 200" });
  });

  it("serves stored images byte for byte, uncompressed", async () => {
    const { uploadURL } = (await (await server.request("POST", "/api/objects/upload", { cookie, body: {} })).json()) as { uploadURL: string };
    const stored = await fetch(server.baseUrl + uploadURL, { method: "PUT", headers: { cookie, "content-type": "image/png" }, body: PNG });
    expect(stored.status).toBe(200);
    const { objectPath } = (await stored.json()) as { objectPath: string };

    const image = await rawGet(server, objectPath, { "accept-encoding": "gzip, br" });
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["content-encoding"]).toBeUndefined();
    expect(image.body.equals(PNG)).toBe(true);
  });

  it("does not inflate a compressed request body", async () => {
    const body = zlib.gzipSync(JSON.stringify({ name: "Inflated" }));
    const answer = await rawGet(
      server,
      "/api/categories",
      { cookie, "content-type": "application/json", "content-encoding": "gzip", "content-length": String(body.length) },
      "POST",
      body,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString("utf8"))).toEqual({ error: "The request body is not valid JSON." });
    const categories = (await (await server.request("GET", "/api/categories", { cookie })).json()) as unknown[];
    expect(categories).toEqual([]);
  });
});
