import { type SQL, sql } from "drizzle-orm";
import type { DashboardStats } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { customerMessages, orders, products, productVariants } from "../../db/schema";
import { queryRows } from "../../db/rows";

/** Orders whose money arrived (docs/product.md rule 6). */
export const PAID_ORDER_STATUSES = ["processing", "dispatched", "completed"] as const;

/**
 * An order that counts as revenue (the same rule as shop_paid_revenue in drizzle/0005_revenue_totals.sql):
 * paid, not refunded, and not a test order of Bot Preview's simulator (drizzle/0013, docs/decisions/0023).
 */
export const isRevenue = sql`${orders.status} in (${sql.join(
  PAID_ORDER_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)}) and ${orders.paymentStatus} is distinct from 'refunded' and not ${orders.isTest}`;

/**
 * A product at or below its own low-stock threshold (issue 13; the Products "Low stock" filter too); a
 * product with options (issue 23) also when one of its active variants is, as its low-stock alert says.
 */
export const isLowStock = sql`(${products.stock} <= ${products.lowStockThreshold} or (${products.options} <> '[]'::jsonb and exists (
  select 1 from ${productVariants} where ${productVariants.productId} = ${products.id} and ${productVariants.isActive}
     and ${productVariants.stock} <= ${products.lowStockThreshold})))`;

/**
 * The dashboard's numbers in one SQL query, none of which reads every order: the counts by status
 * and the day's and week's revenue are ranges read from indexes alone (schema.ts), and all-time
 * revenue is the running total a trigger keeps (drizzle/0005_revenue_totals.sql; shop/insights/stats.test.ts recounts it).
 * Revenue counts paid orders whose payment was not refunded (an order refunded after dispatch keeps
 * its status but is no longer money earned), by the time the payment was confirmed (paidAt), not when
 * the order was placed: a short payment accepted days later counts on that day (docs/product.md rule 3,
 * docs/decisions/0005). Daily revenue starts at midnight in the shop's time zone, computed by
 * PostgreSQL so summer time changes are handled; weekly revenue covers the 7 days before `now`.
 * Revenues are two-decimal strings ("0.00" when nothing was sold).
 */
export async function getDashboardStats(db: DbOrTx, now: Date, timeZone: string): Promise<DashboardStats> {
  const result = await queryRows<Record<keyof DashboardStats, string | number>>(db, dashboardStatsQuery(now, timeZone));
  const row = result[0]!;
  return {
    totalProducts: Number(row.totalProducts),
    pendingOrders: Number(row.pendingOrders),
    processingOrders: Number(row.processingOrders),
    unreadMessages: Number(row.unreadMessages),
    dailyRevenue: String(row.dailyRevenue),
    weeklyRevenue: String(row.weeklyRevenue),
    totalRevenue: String(row.totalRevenue ?? "0.00"),
    lowStockProducts: Number(row.lowStockProducts),
  };
}

/**
 * The one statement behind getDashboardStats. Each part is answered from an index alone (schema.ts:
 * orders_status_counted_idx, orders_paid_at_revenue_idx; list-indexes.test.ts checks the plan), and the
 * running total is read by its key: a restore or a bulk load leaves many dead versions of its one row.
 */
export function dashboardStatsQuery(now: Date, timeZone: string): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const midnight = sql`(date_trunc('day', ${at} at time zone ${timeZone}) at time zone ${timeZone})`;
  const revenueSince = (since: SQL) =>
    sql<string>`(select coalesce(sum(${orders.totalAmount}), 0)::numeric(14, 2)::text from ${orders}
      where ${orders.paidAt} >= ${since} and ${isRevenue})`;
  const countOf = (status: "pending" | "processing") => sql`(select count(*) from ${orders} where ${orders.status} = ${status} and not ${orders.isTest})`;

  return sql`select
      (select count(*) from ${products})::int as "totalProducts",
      ${countOf("pending")}::int as "pendingOrders",
      ${countOf("processing")}::int as "processingOrders",
      (select count(*) from ${customerMessages} where ${customerMessages.isFromCustomer} and not ${customerMessages.isRead})::int as "unreadMessages",
      ${revenueSince(midnight)} as "dailyRevenue",
      ${revenueSince(sql`${at} - interval '7 days'`)} as "weeklyRevenue",
      (select paid_revenue::numeric(14, 2)::text from shop_totals where id) as "totalRevenue",
      (select count(*) from ${products} where ${products.isActive} and ${isLowStock})::int as "lowStockProducts"`;
}

/** All-time revenue counted the slow way, over every order: what the running total must always equal. */
export async function recountTotalRevenue(db: DbOrTx): Promise<string> {
  const result = await queryRows<{ total: string }>(
    db,
    sql`select coalesce(sum(${orders.totalAmount}) filter (where ${isRevenue}), 0)::numeric(14, 2)::text as total from ${orders}`,
  );
  return result[0]!.total;
}
