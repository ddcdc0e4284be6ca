import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect } from "react";
import type { LiveEventName } from "../../contract";
import { alertOrderPaid, connectLiveEvents, parseOrderPaid } from "@/lib/live";
import { useCan } from "@/lib/account";
import { queryKeys, useDashboardStats, useOrderCount, useUnreadCount } from "@/lib/queries";

// What each live event reloads (react-query refetches the lists on screen now and marks the rest
// stale). A prefix covers every key under it: ["/api/orders"] is the Orders pages, Recent Orders,
// an open order's items and history.

/** The Customers screen's lists (orders count, total spent, unread messages, blocked). */
const CUSTOMER_LISTS: QueryKey = ["/api/customers"];

const RELOADS: Partial<Record<LiveEventName, readonly QueryKey[]>> = {
  orders: [queryKeys.orders, queryKeys.dashboardStats, ["/api/dashboard/revenue"], queryKeys.setupChecklist, CUSTOMER_LISTS],
  messages: [queryKeys.messages, queryKeys.conversations, ["/api/messages/user"], queryKeys.unreadCount, queryKeys.dashboardStats, CUSTOMER_LISTS],
  customers: [CUSTOMER_LISTS],
  coupons: [["/api/coupons"]],
};

/** Keeps the signed-in app's lists current from GET /api/events; call once, in the signed-in shell. */
export function useLiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      connectLiveEvents((name, data) => {
        if (name === "resync") {
          void queryClient.invalidateQueries();
          return;
        }
        if (name === "order-paid") {
          const order = parseOrderPaid(data);
          if (order) alertOrderPaid(order);
          return;
        }
        for (const queryKey of RELOADS[name] ?? []) void queryClient.invalidateQueries({ queryKey });
      }),
    [queryClient],
  );
}

export type NavBadge = { count: number; label: string };

/**
 * The sidebar's counts, from the dashboard's stats (kept current by the events above): orders
 * Ready to Dispatch beside Orders, unread customer messages beside Messages. Nothing while loading.
 * A role without the dashboard ("insights": packer, support) counts what it may read itself: the
 * orders Ready to Dispatch, or the unread messages (reloaded by the same events).
 */
export function useLiveNavBadges(): Partial<Record<string, NavBadge>> {
  const canInsights = useCan("insights");
  const canOrders = useCan("orders.read");
  const canMessages = useCan("messages");
  const stats = useDashboardStats(canInsights).data;
  const readyOrders = useOrderCount({ status: "processing" }, !canInsights && canOrders);
  const unread = useUnreadCount(!canInsights && canMessages).data?.count ?? null;
  const badges: Partial<Record<string, NavBadge>> = {};
  const ready = stats?.processingOrders ?? readyOrders;
  const unreadMessages = stats?.unreadMessages ?? unread;
  if (ready !== null && ready !== undefined) badges["/orders"] = { count: ready, label: "ready to dispatch" };
  if (unreadMessages !== null && unreadMessages !== undefined) badges["/messages"] = { count: unreadMessages, label: "unread" };
  return badges;
}
