import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { describeError } from "@/lib/api";
import { formatDateTime } from "@/lib/screen-helpers";

/**
 * One of the order dialog's timelines (its Activity, the admin's history): a heading, the loading,
 * error and empty texts, then one dated line per entry, oldest to newest as the query answers them.
 */
export function OrderTimeline<T extends { id: string; createdAt: string }>({
  id,
  icon: Icon,
  title,
  query,
  loadingText,
  emptyText,
  entryTestId,
  testId,
  children,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  query: UseQueryResult<T[]>;
  loadingText: string;
  emptyText: string;
  entryTestId: string;
  testId?: string;
  /** What an entry says, under its date. */
  children: (entry: T) => ReactNode;
}) {
  const entries = query.data ?? [];
  return (
    <section className="space-y-2" aria-labelledby={id} data-testid={testId}>
      <h3 id={id} className="flex items-center gap-2 font-semibold">
        <Icon className="text-muted-foreground size-4" aria-hidden="true" />
        {title}
      </h3>
      {query.isLoading ? (
        <p className="text-muted-foreground text-sm">{loadingText}</p>
      ) : query.isError ? (
        <p className="text-destructive text-sm">{describeError(query.error)}</p>
      ) : entries.length === 0 ? (
        <p className="text-muted-foreground text-sm">{emptyText}</p>
      ) : (
        <ol className="divide-y rounded-md border">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-0.5 p-3 text-sm sm:flex-row sm:gap-4" data-testid={entryTestId}>
              <time dateTime={entry.createdAt} className="text-muted-foreground shrink-0 text-xs sm:w-36 sm:pt-0.5">
                {formatDateTime(entry.createdAt)}
              </time>
              <div className="min-w-0 break-words">{children(entry)}</div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
