import { eq } from "drizzle-orm";
import { orders } from "../../db/schema";
import { conflict, notFound, isUuid, shortOrderId } from "../common";
import { simulatedPayment } from "./simulator";
import { applyPaymentUpdate, type PaymentUpdateDeps, type PaymentUpdateResult } from "../payments";

// "Simulate payment" in Bot Preview's chat simulator (docs/decisions/0023-chat-simulator.md): the
// test order's payment is marked paid in full through applyPaymentUpdate, the path every real
// confirmation takes, so stock, statuses, the order's trail, the customer's message and the live
// events behave as in production. It refuses any order that is not a test order (applyPaymentUpdate
// checks that again under the order's lock).

export async function simulatePayment(deps: PaymentUpdateDeps, orderId: string): Promise<PaymentUpdateResult> {
  const [order] = isUuid(orderId) ? await deps.db.select().from(orders).where(eq(orders.id, orderId)) : [];
  if (!order) throw notFound("Order not found.");
  const name = `Order #${shortOrderId(order.id)}`;
  if (!order.isTest) throw conflict(`${name} is a real customer's order: only the test customer's orders can be paid by simulation.`);
  if (!order.paymentId) throw conflict(`${name} has no payment yet.`);
  if (order.status !== "pending") throw conflict(`${name} is ${order.status}: only a pending order waits for its payment.`);
  const result = await applyPaymentUpdate(
    deps,
    simulatedPayment({
      paymentId: order.paymentId,
      orderId: order.id,
      status: "finished",
      payAmount: order.payAmount,
      payCurrency: order.payCurrency,
      priceAmount: order.totalAmount,
      actuallyPaid: order.payAmount,
    }),
    { simulated: true },
  );
  await result.notified;
  return result;
}
