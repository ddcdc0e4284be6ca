import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * A stock the owner changed was sold meanwhile (409, docs/decisions/0007 and 0034): the server's
 * sentence and a button that reloads the stock, keeping the other edits.
 */
export function StaleStockAlert({
  message,
  reloadLabel,
  reloading,
  onReload,
  testId,
}: {
  message: string;
  reloadLabel: string;
  reloading: boolean;
  onReload: () => void;
  testId: string;
}) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className="border-destructive/30 bg-destructive/5 flex flex-col gap-2 rounded-md border p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="text-destructive">{message}</p>
      <Button type="button" variant="outline" size="sm" onClick={onReload} disabled={reloading}>
        <RefreshCw className={reloading ? "animate-spin" : undefined} />
        {reloadLabel}
      </Button>
    </div>
  );
}
