import { describe, expect, it } from "vitest";
import { useAdminServer } from "../../test-support/app";

// The catalogue lists answer 304 Not Modified to a client that already has them (issue 12), and a
// change makes them whole again. Admin answers are private to the browser and always revalidated.

describe("conditional GETs of the catalogue", () => {
  const admin = useAdminServer();

  for (const list of ["/api/products", "/api/categories", "/api/postage-options"]) {
    it(`answers 304 for ${list} while it is unchanged, 200 once it changed`, async () => {
      const first = await admin.server.request("GET", list, { cookie: admin.cookie });
      expect(first.status).toBe(200);
      expect(first.headers.get("cache-control")).toBe("private, no-cache");
      const tag = first.headers.get("etag");
      expect(tag).toMatch(/^"[^"]+"$/);
      await first.text();

      const again = await admin.server.request("GET", list, { cookie: admin.cookie, headers: { "if-none-match": tag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");

      const created =
        list === "/api/products"
          ? await admin.server.request("POST", list, { cookie: admin.cookie, body: { name: "Kettle", description: "", price: "20.00", stock: 3 } })
          : list === "/api/categories"
            ? await admin.server.request("POST", list, { cookie: admin.cookie, body: { name: "Kitchen" } })
            : await admin.server.request("POST", list, { cookie: admin.cookie, body: { name: "Courier", price: "5.00", estimatedDays: 2, isActive: true } });
      expect(created.status, await created.text()).toBeLessThan(300);
      const changed = await admin.server.request("GET", list, { cookie: admin.cookie, headers: { "if-none-match": tag! } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(tag);
      expect((await changed.json()).length).toBeGreaterThan(0);
    });
  }

  it("never answers 304 to a client without a session", async () => {
    const first = await admin.server.request("GET", "/api/products", { cookie: admin.cookie });
    const tag = first.headers.get("etag")!;
    const stranger = await admin.server.request("GET", "/api/products", { headers: { "if-none-match": tag } });
    expect(stranger.status).toBe(401);
  });
});
