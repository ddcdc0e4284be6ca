import { Eye, Trash2, Truck } from "lucide-react";
import { useEffect, useState } from "react";
import type { Order } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatAge, formatDateTime } from "@/lib/dates";
import { formatDate, formatGBP, shortId } from "@/lib/screen-helpers";
import { cn } from "@/lib/utils";
import { AdminFlagBadge, TestOrderBadge, customerLabel, OrderStatusBadge, PaymentMethod, PaymentStatus } from "./order-bits";
import { useOrderDensity } from "./order-density";
import { OrderItemsSummaryText } from "./order-items-summary";

// An action left out (undefined) is one the account's role may not take (contract/team.ts): its
// button is not shown.
type ListProps = {
  orders: Order[];
  onView: (order: Order) => void;
  onDispatch?: (order: Order) => void;
  onDelete?: (order: Order) => void;
  dispatchingId: string | null;
  /** The orders ticked for packing slips or a bulk dispatch. */
  selectedIds: ReadonlySet<string>;
  /** Without them, no boxes to tick (a role that can neither print slips nor dispatch). */
  onSelect?: (order: Order, selected: boolean) => void;
  onSelectAll?: (selected: boolean) => void;
  /** The order the keyboard's j and k moved to (issue 22 item 11): its row is marked. */
  currentId?: string | null;
};

type RowActionProps = Omit<ListProps, "orders" | "selectedIds" | "onSelect" | "onSelectAll" | "currentId">;

/** The keyboard's current row: aria-current, and a ring that shows in both themes. */
const currentRow = (order: Order, currentId: string | null | undefined) => ({
  "data-order-id": order.id,
  "aria-current": order.id === currentId ? ("true" as const) : undefined,
});
const CURRENT_ROW_CLASS = "aria-[current=true]:bg-accent/60 aria-[current=true]:outline-2 aria-[current=true]:-outline-offset-2 aria-[current=true]:outline-ring";

function SelectOrder({ order, selectedIds, onSelect }: Pick<ListProps, "selectedIds" | "onSelect"> & { order: Order }) {
  if (!onSelect) return null;
  return (
    <Checkbox
      checked={selectedIds.has(order.id)}
      onCheckedChange={(checked) => onSelect(order, checked === true)}
      aria-label={`Select order ${shortId(order.id)}`}
    />
  );
}

/** Ticks every order shown; unticks them all once they all are. */
function SelectAllOrders({ orders, selectedIds, onSelectAll }: Pick<ListProps, "orders" | "selectedIds" | "onSelectAll">) {
  if (!onSelectAll) return null;
  const allTicked = orders.length > 0 && orders.every((order) => selectedIds.has(order.id));
  return <Checkbox checked={allTicked} onCheckedChange={() => onSelectAll(!allTicked)} aria-label="Select all orders shown" />;
}

function RowActions({ order, onView, onDispatch, onDelete, dispatchingId, compact = false }: RowActionProps & { order: Order; compact?: boolean }) {
  const ref = shortId(order.id);
  // Compact rows: smaller buttons, still 32 px, above the 24 px a pointer target needs (WCAG 2.5.8).
  const size = compact ? "size-8" : undefined;
  return (
    <div className="flex justify-end gap-1" data-order-actions={order.id}>
      <Button variant="ghost" size="icon" className={size} onClick={() => onView(order)} aria-label={`View order ${ref}`} title="View details" data-action="view">
        <Eye />
      </Button>
      {onDispatch && order.status === "processing" && (
        <Button
          variant="ghost"
          size="icon"
          className={cn("text-blue-600 hover:text-blue-700", size)}
          onClick={() => onDispatch(order)}
          disabled={dispatchingId === order.id}
          aria-label={`Dispatch order ${ref}`}
          title="Dispatch: carrier, tracking number and the customer's message"
          data-action="dispatch"
        >
          <Truck />
        </Button>
      )}
      {onDelete && (order.status === "failed" || order.isTest) && (
        <Button
          variant="ghost"
          size="icon"
          className={cn("text-destructive hover:text-destructive", size)}
          onClick={() => onDelete(order)}
          aria-label={`Delete order ${ref}`}
          title="Delete order"
        >
          <Trash2 />
        </Button>
      )}
    </div>
  );
}

/** The "Inc. shipping" under the total (docs/product.md §2), only when the order has postage to include (issue 13). */
const hasPostage = (order: Order) => order.postageOptionId !== null || order.postageName !== null;

/**
 * The table: the six columns of docs/product.md §2 and, after the customer, what they bought (issue
 * 22). Compact density tightens the rows: less padding, smaller buttons, the same content.
 */
export function OrderTable({ orders, selectedIds, onSelect, onSelectAll, currentId, ...actions }: ListProps) {
  const compact = useOrderDensity() === "compact";
  return (
    <Table className={compact ? "[&_td]:py-0.5" : undefined} data-density={compact ? "compact" : "comfortable"}>
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">
            {/* In the first column rather than one of its own: the columns stay those of docs/product.md §2. */}
            <span className="flex items-center gap-3">
              <SelectAllOrders orders={orders} selectedIds={selectedIds} onSelectAll={onSelectAll} />
              Order ID
            </span>
          </TableHead>
          <TableHead>Customer</TableHead>
          <TableHead>Items</TableHead>
          <TableHead>Total</TableHead>
          <TableHead>Payment</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="pr-4 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {orders.map((order) => (
          <TableRow
            key={order.id}
            data-testid="order-row"
            data-state={selectedIds.has(order.id) ? "selected" : undefined}
            {...currentRow(order, currentId)}
            className={CURRENT_ROW_CLASS}
          >
            <TableCell className="pl-4">
              <div className="flex items-center gap-3">
                <SelectOrder order={order} selectedIds={selectedIds} onSelect={onSelect} />
                <div>
                  <p className="font-mono font-medium">#{shortId(order.id)}</p>
                  <p className="text-muted-foreground text-xs">{formatDate(order.createdAt)}</p>
                </div>
              </div>
            </TableCell>
            <TableCell wrap>
              <div className="max-w-64">{customerLabel(order)}</div>
            </TableCell>
            <TableCell wrap>
              <OrderItemsSummaryText order={order} lines={compact ? 1 : 2} className="max-w-72 min-w-40" />
            </TableCell>
            <TableCell>
              <p className="font-medium">{formatGBP(order.totalAmount)}</p>
              {hasPostage(order) && <p className="text-muted-foreground text-xs">Inc. shipping</p>}
            </TableCell>
            <TableCell>
              <PaymentMethod method={order.paymentMethod} />
              <div>
                <PaymentStatus order={order} className="text-xs" />
              </div>
              <AdminFlagBadge flag={order.adminFlag} />
              <TestOrderBadge isTest={order.isTest} />
            </TableCell>
            <TableCell>
              <OrderStatusBadge status={order.status} />
            </TableCell>
            <TableCell className="pr-4">
              <RowActions order={order} compact={compact} {...actions} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The time now, renewed every minute while the list shows, so "5 minutes ago" stays true. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * A phone's list: one compact card per order, several to a screen (issue 22). The reference, its age
 * and status; what was bought; then who, the total and the payment beside the actions.
 */
export function OrderCards({ orders, selectedIds, onSelect, onSelectAll, currentId, ...actions }: ListProps) {
  const now = useMinuteClock();
  return (
    <ul className="divide-y">
      {onSelectAll && (
        <li className="text-muted-foreground flex items-center gap-3 px-4 py-2 text-sm">
          <SelectAllOrders orders={orders} selectedIds={selectedIds} onSelectAll={onSelectAll} />
          <span aria-hidden="true">Select all</span>
        </li>
      )}
      {orders.map((order) => (
        <li key={order.id} className={`space-y-1 px-4 py-3 ${CURRENT_ROW_CLASS}`} data-testid="order-card" {...currentRow(order, currentId)} data-state={selectedIds.has(order.id) ? "selected" : undefined}>
          <div className="flex items-center justify-between gap-2">
            <div className="flex min-w-0 items-center gap-3">
              <SelectOrder order={order} selectedIds={selectedIds} onSelect={onSelect} />
              <p className="min-w-0 truncate">
                <span className="font-mono font-medium">#{shortId(order.id)}</span>{" "}
                <time className="text-muted-foreground text-xs" dateTime={order.createdAt} title={formatDateTime(order.createdAt)} data-testid="order-age">
                  {formatAge(order.createdAt, now)}
                </time>
              </p>
            </div>
            <OrderStatusBadge status={order.status} />
          </div>
          <OrderItemsSummaryText order={order} lines={2} className="pl-7 text-sm" />
          <div className="flex items-end justify-between gap-2 pl-7">
            <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
              <span className="font-medium">{formatGBP(order.totalAmount)}</span>
              {hasPostage(order) && <span className="text-muted-foreground text-xs">Inc. shipping</span>}
              <span className="[overflow-wrap:anywhere]">{customerLabel(order)}</span>
              <span className="inline-flex items-center gap-1.5">
                <PaymentMethod method={order.paymentMethod} />
                <PaymentStatus order={order} className="text-xs" />
              </span>
              <AdminFlagBadge flag={order.adminFlag} />
              <TestOrderBadge isTest={order.isTest} />
            </div>
            <RowActions order={order} compact {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}
