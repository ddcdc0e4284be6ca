import { eq, isNotNull } from "drizzle-orm";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { Product } from "../../../contract";
import { categories, products } from "../../db/schema";
import { useAdminServer } from "../../../test-support/app";
import { insertProduct } from "../../../test-support/factories";
import { minutesAfter, nextLink, walkPages } from "../../../test-support/list-pages";

// GET /api/products with limit, cursor, q, categoryId and status (issue 12): the Products screen's
// filters on the server. Without limit it still answers every product (docs/product.md §7).


describe("GET /api/products, paged and filtered", () => {
  const admin = useAdminServer();
  beforeEach(async () => {
    await admin.db().delete(products);
    // Subcategories first: a main category with children refuses to go (docs/product.md rule 5).
    await admin.db().delete(categories).where(isNotNull(categories.parentId));
    await admin.db().delete(categories);
  });

  const { db, get } = admin;
  const names = async (query: string) => {
    const response = await get(`/api/products?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as Product[]).map((product) => product.name);
  };

  async function seedCatalogue() {
    const [tea] = await db().insert(categories).values({ name: "Tea" }).returning();
    const [green] = await db().insert(categories).values({ name: "Green", parentId: tea!.id }).returning();
    const [coffee] = await db().insert(categories).values({ name: "Coffee" }).returning();
    const at = (minutes: number) => ({ createdAt: minutesAfter(minutes) });
    await insertProduct(db(), { name: "Earl Grey", description: "Black tea with bergamot", categoryId: tea!.id, stock: 5, ...at(0) });
    await insertProduct(db(), { name: "Sencha", description: "Japanese GREEN tea", categoryId: green!.id, stock: 0, ...at(1) });
    await insertProduct(db(), { name: "Espresso 100%", description: "Arabica", categoryId: coffee!.id, stock: 3, isActive: false, ...at(2) });
    await insertProduct(db(), { name: "Mug", description: "Holds 300ml", categoryId: null, stock: 12, ...at(3) });
    return { tea: tea!, green: green!, coffee: coffee! };
  }

  it("answers every product newest first without limit, as before", async () => {
    await seedCatalogue();
    const response = await get("/api/products");
    expect(response.headers.get("link")).toBeNull();
    expect(((await response.json()) as Product[]).map((p) => p.name)).toEqual(["Mug", "Espresso 100%", "Sencha", "Earl Grey"]);
  });

  it("filters as the Products screen does: a main category includes its subcategories; in or out of stock; active", async () => {
    const { tea, green, coffee } = await seedCatalogue();
    expect(await names(`categoryId=${tea.id}`)).toEqual(["Sencha", "Earl Grey"]);
    expect(await names(`categoryId=${green.id}`)).toEqual(["Sencha"]);
    expect(await names(`categoryId=${coffee.id}`)).toEqual(["Espresso 100%"]);
    expect(await names("status=in-stock")).toEqual(["Mug", "Espresso 100%", "Earl Grey"]);
    expect(await names("status=out-of-stock")).toEqual(["Sencha"]);
    expect(await names("status=inactive")).toEqual(["Espresso 100%"]);
    expect(await names("status=active")).toEqual(["Mug", "Sencha", "Earl Grey"]);
    expect(await names("status=all")).toHaveLength(4);
    // Low stock (issue 13): at or below each product's own threshold (3 unless set).
    expect(await names("status=low-stock")).toEqual(["Espresso 100%", "Sencha"]);
    await db().update(products).set({ lowStockThreshold: 12 }).where(eq(products.name, "Mug"));
    await db().update(products).set({ lowStockThreshold: 0 }).where(eq(products.name, "Espresso 100%"));
    expect(await names("status=low-stock")).toEqual(["Mug", "Sencha"]);
    // Names only, as the "name search" of docs/product.md §2: the description does not count.
    expect(await names("q=green")).toEqual([]);
    expect(await names("q=SEN")).toEqual(["Sencha"]);
    expect(await names("q=EARL")).toEqual(["Earl Grey"]);
    expect(await names("q=100%25")).toEqual(["Espresso 100%"]);
    expect(await names("q=%25")).toEqual(["Espresso 100%"]);
    expect(await names("q=_")).toEqual([]);
    expect(await names(`q=grey&categoryId=${tea.id}&status=in-stock`)).toEqual(["Earl Grey"]);
    expect(await names(`q=grey&categoryId=${tea.id}&status=out-of-stock`)).toEqual([]);
    expect(await names("sort=oldest")).toEqual(["Earl Grey", "Sencha", "Espresso 100%", "Mug"]);

    const page = await get(`/api/products?categoryId=${tea.id}&limit=1`);
    expect(page.headers.get("x-total-count")).toBe("2");
    expect(nextLink(page)).toContain(`categoryId=${tea.id}`);
  });

  it("pages through every product exactly once while products are added between pages", async () => {
    const seeded: string[] = [];
    for (let i = 0; i < 14; i++) seeded.push((await insertProduct(db(), { createdAt: minutesAfter(Math.floor(i / 3)) })).id);
    for (const sort of ["newest", "oldest"]) {
      const { rows } = await walkPages<Product>(admin.server, admin.cookie, `/api/products?limit=4&sort=${sort}`, async () => {
        await insertProduct(db(), { createdAt: minutesAfter(2) });
        await insertProduct(db(), { createdAt: minutesAfter(90) });
      });
      const seen = rows.map((product) => product.id);
      expect(new Set(seen).size, sort).toBe(seen.length);
      for (const id of seeded) expect(seen, sort).toContain(id);
    }
  });

  it("answers 400 with a sentence naming the field for bad parameters", async () => {
    const cases: [string, RegExp][] = [
      ["limit=-1", /^Page size must be a whole number from 1 to 200$/],
      ["categoryId=tea", /^Category must be a valid id$/],
      ["status=sold", /^Status must be one of all, in-stock, out-of-stock, low-stock, active, inactive$/],
      ["sort=name", /^Sort must be one of newest, oldest$/],
      ["limit=2&cursor=eyJzIjoib2xkZXN0IiwiayI6W119", /^Page is not one this list gave for these filters \(start again without it\)$/],
    ];
    for (const [query, sentence] of cases) {
      const response = await get(`/api/products?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toMatch(sentence);
    }
  });

  it("matches search text literally in names, never in descriptions", async () => {
    const alphabet = fc.constantFrom(..."aAb %_\\'\"-;", "😀", "漢");
    const text = fc.string({ unit: alphabet, minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 4 }), text, async (rows, q) => {
        await db().delete(products);
        for (const [name, description] of rows) await insertProduct(db(), { name, description });
        const needle = q.trim().toLowerCase();
        const expected = rows
          .filter(([name]) => needle === "" || name.toLowerCase().includes(needle))
          .map(([name]) => name)
          .sort();
        expect((await names(`q=${encodeURIComponent(q)}`)).sort(), `q=${JSON.stringify(q)}`).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});
