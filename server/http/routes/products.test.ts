import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartItems, orderItems, orders, products } from "../../db/schema";
import { reserveStock } from "../../shop/orders";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";

const PRODUCT = {
  name: "Coffee beans",
  description: "1 kg, medium roast",
  price: "4.99",
  stock: 10,
  categoryId: null,
  imageUrl: null,
  bulkPricing: null,
  isActive: true,
};

describe("products API", () => {
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
    const response = await server.request("POST", "/api/products", { cookie, body });
    expect(response.status).toBe(201);
    return response.json();
  };
  const post = (body: Record<string, unknown>) => server.request("POST", "/api/products", { cookie, body });
  const errorOf = async (response: Response) => {
    expect(response.status).toBe(400);
    return (await response.json()).error as string;
  };

  it("answers 401 without a session", async () => {
    expect((await server.request("GET", "/api/products")).status).toBe(401);
    expect((await server.request("POST", "/api/products", { body: PRODUCT })).status).toBe(401);
    expect((await server.request("PUT", `/api/products/${UNKNOWN_ID}`, { body: PRODUCT })).status).toBe(401);
    expect((await server.request("DELETE", `/api/products/${UNKNOWN_ID}`)).status).toBe(401);
  });

  it("creates a product and lists products newest first", async () => {
    const category = await (await server.request("POST", "/api/categories", { cookie, body: { name: "Drinks" } })).json();
    const first = await create({ ...PRODUCT, categoryId: category.id, imageUrl: "/objects/abcdefgh12" });
    expect(first).toMatchObject({
      ...PRODUCT,
      categoryId: category.id,
      imageUrl: "/objects/abcdefgh12",
      id: expect.any(String),
    });
    expect(Date.parse(first.createdAt)).not.toBeNaN();
    const second = await create({ name: "Tea", price: 3, stock: 5 });
    // docs/product.md §3 defaults: description given as empty, stock 0 when absent, active.
    expect(second).toMatchObject({ name: "Tea", description: "", price: "3.00", stock: 5, isActive: true, categoryId: null });

    const list = await (await server.request("GET", "/api/products", { cookie })).json();
    expect(list.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
  });

  it("saves bulk tiers sorted, and no tiers as null", async () => {
    const tiered = await create({
      ...PRODUCT,
      bulkPricing: [
        { minQuantity: 10, price: 3.5 },
        { minQuantity: 2, price: 4.5 },
      ],
    });
    expect(tiered.bulkPricing).toEqual([
      { minQuantity: 2, price: 4.5 },
      { minQuantity: 10, price: 3.5 },
    ]);
    expect((await create({ ...PRODUCT, bulkPricing: [] })).bulkPricing).toBeNull();
    expect((await create({ ...PRODUCT, bulkPricing: [{ minQuantity: 2, price: 0 }] })).bulkPricing).toEqual([{ minQuantity: 2, price: 0 }]);
  });

  it("validates name, price, stock and bulk tiers", async () => {
    expect(await errorOf(await post({ ...PRODUCT, name: " " }))).toBe("Product name is required");
    expect(await errorOf(await post({ ...PRODUCT, price: "" }))).toBe("Price is required");
    expect(await errorOf(await post({ ...PRODUCT, price: undefined }))).toBe("Price is required");
    expect(await errorOf(await post({ ...PRODUCT, price: "abc" }))).toBe("Price must be an amount between 0 and 99999999.99");
    expect(await errorOf(await post({ ...PRODUCT, price: "-1" }))).toBe("Price must be an amount between 0 and 99999999.99");
    expect(await errorOf(await post({ ...PRODUCT, price: "4.999" }))).toBe("Price must have at most two decimals");
    expect(await errorOf(await post({ ...PRODUCT, stock: -1 }))).toBe("Stock must be at least 0");
    expect(await errorOf(await post({ ...PRODUCT, stock: 1.5 }))).toBe("Stock must be a whole number");
    expect(await errorOf(await post({ ...PRODUCT, bulkPricing: [{ minQuantity: 1, price: 4 }] }))).toBe(
      "Minimum quantity must be at least 2",
    );
    expect(await errorOf(await post({ ...PRODUCT, bulkPricing: [{ minQuantity: 2, price: -0.01 }] }))).toBe(
      "Tier price must be an amount from 0 to 99999999.99 with at most two decimals",
    );
    expect(await errorOf(await post({ ...PRODUCT, categoryId: "nope" }))).toBe("Category must be a valid id");
  });

  it("words zod's own refusals for the owner: the field's label and the limit (contract/owner-words.ts)", async () => {
    expect(await errorOf(await post({ ...PRODUCT, name: "x".repeat(201) }))).toBe("Name can be at most 200 characters");
    expect(await errorOf(await post({ ...PRODUCT, name: 42 }))).toBe("Name must be text");
    expect(await errorOf(await post({ ...PRODUCT, description: "d".repeat(4001) }))).toBe("Description can be at most 4,000 characters");
    expect(await errorOf(await post({ ...PRODUCT, isActive: "yes" }))).toBe("Is active must be yes or no (true or false)");
    expect(await errorOf(await post({ ...PRODUCT, bulkPricing: Array.from({ length: 21 }, (_, i) => ({ minQuantity: i + 2, price: 1 })) }))).toBe(
      "Bulk pricing can have at most 20 entries",
    );
  });

  it("keeps a low-stock threshold: 3 unless given, unchanged by an edit without it, a whole number from 0 to 100000", async () => {
    expect(await create({ name: "Tea", price: 3 })).toMatchObject({ lowStockThreshold: 3 });
    const custom = await create({ name: "Mug", price: 3, lowStockThreshold: 0 });
    expect(custom).toMatchObject({ lowStockThreshold: 0 });
    const edited = await server.request("PUT", `/api/products/${custom.id}`, { cookie, body: { name: "Mug", price: 3, lowStockThreshold: 12 } });
    expect(await edited.json()).toMatchObject({ lowStockThreshold: 12 });
    // An edit that does not name it (the PUT body of docs/product.md §7 has no such field) leaves it as it was.
    const renamed = await server.request("PUT", `/api/products/${custom.id}`, { cookie, body: { name: "Big Mug", price: 3 } });
    expect(await renamed.json()).toMatchObject({ name: "Big Mug", lowStockThreshold: 12 });
    expect(await errorOf(await post({ ...PRODUCT, lowStockThreshold: -1 }))).toBe("Low stock alert must be at least 0");
    expect(await errorOf(await post({ ...PRODUCT, lowStockThreshold: 2.5 }))).toBe("Low stock alert must be a whole number");
    expect(await errorOf(await post({ ...PRODUCT, lowStockThreshold: 100_001 }))).toBe(
      "Low stock alert must be at most 100000",
    );
  });

  it("refuses a category that does not exist", async () => {
    const response = await post({ ...PRODUCT, categoryId: UNKNOWN_ID });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The selected category does not exist." });
  });

  it("updates a product", async () => {
    const product = await create(PRODUCT);
    const response = await server.request("PUT", `/api/products/${product.id}`, {
      cookie,
      body: { ...PRODUCT, name: "Decaf beans", price: "5.5", stock: 0, isActive: false, bulkPricing: [{ minQuantity: 3, price: 5 }] },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: product.id,
      name: "Decaf beans",
      price: "5.50",
      stock: 0,
      isActive: false,
      bulkPricing: [{ minQuantity: 3, price: 5 }],
    });
    const badCategory = await server.request("PUT", `/api/products/${product.id}`, { cookie, body: { ...PRODUCT, categoryId: UNKNOWN_ID } });
    expect(badCategory.status).toBe(400);
    const invalidPrice = await server.request("PUT", `/api/products/${product.id}`, { cookie, body: { ...PRODUCT, price: "1,50" } });
    expect(invalidPrice.status).toBe(400);
  });

  it("answers 404 for an unknown id", async () => {
    const put = await server.request("PUT", `/api/products/${UNKNOWN_ID}`, { cookie, body: PRODUCT });
    expect(put.status).toBe(404);
    expect(await put.json()).toEqual({ error: "Product not found." });
    const del = await server.request("DELETE", `/api/products/${UNKNOWN_ID}`, { cookie });
    expect(del.status).toBe(404);
    expect(await del.json()).toEqual({ error: "Product not found." });
  });

  it("deleting a product removes it from carts while past orders keep its id and name", async () => {
    const product = await create({ ...PRODUCT, name: "Retired item" });
    const { db } = server.database;
    await db.insert(cartItems).values({ telegramUserId: "42", productId: product.id, variantId: product.id, quantity: 2 });
    const [order] = await db
      .insert(orders)
      .values({ telegramUserId: "42", totalAmount: "4.99", currency: "GBP", status: "completed" })
      .returning();
    await db.insert(orderItems).values({ orderId: order!.id, productId: product.id, productName: product.name, quantity: 1, price: "4.99" });

    const response = await server.request("DELETE", `/api/products/${product.id}`, { cookie });
    expect(response.status).toBe(200);

    const list = await (await server.request("GET", "/api/products", { cookie })).json();
    expect(list.some((p: { id: string }) => p.id === product.id)).toBe(false);
    expect(await db.select().from(cartItems).where(eq(cartItems.productId, product.id))).toEqual([]);
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order!.id));
    expect(items).toMatchObject([{ productId: product.id, productName: "Retired item", quantity: 1 }]);
  });
  describe("stock edits never write back stock they did not mean to change (expectedStock)", () => {
    const put = (id: string, body: Record<string, unknown>) => server.request("PUT", `/api/products/${id}`, { cookie, body });
    const stored = async (id: string) => (await server.database.db.select().from(products).where(eq(products.id, id)))[0]!;
    /** A checkout taking `quantity` off the shelf, in its own transaction, as the bot's checkout does. */
    const sell = (product: { id: string; name: string }, quantity = 1) =>
      server.database.db.transaction((tx) => reserveStock(tx, [{ productId: product.id, variantId: product.id, productName: product.name, quantity }]));

    it("a form opened before a sale saves its other fields and keeps the sold stock", async () => {
      const product = await create({ ...PRODUCT, stock: 10 });
      await sell(product, 4);
      const response = await put(product.id, { ...PRODUCT, description: "1 kg, dark roast", stock: 10, expectedStock: 10 });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ description: "1 kg, dark roast", stock: 6 });
      expect(await stored(product.id)).toMatchObject({ description: "1 kg, dark roast", stock: 6 });
    });

    it("a stock change from a stale form answers 409 naming the current stock and saves nothing", async () => {
      const product = await create({ ...PRODUCT, stock: 10 });
      await sell(product, 4);
      const response = await put(product.id, { ...PRODUCT, name: "Renamed", stock: 12, expectedStock: 10 });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: "Stock changed meanwhile: it is now 6. Reload it before changing it." });
      expect(await stored(product.id)).toMatchObject({ name: PRODUCT.name, stock: 6 });

      // Reloaded: the form now expects 6, and the change goes through.
      const retried = await put(product.id, { ...PRODUCT, name: "Renamed", stock: 12, expectedStock: 6 });
      expect(retried.status).toBe(200);
      expect(await stored(product.id)).toMatchObject({ name: "Renamed", stock: 12 });
    });

    it("without expectedStock, stock is set as given", async () => {
      const product = await create({ ...PRODUCT, stock: 10 });
      await sell(product, 4);
      expect((await put(product.id, { ...PRODUCT, stock: 10 })).status).toBe(200);
      expect((await stored(product.id)).stock).toBe(10);
    });

    it("refuses an expectedStock that is not a whole number from 0", async () => {
      const product = await create(PRODUCT);
      for (const expectedStock of ["10", true, 1.5, null]) {
        expect(await errorOf(await put(product.id, { ...PRODUCT, expectedStock }))).toBe(
          "Stock shown in the form must be a whole number",
        );
      }
      expect(await errorOf(await put(product.id, { ...PRODUCT, expectedStock: -1 }))).toBe(
        "Stock shown in the form must be at least 0",
      );
      expect(await errorOf(await put(product.id, { ...PRODUCT, expectedStock: 2_147_483_648 }))).toBe(
        "Stock shown in the form must be at most 2147483647",
      );
      const unknown = await put(UNKNOWN_ID, { ...PRODUCT, stock: 3, expectedStock: 10 });
      expect(unknown.status).toBe(404);
    });

    it("edits racing checkouts never lose or invent a unit", async () => {
      const product = await create({ ...PRODUCT, stock: 20 });
      // Ten sales and ten edits of other fields from forms that showed 20, all at once.
      const results = await Promise.all([
        ...Array.from({ length: 10 }, () => sell(product)),
        ...Array.from({ length: 10 }, (_, i) => put(product.id, { ...PRODUCT, name: `Edit ${i}`, stock: 20, expectedStock: 20 })),
      ]);
      for (const response of results.slice(10) as Response[]) expect(response.status).toBe(200);
      expect((await stored(product.id)).stock).toBe(10);

      // A real stock change (20 -> 50) racing ten sales: either it came first and every sale was
      // taken from 50, or a sale came first and the change was refused.
      await put(product.id, { ...PRODUCT, stock: 20 });
      const [change] = await Promise.all([
        put(product.id, { ...PRODUCT, stock: 50, expectedStock: 20 }),
        ...Array.from({ length: 10 }, () => sell(product)),
      ]);
      expect([200, 409]).toContain(change.status);
      expect((await stored(product.id)).stock).toBe(change.status === 200 ? 40 : 10);
    });
  });

  describe("photos: up to 10 ordered images, imageUrl always the first (issue 23)", () => {
    const photos = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `/objects/photo-${from + i}`);
    const put = (id: string, body: Record<string, unknown>) => server.request("PUT", `/api/products/${id}`, { cookie, body });
    // A filtered list is read from the database each time (the whole catalogue is cached).
    const read = async (id: string) => {
      const list = await (await server.request("GET", "/api/products?status=all", { cookie })).json();
      return list.find((p: { id: string }) => p.id === id) as { imageUrl: string | null; imageUrls: string[] };
    };

    it("keeps the order given and answers imageUrl as the first", async () => {
      const product = await create({ ...PRODUCT, imageUrls: [" /objects/c ", "/objects/a", "/objects/b"] });
      expect(product).toMatchObject({ imageUrl: "/objects/c", imageUrls: ["/objects/c", "/objects/a", "/objects/b"] });
      const reordered = await (await put(product.id, { ...PRODUCT, imageUrls: ["/objects/b", "/objects/c"] })).json();
      expect(reordered).toMatchObject({ imageUrl: "/objects/b", imageUrls: ["/objects/b", "/objects/c"] });
      expect(await read(product.id)).toMatchObject({ imageUrl: "/objects/b", imageUrls: ["/objects/b", "/objects/c"] });
      const none = await (await put(product.id, { ...PRODUCT, imageUrls: [] })).json();
      expect(none).toMatchObject({ imageUrl: null, imageUrls: [] });
      // 10 is the most, and is accepted.
      expect((await create({ ...PRODUCT, imageUrls: photos(10) })).imageUrls).toEqual(photos(10));
    });

    it("refuses 11 images, a path not from this server, a duplicate: a 400 naming Images, nothing saved", async () => {
      const product = await create({ ...PRODUCT, imageUrls: photos(2) });
      const refusals: [unknown, string][] = [
        [photos(11), "Images can be at most 10 per product"],
        [photos(50), "Images can be at most 10 per product"],
        [["/objects/a", "https://tracker.example/pixel.gif"], "Images must each be an /objects/ path from this server (upload the images first)"],
        [["javascript:alert(1)"], "Images must each be an /objects/ path from this server (upload the images first)"],
        [["/objects/../secret"], "Images must each be an /objects/ path from this server (upload the images first)"],
        [["/objects/a", "/objects/b", "/objects/a"], "Images must not hold the same image twice"],
        [["/objects/a", " /objects/a"], "Images must not hold the same image twice"],
      ];
      for (const [imageUrls, message] of refusals) {
        expect(await errorOf(await post({ ...PRODUCT, imageUrls }))).toBe(message);
        expect(await errorOf(await put(product.id, { ...PRODUCT, imageUrls }))).toBe(message);
      }
      for (const imageUrls of ["/objects/a", null, [1, 2], { 0: "/objects/a" }]) {
        expect(await errorOf(await post({ ...PRODUCT, imageUrls }))).toMatch(/^Images /);
      }
      expect(await read(product.id)).toMatchObject({ imageUrl: photos(2)[0], imageUrls: photos(2) });
    });

    it("imageUrls wins over imageUrl; imageUrl alone still works for the first version's clients", async () => {
      const both = await create({ ...PRODUCT, imageUrl: "/objects/other", imageUrls: ["/objects/a", "/objects/b"] });
      expect(both).toMatchObject({ imageUrl: "/objects/a", imageUrls: ["/objects/a", "/objects/b"] });
      const emptyWins = await (await put(both.id, { ...PRODUCT, imageUrl: "/objects/other", imageUrls: [] })).json();
      expect(emptyWins).toMatchObject({ imageUrl: null, imageUrls: [] });

      // An old client knows one image: creating with it gives a list of one.
      const old = await create({ ...PRODUCT, imageUrl: "/objects/only" });
      expect(old).toMatchObject({ imageUrl: "/objects/only", imageUrls: ["/objects/only"] });
      expect((await create({ ...PRODUCT })).imageUrls).toEqual([]);

      // Its edit of another field sends the main image back: the other photos stay.
      const many = await create({ ...PRODUCT, imageUrls: ["/objects/a", "/objects/b", "/objects/c"] });
      const renamed = await (await put(many.id, { ...PRODUCT, name: "Renamed", imageUrl: "/objects/a" })).json();
      expect(renamed).toMatchObject({ name: "Renamed", imageUrl: "/objects/a", imageUrls: ["/objects/a", "/objects/b", "/objects/c"] });
      // A new main image replaces the first only; one of the others becomes the main without a duplicate.
      const replaced = await (await put(many.id, { ...PRODUCT, imageUrl: "/objects/new" })).json();
      expect(replaced).toMatchObject({ imageUrl: "/objects/new", imageUrls: ["/objects/new", "/objects/b", "/objects/c"] });
      const promoted = await (await put(many.id, { ...PRODUCT, imageUrl: "/objects/c" })).json();
      expect(promoted).toMatchObject({ imageUrl: "/objects/c", imageUrls: ["/objects/c", "/objects/b"] });
      // Removing its one image (null, or left out as before) removes them all, as it did.
      const cleared = await (await put(many.id, { ...PRODUCT, imageUrl: null })).json();
      expect(cleared).toMatchObject({ imageUrl: null, imageUrls: [] });
      // A full list of 10 and an old client's new main image: still 10.
      await put(many.id, { ...PRODUCT, imageUrls: photos(10) });
      const full = await (await put(many.id, { ...PRODUCT, imageUrl: "/objects/eleventh" })).json();
      expect(full.imageUrls).toEqual(["/objects/eleventh", ...photos(9, 1)]);
      expect(await read(many.id)).toMatchObject({ imageUrl: "/objects/eleventh", imageUrls: full.imageUrls });
    });

    it("a product inserted with image_url alone (a backup from before photos) gets it as its one photo", async () => {
      const [row] = await server.database.db.insert(products).values({ name: "Old", description: "", price: "1.00", imageUrl: "/objects/legacy" }).returning();
      expect(row).toMatchObject({ imageUrl: "/objects/legacy", imageUrls: ["/objects/legacy"] });
      expect(await read(row!.id)).toMatchObject({ imageUrl: "/objects/legacy", imageUrls: ["/objects/legacy"] });
    });
  });

  it("keeps a name and description per language (issue 26): blank dropped, kept by an edit without them, stored as text", async () => {
    const hostile = "<img src=x onerror=alert(1)>'; drop table products; --";
    const product = await create({
      ...PRODUCT,
      translations: { de: { name: "  Kaffeebohnen ", description: "" }, fr: { name: " ", description: "  " }, ru: { description: hostile } },
    });
    const expected = { de: { name: "Kaffeebohnen" }, ru: { description: hostile } };
    expect(product.translations).toEqual(expected);
    const read = async () => (await (await server.request("GET", `/api/products/${product.id}`, { cookie })).json()).translations;
    expect(await read()).toEqual(expected);
    const listed = await (await server.request("GET", "/api/products", { cookie })).json();
    expect(listed.find((p: { id: string }) => p.id === product.id).translations).toEqual(expected);

    // An edit without them (an older client) keeps them; with them, they are replaced as sent.
    const put = (body: Record<string, unknown>) => server.request("PUT", `/api/products/${product.id}`, { cookie, body });
    expect((await put({ ...PRODUCT, name: "Beans" })).status).toBe(200);
    expect(await read()).toEqual(expected);
    expect((await put({ ...PRODUCT, translations: { es: { name: "Granos" } } })).status).toBe(200);
    expect(await read()).toEqual({ es: { name: "Granos" } });
    expect((await put({ ...PRODUCT, translations: {} })).status).toBe(200);
    expect(await read()).toEqual({});

    expect(await errorOf(await put({ ...PRODUCT, translations: { xx: { name: "?" } } }))).toBe(
      'Translations has "xx", which is not a language the bot speaks (en, de, es, fr, ru, uk)',
    );
    expect(await errorOf(await put({ ...PRODUCT, translations: { de: { name: "x".repeat(201) } } }))).toBe("Name (Deutsch) can be at most 200 characters");
    expect(await errorOf(await put({ ...PRODUCT, translations: { de: { colour: "rot" } } }))).toBe('Translations (Deutsch) has a field this form does not know: "colour"');
  });
});
