import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import type { CustomerMessage, Order } from "../../contract";
import { displayName } from "@/components/messages/conversations";
import { ToastAction } from "@/components/ui/toast";
import { toast } from "@/hooks/use-toast";
import { useCan } from "@/lib/account";
import { addUnseen, isArrivalWorthTelling, kindsShownOn, markSeen, notifyArrival } from "@/lib/arrivals";
import { useRecentCustomerMessages, useRecentOrders } from "@/lib/queries";
import { formatGBP, shortId } from "@/lib/screen-helpers";

// Tells the owner of a new order or a new customer message wherever they are in the dashboard
// (issue 22, item 9): a toast, a count in the tab's title until they look at it, and a browser
// notification when allowed. Built on the live updates (use-live-updates.ts): their events reload
// the Dashboard's newest orders and customer messages, kept loaded here, and whatever is newer
// than what was there before is an arrival. Rows present when the app opened are not news.

type Row = { id: string; createdAt: string };

/**
 * The rows of `rows` newer than any seen before; remembers them. The first answer only sets the
 * mark. A row that was merely pushed into view (a newer one deleted) is older than the mark: no news.
 */
function useNewRows<T extends Row>(rows: T[] | undefined, onNew: (fresh: T[]) => void) {
  const mark = useRef<{ newest: number; seen: Set<string> } | null>(null);
  const onNewRef = useRef(onNew);
  useEffect(() => {
    onNewRef.current = onNew;
  });
  useEffect(() => {
    if (!rows) return;
    const times = rows.map((row) => new Date(row.createdAt).getTime());
    if (!mark.current) {
      mark.current = { newest: Math.max(0, ...times), seen: new Set(rows.map((row) => row.id)) };
      return;
    }
    const { newest, seen } = mark.current;
    const fresh = rows.filter((row, index) => !seen.has(row.id) && times[index]! > newest);
    for (const row of rows) seen.add(row.id);
    mark.current.newest = Math.max(newest, ...times);
    if (fresh.length > 0) onNewRef.current(fresh);
  }, [rows]);
}

export function useArrivalAlerts() {
  const [location, navigate] = useLocation();
  // Each role is told of what it may read (contract/team.ts): a packer of orders, support of both.
  const orders = useRecentOrders(useCan("orders.read")).data;
  const messages = useRecentCustomerMessages(useCan("messages")).data;
  const locationRef = useRef(location);
  useEffect(() => {
    locationRef.current = location;
  });

  useNewRows<Order>(orders, (fresh) => {
    const told = fresh.filter(isArrivalWorthTelling);
    if (told.length === 0) return;
    addUnseen("orders", told.length);
    const order = told[0]!;
    const title = told.length === 1 ? "New order" : `${told.length} new orders`;
    const body = `Order #${shortId(order.id)} · ${formatGBP(order.totalAmount)} · ${displayName(order)}`;
    toast({
      title,
      description: body,
      action: (
        <ToastAction altText="View orders" onClick={() => navigate("/orders")}>
          View
        </ToastAction>
      ),
    });
    notifyArrival(title, body, `new-order-${order.id}`);
    seenIfShown(locationRef.current);
  });

  useNewRows<CustomerMessage>(messages, (fresh) => {
    const told = fresh.filter(isArrivalWorthTelling);
    if (told.length === 0) return;
    addUnseen("messages", told.length);
    const message = told[0]!;
    const title = told.length === 1 ? `New message from ${displayName(message)}` : `${told.length} new messages`;
    const text = excerpt(message.message);
    toast({
      title,
      description: text,
      action: (
        <ToastAction altText="Open the conversation" onClick={() => navigate(`/messages?user=${encodeURIComponent(message.telegramUserId)}`)}>
          Open
        </ToastAction>
      ),
    });
    notifyArrival(title, text, `new-message-${message.id}`);
    seenIfShown(locationRef.current);
  });

  // Seen: the screen that shows them is open and the tab is in view (now, or when it comes back).
  useEffect(() => {
    seenIfShown(location);
    const onVisible = () => seenIfShown(locationRef.current);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", onVisible);
    };
  }, [location]);

}

/** A message can be 4096 characters: the toast and the notification show its start. */
const EXCERPT_LENGTH = 140;
function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…` : text;
}

function seenIfShown(path: string) {
  if (document.visibilityState === "visible") markSeen(kindsShownOn(path));
}
