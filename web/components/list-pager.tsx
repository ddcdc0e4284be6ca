import { ChevronLeft, ChevronRight } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ServerPage } from "@/lib/api";

// Pagination. The long lists (orders, products, conversations) are paged by the server (issue 12);
// web/components/server-list.tsx keeps their page in the URL.

export const PAGE_SIZE = 25;

/** What the pager shows and does (useCursorPager makes one from a server page). */
export type Pager = {
  page: number;
  pageCount: number;
  total: number;
  first: number;
  last: number;
  setPage: (page: number) => void;
  /** Whether a next page exists, when the server says so (a Link header) rather than the count. */
  hasNext?: boolean;
  /** A page is loading: the buttons wait, so a second click does not skip a page. */
  busy?: boolean;
};

/** Where a server-paged list is: the page number (for the range shown) and the cursor the server gave for it. */
export type CursorPosition = { page: number; cursor: string | null };

/**
 * Server paging (issue 12): Next follows the cursor of the server's Link header; the cursors of
 * the pages seen are kept, so Previous goes back exactly. After a reload only the current page's
 * cursor is known (it is in the URL): Previous then starts again from page 1.
 */
export function useCursorPager(options: {
  position: CursorPosition;
  setPosition: (position: CursorPosition) => void;
  /** Filters: when they change, the kept cursors belong to another list and are dropped. */
  resetKey: string;
  page: ServerPage<unknown> | undefined;
  pageSize: number;
  busy: boolean;
}): Pager {
  const { position, setPosition, resetKey, page: data, pageSize, busy } = options;
  const [trail, setTrail] = useState<{ key: string; cursors: Record<number, string> }>({ key: resetKey, cursors: {} });
  const cursors = trail.key === resetKey ? trail.cursors : {};
  const total = data?.total ?? 0;
  const rows = data?.rows.length ?? 0;
  const first = rows === 0 ? 0 : (position.page - 1) * pageSize + 1;
  const setPage = (page: number) => {
    if (page === position.page + 1 && data?.nextCursor) {
      const kept = position.cursor ? { [position.page]: position.cursor } : {};
      setTrail({ key: resetKey, cursors: { ...cursors, ...kept, [page]: data.nextCursor } });
      setPosition({ page, cursor: data.nextCursor });
    } else if (page >= 1 && page < position.page) {
      const cursor = cursors[page];
      setPosition(page > 1 && cursor ? { page, cursor } : { page: 1, cursor: null });
    }
  };
  return {
    page: position.page,
    pageCount: Math.max(position.page, Math.ceil(total / pageSize)),
    total,
    first,
    last: first === 0 ? 0 : first + rows - 1,
    setPage,
    hasNext: data?.nextCursor != null,
    busy,
  };
}

/** Previous/Next with the range shown; `compact` (narrow panels) keeps the labels out of the buttons. */
export function ListPager({ paged, label = "items", compact = false }: { paged: Pager; label?: string; compact?: boolean }) {
  if (paged.pageCount <= 1 && paged.page <= 1) return null;
  const hasNext = paged.hasNext ?? paged.page < paged.pageCount;
  const buttonLabel = compact ? "sr-only" : "hidden sm:inline";
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-2 pt-4 text-sm">
      <span className="text-muted-foreground">
        {paged.first}–{paged.last} of {paged.total} {label}
      </span>
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => paged.setPage(paged.page - 1)}
          disabled={paged.busy || paged.page <= 1}
          aria-label="Previous page"
        >
          <ChevronLeft />
          <span className={buttonLabel}>Previous</span>
        </Button>
        <span className={compact ? "sr-only" : "text-muted-foreground tabular-nums"}>
          Page {paged.page} of {paged.pageCount}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => paged.setPage(paged.page + 1)}
          disabled={paged.busy || !hasNext}
          aria-label="Next page"
        >
          <span className={buttonLabel}>Next</span>
          <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}
