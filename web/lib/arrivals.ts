import { useSyncExternalStore } from "react";
import { TEST_CUSTOMER_ID, type CustomerMessage, type Order } from "../../contract";

// New orders and customer messages while the dashboard is open (issue 22, item 9): what arrived
// that the owner has not seen yet, counted in the tab's title ("(2) Orders · Shop Admin"), and the
// browser notifications the owner allowed. The arrivals themselves are told apart from what was
// already there by web/hooks/use-arrival-alerts.ts.

export type ArrivalKind = "orders" | "messages";
export type UnseenArrivals = Record<ArrivalKind, number>;

let unseen: UnseenArrivals = { orders: 0, messages: 0 };
const listeners = new Set<() => void>();

function changed(next: UnseenArrivals) {
  unseen = next;
  for (const listener of [...listeners]) listener();
}

export function useUnseenArrivals(): UnseenArrivals {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => unseen,
  );
}

export function addUnseen(kind: ArrivalKind, count: number) {
  if (count > 0) changed({ ...unseen, [kind]: unseen[kind] + count });
}

/** The owner is looking at them: the count of that kind is cleared. */
export function markSeen(kinds: readonly ArrivalKind[]) {
  if (kinds.some((kind) => unseen[kind] > 0)) changed({ ...unseen, ...Object.fromEntries(kinds.map((kind) => [kind, 0])) });
}

/** Which arrivals a screen shows: on it (with the tab in view), they count as seen. */
export function kindsShownOn(path: string): ArrivalKind[] {
  if (path === "/") return ["orders", "messages"]; // Recent Orders and Recent Messages
  if (path === "/orders") return ["orders"];
  if (path === "/messages") return ["messages"];
  return [];
}

/** "(3) Orders · Shop Admin" while 3 arrivals are unseen; the title as it is otherwise. */
export function titleWithUnseen(title: string, arrivals: UnseenArrivals): string {
  const count = arrivals.orders + arrivals.messages;
  return count > 0 ? `(${count}) ${title}` : title;
}

/** The simulator's test customer is the owner: their own test orders and messages are no news. */
export function isArrivalWorthTelling(row: Pick<Order | CustomerMessage, "telegramUserId">): boolean {
  return row.telegramUserId !== TEST_CUSTOMER_ID;
}

// --- Browser notifications (the Notification API), only once the owner allowed them ---

export type NotificationState = "unsupported" | "default" | "granted" | "denied";

export function notificationState(): NotificationState {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** Asks the browser's permission: called only from the owner's click on "Allow notifications", never on load. */
export async function askNotificationPermission(): Promise<NotificationState> {
  if (typeof Notification === "undefined") return "unsupported";
  return Notification.requestPermission();
}

/**
 * A notification for an arrival, when the owner allowed them and is not looking at this tab (a
 * toast on screen already tells one who is). `tag` makes several tabs show it once.
 */
export function notifyArrival(title: string, body: string, tag: string) {
  if (notificationState() !== "granted") return;
  if (document.visibilityState === "visible" && document.hasFocus()) return;
  new Notification(title, { body, tag });
}
