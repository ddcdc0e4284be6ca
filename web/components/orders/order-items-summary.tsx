import { itemDisplayName, type Order, type OrderItemsSummary } from "../../../contract";
import { ClampedText } from "@/components/ui/table";
import { shortId } from "@/lib/screen-helpers";
import { cn } from "@/lib/utils";

/**
 * What was bought, in words (issue 22): the order's first line as its details show it ("2 × Acceptance
 * Tee (M / Black)", a line without a name as "Product 1a2b3c4d"), and "and 2 more" for its other lines.
 */
export function itemsSummaryWords(summary: OrderItemsSummary): { first: string; more: string | null } {
  const { productId, productName, variantLabel, quantity } = summary.first;
  const others = summary.lineCount - 1;
  return {
    first: `${quantity} × ${itemDisplayName(productName || `Product ${shortId(productId)}`, variantLabel)}`,
    more: others > 0 ? `and ${others} more` : null,
  };
}

/**
 * The summary in a row or a card: the first line clamped to `lines` (a long or hostile name wraps and
 * opens whole on hover and keyboard focus, as ClampedText does for every list), "and 2 more" beside it
 * and never cut off.
 */
export function OrderItemsSummaryText({ order, lines = 2, className }: { order: Pick<Order, "itemsSummary">; lines?: 1 | 2; className?: string }) {
  if (!order.itemsSummary) return <span className={cn("text-muted-foreground", className)}>No items</span>;
  const { first, more } = itemsSummaryWords(order.itemsSummary);
  return (
    <span className={cn("flex min-w-0 items-baseline gap-1", className)} data-testid="order-items-summary">
      <ClampedText text={first} lines={lines} className="min-w-0" />
      {more && <span className="text-muted-foreground shrink-0 text-xs whitespace-nowrap"> {more}</span>}
    </span>
  );
}
