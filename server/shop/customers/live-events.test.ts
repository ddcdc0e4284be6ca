import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../logging";
import { createTestDatabase } from "../../../test-support/database";
import { createLiveFeed, type LiveEvent } from "./live-events";
import type { ChangeFeed } from "../catalogue";

// The live feed survives failures (issue 20, item 8): a browser only sees a resync or no order-paid
// event, so each failure is logged with its reason (docs/SECURITY.md, "What is logged"). Here the
// change notices are scripted and the database is real; its failure is real too.

/** Resolves once `condition` holds (checked every 20 ms), or fails after `timeoutMs`. */
async function eventually(condition: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the live feed's failures are logged with their reason", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A live feed over scripted change notices (`notify`) and the real database, its log kept in `lines`. */
  function scriptedFeed() {
    let listener: (table: string | null, reason?: string) => void = () => {};
    const changes: ChangeFeed = {
      watchChanges(onChange) {
        listener = onChange;
        return { ready: async () => {}, stop: () => {} };
      },
    };
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
    const feed = createLiveFeed({ changes, db: database.db, now: () => new Date(), logger });
    const events: LiveEvent[] = [];
    return { notify: (table: string | null, reason?: string) => listener(table, reason), lines, feed, events };
  }

  it("logs a failed look for newly paid orders, and still announces the change", async () => {
    const { notify, lines, feed, events } = scriptedFeed();
    try {
      await feed.listening();
      feed.subscribe(undefined, (event) => events.push(event));
      // The feed's query for paid orders now fails in the database itself.
      await database.db.execute(sql`alter table orders rename column paid_at to paid_at_gone`);
      notify("orders");
      await eventually(() => lines.some((line) => line.includes("could not look for newly paid orders")));
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string });
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: "live events: could not look for newly paid orders; no order-paid event this time",
          reason: expect.stringContaining("paid_at"),
        }),
      );
      expect(events.map((event) => event.name)).toEqual(["orders"]);
    } finally {
      feed.stop();
      await database.db.execute(sql`alter table orders rename column paid_at_gone to paid_at`);
    }
  });

  it("logs notices lost with the reason given, and the feed listening again", async () => {
    const { notify, lines, feed, events } = scriptedFeed();
    try {
      await feed.listening();
      feed.subscribe(undefined, (event) => events.push(event));
      notify(null, "terminating connection due to administrator command");
      await eventually(() => events.filter((event) => event.name === "resync").length === 2);
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string; browsers?: number });
      expect(logged.map(({ level, msg, reason, browsers }) => ({ level, msg, reason, browsers }))).toEqual([
        {
          level: 40,
          msg: "live events: the database's change notices may have been lost; every browser is told to reload",
          reason: "terminating connection due to administrator command",
          browsers: 1,
        },
        { level: 30, msg: "live events: listening to the database's change notices again", reason: undefined, browsers: 1 },
      ]);
    } finally {
      feed.stop();
    }
  });
});
