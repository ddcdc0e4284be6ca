import { desc, eq } from "drizzle-orm";
import type { OrderStatus } from "../../contract";
import type { DbOrTx } from "../db/client";
import { orders } from "../db/schema";

// What a customer sees of their own orders in the bot.

export type CustomerOrder = {
  id: string;
  createdAt: Date;
  totalAmount: string;
  status: OrderStatus;
  paymentStatus: string | null;
  trackingNumber: string | null;
};

/** The customer's most recent orders, newest first. */
export async function listCustomerOrders(db: DbOrTx, telegramUserId: string, limit = 10): Promise<CustomerOrder[]> {
  const rows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      totalAmount: orders.totalAmount,
      status: orders.status,
      paymentStatus: orders.paymentStatus,
      trackingNumber: orders.trackingNumber,
    })
    .from(orders)
    .where(eq(orders.telegramUserId, telegramUserId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, status: row.status as OrderStatus }));
}

/** The order's status in the customer's words. */
export function describeOrderStatus(order: Pick<CustomerOrder, "status" | "paymentStatus">): string {
  switch (order.status) {
    case "pending":
      if (order.paymentStatus === "partially_paid") return "Partly paid: please send the rest";
      if (order.paymentStatus === "confirming") return "Payment received, confirming";
      return "Awaiting payment";
    case "processing":
      return "Paid, being prepared for dispatch";
    case "dispatched":
      return "Dispatched";
    case "completed":
      return "Completed";
    case "failed":
      return "Cancelled (payment not received)";
    default:
      return order.status;
  }
}
