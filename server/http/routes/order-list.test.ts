import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { Order } from "../../../contract";
import { orders } from "../../db/schema";
import { useAdminServer } from "../../../test-support/app";
import { insertOrder } from "../../../test-support/factories";
import { addressTerms, searchTerms } from "../../shop/vaults/address-vault";
import { minutesAfter, nextLink, walkPages } from "../../../test-support/list-pages";

// GET /api/orders with limit, cursor, filters, search and sorts (issue 12): the Orders screen pages
// on the server. Without limit it still answers the whole list (docs/product.md §7).


describe("GET /api/orders, paged and filtered", () => {
  const admin = useAdminServer();
  beforeEach(async () => {
    await admin.db().delete(orders);
  });

  const { db, get } = admin;
  const ids = (list: { id: string }[]) => list.map((order) => order.id);

  const walk = (url: string, between?: () => Promise<void>) => walkPages<Order>(admin.server, admin.cookie, url, between);

  /** Orders at a few moments, several sharing one, and totals that repeat: ties are broken by id. */
  async function seedOrders(count: number) {
    const seeded: Order[] = [];
    for (let i = 0; i < count; i++) {
      const { order } = await insertOrder(db(), {
        createdAt: minutesAfter(Math.floor(i / 3)),
        totalAmount: ["10.00", "5.50", "120.00", "10.00"][i % 4]!,
        status: i % 5 === 0 ? "processing" : "pending",
      });
      seeded.push({ ...order, createdAt: order.createdAt.toISOString() } as unknown as Order);
    }
    return seeded;
  }

  it("answers the whole list as a plain array without limit, as before", async () => {
    const seeded = await seedOrders(30);
    const response = await get("/api/orders");
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toBeNull();
    const list = (await response.json()) as Order[];
    expect(list).toHaveLength(30);
    // Newest first, ties by id (descending), as the list always answered.
    const expected = [...seeded].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    expect(ids(list)).toEqual(ids(expected));
  });

  it("answers one page with X-Total-Count and a Link to the next, and no Link on the last page", async () => {
    await seedOrders(12);
    const first = await get("/api/orders?limit=5");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-total-count")).toBe("12");
    expect((await first.json()) as Order[]).toHaveLength(5);
    const second = nextLink(first)!;
    expect(second).toMatch(/^\/api\/orders\?limit=5&cursor=[A-Za-z0-9_-]+$/);

    const { pages, totals } = await walk("/api/orders?limit=5");
    expect(pages.map((page) => page.length)).toEqual([5, 5, 2]);
    expect(totals).toEqual(["12", "12", "12"]);

    // A page size that divides the rows exactly: the last full page has no Link.
    const exact = await walk("/api/orders?limit=6");
    expect(exact.pages.map((page) => page.length)).toEqual([6, 6]);
  });

  for (const sort of ["newest", "oldest", "total-desc", "total-asc"] as const) {
    it(`pages through every order exactly once (sort=${sort}) while orders are added between pages`, async () => {
      const seeded = await seedOrders(23);
      let added = 0;
      const { rows } = await walk(`/api/orders?limit=4&sort=${sort}`, async () => {
        // New orders at the busiest moment (the ties), before it, after it, and at the extremes of the totals.
        added++;
        await insertOrder(db(), { createdAt: minutesAfter(3), totalAmount: "10.00" });
        await insertOrder(db(), { createdAt: minutesAfter(-10), totalAmount: "0.01" });
        await insertOrder(db(), { createdAt: minutesAfter(100), totalAmount: "999.00" });
      });
      expect(added).toBeGreaterThanOrEqual(6);
      const seen = ids(rows);
      expect(new Set(seen).size, "a row was answered twice").toBe(seen.length);
      for (const order of seeded) expect(seen, `order ${order.id} was never answered`).toContain(order.id);

      // The seeded rows come in the sort's order, ties by id.
      const seededIds = new Set(ids(seeded));
      const answered = rows.filter((order) => seededIds.has(order.id));
      const byKey = (order: Order) => (sort.startsWith("total") ? Number(order.totalAmount) : Date.parse(order.createdAt));
      const direction = sort === "newest" || sort === "total-desc" ? -1 : 1;
      const expected = [...answered].sort((a, b) => direction * (byKey(a) - byKey(b) || a.id.localeCompare(b.id)));
      expect(ids(answered)).toEqual(ids(expected));
    });
  }

  it("keeps rows that share a moment down to the microsecond apart by id", async () => {
    // PostgreSQL keeps microseconds; a cursor rounded to the millisecond would skip or repeat these.
    await db().execute(sql`
      insert into orders (telegram_user_id, total_amount, currency, created_at)
      select '77', '1.00', 'GBP', timestamptz '2026-03-10 12:00:00.123456+00' + (i % 3) * interval '1 microsecond'
      from generate_series(1, 9) as i`);
    const { rows } = await walk("/api/orders?limit=2");
    expect(rows).toHaveLength(9);
    expect(new Set(ids(rows)).size).toBe(9);
  });

  it("filters by status, keeping the filter in the Link", async () => {
    const seeded = await seedOrders(15);
    const processing = seeded.filter((order) => order.status === "processing");
    const first = await get("/api/orders?status=processing&limit=2");
    expect(first.headers.get("x-total-count")).toBe(String(processing.length));
    expect(nextLink(first)).toContain("status=processing");
    const { rows } = await walk("/api/orders?status=processing&limit=2");
    expect(ids(rows).sort()).toEqual(ids(processing).sort());
    // "all" is the screen's "All Orders".
    expect(((await (await get("/api/orders?status=all")).json()) as Order[]).length).toBe(15);
    // The same filters without limit: the whole filtered list.
    expect(ids((await (await get("/api/orders?status=processing")).json()) as Order[]).sort()).toEqual(ids(processing).sort());
  });

  it("searches by order id prefix, @username, customer name, postcode and Telegram user id, ignoring case", async () => {
    const { order: alice } = await insertOrder(db(), {
      telegramUserId: "5551234",
      telegramUsername: "AliceW",
      shippingAddress: { name: "Alice Walker", streetAddress: "1 Lane", postcode: "LS1 4AP", contact: null },
    });
    const { order: bob } = await insertOrder(db(), {
      telegramUserId: "5559876",
      telegramUsername: "bobby",
      shippingAddress: { name: "Bob Alison", streetAddress: "2 Road", postcode: "SW1A 1AA", contact: null },
    });
    const search = async (q: string) =>
      ids((await (await get(`/api/orders?q=${encodeURIComponent(q)}`)).json()) as Order[]).sort();

    expect(await search(alice.id.slice(0, 8))).toEqual([alice.id]);
    expect(await search(`#${alice.id.slice(0, 8).toUpperCase()}`)).toEqual([alice.id]);
    expect(await search(alice.id.slice(0, 13))).toEqual([alice.id]);
    expect(await search(alice.id)).toEqual([alice.id]);
    expect(await search("@alice")).toEqual([alice.id]);
    expect(await search("ALICE")).toEqual([alice.id]); // username and name start with it; Bob's surname does not count
    expect(await search("@bob")).toEqual([bob.id]);
    // Names and postcodes through the blind index (address-vault.ts): whole terms, never a prefix.
    expect(await search("bob alison")).toEqual([bob.id]);
    expect(await search("  Bob   ALISON ")).toEqual([bob.id]);
    expect(await search("alison")).toEqual([bob.id]);
    expect(await search("bob ali")).toEqual([]);
    expect(await search("walk")).toEqual([]);
    expect(await search("sw1a1aa")).toEqual([bob.id]);
    expect(await search("ls1 4ap")).toEqual([alice.id]);
    expect(await search("ls1")).toEqual([alice.id]); // the outward code
    expect(await search("ls1 4")).toEqual([]);
    expect(await search("5559876")).toEqual([bob.id]);
    expect(await search("555")).toEqual([]); // a user id matches whole, not by its start
    expect(await search("  ")).toEqual([alice.id, bob.id].sort()); // blank: no search
    expect(await search("nobody")).toEqual([]);

    const paged = await get(`/api/orders?q=${encodeURIComponent("@alice")}&limit=1`);
    expect(paged.headers.get("x-total-count")).toBe("1");
    expect(paged.headers.get("link")).toBeNull();
  });

  it("filters by creation date: from and to are inclusive, a bare date covers its whole day", async () => {
    const at = async (iso: string) => (await insertOrder(db(), { createdAt: new Date(iso) })).order.id;
    const before = await at("2026-03-09T23:59:59.999Z");
    const start = await at("2026-03-10T00:00:00.000Z");
    const end = await at("2026-03-11T23:59:59.999Z");
    const after = await at("2026-03-12T00:00:00.000Z");
    const list = async (query: string) => ids((await (await get(`/api/orders?${query}`)).json()) as Order[]).sort();

    expect(await list("from=2026-03-10&to=2026-03-11")).toEqual([start, end].sort());
    expect(await list("from=2026-03-10")).toEqual([start, end, after].sort());
    expect(await list("to=2026-03-10")).toEqual([before, start].sort());
    expect(await list("from=2026-03-10T00:00:00.001Z&to=2026-03-11T23:59:59.999Z")).toEqual([end]);
    // An offset is honoured: 01:00 in UTC+1 is midnight UTC.
    expect(await list(`from=${encodeURIComponent("2026-03-12T01:00:00+01:00")}`)).toEqual([after]);
    const page = await get("/api/orders?from=2026-03-10&to=2026-03-11&limit=1");
    expect(page.headers.get("x-total-count")).toBe("2");
    expect(nextLink(page)).toContain("from=2026-03-10&to=2026-03-11");
  });

  it("answers 400 with a sentence naming the field for bad parameters", async () => {
    const cursorOfNewest = nextLink(await get("/api/orders?limit=1"));
    await seedOrders(3);
    const newest = nextLink(await get("/api/orders?limit=1"))!;
    const cursor = new URL(newest, "http://x").searchParams.get("cursor")!;
    expect(cursorOfNewest).toBeNull();

    const cases: [string, RegExp][] = [
      ["limit=0", /^Page size must be a whole number from 1 to 200$/],
      ["limit=201", /^Page size must be a whole number from 1 to 200$/],
      ["limit=abc", /^Page size must be a whole number from 1 to 200$/],
      ["limit=1.5", /^Page size must be a whole number from 1 to 200$/],
      ["limit=", /^Page size must be a whole number from 1 to 200$/],
      ["limit=5&limit=6", /^Page size must be a whole number from 1 to 200$/],
      ["limit=5&cursor=not-a-cursor", /^Page is not one this list gave for these filters \(start again without it\)$/],
      [`limit=5&cursor=${Buffer.from('{"s":"newest","k":["x"]}').toString("base64url")}`, /^Page is not one this list gave for these filters \(start again without it\)$/],
      [`limit=5&cursor=${cursor}&sort=oldest`, /^Page is not one this list gave for these filters \(start again without it\)$/],
      [`cursor=${cursor}`, /^Page needs the limit it was given with$/],
      ["status=lost", /^Status must be one of all, pending, processing, dispatched, completed, failed$/],
      ["sort=cheapest", /^Sort must be one of newest, oldest, total-desc, total-asc$/],
      ["from=yesterday", /^From date must be a date/],
      ["to=2026-02-30", /^To date must be a date/],
      ["from=2026-03-11&to=2026-03-10", /^To date must not be before the from date$/],
      [`q=${"x".repeat(201)}`, /^Search must be at most 200 characters$/],
    ];
    for (const [query, sentence] of cases) {
      const response = await get(`/api/orders?${query}`);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: string };
      expect(Object.keys(body), query).toEqual(["error"]);
      expect(body.error, query).toMatch(sentence);
    }
    // A cursor of a timestamp that is not one still answers 400, not 500.
    const forged = Buffer.from(JSON.stringify({ s: "newest", k: ["not a time", "also not"] })).toString("base64url");
    const response = await get(`/api/orders?limit=5&cursor=${forged}`);
    expect(response.status).toBe(400);
  });

  it("matches search text literally: %, _, quotes, backslashes and unicode are not patterns", async () => {
    // Letters of one case only on the PostgreSQL side would differ from JS for some scripts, so the
    // alphabet mixes ASCII letters with caseless unicode and every character LIKE or SQL treats specially.
    const alphabet = fc.constantFrom(..."aAbB1 %_\\'\"@#-;*?[]()$.", "😀", "漢", "é", "ع", "\u200d");
    const text = fc.string({ unit: alphabet, minLength: 1, maxLength: 6 });
    const row = fc.record({ username: text, name: text, postcode: text });

    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 5 }), text, async (rows, q) => {
        await db().delete(orders);
        const inserted = [];
        const addresses = new Map<string, { name: string; postcode: string }>();
        for (const r of rows) {
          const { order } = await insertOrder(db(), {
            telegramUsername: r.username,
            shippingAddress: { name: r.name, streetAddress: "1 Lane", postcode: r.postcode, contact: null },
          });
          inserted.push(order);
          addresses.set(order.id, r);
        }
        // Searching for a stored value's own start always finds it: pick one half the time (cut
        // by code points, so an emoji is never split into half a surrogate pair).
        const query = q.length % 2 === 0 ? Array.from(rows[0]!.username).slice(0, Array.from(q).length).join("") || q : q;
        const response = await get(`/api/orders?q=${encodeURIComponent(query)}`);
        expect(response.status).toBe(200);
        const found = ids((await response.json()) as Order[]).sort();

        const needle = query.trim();
        const lower = (s: string) => s.toLowerCase();
        const expected = inserted
          .filter((order) => {
            if (needle === "") return true;
            const username = needle.startsWith("@") ? needle.slice(1) : needle;
            const idPrefix = lower(needle.replace(/^#/, ""));
            return (
              order.telegramUserId === needle ||
              (idPrefix !== "" && /^[0-9a-f-]+$/.test(idPrefix) && order.id.startsWith(idPrefix)) ||
              (username !== "" && lower(order.telegramUsername ?? "").startsWith(lower(username))) ||
              // Name and postcode: whole terms, compared as the blind index compares them.
              (!needle.startsWith("@") && addressTerms(addresses.get(order.id)!).some((term) => searchTerms(needle).includes(term)))
            );
          })
          .map((order) => order.id)
          .sort();
        expect(found, `q=${JSON.stringify(query)}`).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
