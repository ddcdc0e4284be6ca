import http from "node:http";
import { eq } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { blockedCustomers, orders } from "../../db/schema";
import { createLogger } from "../../logging";
import type { ChangeFeed } from "../../shop/catalogue";
import { startTestServer, useAdminServer } from "../../../test-support/app";
import { createTestDatabase } from "../../../test-support/database";
import { insertCustomerMessage, insertOrder } from "../../../test-support/factories";
import { HEARTBEAT_MS, liveFeedOf } from "./events";

// GET /api/events (issue 13): the live dashboard's event stream, read here the way a browser reads
// it, incrementally over a real HTTP connection, while the database is written behind the server's
// back (as the bot and the payment webhooks do). Runs on PGlite, and on PostgreSQL with
// TEST_DATABASE_URL (the notices then come through a LISTEN connection).

type SseEvent = { id: string | undefined; event: string; data: string };

type OpenStream = {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  /** The first event from `from` on (default: after the last one looked at) that `matches`, waiting for it. */
  next(matches: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** The raw text received so far (heartbeats and retry included). */
  text(): string;
  /** Settles when the server ends the response. */
  ended: Promise<void>;
  close(): void;
};

/** Opens the stream with node:http and parses events as their bytes arrive. */
function openStream(baseUrl: string, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/events`, { headers: { accept: "text/event-stream", ...headers } }, (response) => {
      response.setEncoding("utf8");
      const events: SseEvent[] = [];
      let raw = "";
      let buffered = "";
      let cursor = 0;
      const waiters = new Set<() => void>();
      response.on("data", (chunk: string) => {
        raw += chunk;
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf("\n\n")) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.has("event")) events.push({ id: fields.get("id"), event: fields.get("event")!, data: fields.get("data") ?? "" });
        }
        for (const wake of [...waiters]) wake();
      });
      response.on("error", () => {});
      const ended = new Promise<void>((done) => response.on("end", done));
      resolve({
        ended,
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        text: () => raw,
        next(matches, timeoutMs = 5_000) {
          return new Promise((found, fail) => {
            const look = () => {
              while (cursor < events.length) {
                const event = events[cursor++]!;
                if (matches(event)) {
                  waiters.delete(look);
                  clearTimeout(timer);
                  found(event);
                  return;
                }
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(look);
              fail(new Error(`no matching event within ${timeoutMs} ms; received: ${JSON.stringify(events)}`));
            }, timeoutMs);
            waiters.add(look);
            look();
          });
        },
        close: () => request.destroy(),
      });
    });
    request.on("error", reject);
  });
}

const named = (name: string) => (event: SseEvent) => event.event === name;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds (checked every 20 ms), or fails after `timeoutMs`. */
async function eventually(condition: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

describe("GET /api/events", () => {
  const admin = useAdminServer();
  const open = (headers: Record<string, string> = {}) => openStream(admin.server.baseUrl, { cookie: admin.cookie, ...headers });
  /** An open stream that is listening (its "ready" arrived). */
  const listening = async (headers: Record<string, string> = {}) => {
    const stream = await open(headers);
    expect(stream.status).toBe(200);
    await stream.next(named("ready"));
    return stream;
  };
  const feed = () => liveFeedOf(admin.server.app)!;

  it("needs the admin: 401 without a session", async () => {
    const response = await admin.server.request("GET", "/api/events");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Not logged in." });
  });

  it("streams uncompressed, uncached events at once, even when the client accepts gzip and brotli", async () => {
    const stream = await open({ "accept-encoding": "gzip, deflate, br" });
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(stream.headers["content-encoding"]).toBeUndefined();
    expect(stream.headers.etag).toBeUndefined();
    expect(stream.headers["cache-control"]).toContain("no-cache");
    // The first event arrives while the response is still open: nothing holds it back in a buffer.
    const ready = await stream.next(named("ready"));
    expect(ready.id).toMatch(/^[0-9a-f]+-\d+$/);
    expect(stream.text()).toMatch(/^retry: \d+\n\n/);
    stream.close();
  });

  it("keeps a quiet stream open with a comment line every HEARTBEAT_MS, and stops it when the browser goes", async () => {
    // Only intervals are faked: the connection, the database and every timeout keep real time.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const stream = await listening();
      expect(stream.text()).not.toContain(": heartbeat");
      vi.advanceTimersByTime(HEARTBEAT_MS - 1);
      await sleep(50);
      expect(stream.text()).not.toContain(": heartbeat");
      vi.advanceTimersByTime(1);
      await eventually(() => stream.text().endsWith(": heartbeat\n\n"));
      vi.advanceTimersByTime(HEARTBEAT_MS);
      await eventually(() => stream.text().split(": heartbeat\n\n").length === 3);
      stream.close();
      await eventually(() => feed().subscriberCount() === 0);
      // The browser is gone: its heartbeat was cleared with it.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("announces an order placed, and its status and payment changing, as `orders`, and a payment as `order-paid`", async () => {
    const stream = await listening();
    const { order } = await insertOrder(admin.db());
    const placed = await stream.next(named("orders"));
    expect(placed.data).toBe("{}");

    await admin.db().update(orders).set({ status: "processing", paymentStatus: "finished", paidAt: new Date() }).where(eq(orders.id, order.id));
    const changed = await stream.next(named("orders"));
    expect(Number(changed.id!.split("-")[1])).toBeGreaterThan(Number(placed.id!.split("-")[1]));
    const paid = await stream.next(named("order-paid"));
    expect(JSON.parse(paid.data)).toEqual({ orderId: order.id, totalAmount: order.totalAmount, currency: "GBP" });

    // Announced once: a later change to the same order is an `orders` event only.
    await admin.db().update(orders).set({ status: "dispatched" }).where(eq(orders.id, order.id));
    await stream.next(named("orders"));
    await sleep(300);
    expect(stream.events.filter(named("order-paid"))).toHaveLength(1);
    stream.close();
  });

  it("announces a customer message as `messages`, and a blocked customer and the owner's note about one as `customers`", async () => {
    const stream = await listening();
    await insertCustomerMessage(admin.db(), { telegramUserId: "555001" });
    await stream.next(named("messages"));
    await admin.db().insert(blockedCustomers).values({ telegramUserId: "555001" });
    await stream.next(named("customers"));
    // A note saved on one dashboard reaches the others (issue 22 item 9).
    const saved = await admin.server.request("PUT", "/api/customers/555001/notes", { cookie: admin.cookie, body: { note: "Call first" } });
    expect(saved.status).toBe(200);
    await stream.next(named("customers"));
    expect(stream.events.map((event) => event.event)).toEqual(["ready", "messages", "customers", "customers"]);
    stream.close();
  });

  it("sends one event for writes that arrive together", async () => {
    const stream = await listening();
    await Promise.all([insertOrder(admin.db()), insertOrder(admin.db()), insertOrder(admin.db())]);
    await stream.next(named("orders"));
    await sleep(400);
    expect(stream.events.filter(named("orders"))).toHaveLength(1);
    stream.close();
  });

  it("gives a reconnecting browser what it missed after its Last-Event-ID, and nothing when it missed nothing", async () => {
    const first = await listening();
    await insertCustomerMessage(admin.db());
    const seen = await first.next(named("messages"));
    first.close();

    // Nothing happened meanwhile: no resync, no replay.
    const unchanged = await listening({ "last-event-id": seen.id! });
    expect(unchanged.events.map((event) => event.event)).toEqual(["ready"]);
    expect(unchanged.events[0]!.id).toBe(seen.id);
    unchanged.close();

    // An order came in while it was away: it gets that event back, then listens on.
    await eventually(() => feed().subscriberCount() === 0);
    await insertOrder(admin.db());
    await sleep(400); // the event is published after the coalescing delay
    const resumed = await listening({ "last-event-id": seen.id! });
    expect(resumed.events.map((event) => event.event)).toEqual(["orders", "ready"]);
    await insertCustomerMessage(admin.db());
    await resumed.next(named("messages"));
    resumed.close();
  });

  it("tells a browser whose Last-Event-ID it cannot place to reload everything (resync)", async () => {
    const current = await listening();
    const readyId = current.events[0]!.id!;
    current.close();
    const [feedId, n] = readyId.split("-") as [string, string];
    for (const unknown of ["0badf00d-1", `${feedId}-${Number(n) + 5}`, "garbage", `${feedId}-`]) {
      const stream = await listening({ "last-event-id": unknown });
      expect(stream.events.map((event) => event.event), unknown).toEqual(["resync", "ready"]);
      stream.close();
    }
  });

  it("fans one change out to many browsers, and forgets each browser when it disconnects", async () => {
    await eventually(() => feed().subscriberCount() === 0);
    const streams = await Promise.all(Array.from({ length: 25 }, () => listening()));
    expect(feed().subscriberCount()).toBe(25);
    await insertOrder(admin.db());
    const received = await Promise.all(streams.map((stream) => stream.next(named("orders"))));
    expect(new Set(received.map((event) => event.id)).size).toBe(1);

    for (const stream of streams.slice(0, 10)) stream.close();
    await eventually(() => feed().subscriberCount() === 15);
    for (const stream of streams.slice(10)) stream.close();
    await eventually(() => feed().subscriberCount() === 0);
  });

  it("tells browsers to resync when notices may have been lost (the LISTEN connection broke), and listens again", async () => {
    // Its own server, whose change feed the test can break: on PostgreSQL by killing the LISTEN
    // connection for real; on PGlite (no connection to kill) by the lost-notices signal the
    // database gives then (null).
    const database = await createTestDatabase();
    let loseNotices = () => {};
    const changes: ChangeFeed = {
      watchChanges(listener) {
        loseNotices = () => listener(null, "the test cut the notices");
        return database.watchChanges(listener);
      },
    };
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
    const server = await startTestServer({ database, deps: { changes }, app: { loggerInstance: logger } });
    try {
      const cookie = await server.login();
      const stream = await openStream(server.baseUrl, { cookie });
      expect(stream.status).toBe(200);
      await stream.next(named("ready"));
      if (database.url) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ terminated: boolean }>(
            "select pg_terminate_backend(pid) as terminated from pg_stat_activity where datname = current_database() and query = 'LISTEN shop_changes'",
          );
          expect(rows.length).toBeGreaterThan(0);
        } finally {
          await client.end();
        }
      } else {
        loseNotices();
      }
      await stream.next(named("resync"));
      // Once listening again (a second resync: reload what changed while nobody listened), changes flow.
      await stream.next(named("resync"), 10_000);
      await insertOrder(server.database.db);
      await stream.next(named("orders"));
      stream.close();
      // The owner can read why every browser reloaded: the connection's own reason on PostgreSQL.
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string });
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: "live events: the database's change notices may have been lost; every browser is told to reload",
          reason: database.url ? expect.stringMatching(/terminat/i) : "the test cut the notices",
        }),
      );
      expect(logged).toContainEqual(expect.objectContaining({ level: 30, msg: "live events: listening to the database's change notices again" }));
    } finally {
      await server.close();
      await database.close();
    }
  });
});

describe("GET /api/events when the database's change notices cannot be listened to", () => {
  it("answers 503 and logs why, with the feed's reason and the request's", async () => {
    const reason = "connect ECONNREFUSED 127.0.0.1:5999";
    let attempts = 0;
    const changes: ChangeFeed = {
      watchChanges: () => ({
        ready: () => {
          attempts += 1;
          return Promise.reject(new Error(reason));
        },
        stop: () => {},
      }),
    };
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
    const server = await startTestServer({ deps: { changes }, app: { loggerInstance: logger } });
    try {
      const response = await server.request("GET", "/api/events", { cookie: await server.login() });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: "Live updates are unavailable: the database cannot be reached." });
      expect(attempts).toBe(1);
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string; reqId?: string });
      expect(logged).toContainEqual(
        expect.objectContaining({ level: 40, msg: "live events: could not listen to the database's change notices", reason }),
      );
      expect(logged).toContainEqual(
        expect.objectContaining({ level: 40, msg: "live events unavailable: answered 503", reason, reqId: expect.any(String) }),
      );
    } finally {
      await server.close();
    }
  });
});

describe("GET /api/events when the server shuts down", () => {
  it("ends the open streams, so closing the server does not wait on them", async () => {
    const server = await startTestServer();
    try {
      const stream = await openStream(server.baseUrl, { cookie: await server.login() });
      await stream.next(named("ready"));
      // app.close() alone (not the test helper's, which also cuts every connection) finishes requests in flight.
      const closed = server.app.close();
      await stream.ended;
      await closed;
      expect(liveFeedOf(server.app)!.subscriberCount()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
