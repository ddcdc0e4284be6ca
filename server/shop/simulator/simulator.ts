import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { TEST_CUSTOMER_ID, TEST_CUSTOMER_NAME, type SimulatorButton, type SimulatorMessage } from "../../../contract/simulator";
import type { Db, DbOrTx } from "../../db/client";
import {
  blockedCustomers,
  botConversations,
  botCustomers,
  cartItems,
  customerMessages,
  erasureRequests,
  orders,
  restockWaits,
  simulatorMessages,
} from "../../db/schema";
import type { GatewayPayment, PaymentGateway } from "../payments";
import { formatPence } from "../catalogue";
import { releaseOrderStock } from "../orders";

// Bot Preview's chat simulator (issue 14, item 1; docs/decisions/0023-chat-simulator.md): the shop's
// side of it. The test customer is a Telegram identity no real customer can have; its orders are test
// orders, paid by simulation (never by the gateway), left out of revenue, the numbers, the customer
// list, broadcasts and owner alerts, and deletable whatever their status.

export { TEST_CUSTOMER_ID, TEST_CUSTOMER_NAME };

/** Whether a Telegram user id is the simulator's test customer. */
export function isTestCustomer(telegramUserId: string | number | null | undefined): boolean {
  return telegramUserId !== null && telegramUserId !== undefined && String(telegramUserId) === TEST_CUSTOMER_ID;
}

/** The test customer's id as SQL text, for the queries that leave it out. */
export const TEST_CUSTOMER_SQL = sql`${TEST_CUSTOMER_ID}`;

// --- The simulated payment ---

/** A simulated payment's id: never a NOWPayments id (those are numbers). */
export const SIMULATED_PAYMENT_PREFIX = "sim-";
/** What the test customer is asked to pay to: plainly not a wallet. */
export const SIMULATED_PAY_ADDRESS = "SIMULATION-ONLY-NOT-A-REAL-ADDRESS";

/** Rough GBP prices of the coins, only to make a simulated amount look like one; nothing is charged. */
const ILLUSTRATIVE_GBP_PER_COIN: Record<string, number> = { btc: 75_000, ltc: 70, xmr: 150 };

/**
 * The "gateway" of the test customer's checkout: answers at once and calls nobody. Checkout picks it
 * for the test customer whatever gateway the server has (shop/ordering/checkout.ts), and for nobody else.
 */
export const simulationGateway: PaymentGateway = {
  name: "simulation",
  isConfigured: async () => true,
  async createPayment(request) {
    const rate = ILLUSTRATIVE_GBP_PER_COIN[request.coin] ?? 100;
    const payAmount = (request.pricePence / 100 / rate).toFixed(8).replace(/0+$/, "").replace(/\.$/, "");
    return simulatedPayment({
      paymentId: SIMULATED_PAYMENT_PREFIX + request.orderId,
      orderId: request.orderId,
      status: "waiting",
      payAmount,
      payCurrency: request.coin,
      priceAmount: formatPence(request.pricePence),
      actuallyPaid: null,
    });
  },
  async getPayment() {
    // Nothing asks: the rescue sweep leaves test orders out (shop/payments/rescue.ts).
    throw new Error("A simulated payment has no gateway to ask.");
  },
  async readNotification() {
    // Nothing posts one: a simulated payment is moved by the simulator alone (docs/decisions/0023).
    return { ok: false, problem: "unsigned", message: "A simulated payment has no notifications." };
  },
};

export function simulatedPayment(fields: {
  paymentId: string;
  orderId: string;
  status: string;
  payAmount: string | null;
  payCurrency: string | null;
  priceAmount: string;
  actuallyPaid: string | null;
}): GatewayPayment {
  return {
    ...fields,
    payAddress: SIMULATED_PAY_ADDRESS,
    priceCurrency: "gbp",
    transactionHash: null,
    expiresAt: null,
    raw: { simulated: true, payment_id: fields.paymentId, payment_status: fields.status, order_id: fields.orderId },
  };
}

/** The test customer's newest order still waiting for its (simulated) payment, if any. */
export async function pendingSimulatedPayment(db: DbOrTx) {
  const [order] = await db
    .select({ orderId: orders.id, totalAmount: orders.totalAmount, payAmount: orders.payAmount, payCurrency: orders.payCurrency })
    .from(orders)
    .where(
      and(
        eq(orders.isTest, true),
        eq(orders.status, "pending"),
        inArray(orders.paymentStatus, ["waiting", "confirming", "partially_paid"]),
        sql`${orders.paymentId} is not null`,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return order ?? null;
}

// --- The simulator's chat ---

type MessageRow = typeof simulatorMessages.$inferSelect;

function toSimulatorMessage(row: MessageRow): SimulatorMessage {
  return {
    messageId: row.messageId,
    fromCustomer: row.fromCustomer,
    text: row.text,
    photo: row.photo,
    keyboard: row.keyboard ?? null,
    edited: row.edited,
    createdAt: row.createdAt.toISOString(),
  };
}

/** How many messages the simulator keeps: the oldest go once there are more (a chat can run long). */
const KEPT_MESSAGES = 200;

export async function listSimulatorMessages(db: DbOrTx): Promise<SimulatorMessage[]> {
  const rows = await db.select().from(simulatorMessages).orderBy(desc(simulatorMessages.messageId)).limit(KEPT_MESSAGES);
  return rows.reverse().map(toSimulatorMessage);
}

export async function getSimulatorMessage(db: DbOrTx, messageId: number): Promise<SimulatorMessage | null> {
  const [row] = await db.select().from(simulatorMessages).where(eq(simulatorMessages.messageId, messageId));
  return row ? toSimulatorMessage(row) : null;
}

export type NewSimulatorMessage = {
  fromCustomer: boolean;
  text: string;
  photo?: string | null;
  keyboard?: SimulatorButton[][] | null;
};

/**
 * Adds a message to the chat and answers its number (the next after the highest, as Telegram counts a
 * chat's messages). The simulator handles one turn at a time (telegram/simulator.ts).
 */
export async function addSimulatorMessage(db: DbOrTx, message: NewSimulatorMessage, now: Date): Promise<number> {
  // A message the shop sends outside a turn (a dispatch notice) may take the same number at the same
  // moment: the later one takes the next number.
  let messageId: number | undefined;
  for (let attempt = 0; messageId === undefined; attempt++) {
    if (attempt === 10) throw new Error("the simulator's chat could not number a message");
    const [row] = await db
      .insert(simulatorMessages)
      .values({
        messageId: sql`(select coalesce(max(${simulatorMessages.messageId}), 0) + 1 from ${simulatorMessages})`,
        fromCustomer: message.fromCustomer,
        text: message.text,
        photo: message.photo ?? null,
        keyboard: message.keyboard ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ messageId: simulatorMessages.messageId });
    messageId = row?.messageId;
  }
  if (messageId > KEPT_MESSAGES * 2) {
    await db.delete(simulatorMessages).where(sql`${simulatorMessages.messageId} <= ${messageId - KEPT_MESSAGES}`);
  }
  return messageId;
}

/** The bot edited a message: its text (or caption) and keyboard change in place. False when there is no such message. */
export async function editSimulatorMessage(
  db: DbOrTx,
  messageId: number,
  change: { text?: string; keyboard?: SimulatorButton[][] | null },
): Promise<boolean> {
  const rows = await db
    .update(simulatorMessages)
    .set({
      ...(change.text !== undefined ? { text: change.text } : {}),
      ...(change.keyboard !== undefined ? { keyboard: change.keyboard } : {}),
      edited: true,
    })
    .where(eq(simulatorMessages.messageId, messageId))
    .returning({ messageId: simulatorMessages.messageId });
  return rows.length > 0;
}

export async function deleteSimulatorMessage(db: DbOrTx, messageId: number): Promise<boolean> {
  const rows = await db.delete(simulatorMessages).where(eq(simulatorMessages.messageId, messageId)).returning({ messageId: simulatorMessages.messageId });
  return rows.length > 0;
}

/** A message the shop sends the test customer outside a turn (payment received, dispatched): into the chat, never to Telegram. */
export async function recordMessageToTestCustomer(db: DbOrTx, text: string, now: Date): Promise<void> {
  await addSimulatorMessage(db, { fromCustomer: false, text }, now);
}

/**
 * "Reset test customer": the test customer starts afresh, as if they had never used the bot. Their
 * chat, conversation step, cart, support messages, broadcast record and restock waits go, and so do
 * their test orders: each as a deletion does it, its stock back on the shelf if it still holds it
 * (a test order's dispatch moved no goods). Real customers are untouched: every statement names the
 * test customer.
 */
export async function resetTestCustomer(db: Db, now: Date): Promise<{ deletedOrders: number }> {
  return db.transaction(async (tx) => {
    const testOrders = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.isTest, true), eq(orders.telegramUserId, TEST_CUSTOMER_ID)))
      .orderBy(asc(orders.id))
      .for("update");
    for (const order of testOrders) {
      await releaseOrderStock(tx, order.id, now);
    }
    if (testOrders.length > 0) {
      await tx.delete(orders).where(inArray(orders.id, testOrders.map((order) => order.id)));
    }
    await tx.delete(simulatorMessages);
    await tx.delete(botConversations).where(eq(botConversations.telegramUserId, TEST_CUSTOMER_ID));
    await tx.delete(cartItems).where(eq(cartItems.telegramUserId, TEST_CUSTOMER_ID));
    await tx.delete(customerMessages).where(eq(customerMessages.telegramUserId, TEST_CUSTOMER_ID));
    await tx.delete(botCustomers).where(eq(botCustomers.telegramUserId, TEST_CUSTOMER_ID));
    await tx.delete(restockWaits).where(eq(restockWaits.telegramUserId, TEST_CUSTOMER_ID));
    await tx.delete(blockedCustomers).where(eq(blockedCustomers.telegramUserId, TEST_CUSTOMER_ID));
    await tx.delete(erasureRequests).where(eq(erasureRequests.telegramUserId, TEST_CUSTOMER_ID));
    return { deletedOrders: testOrders.length };
  });
}
