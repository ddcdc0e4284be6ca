import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartItems, orderItems, orders } from "../../db/schema";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../testing/app";

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
    const second = await create({ name: "Tea", price: 3, stock: "5" });
    // SPEC §3 defaults: description given as empty, stock 0 when absent, active.
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
    expect(await errorOf(await post({ ...PRODUCT, name: " " }))).toBe("Invalid name: Product name is required");
    expect(await errorOf(await post({ ...PRODUCT, price: "" }))).toBe("Invalid price: is required");
    expect(await errorOf(await post({ ...PRODUCT, price: undefined }))).toBe("Invalid price: is required");
    expect(await errorOf(await post({ ...PRODUCT, price: "abc" }))).toBe("Invalid price: must be an amount between 0 and 99999999.99");
    expect(await errorOf(await post({ ...PRODUCT, price: "-1" }))).toBe("Invalid price: must be an amount between 0 and 99999999.99");
    expect(await errorOf(await post({ ...PRODUCT, price: "4.999" }))).toBe("Invalid price: must have at most two decimals");
    expect(await errorOf(await post({ ...PRODUCT, stock: -1 }))).toBe("Invalid stock: stock must be at least 0");
    expect(await errorOf(await post({ ...PRODUCT, stock: 1.5 }))).toBe("Invalid stock: stock must be a whole number");
    expect(await errorOf(await post({ ...PRODUCT, bulkPricing: [{ minQuantity: 1, price: 4 }] }))).toBe(
      "Invalid bulkPricing.0.minQuantity: min quantity must be at least 2",
    );
    expect(await errorOf(await post({ ...PRODUCT, bulkPricing: [{ minQuantity: 2, price: -0.01 }] }))).toBe(
      "Invalid bulkPricing.0.price: tier price must be at least 0",
    );
    expect(await errorOf(await post({ ...PRODUCT, categoryId: "nope" }))).toBe("Invalid categoryId: must be a valid id");
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
    await db.insert(cartItems).values({ telegramUserId: "42", productId: product.id, quantity: 2 });
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
});
