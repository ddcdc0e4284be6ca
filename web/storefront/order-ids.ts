// The id the Mini App chooses for the order it places, sent with every attempt (contract/storefront.ts
// StorefrontOrderInputSchema orderId; docs/decisions/0039-mini-app-storefront.md). The server makes at
// most one order of an id, so when an answer is lost on the way (the connection dropped after the
// order was made) the customer's second tap finds the first order instead of making a second one.
// One id while the order stays the same (the same lines and total) and its fate is unknown; a new one
// once the shop answered (placed, or refused: nothing is waiting under the old id then) or once the
// order changed.

export type OrderAttempt = {
  /** The order's id, for this attempt and, while no answer comes, the next ones. */
  id: string;
  /** Whether this id went out before with no answer known: the shop may have made that order already. */
  retry: boolean;
};

export function createOrderIds(newId: () => string = () => crypto.randomUUID()) {
  let pending: { id: string; order: string; sent: boolean } | null = null;
  return {
    /** The id to send for `order` (what makes it the same order: its lines and total, as one key). */
    attempt(order: string): OrderAttempt {
      if (pending?.order !== order) pending = { id: newId(), order, sent: false };
      return { id: pending.id, retry: pending.sent };
    },
    /** Just before the attempt goes out: from now on its fate is unknown until the shop answers. */
    sending(id: string): void {
      if (pending?.id === id) pending.sent = true;
    },
    /** The shop answered for this id (placed, found, or refused): the next attempt is a new order. */
    settled(id: string): void {
      if (pending?.id === id) pending = null;
    },
  };
}

/** The page's one: it outlives the checkout screen, so going back to the cart and returning keeps it. */
export const orderIds = createOrderIds();
