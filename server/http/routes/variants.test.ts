import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartItems, products, productVariants, restockWaits } from "../../db/schema";
import { reserveStock } from "../../shop/orders";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";
import { insertOrder } from "../../../test-support/factories";

// Issue 23: a product's options and variants through the API (docs/decisions/0034-product-variants.md).

const TEE = { name: "Acceptance Tee", description: "Cotton", price: "20.00", stock: 0, categoryId: null, imageUrl: null, bulkPricing: null, isActive: true };
const SIZES = { name: "Size", values: ["S", "M", "L"] };
const COLOURS = { name: "Colour", values: ["Black", "White"] };

type Variant = { id: string; optionValues: Record<string, string>; label: string; sku: string | null; price: string | null; stock: number; isActive: boolean };
type Product = { id: string; stock: number; options: { name: string; values: string[] }[]; variants: Variant[] };

describe("product variants API", () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = async (body: Record<string, unknown> = TEE): Promise<Product> => {
    const response = await server.request("POST", "/api/products", { cookie, body });
    expect(response.status).toBe(201);
    return response.json();
  };
  const putVariants = (id: string, body: unknown) => server.request("PUT", `/api/products/${id}/variants`, { cookie, body });
  const get = async (id: string): Promise<Product> => {
    const response = await server.request("GET", `/api/products/${id}`, { cookie });
    expect(response.status).toBe(200);
    return response.json();
  };
  /** Every size in every colour, `stock` each. */
  const grid = (stock: number) =>
    SIZES.values.flatMap((size) => COLOURS.values.map((colour) => ({ optionValues: { Size: size, Colour: colour }, stock })));
  const sell = (variantId: string, productId: string, quantity: number) =>
    server.database.db.transaction((tx) => reserveStock(tx, [{ variantId, productId, productName: "Acceptance Tee", quantity }]));

  it("a new product has one hidden default variant with its id and stock", async () => {
    const product = await create({ ...TEE, stock: 7 });
    expect(product.options).toEqual([]);
    expect(product.variants).toEqual([
      { id: product.id, optionValues: {}, label: "", sku: null, price: null, stock: 7, imageUrl: null, isActive: true },
    ]);
    expect(await get(product.id)).toEqual(product);
    const list: Product[] = await (await server.request("GET", "/api/products", { cookie })).json();
    expect(list.find((p) => p.id === product.id)?.variants).toHaveLength(1);
  });

  it("replaces the options and variants; the product's stock is the sum of the active ones", async () => {
    const product = await create();
    const variants = grid(2).map((variant, i) => ({
      ...variant,
      sku: `TEE-${i}`,
      ...(i === 0 ? { price: "25.00" } : {}),
      ...(i === 5 ? { isActive: false } : {}),
    }));
    const response = await putVariants(product.id, { options: [SIZES, COLOURS], variants });
    expect(response.status).toBe(200);
    const saved: Product = await response.json();
    expect(saved.options).toEqual([SIZES, COLOURS]);
    expect(saved.variants.map((v) => v.label)).toEqual(["S / Black", "S / White", "M / Black", "M / White", "L / Black", "L / White"]);
    expect(saved.variants[0]).toMatchObject({ sku: "TEE-0", price: "25.00", stock: 2, isActive: true });
    expect(saved.variants[1]).toMatchObject({ price: null });
    expect(saved.variants[5]).toMatchObject({ isActive: false, stock: 2 });
    expect(saved.stock).toBe(10); // 5 active × 2
    // The default variant went with the options.
    expect(saved.variants.some((v) => v.id === product.id)).toBe(false);
    expect(await get(product.id)).toEqual(saved);
  });

  it("keeps a variant's id when its option values stay, whatever order the keys come in", async () => {
    const product = await create();
    const first: Product = await (await putVariants(product.id, { options: [SIZES, COLOURS], variants: grid(1) })).json();
    const mBlack = first.variants.find((v) => v.label === "M / Black")!;
    await server.database.db.insert(cartItems).values({ telegramUserId: "9001", productId: product.id, variantId: mBlack.id, quantity: 1 });
    const reordered = [{ optionValues: { Colour: "Black", Size: "M" }, stock: 4 }];
    const second: Product = await (await putVariants(product.id, { options: [SIZES, COLOURS], variants: reordered })).json();
    expect(second.variants).toEqual([expect.objectContaining({ id: mBlack.id, label: "M / Black", stock: 4 })]);
    // The cart line of the kept variant stays; the others' variants are gone.
    expect(await server.database.db.select().from(cartItems).where(eq(cartItems.variantId, mBlack.id))).toHaveLength(1);
    expect(await server.database.db.select().from(productVariants).where(eq(productVariants.productId, product.id))).toHaveLength(1);
  });

  it("takes the cart lines and restock waits of deleted variants with them", async () => {
    const product = await create();
    const saved: Product = await (await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 0 }, { optionValues: { Size: "M" }, stock: 1 }] })).json();
    const [small, medium] = saved.variants;
    const { db } = server.database;
    await db.insert(restockWaits).values({ productId: product.id, variantId: small!.id, telegramUserId: "9002" });
    await db.insert(cartItems).values({ telegramUserId: "9002", productId: product.id, variantId: medium!.id, quantity: 1 });
    const response = await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "L" }, stock: 3 }] });
    expect(response.status).toBe(200);
    expect(await db.select().from(restockWaits).where(eq(restockWaits.productId, product.id))).toEqual([]);
    expect(await db.select().from(cartItems).where(eq(cartItems.productId, product.id))).toEqual([]);
  });

  it("going back to no options makes the default variant again, with the product's id", async () => {
    const product = await create();
    await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 2 }] });
    const back: Product = await (await putVariants(product.id, { options: [], variants: [{ optionValues: {}, stock: 5 }] })).json();
    expect(back.variants).toEqual([expect.objectContaining({ id: product.id, label: "", stock: 5 })]);
    expect(back.stock).toBe(5);
  });

  describe("stock edits from a stale editor", () => {
    it("refuses a changed stock whose expectedStock is no longer true, changing nothing", async () => {
      const product = await create();
      const saved: Product = await (await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 10 }, { optionValues: { Size: "M" }, stock: 10 }] })).json();
      await sell(saved.variants[0]!.id, product.id, 3); // a sale after the editor opened
      const response = await putVariants(product.id, {
        options: [SIZES],
        variants: [
          { optionValues: { Size: "S" }, stock: 20, expectedStock: 10 },
          { optionValues: { Size: "M" }, stock: 10, expectedStock: 10, sku: "NEW-SKU" },
        ],
      });
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe("The stock of S changed meanwhile: it is now 7. Reload the variants before changing them.");
      const after = await get(product.id);
      expect(after.variants.map((v) => [v.label, v.stock, v.sku])).toEqual([["S", 7, null], ["M", 10, null]]);
      expect(after.stock).toBe(17);
    });

    it("keeps the sold count of a variant the owner did not touch, and saves the rest", async () => {
      const product = await create();
      const saved: Product = await (await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 10 }] })).json();
      await sell(saved.variants[0]!.id, product.id, 4);
      const response = await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 10, expectedStock: 10, sku: "TEE-S" }] });
      expect(response.status).toBe(200);
      expect((await response.json()).variants[0]).toMatchObject({ stock: 6, sku: "TEE-S" });
    });

    it("refuses expectedStock on a variant deleted meanwhile", async () => {
      const product = await create();
      await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 1 }] });
      const response = await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "M" }, stock: 2, expectedStock: 1 }] });
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe("M was removed meanwhile. Reload the variants before changing them.");
    });
  });

  it("refuses setting the stock of a product with options through the product, with a clear 400", async () => {
    const product = await create();
    await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 3 }] });
    const refused = await server.request("PUT", `/api/products/${product.id}`, { cookie, body: { ...TEE, stock: 50 } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe(
      "Stock cannot be set on a product with options: it is the sum of its variants' stock. Change each variant's stock under Options & variants.",
    );
    // The form's own sum (untouched), or no stock at all, saves the other fields.
    const same = await server.request("PUT", `/api/products/${product.id}`, { cookie, body: { ...TEE, name: "Tee 2", stock: 3, expectedStock: 3 } });
    expect(same.status).toBe(200);
    const without = await server.request("PUT", `/api/products/${product.id}`, { cookie, body: { ...TEE, name: "Tee 3", stock: undefined } });
    expect(without.status).toBe(200);
    expect(await without.json()).toMatchObject({ name: "Tee 3", stock: 3 });
    // Nor by any other path: the database refuses it.
    await expect(server.database.db.update(products).set({ stock: 9 }).where(eq(products.id, product.id))).rejects.toThrow();
  });

  it("a product without options still takes its stock by PUT, through its default variant", async () => {
    const product = await create({ ...TEE, stock: 4 });
    const response = await server.request("PUT", `/api/products/${product.id}`, { cookie, body: { ...TEE, stock: 9, expectedStock: 4 } });
    expect(response.status).toBe(200);
    expect((await response.json()).variants[0]).toMatchObject({ id: product.id, stock: 9 });
    // A direct write of products.stock (a script) lands on the default variant too.
    await server.database.db.update(products).set({ stock: 2 }).where(eq(products.id, product.id));
    expect((await get(product.id)).variants[0]!.stock).toBe(2);
  });

  it("answers one clear sentence for each malformed set", async () => {
    const product = await create();
    const cases: [unknown, string][] = [
      [{ options: [SIZES], variants: [] }, "A product needs at least one variant"],
      [{ options: [SIZES], variants: [{ optionValues: { Size: "XL" }, stock: 1 }] }, "Variant 1 needs a Size from S, M, L"],
      [{ options: [SIZES], variants: [{ optionValues: { Size: "S", Fit: "Slim" }, stock: 1 }] }, "Variant 1 names an option the product does not have"],
      [{ options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 1 }, { optionValues: { Size: "S" }, stock: 2 }] }, "Two variants are both S"],
      [{ options: [SIZES, { name: "size", values: ["A"] }], variants: [{ optionValues: { Size: "S", size: "A" }, stock: 1 }] }, "Two options cannot have the same name"],
      [{ options: [{ name: "Size", values: ["S", "s"] }], variants: [{ optionValues: { Size: "S" }, stock: 1 }] }, "An option cannot list the same value twice"],
      [{ options: [{ name: "Size", values: ["S/M"] }], variants: [{ optionValues: { Size: "S/M" }, stock: 1 }] }, "Option value cannot hold a slash or a line break"],
      [{ options: [], variants: [{ optionValues: {}, stock: 1 }, { optionValues: {}, stock: 1 }] }, "A product without options has exactly one variant"],
      [{ options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: -1 }] }, "Stock must be at least 0"],
      [{ options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 1, sku: "A" }, { optionValues: { Size: "M" }, stock: 1, sku: "a" }] }, "SKU a is given to two variants"],
      [{ options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 1, imageUrl: "https://evil.example/x.png" }] }, "Image must be an /objects/ path from this server (upload the image first)"],
      [{ options: [SIZES, COLOURS, { name: "Fit", values: ["A"] }, { name: "Cut", values: ["B"] }], variants: [{ optionValues: {}, stock: 1 }] }, "A product can have at most 3 options"],
    ];
    for (const [body, message] of cases) {
      const response = await putVariants(product.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error, JSON.stringify(body)).toContain(message);
    }
    expect((await putVariants(UNKNOWN_ID, { options: [], variants: [{ optionValues: {}, stock: 1 }] })).status).toBe(404);
    // Nothing changed.
    expect((await get(product.id)).variants).toEqual([expect.objectContaining({ id: product.id })]);
  });

  it("stores hostile option names and values as text, whatever they hold", { timeout: 90_000 }, async () => {
    const product = await create();
    for (const name of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const response = await putVariants(product.id, { options: [{ name, values: ["x"] }], variants: [{ optionValues: { [name]: "x" }, stock: 1 }] });
      expect(response.status, name).toBe(200);
    }
    // A body with a "__proto__" key is refused whole by the JSON parser (prototype poisoning), changing nothing.
    const before = await get(product.id);
    const proto = "__proto__";
    const poisoned = await putVariants(product.id, { options: [{ name: proto, values: ["x"] }], variants: [{ optionValues: { [proto]: "x" }, stock: 1 }] });
    expect(poisoned.status).toBe(400);
    expect(await get(product.id)).toEqual(before);
    const word = fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((s) => s.trim() !== "" && !/[\n\r\t/]/.test(s) && s.trim() === s && s !== "__proto__");
    await fc.assert(
      fc.asyncProperty(word, word, async (name, value) => {
        const response = await putVariants(product.id, { options: [{ name, values: [value] }], variants: [{ optionValues: { [name]: value }, stock: 1 }] });
        // Keys such as "__proto__" or "constructor" are names like any other.
        expect(response.status, JSON.stringify({ name, value })).toBe(200);
        const saved: Product = await response.json();
        expect(saved.variants[0]).toMatchObject({ label: value, stock: 1 });
        expect(saved.variants[0]!.optionValues[name]).toBe(value);
      }),
      { numRuns: 20 },
    );
  });

  it("two editors at once: the product's lock queues them and the last set wins whole", async () => {
    const product = await create();
    const sets = Array.from({ length: 6 }, (_, i) => ({ options: [SIZES], variants: [{ optionValues: { Size: SIZES.values[i % 3]! }, stock: i + 1 }] }));
    const answers = await Promise.all(sets.map((set) => putVariants(product.id, set)));
    expect(answers.map((a) => a.status)).toEqual(sets.map(() => 200));
    const after = await get(product.id);
    expect(after.variants).toHaveLength(1);
    expect(after.stock).toBe(after.variants[0]!.stock);
  });

  it("a variant falling to the threshold alerts the owner naming it and its SKU", async () => {
    const product = await create({ ...TEE, lowStockThreshold: 2 });
    const saved: Product = await (await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "M" }, stock: 5, sku: "TEE-M" }, { optionValues: { Size: "L" }, stock: 5 }] })).json();
    await sell(saved.variants[0]!.id, product.id, 3);
    const alerts = await queryRows<{ payload: { productId?: string } }>(server.database.db, sql`select payload from owner_alerts where kind = 'low_stock'`);
    const mine = alerts.filter((alert) => alert.payload.productId === product.id);
    expect(mine.map((alert) => alert.payload)).toEqual([
      expect.objectContaining({ variantId: saved.variants[0]!.id, name: "Acceptance Tee (M)", sku: "TEE-M", stock: 2, threshold: 2 }),
    ]);
  });

  it("a product whose one size runs low counts as low on stock, though its sum is high", async () => {
    const product = await create({ ...TEE, name: "Low-size tee", lowStockThreshold: 3 });
    await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 40 }, { optionValues: { Size: "M" }, stock: 2 }] });
    const low: Product[] = await (await server.request("GET", "/api/products?status=low-stock", { cookie })).json();
    expect(low.map((p) => p.id)).toContain(product.id);
    // A switched-off size does not count.
    await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "S" }, stock: 40 }, { optionValues: { Size: "M" }, stock: 2, isActive: false }] });
    const after: Product[] = await (await server.request("GET", "/api/products?status=low-stock", { cookie })).json();
    expect(after.map((p) => p.id)).not.toContain(product.id);
  });

  it("an order keeps the label and SKU it was bought with after the variants change", async () => {
    const product = await create();
    const saved: Product = await (await putVariants(product.id, { options: [SIZES], variants: [{ optionValues: { Size: "M" }, stock: 5, sku: "TEE-M" }] })).json();
    const { order } = await insertOrder(server.database.db, {
      items: [{ product: { id: product.id, name: "Acceptance Tee", price: "20.00" }, variantId: saved.variants[0]!.id, variantLabel: "M", sku: "TEE-M" }],
    });
    await putVariants(product.id, { options: [{ name: "Size", values: ["Medium"] }], variants: [{ optionValues: { Size: "Medium" }, stock: 1, sku: "T-MED" }] });
    const items = await (await server.request("GET", `/api/orders/${order.id}/items`, { cookie })).json();
    expect(items).toEqual([expect.objectContaining({ productName: "Acceptance Tee", variantLabel: "M", sku: "TEE-M", variantId: saved.variants[0]!.id })]);
  });
});
