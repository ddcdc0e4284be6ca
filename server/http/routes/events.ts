import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { LIVE_RETRY_MS } from "../../../contract";
import { createLiveFeed, type LiveEvent, type LiveFeed } from "../../shop/customers";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { documentedOnly, ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// GET /api/events: the live dashboard's Server-Sent Events stream (issue 13), for every role ("live",
// contract/team.ts): its events carry ids and totals, never an address or a message's text. One feed per server (shop/customers/live-events.ts) watches the database's
// change notices and hands every event to each open stream; a browser's EventSource reconnects by
// itself, sending the last id it saw (Last-Event-ID).

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;
/**
 * A browser that stops reading while its connection stays open would make its unsent events pile
 * up here: past this much, its stream is closed (it reconnects and is told to reload everything).
 */
const MAX_UNSENT_BYTES = 64 * 1024;

const liveFeeds = new WeakMap<FastifyInstance, LiveFeed>();

/** The app's live feed (tests count the connected browsers with it). */
export function liveFeedOf(app: FastifyInstance): LiveFeed | undefined {
  return liveFeeds.get(app);
}

/** One event in the SSE wire format; data is one line of JSON, so it needs no splitting. */
function formatEvent(event: LiveEvent) {
  return `id: ${event.id}\nevent: ${event.name}\ndata: ${event.data}\n\n`;
}

const eventStream = documentedOnly({
  type: "string",
  description:
    "Server-Sent Events, one per change: `orders` (an order was placed or its status or payment changed), " +
    "`messages` (customer messages), `customers` (blocked customers), `order-paid` (data: { orderId, totalAmount, currency }), " +
    "`resync` (changes may have been missed: reload everything), and `ready` once listening. Each has an id; " +
    "reconnect with Last-Event-ID to get what was missed. A comment line every 25 s keeps the stream open.",
});

export const eventRoutes: Routes = (app, deps) => {
  const feed = createLiveFeed({ changes: deps.changes, db: deps.db, now: deps.now, logger: app.log });
  liveFeeds.set(app, feed);
  // The streams never end by themselves: a shutdown ends them first, or it would wait on them forever.
  const openStreams = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const close of [...openStreams]) close();
  });
  app.addHook("onClose", async () => feed.stop());

  app.get(
    "/api/events",
    {
      // Compression would hold events back until a buffer fills (and ETag has nothing to hash in a stream).
      compress: false,
      ...may("live"),
      schema: {
        response: { 200: { description: "The event stream", content: { "text/event-stream": { schema: eventStream } } }, ...ERROR_ANSWERS },
      },
    },
    async (request, reply) => {
      try {
        await feed.listening();
      } catch (error) {
        // The browser gets a sentence; the log gets the reason, with this request's id.
        request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, "live events unavailable: answered 503");
        throw new HttpError(503, "Live updates are unavailable: the database cannot be reached.");
      }
      const stream = new PassThrough();
      const send = (text: string) => {
        if (stream.writableLength > MAX_UNSENT_BYTES) stream.end();
        else stream.write(text);
      };
      const lastEventId = request.headers["last-event-id"];
      const subscription = feed.subscribe(typeof lastEventId === "string" ? lastEventId : undefined, (event) => send(formatEvent(event)));
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
      heartbeat.unref();
      const close = () => {
        openStreams.delete(close);
        clearInterval(heartbeat);
        subscription.stop();
        stream.end();
      };
      openStreams.add(close);
      // The response closes when the browser goes away, the server shuts down, or the stream ended.
      reply.raw.on("close", close);
      stream.on("finish", close);

      send(`retry: ${LIVE_RETRY_MS}\n\n`);
      for (const event of subscription.catchUp) send(formatEvent(event));
      return reply
        .header("Content-Type", "text/event-stream; charset=utf-8")
        .header("Cache-Control", "no-cache, no-transform")
        // nginx and similar proxies buffer answers unless told not to.
        .header("X-Accel-Buffering", "no")
        .send(stream);
    },
  );
};
