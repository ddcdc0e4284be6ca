import type { FastifyReply, FastifyRequest } from "fastify";
import { type Page, invalid } from "../shop/common";

// How a paged list answers over HTTP (issue 12): the page's rows as the body (the same JSON array
// as the whole list), the count of matching rows in X-Total-Count, and the next page's URL in a
// Link header (RFC 8288), absent on the last page.

export const TOTAL_COUNT_HEADER = "x-total-count";

/**
 * Whether the call asks for a page (it gives `limit`); without one it gets the whole list. A cursor
 * means "after this row of a page": without a page size there is no page to continue, so it is refused.
 */
export function isPaged<Q extends { limit?: number; cursor?: string }>(query: Q): query is Q & { limit: number } {
  if (query.limit !== undefined) return true;
  if (query.cursor !== undefined) throw invalid("Page needs the limit it was given with");
  return false;
}

/** The next page's URL: this request's path and query, with the next cursor in place of the old one. */
function nextPageUrl(request: FastifyRequest, cursor: string): string {
  const url = new URL(request.url, "http://placeholder");
  url.searchParams.set("cursor", cursor);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

/** Sets the paging headers and answers the page's rows as the body. */
export function sendPage<T>(request: FastifyRequest, reply: FastifyReply, page: Page<T>): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(page.total));
  if (page.nextCursor) void reply.header("link", `<${nextPageUrl(request, page.nextCursor)}>; rel="next"`);
  return page.rows;
}
