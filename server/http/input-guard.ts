import type { FastifyInstance } from "fastify";
import { fieldLabel } from "../../contract";
import { HttpError } from "./errors";

// Hostile input stops here, before any schema, handler or recursive work sees it (docs/product.md rule 8):
// - JSON nested deeper than any real request (the IPN's signature check sorts keys recursively);
// - text PostgreSQL cannot store or that would be changed on the way: NUL characters, and lone
//   UTF-16 surrogates (written to the database as U+FFFD, silently changing what was sent).
// The walk is iterative, so no depth of input can overflow the stack.

/** Deeper than any request the API or the webhooks take (a Telegram update is about 6 levels). */
export const MAX_JSON_DEPTH = 32;

// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The field a dotted path names, as the owner knows it ("Price" for "bulkPricing.0.price"), or the whole request. */
const fieldNamed = (path: string) =>
  path ? fieldLabel(path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part))) : "The request";

/** A sentence naming what is wrong with `value` and where, or null when it may pass. */
export function findHostileInput(value: unknown, where: string): string | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: where, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === "string") {
      if (UNSTORABLE_TEXT.test(item.value)) return `${fieldNamed(item.path)} must not contain NUL characters or unpaired surrogates`;
      continue;
    }
    if (item.value === null || typeof item.value !== "object" || Buffer.isBuffer(item.value)) continue;
    if (item.depth >= MAX_JSON_DEPTH) return `The request is nested more than ${MAX_JSON_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(item.value)) {
      const path = item.path ? `${item.path}.${key}` : key;
      if (UNSTORABLE_TEXT.test(key)) return `${fieldNamed(item.path)} has a key with NUL characters or unpaired surrogates`;
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

export function registerInputGuard(app: FastifyInstance) {
  // preValidation: after the body is parsed, before the route's schema and handler.
  app.addHook("preValidation", async (request) => {
    // No route matched: the JSON 404 answers whatever was sent.
    if (request.is404) return;
    // The web app's catch-all ("*") is a raw path that is only compared, never stored.
    const { "*": _webPath, ...params } = (request.params ?? {}) as Record<string, unknown>;
    const problem =
      findHostileInput(params, "") ?? findHostileInput(request.query, "") ?? findHostileInput(request.body, "");
    if (problem) throw new HttpError(400, problem);
  });
}
