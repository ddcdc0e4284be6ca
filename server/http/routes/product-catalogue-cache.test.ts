import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProductSchema, type Product } from "../../../contract";
import { products } from "../../db/schema";
import { listProductsMatching } from "../../shop/catalogue";
import { useAdminServer } from "../../../test-support/app";

// GET /api/products without filters is serialized once per change to the products and kept in the
// read cache (issue 12). It must never show less than the database: what the admin saved is in their
// next answer at once (also on PostgreSQL, where the change notice comes a moment later), and a write
// that did not go through the API (a checkout taking stock) shows once its notice arrives.

describe("the whole catalogue, served from the read cache", () => {
  const admin = useAdminServer();

  /** The answer as Fastify would serialize it from the database right now. */
  async function fromDatabase(): Promise<unknown> {
    const rows = await listProductsMatching(admin.db(), { sort: "newest" });
    return JSON.parse(JSON.stringify(ProductSchema.array().encode(rows)));
  }

  const input = (name: string, stock: number) => ({ name, description: `About ${name}`, price: "9.99", stock });

  it("answers what the database holds after every write through the API, at once (generated edit sequences)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant("create" as const), name: fc.string({ minLength: 1, maxLength: 20 }), stock: fc.nat(50) }),
            fc.record({ kind: fc.constant("update" as const), pick: fc.nat(), name: fc.string({ minLength: 1, maxLength: 20 }), stock: fc.nat(50) }),
            fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        async (edits) => {
          for (const edit of edits) {
            // Read first, so the cache holds an answer the write must replace.
            const before = (await (await admin.get("/api/products")).json()) as Product[];
            if (edit.kind === "create") {
              const created = await admin.server.request("POST", "/api/products", { cookie: admin.cookie, body: input(edit.name.trim() || "x", edit.stock) });
              expect(created.status, await created.text()).toBe(201);
            } else if (before.length > 0) {
              const target = before[edit.pick % before.length]!;
              const done =
                edit.kind === "update"
                  ? await admin.server.request("PUT", `/api/products/${target.id}`, { cookie: admin.cookie, body: input(edit.name.trim() || "x", edit.stock) })
                  : await admin.server.request("DELETE", `/api/products/${target.id}`, { cookie: admin.cookie });
              expect(done.status, await done.text()).toBe(200);
            }
            const after = await admin.get("/api/products");
            expect(after.status).toBe(200);
            expect(after.headers.get("content-type")).toMatch(/^application\/json/);
            expect(await after.json()).toEqual(await fromDatabase());
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it("shows a write made outside the API (stock taken by a checkout) once the database's notice arrives", async () => {
    const created = await admin.server.request("POST", "/api/products", { cookie: admin.cookie, body: input("Lamp", 5) });
    const lamp = (await created.json()) as Product;
    const first = (await (await admin.get("/api/products")).json()) as Product[];
    expect(first.find((p) => p.id === lamp.id)?.stock).toBe(5);

    await admin.db().update(products).set({ stock: sql`${products.stock} - 2` }).where(eq(products.id, lamp.id));
    await expect
      .poll(async () => ((await (await admin.get("/api/products")).json()) as Product[]).find((p) => p.id === lamp.id)?.stock, { timeout: 5_000 })
      .toBe(3);
  });

  it("keeps filtered and paged lists off the cache: they always read the database", async () => {
    const created = await admin.server.request("POST", "/api/products", { cookie: admin.cookie, body: input("Zebra rug", 1) });
    const rug = (await created.json()) as Product;
    await admin.get("/api/products?q=zebra");
    await admin.db().update(products).set({ name: "Zebra carpet" }).where(eq(products.id, rug.id));
    // No wait for the notice: these read the database on every request.
    expect(((await (await admin.get("/api/products?q=zebra")).json()) as Product[]).map((p) => p.name)).toEqual(["Zebra carpet"]);
    expect(((await (await admin.get("/api/products?limit=50&q=zebra")).json()) as Product[]).map((p) => p.name)).toEqual(["Zebra carpet"]);
  });
});
