// The id the Mini App chooses for the order it places, sent with every attempt (contract/storefront.ts
// StorefrontOrderInputSchema orderId; docs/decisions/0039-mini-app-storefront.md). The server makes at
// most one order of an id, so when an answer is lost on the way (the connection dropped after the
// order was made) the customer's second tap finds the first order instead of making a second one.
// One id while the order stays the same (the same lines and total) and its fate is unknown; a new one
// once the shop answered (placed, or refused: nothing is waiting under the old id then) or once the
// order changed. The attempt is kept in this tab's sessionStorage, as the cart is (cart.ts): a reload
// after an order went out with no answer still names that order on the next tap.

export type OrderAttempt = {
  /** The order's id, for this attempt and, while no answer comes, the next ones. */
  id: string;
  /** Whether this id went out before with no answer known: the shop may have made that order already. */
  retry: boolean;
};

type PendingAttempt = { id: string; order: string; sent: boolean };

/** Where the pending attempt outlives the page: this tab's sessionStorage, or a stand-in in tests. */
export type AttemptStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const STORAGE_KEY = "storefront-order-attempt";
/** The server takes UUIDs only (contract/storefront.ts): a stored id of another shape could never name an order. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The stored attempt, or null: nothing stored, storage refused, or anything but the shape this file writes. */
function load(storage: AttemptStorage | null): PendingAttempt | null {
  try {
    const stored = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "null") as Partial<Record<keyof PendingAttempt, unknown>> | null;
    if (typeof stored?.id !== "string" || !UUID.test(stored.id) || typeof stored.order !== "string" || typeof stored.sent !== "boolean") return null;
    return { id: stored.id, order: stored.order, sent: stored.sent };
  } catch {
    return null;
  }
}

function save(storage: AttemptStorage | null, pending: PendingAttempt | null) {
  try {
    if (pending) storage?.setItem(STORAGE_KEY, JSON.stringify(pending));
    else storage?.removeItem(STORAGE_KEY);
  } catch {
    // storage refused (full, or turned off): the attempt lasts as long as the page
  }
}

/** This tab's sessionStorage; null where there is none, or where reading it is refused (storage turned off). */
function tabStorage(): AttemptStorage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function createOrderIds({ newId = () => crypto.randomUUID(), storage = tabStorage() }: { newId?: () => string; storage?: AttemptStorage | null } = {}) {
  let pending = load(storage);
  const keep = (next: PendingAttempt | null) => {
    pending = next;
    save(storage, pending);
  };
  return {
    /** The id to send for `order` (what makes it the same order: its lines and total, as one key). */
    attempt(order: string): OrderAttempt {
      if (pending?.order !== order) keep({ id: newId(), order, sent: false });
      return { id: pending!.id, retry: pending!.sent };
    },
    /** Just before the attempt goes out: from now on its fate is unknown until the shop answers. */
    sending(id: string): void {
      if (pending?.id === id && !pending.sent) keep({ ...pending, sent: true });
    },
    /** The shop answered for this id (placed, found, or refused): the next attempt is a new order. */
    settled(id: string): void {
      if (pending?.id === id) keep(null);
    },
  };
}

/** The page's one: it outlives the checkout screen, and through sessionStorage a reload of the tab. */
export const orderIds = createOrderIds();
