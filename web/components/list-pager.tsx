import { ChevronLeft, ChevronRight } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

// Client-side pagination: the API answers whole lists (SPEC §7), and rendering thousands of rows at
// once makes the screens sluggish, so the lists show one page at a time.

export const PAGE_SIZE = 25;

export type Paged<T> = {
  rows: T[];
  page: number;
  pageCount: number;
  total: number;
  first: number;
  last: number;
  setPage: (page: number) => void;
};

/**
 * One page of `items`. A new `resetKey` (e.g. the filters) goes back to page 1; the page is clamped,
 * so a shrinking list (after a delete) stays valid.
 */
export function usePaged<T>(items: T[], resetKey = "", pageSize = PAGE_SIZE): Paged<T> {
  const [state, setState] = useState({ key: resetKey, page: 1 });
  const requested = state.key === resetKey ? state.page : 1;
  const setPage = (page: number) => setState({ key: resetKey, page });
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const page = Math.min(Math.max(1, requested), pageCount);
  const start = (page - 1) * pageSize;
  const rows = items.slice(start, start + pageSize);
  return {
    rows,
    page,
    pageCount,
    total: items.length,
    first: items.length === 0 ? 0 : start + 1,
    last: start + rows.length,
    setPage,
  };
}

/** Previous/Next with the range shown; `compact` (narrow panels) keeps the labels out of the buttons. */
export function ListPager<T>({ paged, label = "items", compact = false }: { paged: Paged<T>; label?: string; compact?: boolean }) {
  if (paged.pageCount <= 1) return null;
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
          disabled={paged.page <= 1}
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
          disabled={paged.page >= paged.pageCount}
          aria-label="Next page"
        >
          <span className={buttonLabel}>Next</span>
          <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}
