import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ShopError } from "../shop/errors";

// DESIGN decision 8: every non-2xx answer is JSON { error: "<human sentence>" }.
const STATUS_BY_KIND = { invalid: 400, not_found: 404, conflict: 409, unavailable: 502 } as const;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function describeValidation(error: { validation: { instancePath?: string; message?: string }[] }): string {
  const first = error.validation[0];
  const field = first?.instancePath?.replace(/^\//, "").replaceAll("/", ".");
  const message = first?.message ?? "is invalid";
  return field ? `Invalid ${field}: ${message}` : `Invalid request: ${message}`;
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ error: describeValidation(error) });
    }
    if (error instanceof ShopError) {
      return reply.code(STATUS_BY_KIND[error.kind]).send({ error: error.message });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply.code(413).send({ error: "The request body is too large." });
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply.code(415).send({ error: "Unsupported content type." });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON and similar client mistakes: Fastify's message is already a sentence.
      return reply.code(status).send({ error: error.message });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ error: "Something went wrong on the server. Please try again." });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `Not found: ${request.method} ${request.url.split("?")[0]}` });
  });
}
