import { Printer, ShoppingCart, Timer, Truck, X } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "wouter";
import { type Order, ORDER_SORTS, ORDER_STATUSES, type OrderSort, type OrderStatus } from "../../contract";
import { ListPager, PAGE_SIZE } from "@/components/list-pager";
import { LoadingRows } from "@/components/loading-rows";
import { OrderDetailsDialog } from "@/components/orders/order-details-dialog";
import { ExportButton } from "@/components/orders/export-button";
import { OrderCards, OrderTable } from "@/components/orders/order-list";
import { OrderDensityToggle } from "@/components/orders/order-density";
import { type OrderFilterProps, OrderFilterControls, OrderFilterSheet, type StatusFilter } from "@/components/orders/order-filters";
import { type DispatchDetails, useDispatchOrder } from "@/components/orders/use-dispatch-order";
import { DispatchDialog } from "@/components/orders/dispatch-dialog";
import { focusOrderRow, focusWhenPresent } from "@/components/orders/row-focus";
import { packingSlipsForFilterHref, packingSlipsHref } from "@/components/orders/packing-slips-link";
import { SelectionBar } from "@/components/orders/selection-bar";
import { ShortcutsButton, ShortcutsDialog } from "@/components/orders/shortcuts-dialog";
import { UnlockAddressesButton } from "@/components/orders/sealed-address";
import { SearchBox, useListUrl, useServerPager } from "@/components/server-list";
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
import { SkipLink } from "@/components/skip-link";
import { useShortcuts } from "@/hooks/use-shortcuts";
import { toast } from "@/hooks/use-toast";
import { useCan } from "@/lib/account";
import { describeError } from "@/lib/api";
import { useCleanupExpiredOrders, useDeleteOrder, useOrder, useOrderCount, useOrderPage, useUpdateOrderStatus } from "@/lib/queries";
import { DESKTOP_QUERY, dayEndIso, dayStartIso, isDay, shortId, useMediaQuery } from "@/lib/screen-helpers";

const isStatusFilter = (value: string | null): value is StatusFilter =>
  value === "all" || ORDER_STATUSES.includes(value as OrderStatus);

const DEFAULT_SORT: OrderSort = "newest";
/** An order id as the URL may carry it ("order"); anything else opens nothing. */
const ORDER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isSort = (value: string | null): value is OrderSort => ORDER_SORTS.includes(value as OrderSort);

/** The orders ticked for the filter `key`; or, `allMatching`, every order it matches. */
type Selection = { key: string; orders: ReadonlyMap<string, Order>; allMatching: boolean };
const emptySelection = (key: string): Selection => ({ key, orders: new Map(), allMatching: false });

export default function OrdersPage() {
  // The filters, the search, the sort, the dates and the page live in the URL (issue 12): a reload
  // or a shared link shows the same list.
  // Each change is a history entry (issue 22): Back and Forward walk the filters, pages and the open order.
  const url = useListUrl({ history: "push" });
  const statusParam = url.params.get("status");
  const statusFilter: StatusFilter = isStatusFilter(statusParam) ? statusParam : "all";
  const q = url.params.get("q") ?? "";
  const sortParam = url.params.get("sort");
  const sort: OrderSort = isSort(sortParam) ? sortParam : DEFAULT_SORT;
  // Days as the date inputs give them (YYYY-MM-DD). Reversed in a hand-made link, they are swapped
  // rather than sent (the server refuses a "to" before "from").
  const fromParam = url.params.get("from");
  const toParam = url.params.get("to");
  const fromDay = isDay(fromParam) ? fromParam : "";
  const toDay = isDay(toParam) ? toParam : "";
  const [from, to] = fromDay && toDay && fromDay > toDay ? [toDay, fromDay] : [fromDay, toDay];

  const filterKey = `${statusFilter}|${q}|${sort}|${from}|${to}`;
  const ordersQuery = useOrderPage({
    limit: PAGE_SIZE,
    status: statusFilter === "all" ? undefined : statusFilter,
    q: q || undefined,
    sort: sort === DEFAULT_SORT ? undefined : sort,
    // The days the admin sees (local time, as the list shows the dates), not UTC days.
    from: from ? dayStartIso(from) : undefined,
    to: to ? dayEndIso(to) : undefined,
    cursor: url.position.cursor ?? undefined,
  });
  const paged = useServerPager({
    url,
    query: ordersQuery,
    resetKey: filterKey,
    pageSize: PAGE_SIZE,
  });
  /** A day chosen: the other end moves along when it would be on the wrong side. */
  const setDay = (end: "from" | "to", day: string) => {
    const other = end === "from" ? to : from;
    const reversed = day && other && (end === "from" ? day > other : day < other);
    url.setFilter({ [end]: day, ...(reversed ? { [end === "from" ? "to" : "from"]: day } : {}) });
  };
  const filterProps: OrderFilterProps = {
    status: statusFilter,
    sort,
    defaultSort: DEFAULT_SORT,
    from,
    to,
    onStatus: (status) => url.setFilter({ status: status === "all" ? null : status }),
    onSort: (next) => url.setFilter({ sort: next }),
    onDay: setDay,
    onClearDates: () => url.setFilter({ from: null, to: null }),
  };
  // What the account's role may do here (contract/team.ts): a packer dispatches, support only reads.
  const canDispatch = useCan("orders.dispatch");
  const canManage = useCan("orders.manage");
  const canExport = useCan("orders.export");
  const canSeeAddresses = useCan("orders.addresses");
  const deleteOrder = useDeleteOrder();
  const cleanup = useCleanupExpiredOrders();
  // Undo puts the order back to Ready to Dispatch: the focus goes to its row's dispatch button.
  const { dispatch, dispatchMany } = useDispatchOrder({ onUndone: (ids) => ids[0] && focusOrderRow(ids[0], { expectDispatch: true }) });
  const updateStatus = useUpdateOrderStatus();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  // Ids, not copies: after a reload the dialog shows the order as it is now. The open order is in
  // the URL too ("order"), so a reload, Back and Forward show it again.
  const orderParam = url.params.get("order");
  const viewingId = orderParam && ORDER_ID_PATTERN.test(orderParam) ? orderParam : null;
  const setViewingId = (id: string | null) => url.update({ order: id });
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [dispatchingId, setDispatchingId] = useState<string | null>(null);
  // The order the dispatch dialog is open for, and whether it was opened from its row or its details.
  const [dispatchTarget, setDispatchTarget] = useState<{ id: string; from: "row" | "details" } | null>(null);
  const lastDispatch = useRef<{ id: string; from: "row" | "details" } | null>(null);
  const openDispatch = (order: Order, from: "row" | "details") => {
    lastDispatch.current = { id: order.id, from };
    setDispatchTarget({ id: order.id, from });
  };
  // Ticked orders (issue 13): packing slips and the bulk dispatch work on them. Kept across pages
  // (issue 22), with the order as last seen; a new filter, search or sort starts a new selection.
  // `allMatching`: "Select all N matching" chose every order the filter matches, on every page.
  const [selection, setSelection] = useState<Selection>(emptySelection(""));
  if (selection.key !== filterKey) setSelection(emptySelection(filterKey));
  const clearSelection = () => setSelection(emptySelection(filterKey));
  const [confirmingBulkDispatch, setConfirmingBulkDispatch] = useState(false);
  const [bulkDispatching, setBulkDispatching] = useState(false);

  const orders = ordersQuery.data?.rows ?? [];
  // How many orders the filter matches on every page (the server's count); unknown while another filter's page is shown.
  const matchingCount = ordersQuery.data && !ordersQuery.isPlaceholderData ? ordersQuery.data.total : null;
  const allMatching = selection.allMatching;
  const selectedIds: ReadonlySet<string> = allMatching
    ? new Set([...selection.orders.keys(), ...orders.map((order) => order.id)])
    : new Set(selection.orders.keys());
  // The open order is also read on its own: dispatching it may take it off a filtered page while
  // its dialog stays open (and a reload of the page must not blink the dialog shut).
  const viewingAlone = useOrder(viewingId);
  const viewing = orders.find((o) => o.id === viewingId) ?? viewingAlone;
  const deleting = orders.find((o) => o.id === deletingId) ?? null;
  const dispatchingOrder = dispatchTarget ? (orders.find((o) => o.id === dispatchTarget.id) ?? (viewing?.id === dispatchTarget.id ? viewing : null)) : null;
  const filtering = statusFilter !== "all" || q !== "" || from !== "" || to !== "";

  // The ticked orders of every page of this filter, each as it is on screen now or as last seen.
  const selected = [...selection.orders.values()].map((seen) => orders.find((order) => order.id === seen.id) ?? seen);
  const selectedReady = selected.filter((order) => order.status === "processing");
  // Every matching order selected: those Ready to Dispatch are counted by the server (the filter's
  // own count when it is Ready to Dispatch already; none when it is another status).
  const readyMatchingCount = useOrderCount(
    { status: "processing", q: q || undefined, from: from ? dayStartIso(from) : undefined, to: to ? dayEndIso(to) : undefined },
    allMatching && statusFilter === "all",
  );
  const readyCount = !allMatching ? selectedReady.length : statusFilter === "processing" ? matchingCount : statusFilter === "all" ? readyMatchingCount : 0;
  const selectedCount = allMatching ? (matchingCount ?? selected.length) : selected.length;
  const select = (order: Order, tick: boolean) =>
    setSelection((current) => {
      // Unticking one of "all matching" leaves the orders shown ticked, the others not.
      const next = new Map(current.allMatching ? orders.map((shown) => [shown.id, shown] as const) : current.orders);
      if (tick) next.set(order.id, order);
      else next.delete(order.id);
      return { key: filterKey, orders: next, allMatching: false };
    });
  // The header's box ticks or unticks the orders shown; ticks on other pages stay. Unticked while every
  // matching order is selected, it clears the selection.
  const selectAll = (tick: boolean) =>
    setSelection((current) => {
      if (current.allMatching && !tick) return emptySelection(filterKey);
      const next = new Map(current.orders);
      for (const order of orders) {
        if (tick) next.set(order.id, order);
        else next.delete(order.id);
      }
      return { key: filterKey, orders: next, allMatching: current.allMatching };
    });
  const selectAllMatching = () => setSelection((current) => ({ ...current, key: filterKey, allMatching: true }));

  /**
   * The dispatch dialog confirmed: it stays open (its button says Dispatching...) until the order is
   * dispatched, so a refused tracking number can be corrected rather than typed again.
   */
  const runDispatch = async (order: Order, details: DispatchDetails) => {
    setDispatchingId(order.id);
    const dispatched = await dispatch(order.id, details);
    setDispatchingId(null);
    if (dispatched) setDispatchTarget(null);
  };

  const runBulkDispatch = async () => {
    setConfirmingBulkDispatch(false);
    setBulkDispatching(true);
    // Every matching order: the filter goes to the server, narrowed to Ready to Dispatch (what is
    // dispatched either way), so the server's cap counts only those (docs/decisions/0032).
    const done = await dispatchMany(
      allMatching
        ? { filter: { status: "processing", q: q || undefined, from: from ? dayStartIso(from) : undefined, to: to ? dayEndIso(to) : undefined } }
        : { ids: selectedReady.map((order) => order.id) },
    );
    setBulkDispatching(false);
    if (done) clearSelection();
  };

  // Keyboard shortcuts (issue 22 item 11; listed by "?" and the Keyboard shortcuts button). The
  // current order is the one j and k moved to, or whose row the focus last entered; its row is marked
  // (aria-current) and j and k focus its view button.
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const current = orders.find((order) => order.id === currentId) ?? null;
  /** The row the focus is in (reached by Tab or a click), else the current one. */
  const targetOrder = () => {
    const focusedId = document.activeElement?.closest<HTMLElement>("[data-order-id]")?.dataset.orderId;
    return orders.find((order) => order.id === focusedId) ?? current;
  };
  const moveCurrent = (step: 1 | -1) => {
    if (orders.length === 0) return;
    const from = targetOrder();
    const at = from ? orders.indexOf(from) : -1;
    const next = orders[at < 0 ? 0 : Math.min(orders.length - 1, Math.max(0, at + step))]!;
    setCurrentId(next.id);
    focusOrderRow(next.id, { prefer: "view" });
  };
  useShortcuts({
    "/": () => document.querySelector<HTMLInputElement>('input[aria-label="Search orders"]')?.focus(),
    j: () => moveCurrent(1),
    k: () => moveCurrent(-1),
    o: () => {
      const order = targetOrder();
      if (order) setViewingId(order.id);
    },
    d: () => {
      const order = targetOrder();
      if (canDispatch && order?.status === "processing") openDispatch(order, "row");
    },
    "?": () => setShortcutsOpen(true),
  });

  const complete = (order: Order) => {
    updateStatus.mutate(
      { id: order.id, status: "completed" },
      {
        onSuccess: () => toast({ title: "Order updated successfully!" }),
        onError: (error) => toast({ title: "Failed to update order", description: describeError(error), variant: "destructive" }),
      },
    );
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
    orders,
    onView: (order: Order) => setViewingId(order.id),
    onDispatch: canDispatch ? (order: Order) => openDispatch(order, "row") : undefined,
    onDelete: canManage ? (order: Order) => setDeletingId(order.id) : undefined,
    dispatchingId,
    selectedIds,
    // Ticking is for the packing slips and the bulk dispatch: without the dispatch permission, no boxes.
    onSelect: canDispatch ? select : undefined,
    onSelectAll: canDispatch ? selectAll : undefined,
    currentId: current?.id ?? null,
  };

  const searchBox = (
    <SearchBox
      query={q}
      onSearch={(text) => url.setFilter({ q: text })}
      label="Search orders"
      placeholder="Search orders..."
      title={
        canSeeAddresses
          ? "The start of an order number or @username, a whole customer name or one word of it, a postcode or its first half"
          : "The start of an order number or @username, or a Telegram user id"
      }
      className="min-w-0 flex-1 md:min-w-60"
      inputClassName="w-full"
    />
  );

  return (
    <div className="space-y-6">
      {/* Past the filters to the list: the first row's actions are a few Tab stops from a fresh load (issue 22 item 11). */}
      <SkipLink targetId="orders-list">Skip to the orders list</SkipLink>
      {/* The header, in three rows at every width, each wrapping as a unit (at 768 px the tools used
          to wrap one by one beside and under the title, issue 13): the title with the actions on the
          whole list; finding orders (search, status, sort, dates); the dispatch tools. */}
      <header className="space-y-4" data-testid="orders-header">
        <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
          <div className="min-w-0">
            <h2 className="text-2xl font-bold tracking-tight">Order Management</h2>
            <p className="text-muted-foreground">Track payments and dispatch customer orders</p>
          </div>
          <div className="flex flex-wrap gap-2 md:shrink-0 md:justify-end">
            {/* How the table looks, beside what acts on the whole list: the filters' row has no room left at 1366 px. */}
            {isDesktop && <OrderDensityToggle />}
            {canManage && (
              <Button variant="outline" onClick={runCleanup} disabled={cleanup.isPending}>
                <Timer />
                Cleanup Expired
              </Button>
            )}
            {/* Export takes the filter, whatever is ticked: with "Select all N matching" that is the selection. */}
            {canExport && <ExportButton status={statusFilter} q={q} sort={sort} fromDay={from} toDay={to} />}
            <ShortcutsButton onClick={() => setShortcutsOpen(true)} />
          </div>
        </div>

        {/* From 768 px, one wrapping row whose search takes the room left over; the controls line up
            at the bottom. On a phone, the search beside a Filters button: the status, sort and dates
            wait in its sheet, so the orders start higher (docs/decisions/0028). */}
        {isDesktop ? (
          <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Find orders">
            {searchBox}
            <OrderFilterControls {...filterProps} wide />
          </div>
        ) : (
          <div className="flex items-end gap-2" role="group" aria-label="Find orders">
            {searchBox}
            <OrderFilterSheet
              {...filterProps}
              matching={ordersQuery.data && !ordersQuery.isPlaceholderData ? ordersQuery.data.total : null}
              onClearAll={() => url.setFilter({ status: null, sort: null, from: null, to: null })}
            />
          </div>
        )}

        {/* The sentence, then the buttons together (on their own line when both do not fit). */}
        {canDispatch && (
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center" role="group" aria-label="Dispatch tools">
            <SelectionBar
              tickedCount={selected.length}
              allShownTicked={orders.length > 0 && orders.every((order) => selectedIds.has(order.id))}
              shownCount={orders.length}
              matchingCount={matchingCount}
              allMatching={allMatching}
              onSelectAllMatching={selectAllMatching}
            />
            <div className="flex flex-wrap gap-2">
              {/* Private addresses: unlocking here opens them for the details, View Address, slips and Export. */}
              {orders.some((order) => order.sealedShippingAddress !== null) && <UnlockAddressesButton size="default" showLock />}
              {(selected.length > 0 || allMatching) && (
                <Button variant="ghost" onClick={() => clearSelection()}>
                  <X />
                  Clear selection
                </Button>
              )}
              <Button variant="outline" asChild>
                {/* With nothing ticked: every order Ready to Dispatch. */}
                <Link
                  href={
                    allMatching
                      ? packingSlipsForFilterHref({ status: statusFilter, q, sort, fromDay: from, toDay: to })
                      : packingSlipsHref(selected.map((order) => order.id))
                  }
                >
                  <Printer />
                  Print packing slips
                </Link>
              </Button>
              <Button onClick={() => setConfirmingBulkDispatch(true)} disabled={!readyCount || bulkDispatching}>
                <Truck />
                {bulkDispatching ? "Dispatching..." : `Dispatch selected (${readyCount ?? "…"})`}
              </Button>
            </div>
          </div>
        )}
      </header>

      <Card
        id="orders-list"
        tabIndex={-1}
        role="region"
        aria-label="Orders"
        className="gap-0 py-0 outline-none"
        // A row reached by Tab or a click becomes the current one: the mark follows the focus.
        onFocus={(event) => {
          const id = (event.target as HTMLElement).closest<HTMLElement>("[data-order-id]")?.dataset.orderId;
          if (id) setCurrentId(id);
        }}
      >
        <CardContent className="p-0">
          {ordersQuery.isLoading ? (
            <LoadingRows label="Loading orders..." rows={6} />
          ) : ordersQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(ordersQuery.error)}</p>
          ) : orders.length === 0 ? (
            <div className="py-12 text-center">
              <ShoppingCart className="text-muted-foreground mx-auto mb-3 size-12" />
              <p className="font-medium">No orders found</p>
              <p className="text-muted-foreground text-sm">
                {filtering ? "Try adjusting your filter" : "Orders will appear here when customers make purchases"}
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
        onDispatch={canDispatch ? (order) => openDispatch(order, "details") : undefined}
        dispatching={dispatchingId !== null}
        onComplete={canDispatch ? complete : undefined}
        completing={updateStatus.isPending}
      />

      <DispatchDialog
        order={dispatchingOrder}
        onOpenChange={(open) => !open && setDispatchTarget(null)}
        onDispatch={(order, details) => void runDispatch(order, details)}
        dispatching={dispatchingId !== null}
        onCloseAutoFocus={(event) => {
          // Back to where the dispatch started, whose truck or Mark as Dispatched is gone once the order
          // is dispatched: the row's view button, or the details' next step (Mark as Completed).
          const last = lastDispatch.current;
          if (!last) return;
          event.preventDefault();
          if (last.from === "row") focusOrderRow(last.id);
          else focusWhenPresent("[data-details-next-step]");
        }}
      />

      <AlertDialog open={confirmingBulkDispatch} onOpenChange={setConfirmingBulkDispatch}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Dispatch selected orders</AlertDialogTitle>
            <AlertDialogDescription>
              {readyCount === 1
                ? "1 order Ready to Dispatch will be marked as dispatched, and its customer sent the dispatch message."
                : `${readyCount} orders Ready to Dispatch will be marked as dispatched, and each customer sent the dispatch message.`}
              {selectedCount - (readyCount ?? 0) === 1 && " 1 selected order is not Ready to Dispatch and will be left as it is."}
              {selectedCount - (readyCount ?? 0) > 1 &&
                ` ${selectedCount - (readyCount ?? 0)} selected orders are not Ready to Dispatch and will be left as they are.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => void runBulkDispatch()}>Dispatch</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />

      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && setDeletingId(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete Order</AlertDialogTitle>
            <AlertDialogDescription>
              Are you sure you want to permanently delete this order? This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          {deleting && <p className="text-muted-foreground text-sm">Order #{shortId(deleting.id)}</p>}
          {deleting?.isTest && deleting.status !== "failed" && (
            <p className="text-muted-foreground text-sm">A test order: the stock it holds goes back on sale.</p>
          )}
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
