import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../db/schema";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";

const OPTION = { name: "Royal Mail 2nd Class", description: "Tracked", price: "3.20", estimatedDays: 3, isActive: true };

describe("postage options API", () => {
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
    const response = await server.request("POST", "/api/postage-options", { cookie, body });
    expect(response.status).toBe(201);
    return response.json();
  };
  const errorOf = async (response: Response) => {
    expect(response.status).toBe(400);
    return (await response.json()).error as string;
  };
  const list = async () => (await server.request("GET", "/api/postage-options", { cookie })).json();

  it("answers 401 without a session", async () => {
    expect((await server.request("GET", "/api/postage-options")).status).toBe(401);
    expect((await server.request("POST", "/api/postage-options", { body: OPTION })).status).toBe(401);
    expect((await server.request("PATCH", `/api/postage-options/${UNKNOWN_ID}`, { body: { isActive: false } })).status).toBe(401);
    expect((await server.request("DELETE", `/api/postage-options/${UNKNOWN_ID}`)).status).toBe(401);
  });

  it("creates options and lists them in the order they were added", async () => {
    const first = await create(OPTION);
    expect(first).toMatchObject({ ...OPTION, id: expect.any(String) });
    expect(Date.parse(first.createdAt)).not.toBeNaN();
    const second = await create({ name: "Collection", price: "0", description: "", estimatedDays: null });
    expect(second).toMatchObject({ name: "Collection", price: "0.00", description: null, estimatedDays: null, isActive: true });
    const third = await create({ name: "Express", price: 7.5, estimatedDays: "1" });
    expect(third).toMatchObject({ price: "7.50", estimatedDays: 1 });
    expect((await list()).map((o: { id: string }) => o.id)).toEqual([first.id, second.id, third.id]);
  });

  it("validates name, price and estimated days", async () => {
    const post = (body: Record<string, unknown>) => server.request("POST", "/api/postage-options", { cookie, body });
    expect(await errorOf(await post({ ...OPTION, price: "" }))).toBe("Price is required");
    expect(await errorOf(await post({ ...OPTION, price: undefined }))).toBe("Price is required");
    expect(await errorOf(await post({ ...OPTION, price: null }))).toBe("Price is required");
    for (const price of ["4.999", "abc", "-1", "4.", "1e3"]) {
      expect(await errorOf(await post({ ...OPTION, price }))).toBe("Please enter a valid price (e.g., 4.99)");
    }
    for (const estimatedDays of [0, -2, 1.5, "soon"]) {
      expect(await errorOf(await post({ ...OPTION, estimatedDays }))).toBe(
        "Estimated days must be a whole number of at least 1",
      );
    }
    for (const estimatedDays of [366, 2147483648, 1e300]) {
      expect(await errorOf(await post({ ...OPTION, estimatedDays }))).toBe("Estimated days must be at most 365");
    }
    expect(await errorOf(await post({ ...OPTION, name: " " }))).toBe("Service name is required");
    expect((await list()).length).toBe(3);
  });

  it("changes only the fields given, e.g. toggling active", async () => {
    const option = await create({ ...OPTION, name: "Toggle me" });
    const off = await server.request("PATCH", `/api/postage-options/${option.id}`, { cookie, body: { isActive: false } });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ ...option, isActive: false });

    const edited = await server.request("PATCH", `/api/postage-options/${option.id}`, {
      cookie,
      body: { name: "Renamed", price: "2", description: "", estimatedDays: null },
    });
    expect(await edited.json()).toEqual({ ...option, isActive: false, name: "Renamed", price: "2.00", description: null, estimatedDays: null });

    const bad = await server.request("PATCH", `/api/postage-options/${option.id}`, { cookie, body: { price: "2.345" } });
    expect(await errorOf(bad)).toBe("Please enter a valid price (e.g., 4.99)");
    const empty = await server.request("PATCH", `/api/postage-options/${option.id}`, { cookie, body: {} });
    expect(await errorOf(empty)).toMatch(/Nothing to update/);
  });

  it("answers 404 for an unknown id", async () => {
    const patch = await server.request("PATCH", `/api/postage-options/${UNKNOWN_ID}`, { cookie, body: { isActive: false } });
    expect(patch.status).toBe(404);
    expect(await patch.json()).toEqual({ error: "Postage option not found." });
    const del = await server.request("DELETE", `/api/postage-options/${UNKNOWN_ID}`, { cookie });
    expect(del.status).toBe(404);
    expect(await del.json()).toEqual({ error: "Postage option not found." });
  });

  it("deletes an option; an order that chose it keeps its postage as it was", async () => {
    const option = await create({ ...OPTION, name: "Going away" });
    const { db } = server.database;
    const [order] = await db
      .insert(orders)
      .values({
        telegramUserId: "7",
        totalAmount: "8.19",
        currency: "GBP",
        postageOptionId: option.id,
        postageName: option.name,
        postagePrice: option.price,
      })
      .returning();

    const response = await server.request("DELETE", `/api/postage-options/${option.id}`, { cookie });
    expect(response.status).toBe(200);
    expect((await list()).some((o: { id: string }) => o.id === option.id)).toBe(false);
    const [after] = await db.select().from(orders).where(eq(orders.id, order!.id));
    // Nothing on the order changes (docs/product.md rule 5): no foreign key nulls its option id.
    expect(after).toMatchObject({ totalAmount: "8.19", postageOptionId: option.id, postageName: "Going away", postagePrice: option.price });
  });

  it("keeps a name and description per language (issue 26); a patch without them keeps them", async () => {
    const option = await create({ ...OPTION, translations: { de: { name: "Deutsche Post", description: "" } } });
    expect(option.translations).toEqual({ de: { name: "Deutsche Post" } });
    const patch = (body: Record<string, unknown>) => server.request("PATCH", `/api/postage-options/${option.id}`, { cookie, body });
    const read = async () => (await list()).find((o: { id: string }) => o.id === option.id).translations;

    expect((await patch({ isActive: false })).status).toBe(200);
    expect(await read()).toEqual({ de: { name: "Deutsche Post" } });
    expect((await patch({ translations: { de: { name: "DHL", description: "2–3 Tage" }, es: { name: "  " } } })).status).toBe(200);
    expect(await read()).toEqual({ de: { name: "DHL", description: "2–3 Tage" } });
    expect(await errorOf(await patch({ translations: { pt: { name: "Correio" } } }))).toBe(
      'Translations has "pt", which is not a language the bot speaks (en, de, es, fr, ru, uk)',
    );
  });
});
