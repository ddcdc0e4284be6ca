// Payments the owner settles by hand in this browser (issue 13). The server announces every newly
// paid order alike (the order-paid live event), whoever paid it; the paid-order alert in
// web/lib/live.ts is for money arriving from outside (the gateway), so it skips these orders.
// Kept free of imports: web/lib/queries.ts, part of the login screen's chunk, records them.

/**
 * How long an order stays remembered after the owner's request: its order-paid event arrives within
 * a second or so of the write, so this is plenty, and a later real payment is not hidden for long.
 */
const SETTLED_HERE_MS = 30_000;
/** Shared with the browser's other tabs (each has its own event stream and would alert too). */
const SETTLED_HERE_KEY = "shop-admin.orders-settled-here";
/** This tab's own record, for when localStorage is blocked. Order id -> when (ms since epoch). */
const settledInThisTab = new Map<string, number>();

/** Every order settled here recently, from this tab and the others; older entries are dropped. */
function recentlySettled(): Map<string, number> {
  const all = new Map(settledInThisTab);
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SETTLED_HERE_KEY) ?? "{}");
    if (stored && typeof stored === "object") {
      for (const [orderId, at] of Object.entries(stored)) {
        if (typeof at === "number") all.set(orderId, Math.max(at, all.get(orderId) ?? 0));
      }
    }
  } catch {
    // storage blocked or unreadable: this tab's record still counts
  }
  const oldest = Date.now() - SETTLED_HERE_MS;
  for (const [orderId, at] of all) if (at < oldest) all.delete(orderId);
  for (const [orderId, at] of settledInThisTab) if (at < oldest) settledInThisTab.delete(orderId);
  return all;
}

/**
 * The owner is settling this order's payment here. Call it before the request (the event can arrive
 * before the answer) and again after it (so the time counts from the end of a slow request).
 */
export function rememberSettledHere(orderId: string) {
  const now = Date.now();
  settledInThisTab.set(orderId, now);
  const all = recentlySettled();
  all.set(orderId, now);
  try {
    localStorage.setItem(SETTLED_HERE_KEY, JSON.stringify(Object.fromEntries(all)));
  } catch {
    // storage blocked: this tab still knows
  }
}

/** Whether the owner settled this order's payment in this browser in the last few seconds. */
export function wasSettledHere(orderId: string): boolean {
  return recentlySettled().has(orderId);
}
