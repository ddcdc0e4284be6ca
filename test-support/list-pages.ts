import { expect } from "vitest";
import type { TestServer } from "./app";

// For the paged-list tests (issue 12): follow a list's Link headers to its last page.

/** A fixed moment the seeded rows are dated from, and moments after it. */
export const T0 = new Date("2026-03-10T12:00:00Z");
export const minutesAfter = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** The next page's URL from a Link header, or null when there is none. */
export function nextLink(response: Response): string | null {
  const link = response.headers.get("link");
  if (link === null) return null;
  const match = /^<(\/api\/[^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1]!;
}

/** Every page from `url` on, following Link; `between` runs after each page (to add rows meanwhile). */
export async function walkPages<T>(server: TestServer, cookie: string, url: string, between: () => Promise<void> = async () => {}) {
  const pages: T[][] = [];
  const totals: string[] = [];
  let next: string | null = url;
  while (next !== null) {
    expect(pages.length, "more pages than rows: the cursor does not advance").toBeLessThan(100);
    const response = await server.request("GET", next, { cookie });
    expect(response.status, await response.clone().text()).toBe(200);
    pages.push((await response.json()) as T[]);
    totals.push(response.headers.get("x-total-count")!);
    next = nextLink(response);
    await between();
  }
  return { pages, rows: pages.flat(), totals };
}
