import { z } from "zod";
import { LIST_SORTS } from "./paging";

// Building blocks the topic files of contract/ share. index.ts does not re-export this file: these
// are parts of the API's shapes, not shapes of their own.

export const MAX_MONEY = 99_999_999.99; // numeric(10,2)

/** Empty or blank text means "not given" and is stored as null. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value == null || value.trim() === "" ? null : value.trim()));

export const uuidOrNull = z
  .union([z.uuid({ message: "must be a valid id" }), z.literal(""), z.null()])
  .optional()
  .transform((value) => (value ? value : null));

/** A database id (a uuid). */
export const IdSchema = z.guid();
/** A GBP amount as numeric(10,2) text, e.g. "4.99". */
export const MoneyTextSchema = z.string().meta({ description: 'A GBP amount with two decimals, e.g. "4.99"', examples: ["4.99"] });

// --- List filters (issue 12), the query parameters the paged lists share ---

/** Free text to look for; blank means no search. Matched literally: % and _ are not wildcards. */
export const searchText = (description: string) =>
  z
    .string({ error: "must be text" })
    .max(200, "must be at most 200 characters")
    .transform((text) => text.trim())
    .optional()
    .meta({ description });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = "must be a date (2026-03-10) or a date and time (2026-03-10T12:00:00Z)";
const isoDateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: false })], { error: DATE_MESSAGE });

/** `from`: the first moment included; a bare date means its midnight (UTC). */
export const fromDate = z
  .string({ error: DATE_MESSAGE })
  .pipe(isoDateOrTime)
  .transform((text) => new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text))
  .optional()
  .meta({ description: "Created at or after this moment; a bare date means its start (UTC)" });

/**
 * `to`: the last moment included; a bare date includes that whole day (UTC), as someone choosing
 * "to 10 March" means. Answered as the exclusive bound just after it.
 */
export const toDate = z
  .string({ error: DATE_MESSAGE })
  .pipe(isoDateOrTime)
  .transform((text) =>
    DATE_ONLY.test(text) ? new Date(Date.parse(`${text}T00:00:00Z`) + 24 * 60 * 60 * 1000) : new Date(Date.parse(text) + 1),
  )
  .optional()
  .meta({ description: "Created at or before this moment; a bare date includes that whole day (UTC)" });

/** `from` after `to` finds nothing by definition: said rather than answered with an empty page. */
export const datesInOrder = (query: { from?: Date; to?: Date }) => !query.from || !query.to || query.from < query.to;
export const DATES_MESSAGE = { message: "must not be before the from date", path: ["to"] };

export const listSort = z
  .enum(LIST_SORTS, { error: `must be one of ${LIST_SORTS.join(", ")}` })
  .default("newest")
  .meta({ description: "newest (default) or oldest; ties by id" });

export const booleanFlag = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((text) => text === "true")
  .optional();
