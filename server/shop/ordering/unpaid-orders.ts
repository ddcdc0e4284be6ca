import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { conflict, type CustomerText } from "../common";
import { countOrdersAwaitingPayment } from "../orders";

// A customer may hold only a few orders waiting for their payment at once (docs/decisions/0040):
// checkout reserves stock for hours, so without a cap one customer could take the whole shop off sale
// by confirming order after order without paying.
//
// The test customer of Bot Preview is held to it too: its orders take real stock, and the owner
// should see the bot answer as a customer would. "Simulate payment" or "Reset test customer" frees
// a place.

/** How many orders waiting for payment (shop/orders awaitingPaymentCondition) one customer may hold. */
export const MAX_UNPAID_ORDERS = 3;

// Customers cannot cancel an order themselves (only the owner can), so the sentence does not offer it.
export const TOO_MANY_UNPAID_ORDERS_MESSAGE =
  `You already have ${MAX_UNPAID_ORDERS} orders waiting for payment. ` +
  "Pay one of them (see My Orders) or wait for one to expire before ordering again.";
/** The same in the customer's language, in the bot and the storefront. */
export const TOO_MANY_UNPAID_ORDERS: CustomerText = { key: "refusal-too-many-unpaid-orders", values: { count: MAX_UNPAID_ORDERS } };

/**
 * Refuses (409) a customer who already holds MAX_UNPAID_ORDERS orders waiting for payment, before
 * they type an address: at the bot's Checkout button and the storefront's quote. Advisory only, and
 * without a lock: an order may still be placed between this and checkout, whose own count
 * (ensureRoomForUnpaidOrder) is the rule.
 */
export async function assertMayOrderMore(db: DbOrTx, telegramUserId: string): Promise<void> {
  if ((await countOrdersAwaitingPayment(db, telegramUserId)) >= MAX_UNPAID_ORDERS) {
    throw conflict(TOO_MANY_UNPAID_ORDERS_MESSAGE, TOO_MANY_UNPAID_ORDERS);
  }
}

/**
 * Inside checkout's transaction, before anything is created: waits for the customer's other
 * checkouts to commit or roll back, then refuses (409) when they already hold MAX_UNPAID_ORDERS
 * orders waiting for payment. The wait is a transaction-level advisory lock on the customer (held
 * until this transaction ends), so parallel checkouts count one after another and never all see
 * room for one more. Its class names this rule (not db/leader.ts's "shop" locks, whose small ids
 * a hash could otherwise meet); two customers whose ids hash alike merely wait for each other.
 */
export async function ensureRoomForUnpaidOrder(tx: DbOrTx, telegramUserId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('unpaid-orders'), hashtext(${telegramUserId}))`);
  await assertMayOrderMore(tx, telegramUserId);
}
