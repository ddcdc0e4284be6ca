import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { categories, products } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { insertProduct } from "../../../test-support/factories";
import { createSecretBox } from "../../crypto";
import { cachedReads, createReadCache, type ChangeFeed } from "./read-cache";

/** A change feed the test drives by hand. */
function manualFeed() {
  let listener: (table: string | null) => void = () => {};
  let markReady!: () => void;
  let ready = new Promise<void>((resolve) => (markReady = resolve));
  const feed: ChangeFeed = {
    watchChanges(next) {
      listener = next;
      return { ready: () => ready, stop: () => {} };
    },
  };
  return {
    feed,
    markReady: () => markReady(),
    change: (table: string | null) => listener(table),
    /** The listening connection broke: ready again only once markReady is called. */
    disconnect() {
      ready = new Promise<void>((resolve) => (markReady = resolve));
      listener(null);
    },
  };
}

describe("the read cache", () => {
  it("keeps a value until its table changes, shares one load between readers, and keeps nothing before it listens", async () => {
    const lost = manualFeed();
    const { feed, markReady, change } = lost;
    const cache = createReadCache(feed);
    let loads = 0;
    const load = async () => ++loads;

    // Not listening yet: a change could be missed, so every read loads.
    expect(await cache.read("k", ["products"], load)).toBe(1);
    expect(await cache.read("k", ["products"], load)).toBe(2);
    markReady();
    await Promise.resolve();

    const [a, b] = await Promise.all([cache.read("k", ["products"], load), cache.read("k", ["products"], load)]);
    expect([a, b]).toEqual([3, 3]);
    expect(await cache.read("k", ["products"], load)).toBe(3);
    change("categories");
    expect(await cache.read("k", ["products"], load)).toBe(3);
    change("products");
    expect(await cache.read("k", ["products"], load)).toBe(4);
    // The listening connection broke, notices may be lost: everything goes, and nothing is kept
    // until it listens again.
    const { disconnect } = lost;
    disconnect();
    expect(await cache.read("k", ["products"], load)).toBe(5);
    expect(await cache.read("k", ["products"], load)).toBe(6);
    lost.markReady();
    await Promise.resolve();
    expect(await cache.read("k", ["products"], load)).toBe(7);
    expect(await cache.read("k", ["products"], load)).toBe(7);
  });

  it("never keeps a value read before a change noticed while it was being read", async () => {
    const { feed, markReady, change } = manualFeed();
    const cache = createReadCache(feed);
    markReady();
    await Promise.resolve();
    let release!: (value: string) => void;
    const slow = cache.read("k", ["products"], () => new Promise<string>((resolve) => (release = resolve)));
    change("products"); // a write committed while the read was running
    release("before the write");
    expect(await slow).toBe("before the write");
    expect(await cache.read("k", ["products"], async () => "after the write")).toBe("after the write");
  });

  it("forgets a failed load", async () => {
    const { feed, markReady } = manualFeed();
    const cache = createReadCache(feed);
    markReady();
    await Promise.resolve();
    await expect(cache.read("k", ["products"], async () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
    expect(await cache.read("k", ["products"], async () => "back")).toBe("back");
  });
});

describe("the bot's reads through the cache, on the real database", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it("sees every kind of write to the catalogue: through the shop, plain SQL, inside a transaction", async () => {
    const { db } = database;
    const cache = createReadCache(database);
    const reads = cachedReads({ db, secrets: createSecretBox(Buffer.alloc(32, 1)), cache });
    try {
      await database.watchChanges(() => {}).ready();
      const product = await insertProduct(db, { name: "Teapot", stock: 2 });
      await expect.poll(async () => (await reads.activeProduct(product.id))?.stock).toBe(2);
      const first = await reads.activeProduct(product.id);
      // Served from memory: the same object.
      expect(await reads.activeProduct(product.id)).toBe(first);

      await db.transaction(async (tx) => {
        await tx.update(products).set({ stock: sql`${products.stock} - 1` }).where(eq(products.id, product.id));
      });
      await expect.poll(async () => (await reads.activeProduct(product.id))?.stock).toBe(1);

      await db.update(products).set({ isActive: false }).where(eq(products.id, product.id));
      await expect.poll(async () => reads.activeProduct(product.id)).toBeNull();

      expect(await reads.mainCategories()).toEqual([]);
      await db.insert(categories).values({ name: "Tea" });
      await expect.poll(async () => (await reads.mainCategories()).map((c) => c.name)).toEqual(["Tea"]);

      // On PostgreSQL the notices come over a connection of their own: when it is cut, the cache
      // connects again, and a change made meanwhile is not missed. (PGlite has no such connection.)
      if (database.kind === "postgres") {
        await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'LISTEN%' and datname = current_database()`);
      }
      await db.insert(categories).values({ name: "Coffee" });
      await expect.poll(async () => (await reads.mainCategories()).map((c) => c.name), { timeout: 10_000 }).toEqual(["Coffee", "Tea"]);
      await db.update(categories).set({ name: "Cocoa" }).where(eq(categories.name, "Coffee"));
      await expect.poll(async () => (await reads.mainCategories()).map((c) => c.name), { timeout: 10_000 }).toEqual(["Cocoa", "Tea"]);
    } finally {
      cache.stop();
    }
  });
});
