import { SlidersHorizontal, X } from "lucide-react";
import { useId, useState } from "react";
import { ORDER_SORTS, ORDER_STATUSES, type OrderSort, type OrderStatus } from "../../../contract";
import { SortSelect } from "@/components/sort-select";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Sheet, SheetContent, SheetFooter, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { cn } from "@/lib/utils";
import { STATUS_LABELS } from "./order-bits";

// The Orders screen's filters (status, sort, dates): in the header's row on a wide screen, behind a
// "Filters" button and in a sheet on a phone (issue 22), where they took half the first screen. The
// same controls either way, each change applied at once to the URL, as the page has it.

export type StatusFilter = "all" | OrderStatus;

export const ORDER_SORT_LABELS: Record<OrderSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  "total-desc": "Total: high to low",
  "total-asc": "Total: low to high",
};

export type OrderFilterProps = {
  status: StatusFilter;
  sort: OrderSort;
  defaultSort: OrderSort;
  /** Days as the date inputs hold them ("2026-03-10"), or "". */
  from: string;
  to: string;
  onStatus: (status: StatusFilter) => void;
  onSort: (sort: OrderSort | null) => void;
  onDay: (end: "from" | "to", day: string) => void;
  onClearDates: () => void;
};

/** How many of the sheet's choices differ from the plain list: the status, the sort, the dates (either end). */
export function activeFilterCount({ status, sort, defaultSort, from, to }: Pick<OrderFilterProps, "status" | "sort" | "defaultSort" | "from" | "to">): number {
  return [status !== "all", sort !== defaultSort, from !== "" || to !== ""].filter(Boolean).length;
}

/**
 * Status, Sort by, From, To and Clear dates, as siblings: the caller's grid or wrapping row places
 * them. `wide` gives each its width in a row; in the sheet, the grid's columns do.
 */
export function OrderFilterControls({ status, sort, defaultSort, from, to, onStatus, onSort, onDay, onClearDates, wide }: OrderFilterProps & { wide: boolean }) {
  const statusId = useId();
  const fromId = useId();
  const toId = useId();
  return (
    <>
      <div className={cn("grid min-w-0 gap-1.5", wide && "w-44")}>
        <Label htmlFor={statusId}>Status</Label>
        <Select value={status} onValueChange={(value) => onStatus(value as StatusFilter)}>
          <SelectTrigger id={statusId} className="w-full" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All Orders</SelectItem>
            {ORDER_STATUSES.map((value) => (
              <SelectItem key={value} value={value}>
                {STATUS_LABELS[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <SortSelect
        className={cn("grid min-w-0 gap-1.5", wide && "w-48")}
        value={sort}
        options={ORDER_SORTS}
        labels={ORDER_SORT_LABELS}
        defaultValue={defaultSort}
        onChange={onSort}
      />
      <div className={cn("grid min-w-0 gap-1.5", wide && "w-40")}>
        <Label htmlFor={fromId}>From</Label>
        <Input id={fromId} type="date" value={from} max={to || undefined} onChange={(event) => onDay("from", event.target.value)} />
      </div>
      <div className={cn("grid min-w-0 gap-1.5", wide && "w-40")}>
        <Label htmlFor={toId}>To</Label>
        <Input id={toId} type="date" value={to} min={from || undefined} onChange={(event) => onDay("to", event.target.value)} />
      </div>
      {(from || to) && (
        <Button variant="ghost" className={cn(!wide && "col-span-2 justify-self-start")} onClick={onClearDates}>
          <X />
          Clear dates
        </Button>
      )}
    </>
  );
}

/**
 * The phone's "Filters" button, with how many are in force, and the sheet it opens. Each choice
 * applies at once (the list behind updates, the URL keeps it); the footer's button tells how many
 * orders now match and closes the sheet.
 */
export function OrderFilterSheet({ matching, onClearAll, ...props }: OrderFilterProps & { matching: number | null; onClearAll: () => void }) {
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(props);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="outline" className="shrink-0" data-testid="order-filters-button">
          <SlidersHorizontal />
          Filters
          {active > 0 && (
            <Badge className="min-w-5 rounded-full px-1.5" data-testid="active-filter-count">
              {active}
              <span className="sr-only"> active</span>
            </Badge>
          )}
        </Button>
      </SheetTrigger>
      <SheetContent side="bottom" className="max-h-[85dvh] gap-0 overflow-y-auto rounded-t-xl" aria-describedby={undefined}>
        <SheetHeader className="pb-2">
          {/* As wide as its word: the close button sits at the right of the same line. */}
          <SheetTitle className="w-fit">Filters</SheetTitle>
        </SheetHeader>
        <div className="grid grid-cols-2 items-end gap-3 px-4" role="group" aria-label="Filter orders">
          <OrderFilterControls {...props} wide={false} />
        </div>
        <SheetFooter className="flex-row justify-between gap-2">
          <Button
            variant="ghost"
            disabled={active === 0}
            onClick={onClearAll}
          >
            Clear filters
          </Button>
          <Button onClick={() => setOpen(false)}>{matching === null ? "Show orders" : `Show ${matching} ${matching === 1 ? "order" : "orders"}`}</Button>
        </SheetFooter>
      </SheetContent>
    </Sheet>
  );
}
