import { z } from "zod";

// Paged lists (issue 12).
// GET /api/orders, /api/messages, /api/products and /api/messages/conversations take these query
// parameters. Without `limit` the first three answer every matching row, as docs/product.md §7's lists always
// did; with it they answer one page (still a JSON array) plus `X-Total-Count` (rows matching the
// filters) and, unless it is the last page, `Link: <...>; rel="next"`, whose `cursor` asks for the next
// page. Pages are keyset pages: a row added meanwhile neither repeats nor hides another. The customer
// list (contract/customers.ts) and the audit log (contract/audit.ts) take the same parameters.

export const PAGE_LIMIT_MAX = 200;
const LIMIT_MESSAGE = `must be a whole number from 1 to ${PAGE_LIMIT_MAX}`;

/** `limit` as a number from 1 to PAGE_LIMIT_MAX: the paged lists make it optional, the audit log gives it a default. */
export const PageLimitSchema = z
  .string({ error: LIMIT_MESSAGE })
  .regex(/^\d{1,4}$/, LIMIT_MESSAGE)
  .transform(Number)
  .refine((n) => n >= 1 && n <= PAGE_LIMIT_MAX, LIMIT_MESSAGE);

/** The paging parameters every paged list takes; each list extends it with its filters. */
export const PageQuerySchema = z.object({
  limit: PageLimitSchema.optional().meta({ description: `Answer one page of at most this many rows (1 to ${PAGE_LIMIT_MAX})` }),
  cursor: z
    .string({ error: "must be the cursor of a Link header" })
    .max(1000, "must be the cursor of a Link header")
    .optional()
    .meta({ description: "The next page's cursor, from the previous page's Link header (opaque)" }),
});

/** The order of the lists that sort only by time (messages, products). */
export const LIST_SORTS = ["newest", "oldest"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
