import crypto from "node:crypto";
import type { FastifyReply } from "fastify";
import { z } from "zod";

/**
 * An answer serialized once and kept (in the read cache) until what it shows changes: the same
 * encoding through the route's response schema that Fastify would do on every request (unknown fields
 * dropped, dates as ISO text), and its ETag, hashed once instead of per request.
 */
export type SerializedJson = { json: string; etag: string };

export function serializeJson<S extends z.ZodType>(schema: S, value: z.output<S>): SerializedJson {
  const json = JSON.stringify(z.encode(schema, value));
  return { json, etag: `"${crypto.createHash("sha1").update(json).digest("base64url")}"` };
}

/** Sends it as is: a JSON string is not serialized again, and @fastify/etag keeps an ETag already set. */
export function sendSerialized(reply: FastifyReply, answer: SerializedJson): FastifyReply {
  return reply.header("etag", answer.etag).type("application/json; charset=utf-8").send(answer.json);
}
