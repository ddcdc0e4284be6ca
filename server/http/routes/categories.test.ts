import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";


describe("categories API", () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const response = await server.request("POST", "/api/categories", { cookie, body });
    expect(response.status).toBe(201);
    return response.json();
  };
  const list = async () => (await server.request("GET", "/api/categories", { cookie })).json();

  it("answers 401 without a session", async () => {
    expect((await server.request("GET", "/api/categories")).status).toBe(401);
    expect((await server.request("POST", "/api/categories", { body: { name: "X" } })).status).toBe(401);
    expect((await server.request("PUT", `/api/categories/${UNKNOWN_ID}`, { body: { name: "X" } })).status).toBe(401);
    expect((await server.request("DELETE", `/api/categories/${UNKNOWN_ID}`)).status).toBe(401);
  });

  it("creates main categories and subcategories, trimmed, empty fields stored as null", async () => {
    const main = await create({ name: "  Electronics ", description: "", icon: "  ", parentId: null });
    expect(main).toMatchObject({ name: "Electronics", description: null, icon: null, parentId: null, id: expect.any(String) });
    expect(Date.parse(main.createdAt)).not.toBeNaN();
    expect(Date.parse(main.updatedAt)).not.toBeNaN();

    const sub = await create({ name: "Laptops", description: "Portable", icon: "fas fa-laptop", parentId: main.id });
    expect(sub).toMatchObject({ name: "Laptops", description: "Portable", icon: "fas fa-laptop", parentId: main.id });
    // The category type chooser sends "" for 'Main Category'.
    expect(await create({ name: "books", parentId: "" })).toMatchObject({ parentId: null });

    const all = await list();
    expect(all.map((c: { name: string }) => c.name)).toEqual(["books", "Electronics", "Laptops"]);
    expect(Object.keys(all[0]).sort()).toEqual(["createdAt", "description", "icon", "id", "name", "parentId", "translations", "updatedAt"]);
  });

  it("requires a name", async () => {
    for (const name of ["", "   "]) {
      const response = await server.request("POST", "/api/categories", { cookie, body: { name } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "Category Name is required" });
    }
    const missing = await server.request("POST", "/api/categories", { cookie, body: {} });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("Name is required");
  });

  it("refuses a parent that does not exist or is itself a subcategory", async () => {
    const missing = await server.request("POST", "/api/categories", { cookie, body: { name: "Orphan", parentId: UNKNOWN_ID } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "The chosen parent category does not exist." });

    const malformed = await server.request("POST", "/api/categories", { cookie, body: { name: "Orphan", parentId: "nope" } });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toBe("Parent category must be a valid id");

    const laptops = (await list()).find((c: { name: string }) => c.name === "Laptops");
    const third = await server.request("POST", "/api/categories", { cookie, body: { name: "Gaming laptops", parentId: laptops.id } });
    expect(third.status).toBe(400);
    expect(await third.json()).toEqual({
      error: '"Laptops" is a subcategory; subcategories can only be placed under a main category.',
    });
    expect((await list()).some((c: { name: string }) => c.name === "Gaming laptops" || c.name === "Orphan")).toBe(false);
  });

  it("updates a category, and can move a subcategory back to the top level", async () => {
    const books = (await list()).find((c: { name: string }) => c.name === "books");
    const electronics = (await list()).find((c: { name: string }) => c.name === "Electronics");
    const renamed = await server.request("PUT", `/api/categories/${books.id}`, {
      cookie,
      body: { name: "Books", description: "Paper", icon: "fas fa-book", parentId: electronics.id },
    });
    expect(renamed.status).toBe(200);
    const body = await renamed.json();
    expect(body).toMatchObject({ id: books.id, name: "Books", description: "Paper", icon: "fas fa-book", parentId: electronics.id });
    expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(books.updatedAt));

    const back = await server.request("PUT", `/api/categories/${books.id}`, { cookie, body: { name: "Books", parentId: null } });
    expect(await back.json()).toMatchObject({ parentId: null, description: null, icon: null });
  });

  it("refuses a category as its own parent, and a category with subcategories as a subcategory", async () => {
    const all = await list();
    const electronics = all.find((c: { name: string }) => c.name === "Electronics");
    const books = all.find((c: { name: string }) => c.name === "Books");

    const self = await server.request("PUT", `/api/categories/${books.id}`, { cookie, body: { name: "Books", parentId: books.id } });
    expect(self.status).toBe(400);
    expect(await self.json()).toEqual({ error: "A category cannot be its own parent." });

    const withChildren = await server.request("PUT", `/api/categories/${electronics.id}`, {
      cookie,
      body: { name: "Electronics", parentId: books.id },
    });
    expect(withChildren.status).toBe(409);
    expect(await withChildren.json()).toEqual({
      error: '"Electronics" has subcategories, so it cannot become a subcategory: move or delete its subcategories first.',
    });
    expect((await list()).find((c: { id: string }) => c.id === electronics.id).parentId).toBeNull();
  });

  it("answers 404 for an unknown id", async () => {
    const put = await server.request("PUT", `/api/categories/${UNKNOWN_ID}`, { cookie, body: { name: "X" } });
    expect(put.status).toBe(404);
    expect(await put.json()).toEqual({ error: "Category not found." });
    const del = await server.request("DELETE", `/api/categories/${UNKNOWN_ID}`, { cookie });
    expect(del.status).toBe(404);
    expect(await del.json()).toEqual({ error: "Category not found." });
    expect((await server.request("DELETE", "/api/categories/not-an-id", { cookie })).status).toBe(400);
  });

  it("refuses to delete a category with subcategories; deleting makes its products uncategorised", async () => {
    const all = await list();
    const electronics = all.find((c: { name: string }) => c.name === "Electronics");
    const laptops = all.find((c: { name: string }) => c.name === "Laptops");
    const product = await (
      await server.request("POST", "/api/products", { cookie, body: { name: "ThinkPad", price: "499.00", categoryId: laptops.id } })
    ).json();
    expect(product.categoryId).toBe(laptops.id);

    const refused = await server.request("DELETE", `/api/categories/${electronics.id}`, { cookie });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "This category has subcategories: delete or move its subcategories first." });
    expect((await list()).some((c: { id: string }) => c.id === electronics.id)).toBe(true);

    const deleted = await server.request("DELETE", `/api/categories/${laptops.id}`, { cookie });
    expect(deleted.status).toBe(200);
    expect((await list()).some((c: { id: string }) => c.id === laptops.id)).toBe(false);
    const products = await (await server.request("GET", "/api/products", { cookie })).json();
    expect(products.find((p: { id: string }) => p.id === product.id).categoryId).toBeNull();

    // With its subcategory gone, the main category can go too.
    expect((await server.request("DELETE", `/api/categories/${electronics.id}`, { cookie })).status).toBe(200);
  });

  it("keeps a name and description per language (issue 26): blank dropped, kept by an edit without them", async () => {
    const category = await create({ name: "Tea", translations: { de: { name: " Tee ", description: " " }, uk: { name: "" } } });
    expect(category.translations).toEqual({ de: { name: "Tee" } });
    const read = async () => (await list()).find((c: { id: string }) => c.id === category.id).translations;
    const put = (body: Record<string, unknown>) => server.request("PUT", `/api/categories/${category.id}`, { cookie, body });
    expect((await put({ name: "Teas" })).status).toBe(200);
    expect(await read()).toEqual({ de: { name: "Tee" } });
    expect((await put({ name: "Teas", translations: { fr: { name: "Thés", description: "Du monde entier" } } })).status).toBe(200);
    expect(await read()).toEqual({ fr: { name: "Thés", description: "Du monde entier" } });

    const unknown = await put({ name: "Teas", translations: { klingon: { name: "?" } } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe('Translations has "klingon", which is not a language the bot speaks (en, de, es, fr, ru, uk)');
    expect(await read()).toEqual({ fr: { name: "Thés", description: "Du monde entier" } });
  });
});
