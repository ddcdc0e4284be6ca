import { ShoppingCart, Timer } from "lucide-react";
import { useMemo, useState } from "react";
import { type Order, ORDER_STATUSES, type OrderStatus } from "../../contract";
import { ListPager, usePaged } from "@/components/list-pager";
import { STATUS_LABELS } from "@/components/orders/order-bits";
import { OrderDetailsDialog } from "@/components/orders/order-details-dialog";
import { OrderCards, OrderTable } from "@/components/orders/order-list";
import { useDispatchOrder } from "@/components/orders/use-dispatch-order";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { useCleanupExpiredOrders, useDeleteOrder, useOrders } from "@/lib/queries";
import { DESKTOP_QUERY, shortId, useMediaQuery } from "@/lib/screen-helpers";

type StatusFilter = "all" | OrderStatus;

export default function OrdersPage() {
  const ordersQuery = useOrders();
  const deleteOrder = useDeleteOrder();
  const cleanup = useCleanupExpiredOrders();
  const { dispatch } = useDispatchOrder();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [statusFilter, setStatusFilter] = useState<StatusFilter>("all");
  // Ids, not copies: after a reload the dialog shows the order as it is now.
  const [viewingId, setViewingId] = useState<string | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [dispatchingId, setDispatchingId] = useState<string | null>(null);

  const orders = useMemo(() => ordersQuery.data ?? [], [ordersQuery.data]);
  const filtered = useMemo(
    () => (statusFilter === "all" ? orders : orders.filter((o) => o.status === statusFilter)),
    [orders, statusFilter],
  );
  const paged = usePaged(filtered, statusFilter);
  const viewing = orders.find((o) => o.id === viewingId) ?? null;
  const deleting = orders.find((o) => o.id === deletingId) ?? null;

  const runDispatch = async (order: Order) => {
    setDispatchingId(order.id);
    await dispatch(order.id);
    setDispatchingId(null);
  };

  const runCleanup = () => {
    cleanup.mutate(undefined, {
      onSuccess: ({ expiredOrderIds }) =>
        toast({
          title: `${expiredOrderIds.length} expired orders marked as failed`,
          description:
            expiredOrderIds.length > 0
              ? "Orders older than 2 hours have been automatically failed"
              : "No expired orders found",
        }),
      onError: (error) =>
        toast({ title: "Failed to cleanup expired orders", description: describeError(error), variant: "destructive" }),
    });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const id = deleting.id;
    deleteOrder.mutate(id, {
      onSuccess: () => {
        toast({ title: "Order deleted successfully!" });
        if (viewingId === id) setViewingId(null);
      },
      onError: (error) => toast({ title: "Failed to delete order", description: describeError(error), variant: "destructive" }),
    });
    setDeletingId(null);
  };

  const listProps = {
    orders: paged.rows,
    onView: (order: Order) => setViewingId(order.id),
    onDispatch: (order: Order) => void runDispatch(order),
    onDelete: (order: Order) => setDeletingId(order.id),
    dispatchingId,
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Order Management</h2>
          <p className="text-muted-foreground">Track payments and dispatch customer orders</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Select value={statusFilter} onValueChange={(value) => setStatusFilter(value as StatusFilter)}>
            <SelectTrigger className="w-44" aria-label="Filter by status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All Orders</SelectItem>
              {ORDER_STATUSES.map((status) => (
                <SelectItem key={status} value={status}>
                  {STATUS_LABELS[status]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Button variant="outline" onClick={runCleanup} disabled={cleanup.isPending}>
            <Timer />
            Cleanup Expired
          </Button>
        </div>
      </div>

      <Card className="gap-0 py-0">
        <CardContent className="p-0">
          {ordersQuery.isLoading ? (
            <p className="text-muted-foreground py-12 text-center">Loading orders...</p>
          ) : ordersQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(ordersQuery.error)}</p>
          ) : filtered.length === 0 ? (
            <div className="py-12 text-center">
              <ShoppingCart className="text-muted-foreground mx-auto mb-3 size-12" />
              <p className="font-medium">No orders found</p>
              <p className="text-muted-foreground text-sm">
                {statusFilter === "all" ? "Orders will appear here when customers make purchases" : "Try adjusting your filter"}
              </p>
            </div>
          ) : isDesktop ? (
            <OrderTable {...listProps} />
          ) : (
            <OrderCards {...listProps} />
          )}
        </CardContent>
      </Card>
      <ListPager paged={paged} label="orders" />

      <OrderDetailsDialog
        order={viewing}
        onOpenChange={(open) => !open && setViewingId(null)}
        onDispatch={(order) => void runDispatch(order)}
        dispatching={dispatchingId !== null}
      />

      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && setDeletingId(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete Order</AlertDialogTitle>
            <AlertDialogDescription>
              Are you sure you want to permanently delete this order? This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          {deleting && <p className="text-muted-foreground text-sm">Order #{shortId(deleting.id)}</p>}
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={confirmDelete}>
              Delete Order
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
