import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../../../contract";
import { uploadTokens } from "../../db/schema";
import { startTestServer, type TestServer } from "../../../test-support/app";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A valid PNG signature padded with zeros to `size` bytes: enough for a content check. */
function pngOfSize(size: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(size);
  data.set(PNG_SIGNATURE);
  return data;
}
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
const WEBP = new Uint8Array([...Buffer.from("RIFF"), 0x24, 0, 0, 0, ...Buffer.from("WEBPVP8 "), 0, 0, 0, 0]);

describe("product image uploads", () => {
  let server: TestServer;
  let cookie: string;
  let clock = new Date("2025-06-01T12:00:00Z");
  beforeAll(async () => {
    server = await startTestServer({ deps: { now: () => clock } });
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const newUploadUrl = async (): Promise<string> => {
    const response = await server.request("POST", "/api/objects/upload", { cookie, body: {} });
    expect(response.status).toBe(200);
    const { uploadURL } = await response.json();
    return uploadURL;
  };
  const upload = (url: string, body: BodyInit, headers: Record<string, string> = {}, withCookie = true) =>
    fetch(server.baseUrl + url, { method: "PUT", body, headers: { ...(withCookie ? { cookie } : {}), ...headers } });

  it("answers 401 without a session", async () => {
    expect((await server.request("POST", "/api/objects/upload", { body: {} })).status).toBe(401);
    const url = await newUploadUrl();
    const put = await upload(url, pngOfSize(100), { "content-type": "image/png" }, false);
    expect(put.status).toBe(401);
    expect((await server.request("PUT", "/api/product-images", { body: { imageURL: url } })).status).toBe(401);
  });

  it("gives a same-origin upload URL whose token is stored only as a hash", async () => {
    const url = await newUploadUrl();
    expect(url).toMatch(/^\/api\/objects\/upload\/[A-Za-z0-9_-]{40,}$/);
    const token = url.split("/").pop()!;
    const rows = await server.database.db.select().from(uploadTokens);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("accepts an image of exactly 5,242,880 bytes and serves it publicly with safe headers", async () => {
    const url = await newUploadUrl();
    const image = pngOfSize(MAX_IMAGE_BYTES);
    const response = await upload(url, image, { "content-type": "image/png" });
    expect(response.status).toBe(200);
    const { objectPath } = await response.json();
    expect(objectPath).toMatch(/^\/objects\/[A-Za-z0-9_-]+$/);

    const confirmed = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: url } });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ objectPath });

    const served = await fetch(server.baseUrl + objectPath); // no session: Telegram and <img> load it
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect(bytes.length).toBe(MAX_IMAGE_BYTES);
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  it("refuses one byte more than 5,242,880 with 413", async () => {
    const url = await newUploadUrl();
    const response = await upload(url, pngOfSize(MAX_IMAGE_BYTES + 1), { "content-type": "image/png" });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/too large/i);
    // Nothing was stored: the URL is still unused.
    const confirm = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: url } });
    expect(confirm.status).toBe(404);
  });

  it("answers a much larger image with a readable 413, not a broken connection", async () => {
    const url = await newUploadUrl();
    const response = await upload(url, pngOfSize(8 * 1024 * 1024), { "content-type": "image/png" });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/too large/i);
  });

  it("refuses a text file named .png with 415, judging by content; the URL stays usable", async () => {
    const url = await newUploadUrl();
    const textFile = new File(["just some text, not an image"], "photo.png", { type: "image/png" });
    const response = await upload(url, textFile);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "Only PNG, JPEG or WebP images can be uploaded." });
    const empty = await upload(url, new Uint8Array(0), { "content-type": "image/png" });
    expect(empty.status).toBe(415);
    // A real image can still go to the same URL.
    expect((await upload(url, pngOfSize(64))).status).toBe(200);
  });

  it("detects JPEG and WebP by content, whatever type is declared", async () => {
    for (const [image, type] of [
      [JPEG, "image/jpeg"],
      [WEBP, "image/webp"],
    ] as const) {
      const url = await newUploadUrl();
      const response = await upload(url, image, { "content-type": "application/octet-stream" });
      expect(response.status).toBe(200);
      const { objectPath } = await response.json();
      const served = await fetch(server.baseUrl + objectPath);
      expect(served.headers.get("content-type")).toBe(type);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(image);
    }
  });

  it("refuses an upload URL used twice", async () => {
    const url = await newUploadUrl();
    expect((await upload(url, pngOfSize(64), { "content-type": "image/png" })).status).toBe(200);
    const again = await upload(url, pngOfSize(64), { "content-type": "image/png" });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("This upload URL has already been used. Ask for a new one to upload another image.");
  });

  it("stores only one of two simultaneous uploads to the same URL", async () => {
    const url = await newUploadUrl();
    const statuses = await Promise.all([upload(url, pngOfSize(64)), upload(url, JPEG)].map(async (r) => (await r).status));
    expect(statuses.sort()).toEqual([200, 409]);
  });

  it("refuses an unknown or expired upload URL with 404", async () => {
    const unknown = await upload("/api/objects/upload/not-a-real-token", pngOfSize(64));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("This upload URL is unknown or has expired. Ask for a new one.");

    const url = await newUploadUrl();
    const started = clock;
    clock = new Date(started.getTime() + 15 * 60 * 1000 + 1);
    try {
      const expired = await upload(url, pngOfSize(64));
      expect(expired.status).toBe(404);
      expect((await expired.json()).error).toMatch(/expired/);
    } finally {
      clock = started;
    }
  });

  it("confirms an image by its /objects path, refusing paths that name nothing stored here", async () => {
    const url = await newUploadUrl();
    const { objectPath } = await (await upload(url, JPEG)).json();
    const byPath = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: objectPath } });
    expect(await byPath.json()).toEqual({ objectPath });
    const absolute = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: server.baseUrl + url } });
    expect(await absolute.json()).toEqual({ objectPath });

    const missing = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: "/objects/doesnotexist123" } });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe("The uploaded image was not found. Please upload it again.");
    const unused = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: await newUploadUrl() } });
    expect(unused.status).toBe(404);
    expect((await unused.json()).error).toBe("No image was uploaded to this URL. Please upload the image again.");
    for (const imageURL of ["https://elsewhere.example/cat.png", "/objects/../secret.key"]) {
      const foreign = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL } });
      expect(foreign.status).toBe(400);
      expect((await foreign.json()).error).toBe("Image must be an upload URL or an /objects/ path from this server.");
    }
    const blank = await server.request("PUT", "/api/product-images", { cookie, body: { imageURL: " " } });
    expect(blank.status).toBe(400);
    expect((await blank.json()).error).toBe("Image is required");
  });

  it("answers 404 as JSON for an image that does not exist", async () => {
    for (const id of ["doesnotexist123", "..%2Fsecret.key", "x"]) {
      const response = await fetch(`${server.baseUrl}/objects/${id}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect((await response.json()).error).toMatch(/not found/i);
    }
  });

  it("keeps the default JSON body limit on other calls", async () => {
    const response = await server.request("POST", "/api/products", {
      cookie,
      body: { name: "Big", price: "1.00", description: "x".repeat(2 * 1024 * 1024) },
    });
    expect(response.status).toBe(413);
  });
});
