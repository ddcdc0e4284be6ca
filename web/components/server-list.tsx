import type { UseQueryResult } from "@tanstack/react-query";
import { Search } from "lucide-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "wouter";
import { type CursorPosition, type Pager, useCursorPager } from "@/components/list-pager";
import { Input } from "@/components/ui/input";
import type { ServerPage } from "@/lib/api";
import { cn } from "@/lib/utils";

// What the server-paged screens (Orders, Products, Messages) share (issue 12): their filters,
// search and page live in the URL's query string, so a reload or a shared link shows the same list.

/** Changes to the query string: a value sets the parameter, null or "" removes it. */
export type UrlChanges = Record<string, string | null>;

export type ListUrl = {
  params: URLSearchParams;
  /** The page shown: its number and the server's cursor for it ("page" and "cursor" in the URL). */
  position: CursorPosition;
  update: (changes: UrlChanges) => void;
  /** A new filter, search or sort: the kept cursor belongs to another list, so back to page 1. */
  setFilter: (changes: UrlChanges) => void;
  setPosition: (position: CursorPosition) => void;
};

/**
 * The list's state in the URL. By default changes replace the history entry, so Back leaves the
 * screen rather than stepping through every filter tried; with `history: "push"` (Orders, issue 22)
 * each change is a history entry of its own, so Back and Forward walk the filters, pages and the
 * open order.
 */
export function useListUrl({ history = "replace" }: { history?: "push" | "replace" } = {}): ListUrl {
  const [params, setParams] = useSearchParams();
  const cursor = params.get("cursor");
  // A page number without its cursor (a hand-made link) cannot be found: it is page 1.
  const position: CursorPosition = { page: cursor ? Math.max(1, Number(params.get("page")) || 1) : 1, cursor };
  const update = (changes: UrlChanges) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null || value === "") next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: history === "replace" },
    );
  return {
    params,
    position,
    update,
    setFilter: (changes) => update({ ...changes, cursor: null, page: null }),
    setPosition: ({ page, cursor }) => update({ page: page > 1 ? String(page) : null, cursor }),
  };
}

/**
 * Previous/Next over the server's pages of `query`, kept in the URL. A page emptied by deletes (or
 * a stale link) goes back to page 1.
 */
export function useServerPager<T>(options: {
  url: ListUrl;
  query: UseQueryResult<ServerPage<T>>;
  /** The filters, search and sort: when they change, the cursors kept for Previous are dropped. */
  resetKey: string;
  pageSize: number;
}): Pager {
  const { url, query, resetKey, pageSize } = options;
  const pager = useCursorPager({
    position: url.position,
    setPosition: url.setPosition,
    resetKey,
    page: query.data,
    pageSize,
    busy: query.isPlaceholderData,
  });
  const emptiedPage = !query.isPlaceholderData && query.isSuccess && query.data.rows.length === 0 && url.position.page > 1;
  useEffect(() => {
    if (emptiedPage) url.setPosition({ page: 1, cursor: null });
    // url changes identity every render; this runs when the page turns out empty.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [emptiedPage]);
  return pager;
}

/** How long typing pauses before the search goes to the server. */
export const SEARCH_DELAY_MS = 300;

/**
 * A search box whose text goes to `onSearch` once typing pauses (trimmed); `query` is the search in
 * force (from the URL), shown when the screen opens.
 */
export function SearchBox({
  query,
  onSearch,
  label,
  placeholder,
  title,
  className,
  inputClassName,
}: {
  query: string;
  onSearch: (text: string) => void;
  /** The accessible name, e.g. "Search orders". */
  label: string;
  placeholder: string;
  title?: string;
  className?: string;
  inputClassName?: string;
}) {
  const [text, setText] = useState(query);
  // The search in force changed from outside (Back, Forward, a link): the box shows it, rather than
  // sending what it held before back to the URL.
  const [shownQuery, setShownQuery] = useState(query);
  if (query !== shownQuery) {
    setShownQuery(query);
    setText(query);
  }
  useEffect(() => {
    if (text.trim() === query.trim()) return;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // onSearch changes identity every render; the search only waits on what was typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, query]);
  return (
    <div className={cn("relative", className)}>
      <Search className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" aria-hidden="true" />
      <Input
        type="search"
        placeholder={placeholder}
        title={title}
        aria-label={label}
        className={cn("pl-9", inputClassName)}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
}
