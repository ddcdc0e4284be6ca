import { ExternalLink, ShoppingCart, UserRound } from "lucide-react";
import { Link } from "wouter";
import type { Order } from "../../../contract";
import { CustomerNotes } from "@/components/customers/customer-notes";
import { useCustomerDetail } from "@/components/customers/queries";
import { OrderStatusBadge } from "@/components/orders/order-bits";
import { Card } from "@/components/ui/card";
import { ApiError, describeError } from "@/lib/api";
import { formatDate, formatGBP, shortId } from "@/lib/screen-helpers";
import { countOf } from "@/lib/utils";

// Beside a conversation, who the owner is talking to (issue 22, item 9): the customer's orders with
// their status and total, each linking to the order, from the customer page's own read
// (GET /api/customers/{id}), and the owner's note about them (customer-notes.tsx); live events reload
// both with the Customers lists (use-live-updates.ts).

/** The orders shown beside a conversation; the customer page has the rest. */
const ORDERS_SHOWN = 5;

/** The Orders screen searching for this order's whole id, which finds just it (as the customer page links). */
const orderLink = (order: Order) => `/orders?q=${order.id}`;

export function CustomerContext({ telegramUserId }: { telegramUserId: string }) {
  const detail = useCustomerDetail(telegramUserId);
  const customer = detail.data?.customer;
  const orders = detail.data?.orders ?? [];
  // A conversation without a customer record (the simulator's test customer) has no orders to show.
  const missing = detail.error instanceof ApiError && detail.error.status === 404;

  return (
    <div className="space-y-4">
      <Card className="gap-0 overflow-hidden py-0" data-testid="customer-context" aria-label="Customer's orders">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
          <h3 className="font-semibold">Orders</h3>
          <Link
            href={`/customers/${encodeURIComponent(telegramUserId)}`}
            className="text-primary inline-flex items-center gap-1 text-sm font-medium hover:underline"
          >
            <UserRound className="size-4" aria-hidden="true" />
            Customer page
          </Link>
        </div>
        {customer && (
          <p className="text-muted-foreground border-b px-4 py-2 text-sm" data-testid="customer-context-summary">
            {countOf(customer.ordersCount, "order")} · {formatGBP(customer.totalSpent)} spent
          </p>
        )}
        {detail.isLoading ? (
          <p className="text-muted-foreground p-4 text-sm">Loading orders...</p>
        ) : detail.isError && !missing ? (
          <p className="text-destructive p-4 text-sm">{describeError(detail.error)}</p>
        ) : orders.length === 0 ? (
          <div className="py-8 text-center">
            <ShoppingCart className="text-muted-foreground mx-auto mb-2 size-8" aria-hidden="true" />
            <p className="text-muted-foreground text-sm">No orders yet</p>
          </div>
        ) : (
          <ul className="divide-y">
            {orders.slice(0, ORDERS_SHOWN).map((order) => (
              <li key={order.id} data-testid="context-order">
                <Link
                  href={orderLink(order)}
                  className="hover:bg-muted/50 flex items-center justify-between gap-2 px-4 py-3"
                  aria-label={`Order ${shortId(order.id)}, ${formatGBP(order.totalAmount)}`}
                >
                  <div className="min-w-0">
                    <p className="flex items-center gap-1 font-mono text-sm font-medium">
                      #{shortId(order.id)}
                      <ExternalLink className="text-muted-foreground size-3" aria-hidden="true" />
                    </p>
                    <p className="text-muted-foreground text-xs">{formatDate(order.createdAt)}</p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    <span className="text-sm font-medium tabular-nums">{formatGBP(order.totalAmount)}</span>
                    <OrderStatusBadge status={order.status} />
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {customer && customer.ordersCount > ORDERS_SHOWN && (
          <Link href={`/customers/${encodeURIComponent(telegramUserId)}`} className="text-primary block border-t px-4 py-2 text-sm hover:underline">
            All {customer.ordersCount} orders
          </Link>
        )}
      </Card>
      {/* Nobody's customer (the simulator's test customer) has no note either. */}
      {detail.data && <CustomerNotes telegramUserId={telegramUserId} />}
    </div>
  );
}
