import { type SQL, sql } from "drizzle-orm";
import type { DashboardStats } from "../../contract";
import type { DbOrTx } from "../db/client";
import { customerMessages, orders, products } from "../db/schema";

/** Orders whose money arrived (DESIGN decision 6). */
export const PAID_ORDER_STATUSES = ["processing", "dispatched", "completed"] as const;

/**
 * The dashboard's numbers in one SQL query. Revenue counts paid orders whose payment was not
 * refunded (an order refunded after dispatch keeps its status but is no longer money earned), by
 * the time the payment was confirmed (paidAt), not when the order was placed: a short payment
 * accepted days later counts on that day (DESIGN decision 3, docs/decisions/0005). Daily revenue
 * starts at midnight in the shop's time zone, computed by PostgreSQL so summer time changes are
 * handled; weekly revenue covers the 7 days before `now`. Revenues are two-decimal strings
 * ("0.00" when nothing was sold).
 */
export async function getDashboardStats(db: DbOrTx, now: Date, timeZone: string): Promise<DashboardStats> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const midnight = sql`(date_trunc('day', ${at} at time zone ${timeZone}) at time zone ${timeZone})`;
  const paid = sql`${orders.status} in (${sql.join(
    PAID_ORDER_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )}) and ${orders.paymentStatus} is distinct from 'refunded'`;
  const revenue = (since: SQL | null) =>
    sql<string>`coalesce(sum(${orders.totalAmount}) filter (where ${paid}${
      since ? sql` and ${orders.paidAt} >= ${since}` : sql``
    }), 0)::numeric(14, 2)::text`;

  const [row] = await db
    .select({
      totalProducts: sql<number>`(select count(*) from ${products})`.mapWith(Number),
      pendingOrders: sql<number>`count(*) filter (where ${orders.status} = 'pending')`.mapWith(Number),
      processingOrders: sql<number>`count(*) filter (where ${orders.status} = 'processing')`.mapWith(Number),
      unreadMessages: sql<number>`(select count(*) from ${customerMessages}
        where ${customerMessages.isFromCustomer} and not ${customerMessages.isRead})`.mapWith(Number),
      dailyRevenue: revenue(midnight),
      weeklyRevenue: revenue(sql`${at} - interval '7 days'`),
      totalRevenue: revenue(null),
    })
    .from(orders);
  return row!;
}
