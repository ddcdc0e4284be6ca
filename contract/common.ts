import { z } from "zod";
import { MAX_MONEY } from "./fields";

// What every topic of the API's shapes uses: currencies, numbers, money, ids, moments, the error
// answer. Depends on zod only.

export const CURRENCIES = ["BTC", "LTC", "XMR"] as const;
export const CurrencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof CurrencySchema>;

/** PostgreSQL's integer column. */
export const MAX_INT = 2_147_483_647;

/**
 * A whole number sent as a JSON number. Strings, booleans and arrays are refused rather than
 * coerced ("1e2" is not 100, false is not 0), with the field named in the message: `field` is its
 * label, capitalised ("Stock"), so the message is a whole sentence (contract/owner-words.ts fieldSentence).
 */
export const wholeNumber = (field: string, min: number, max = MAX_INT) =>
  z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** The path of an image this server stored (PUT /api/product-images answers it). */
export const OBJECT_PATH_PATTERN = /^\/objects\/[A-Za-z0-9_-]{1,100}$/;

/** A GBP amount given as a string or number; answered as a two-decimal string ("4.99"). */
export const MoneySchema = z
  .union([z.string().trim(), z.number()], {
    error: (issue) => (issue.input == null ? "is required" : "must be an amount such as 4.99"),
  })
  .transform((value, ctx) => {
    const text = typeof value === "number" ? String(value) : value;
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "is required" });
      return z.NEVER;
    }
    if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > MAX_MONEY) {
      ctx.addIssue({ code: "custom", message: "must be an amount between 0 and 99999999.99" });
      return z.NEVER;
    }
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({ code: "custom", message: "must have at most two decimals" });
      return z.NEVER;
    }
    return Number(text).toFixed(2);
  });

/** The `:id` of a resource path; a malformed id is refused before it reaches the database. */
export const IdParamsSchema = z.object({ id: z.uuid({ message: "must be a valid id" }) });

// --- Answers ---
// The response schemas below describe what the server answers, for the OpenAPI document
// (server/http/openapi.ts) and each route's serialiser. fastify-type-provider-zod *encodes* an
// answer through its schema, so they hold no one-way transforms, and an object schema drops keys it
// does not name: every field a route answers is listed. Where a route answers a database row, its
// timestamps are Dates, encoded to ISO text by DateTimestampSchema; the type on the wire is then
// the schema's z.input (its z.output is what the handler hands over).
/** A moment answered as ISO 8601 text in UTC ("2026-11-22T08:12:41.000Z"). */
export const TimestampSchema = z.iso.datetime();
/** A moment the server holds as a Date (a database row), answered as ISO 8601 text. */
export const DateTimestampSchema = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

/** Every error answer (docs/product.md rule 8): 400 names the invalid field; also 401, 403, 404, 409, 413, 415, 429, 5xx. */
export const ApiErrorSchema = z
  .object({
    error: z.string().meta({ description: "A sentence for a person", examples: ["Invalid price: is required"] }),
    // What a client acts on beside the sentence (issue 25): the login asks for a two-factor code, a
    // sensitive action asks for a fresh one, a staff account must turn two-factor on first.
    totpRequired: z.boolean().optional(),
    stepUpRequired: z.boolean().optional(),
    twoFactorRequired: z.boolean().optional(),
  })
  .meta({ id: "ApiError", description: "Refused or failed, with a sentence saying why" });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** The answer of a delete, a logout or a notice sent. */
export const SuccessSchema = z.object({ success: z.literal(true) }).meta({ id: "Success" });
export const HealthSchema = z.object({ status: z.literal("ok") }).meta({ id: "Health" });
