import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

/**
 * What a list shows while it loads (issue 22, item 12): the screen's heading and controls stay, and
 * grey rows the shape of the list stand where it will be, with the screen's loading text
 * (docs/product.md §2) for screen readers and at the top. Instead of a spinner replacing the page.
 */
export function LoadingRows({ label, rows = 4, className }: { label: string; rows?: number; className?: string }) {
  return (
    <div role="status" aria-live="polite" data-testid="loading-rows" className={cn("space-y-4 px-4 py-6 sm:px-6", className)}>
      <p className="text-muted-foreground text-sm">{label}</p>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="flex items-center gap-3" data-testid="skeleton-row" aria-hidden="true">
          <Skeleton className="size-10 shrink-0" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-3 w-1/4" />
          </div>
          <Skeleton className="hidden h-4 w-16 sm:block" />
        </div>
      ))}
    </div>
  );
}
