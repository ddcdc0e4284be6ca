import type { BotSettings } from "../../../contract";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import {
  countActiveUncategorised,
  getActiveProduct,
  getCategory,
  listActiveProducts,
  listMainCategories,
  listSubcategories,
} from "./catalogue";
import { reasonOf, type ShopLogger } from "../common";
import { getBotSettings } from "../settings";

// What the bot reads on every update (the settings, the category tree, the active products) kept in
// the server's memory, so /start and a tap on Browse Products ask the database nothing they asked a
// moment ago (issue 12). Freshness comes from the database itself: a trigger on each of these tables
// sends a notice when a write commits (drizzle/0006_change_notices.sql), on every server instance,
// and the cache drops what it holds of that table. So every way of writing counts: the dashboard,
// checkouts taking stock, payments giving it back, a restore, another instance.
// The admin's own lists are not served from here: they read the database, so the dashboard always
// shows what it just saved.

/** The tables the cache follows (those with a change notice trigger); blocked_customers for the bot's refusal (shop/customers/customers.ts). */
export type WatchedTable = "bot_settings" | "categories" | "products" | "blocked_customers";

/** Past this many entries everything is dropped: a bound on memory whatever the catalogue's size. */
const MAX_ENTRIES = 2_000;

export type ReadCache = {
  /** The value cached under `key`, else `load()`'s, kept until a change to one of `tables`. */
  read<T>(key: string, tables: readonly WatchedTable[], load: () => Promise<T>): Promise<T>;
  /**
   * Drops everything, at once: this instance has just written. Its notice comes a moment later on
   * PostgreSQL, and what the admin just saved must be what their next read shows (http/app.ts).
   */
  forget(): void;
};

export type ChangeFeed = {
  /** As Database.watchChanges (db/client.ts): a table's name after each committed write, null when unsure (with why, when known). */
  watchChanges(listener: (table: string | null, reason?: string) => void): { ready(): Promise<void>; stop(): void };
};

/** How soon the cache asks again for notices after the database could not be reached. */
const RELISTEN_MS = 1_000;

export type WatchedReadCache = ReadCache & { stop(): void };

/**
 * `logger`: where a lost listening connection and each failed attempt to listen again are reported
 * (issue 20: a change-feed failure is never dropped without a line); the cache reads through meanwhile.
 */
export function createReadCache(feed: ChangeFeed, logger?: Pick<ShopLogger, "warn" | "info">): WatchedReadCache {
  const entries = new Map<string, { tables: readonly WatchedTable[]; value: Promise<unknown> }>();
  // Until notices are being received, a change could go unseen: read through, keep nothing.
  let listening = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let retried = false;
  const listen = () => {
    watch.ready().then(
      () => {
        if (!listening && !stopped && retried) logger?.info({}, "read cache: listening for changes again");
        listening = !stopped;
      },
      (error: unknown) => {
        if (stopped) return;
        retried = true;
        logger?.warn({ reason: reasonOf(error) }, "read cache: could not listen for changes; reading through, trying again");
        retry = setTimeout(listen, RELISTEN_MS);
        retry.unref();
      },
    );
  };
  const watch = feed.watchChanges((table, reason) => {
    if (table === null) {
      if (!stopped) logger?.warn({ reason: reason ?? "unknown" }, "read cache: change notices may have been lost; cache emptied");
      retried = true;
      // Notices may have been lost: forget everything, keep nothing until listening again.
      listening = false;
      entries.clear();
      listen();
      return;
    }
    for (const [key, entry] of entries) if (entry.tables.includes(table as WatchedTable)) entries.delete(key);
  });
  listen();

  return {
    read<T>(key: string, tables: readonly WatchedTable[], load: () => Promise<T>): Promise<T> {
      if (!listening) return load();
      const cached = entries.get(key);
      if (cached) return cached.value as Promise<T>;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      // Kept as a promise, so readers arriving together share one query. A change noticed while it
      // runs removes it (the notice comes after the commit), so a value read before a write is never
      // kept past that write's notice.
      const value = load();
      const entry = { tables, value };
      entries.set(key, entry);
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    forget() {
      entries.clear();
    },
    stop() {
      stopped = true;
      listening = false;
      clearTimeout(retry);
      entries.clear();
      watch.stop();
    },
  };
}

/** A cache that keeps nothing: every read goes to the database (scripts, tests that need no cache). */
export const NO_READ_CACHE: ReadCache = { read: (_key, _tables, load) => load(), forget: () => {} };

/**
 * The bot's reads through the cache. The values are shared between updates: callers must not
 * change them.
 */
export function cachedReads(deps: { db: DbOrTx; secrets: SecretBox; cache: ReadCache }) {
  const { db, cache } = deps;
  return {
    settings: (): Promise<BotSettings | null> => cache.read("settings", ["bot_settings"], () => getBotSettings(db, deps.secrets)),
    mainCategories: () => cache.read("categories:main", ["categories"], () => listMainCategories(db)),
    subcategories: (parentId: string) => cache.read(`categories:in:${parentId}`, ["categories"], () => listSubcategories(db, parentId)),
    category: (id: string) => cache.read(`category:${id}`, ["categories"], () => getCategory(db, id)),
    activeProducts: (categoryId: string | null, page: number, pageSize: number) =>
      cache.read(`products:in:${categoryId}:${page}:${pageSize}`, ["products"], () => listActiveProducts(db, categoryId, page, pageSize)),
    uncategorisedCount: () => cache.read("products:uncategorised", ["products"], () => countActiveUncategorised(db)),
    activeProduct: (id: string) => cache.read(`product:${id}`, ["products"], () => getActiveProduct(db, id)),
  };
}

export type CachedReads = ReturnType<typeof cachedReads>;
