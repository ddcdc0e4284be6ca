import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { fieldSentence } from "../../contract";
import { ShopError } from "../shop/common";
import { translatorFor } from "../shop/languages";

// docs/product.md rule 8: every non-2xx answer is JSON { error: "<human sentence>" }.
const STATUS_BY_KIND = { invalid: 400, not_found: 404, conflict: 409, unavailable: 502 } as const;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Fields sent beside `error`, for a client that acts on them (`totpRequired`, `stepUpRequired`). */
    readonly details: { totpRequired?: true; stepUpRequired?: true; twoFactorRequired?: true } = {},
  ) {
    super(message);
  }
}

type ValidationIssue = { instancePath?: string; message?: string };

/**
 * One sentence that names the field as the owner knows it, whoever worded it: zod's own issues
 * already read so ("Name can be at most 200 characters", contract/owner-words.ts), and a schema's
 * own predicate gets the field's label in front ("Category must be a valid id"). A schema's own
 * capitalised sentence (the exact texts docs/product.md names, "Price is required") is kept as it is.
 */
function describeValidation(error: { validation: ValidationIssue[] }): string {
  const first = error.validation[0];
  const path = (first?.instancePath?.replace(/^\//, "").split("/").filter(Boolean) ?? []).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return fieldSentence(path, first?.message || "is not valid");
}

/** Sentences for the framework's own refusals, by Fastify error code. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: "The request path is not a valid URL.",
  FST_ERR_MAX_PARAM_LENGTH: "The request path is too long.",
  FST_ERR_ASYNC_CONSTRAINT: "The request could not be routed.",
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty but its content type says JSON.",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The request's Content-Length does not match its body.",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type.",
};

/**
 * Fastify's `frameworkErrors`: refusals made while routing (a path that is not valid
 * percent-encoding, a path segment over maxParamLength), answered in our shape.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.code(status).send({ error: FRAMEWORK_MESSAGES[error.code] ?? "The request could not be read." });
}

/**
 * Node's `clientError`: requests the HTTP parser refuses before Fastify sees them (headers over
 * the size limit, malformed request lines). Answered as JSON too, then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const [status, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "The request headers are too large."]
      : error.code === "HPE_URI_TOO_LONG"
        ? [414, "The request path is too long."]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "The request took too long to arrive."]
          : [400, "The request could not be read."];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : status === 414 ? "URI Too Long" : status === 408 ? "Request Timeout" : "Bad Request"}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ error: describeValidation(error) });
    }
    if (error instanceof ShopError) {
      // A storefront customer (issue 27) gets the shop's sentence in their language, as the bot says it.
      const message = request.storefrontLanguage ? translatorFor(request.storefrontLanguage).refusal(error) : error.message;
      return reply.code(STATUS_BY_KIND[error.kind]).send({ error: message });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ ...error.details, error: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply.code(413).send({ error: FRAMEWORK_MESSAGES.FST_ERR_CTP_BODY_TOO_LARGE });
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply.code(415).send({ error: FRAMEWORK_MESSAGES.FST_ERR_CTP_INVALID_MEDIA_TYPE });
    }
    if (status >= 400 && status < 500) {
      // Other client mistakes the framework caught: our sentence when we have one, else Fastify's.
      return reply.code(status).send({ error: FRAMEWORK_MESSAGES[error.code] ?? error.message });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ error: "Something went wrong on the server. Please try again." });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `Not found: ${request.method} ${request.url.split("?")[0]!.slice(0, 200)}` });
  });
}
