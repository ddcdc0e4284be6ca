import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { invalid } from "./errors";

// Keyset paging for the admin's lists (issue 12). A page ends at a row; the next page starts
// strictly after that row's sort key and id, so rows added or removed meanwhile never make a row
// repeat or vanish from the pages still to come (OFFSET paging would shift them).

/** One page: its rows, the cursor of the next page (null on the last), and how many rows match in all. */
export type Page<T> = { rows: T[]; nextCursor: string | null; total: number };

/**
 * What a cursor holds: the sort it was made for and the last row's key, each part as text. A
 * moment is kept as whole microseconds since 1970, not as a JS Date: PostgreSQL keeps microseconds
 * that a Date would round away, and a rounded key would repeat or skip rows sharing the millisecond.
 */
type CursorBody = { s: string; k: string[] };

export type KeyKind = "moment" | "uuid" | "decimal" | "text";
export type KeyPart = { column: SQL | AnyPgColumn; kind: KeyKind };

/** What each kind of key part may look like in a cursor: a forged one is refused before SQL sees it. */
const KEY_SHAPES: Record<KeyKind, (text: string) => boolean> = {
  // 16 digits of microseconds reach past the year 2200 and stay inside PostgreSQL's range.
  moment: (text) => /^-?\d{1,16}$/.test(text),
  uuid: (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text),
  decimal: (text) => /^-?\d{1,20}(\.\d{1,10})?$/.test(text),
  // PostgreSQL text cannot hold NUL.
  text: (text) => text.length <= 200 && !text.includes("\0"),
};

/**
 * A page out of the rows a page query read: it asks for `limit + 1`, and the extra row only tells that
 * another page follows. The next cursor is the last shown row's key.
 */
export function pageFromRows<R, T>(
  rows: R[],
  limit: number,
  total: number,
  cursorOf: { sort: string; key: (row: R) => string[] },
  toItem: (row: R) => T,
): Page<T> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return {
    rows: shown.map(toItem),
    nextCursor: more && last ? encodeCursor(cursorOf.sort, cursorOf.key(last)) : null,
    total,
  };
}

export function encodeCursor(sort: string, key: string[]): string {
  return Buffer.from(JSON.stringify({ s: sort, k: key } satisfies CursorBody)).toString("base64url");
}

const BAD_CURSOR = "Page is not one this list gave for these filters (start again without it)";

/** The key a cursor holds, when it was made for this sort and fits the key's parts; otherwise a 400. */
export function decodeCursor(cursor: string, sort: string, parts: KeyPart[]): string[] {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid(BAD_CURSOR);
  }
  const { s, k } = (body ?? {}) as Partial<CursorBody>;
  const fits =
    s === sort &&
    Array.isArray(k) &&
    k.length === parts.length &&
    k.every((part, index) => typeof part === "string" && KEY_SHAPES[parts[index]!.kind](part));
  if (!fits) throw invalid(BAD_CURSOR);
  return k;
}

/** LIKE's own characters in `text` escaped, so a search for "50%" looks for "50%" (pattern ESCAPE '\\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A key part as the text a cursor keeps. */
export function keyText(part: KeyPart): SQL<string> {
  if (part.kind === "moment") return sql<string>`(extract(epoch from ${part.column}) * 1000000)::bigint::text`;
  return sql<string>`${part.column}::text`;
}

/** A cursor's text back as the column's type; a moment by integer arithmetic, so no microsecond is lost. */
function keyValue(part: KeyPart, text: string): SQL {
  switch (part.kind) {
    case "moment":
      return sql`(timestamptz 'epoch' + cast(${text} as bigint) * interval '1 microsecond')`;
    case "uuid":
      return sql`cast(${text} as uuid)`;
    case "decimal":
      return sql`cast(${text} as numeric)`;
    case "text":
      return sql`cast(${text} as text)`;
  }
}

/**
 * The rows after the cursor's key, for an ORDER BY of `parts` all ascending or all descending.
 * Written as one row comparison, which a btree index on the same columns answers directly.
 */
export function afterKey(parts: KeyPart[], key: string[], direction: "asc" | "desc"): SQL {
  const columns = sql.join(
    parts.map((part) => sql`${part.column}`),
    sql`, `,
  );
  const values = sql.join(
    parts.map((part, index) => keyValue(part, key[index]!)),
    sql`, `,
  );
  return direction === "desc" ? sql`(${columns}) < (${values})` : sql`(${columns}) > (${values})`;
}
