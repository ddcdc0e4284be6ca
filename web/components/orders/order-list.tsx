import { Eye, Trash2, Truck } from "lucide-react";
import type { Order } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDate, formatGBP, shortId } from "@/lib/screen-helpers";
import { AdminFlagBadge, customerLabel, OrderStatusBadge, PaymentMethod, PaymentStatus } from "./order-bits";

type ListProps = {
  orders: Order[];
  onView: (order: Order) => void;
  onDispatch: (order: Order) => void;
  onDelete: (order: Order) => void;
  dispatchingId: string | null;
};

function RowActions({ order, onView, onDispatch, onDelete, dispatchingId }: Omit<ListProps, "orders"> & { order: Order }) {
  const ref = shortId(order.id);
  return (
    <div className="flex justify-end gap-1">
      <Button variant="ghost" size="icon" onClick={() => onView(order)} aria-label={`View order ${ref}`} title="View details">
        <Eye />
      </Button>
      {order.status === "processing" && (
        <Button
          variant="ghost"
          size="icon"
          className="text-blue-600 hover:text-blue-700"
          onClick={() => onDispatch(order)}
          disabled={dispatchingId === order.id}
          aria-label={`Dispatch order ${ref}`}
          title="Mark as dispatched"
        >
          <Truck />
        </Button>
      )}
      {order.status === "failed" && (
        <Button
          variant="ghost"
          size="icon"
          className="text-destructive hover:text-destructive"
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

export function OrderTable({ orders, ...actions }: ListProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">Order ID</TableHead>
          <TableHead>Customer</TableHead>
          <TableHead>Total</TableHead>
          <TableHead>Payment</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="pr-4 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {orders.map((order) => (
          <TableRow key={order.id} data-testid="order-row">
            <TableCell className="pl-4">
              <p className="font-mono font-medium">#{shortId(order.id)}</p>
              <p className="text-muted-foreground text-xs">{formatDate(order.createdAt)}</p>
            </TableCell>
            <TableCell>{customerLabel(order)}</TableCell>
            <TableCell>
              <p className="font-medium">{formatGBP(order.totalAmount)}</p>
              <p className="text-muted-foreground text-xs">Inc. shipping</p>
            </TableCell>
            <TableCell>
              <PaymentMethod method={order.paymentMethod} />
              <div>
                <PaymentStatus status={order.paymentStatus} />
              </div>
              <AdminFlagBadge flag={order.adminFlag} />
            </TableCell>
            <TableCell>
              <OrderStatusBadge status={order.status} />
            </TableCell>
            <TableCell className="pr-4">
              <RowActions order={order} {...actions} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function OrderCards({ orders, ...actions }: ListProps) {
  return (
    <ul className="divide-y">
      {orders.map((order) => (
        <li key={order.id} className="space-y-2 p-4" data-testid="order-card">
          <div className="flex items-start justify-between gap-2">
            <div>
              <p className="font-mono font-medium">#{shortId(order.id)}</p>
              <p className="text-muted-foreground text-xs">{formatDate(order.createdAt)}</p>
            </div>
            <OrderStatusBadge status={order.status} />
          </div>
          <div className="flex items-end justify-between gap-2">
            <div className="min-w-0 space-y-0.5 text-sm">
              <p className="truncate">{customerLabel(order)}</p>
              <p>
                <span className="font-medium">{formatGBP(order.totalAmount)}</span>{" "}
                <span className="text-muted-foreground text-xs">Inc. shipping</span>
              </p>
              <p className="flex items-center gap-2">
                <PaymentMethod method={order.paymentMethod} />
                <PaymentStatus status={order.paymentStatus} />
                <AdminFlagBadge flag={order.adminFlag} />
              </p>
            </div>
            <RowActions order={order} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}
