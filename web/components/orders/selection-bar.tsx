import { Button } from "@/components/ui/button";

/**
 * What is selected on the Orders screen, said in one line (issue 22): the ticked orders, or every order
 * the filter matches. When every order shown is ticked and more match the filter, it offers
 * "Select all N matching" (N is the server's count of the filter's matches), as mail clients do: the
 * packing slips, the bulk dispatch and the export then take the whole filter, beyond this page.
 */
export function SelectionBar({
  tickedCount,
  allShownTicked,
  shownCount,
  matchingCount,
  allMatching,
  onSelectAllMatching,
}: {
  /** Ticked orders, on every page. */
  tickedCount: number;
  allShownTicked: boolean;
  shownCount: number;
  /** Orders the filter matches, on every page (null while unknown). */
  matchingCount: number | null;
  allMatching: boolean;
  onSelectAllMatching: () => void;
}) {
  const offer = !allMatching && allShownTicked && matchingCount !== null && matchingCount > shownCount;
  return (
    <div className="flex flex-wrap items-center gap-x-2 text-sm sm:mr-auto">
      <p className="text-muted-foreground" aria-live="polite">
        {allMatching && matchingCount !== null
          ? `All ${matchingCount} matching ${matchingCount === 1 ? "order" : "orders"} selected`
          : tickedCount === 0
            ? "Tick orders to print their packing slips or dispatch them together."
            : `${tickedCount} ${tickedCount === 1 ? "order" : "orders"} selected`}
      </p>
      {offer && (
        <Button variant="link" className="h-auto p-0 underline" onClick={onSelectAllMatching}>
          {`Select all ${matchingCount} matching`}
        </Button>
      )}
    </div>
  );
}
