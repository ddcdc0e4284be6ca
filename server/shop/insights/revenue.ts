import { sql } from "drizzle-orm";
import { ORDER_STATUSES, type RevenueQuery, type RevenueReport } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { orderItems, orders } from "../../db/schema";
import { queryRows } from "../../db/rows";
import { isRevenue } from "./stats";

const BEST_SELLERS = 5;

/**
 * The dashboard's chart (issue 13): revenue and paid orders for every day (or month) of the range,
 * empty ones included (generate_series), in the shop's time zone, ending with today (or this month).
 * Revenue is the dashboard's rule (stats.ts `isRevenue`): paid, non-refunded orders, by paidAt, net of
 * their coupons' discounts, which are summed over the same orders as discountsGiven. Best sellers are
 * the products (every variant of one together) with the most units in those orders, their revenue
 * the lines at the prices sold, before the order's discount (docs/decisions/0030); orders by status
 * counts the orders placed (createdAt) in the range, whatever became of them.
 */
export async function getRevenueReport(db: DbOrTx, query: RevenueQuery, now: Date, timeZone: string): Promise<RevenueReport> {
  const unit = query.months !== undefined ? "month" : "day";
  const count = query.months ?? query.days ?? 30;
  const step = sql.raw(unit === "month" ? "interval '1 month'" : "interval '1 day'");
  const format = unit === "month" ? "YYYY-MM" : "YYYY-MM-DD";
  // Local wall-clock timestamps: the first bucket, the last one and the end of the range.
  const at = sql`${now.toISOString()}::timestamptz`;
  const last = sql`date_trunc(${unit}, ${at} at time zone ${timeZone})`;
  const first = sql`(${last} - ${count - 1}::int * ${step})`;
  // The same bounds as instants (summer time handled by PostgreSQL).
  const from = sql`(${first} at time zone ${timeZone})`;
  const to = sql`((${last} + ${step}) at time zone ${timeZone})`;

  const series = await queryRows<{ date: string; revenue: string; orders: number }>(db, sql`
    with buckets as (select generate_series(${first}, ${last}, ${step}) as bucket),
    sales as (
      select date_trunc(${unit}, ${orders.paidAt} at time zone ${timeZone}) as bucket,
        sum(${orders.totalAmount}) as revenue, count(*) as orders
      from ${orders}
      where ${isRevenue} and ${orders.paidAt} >= ${from} and ${orders.paidAt} < ${to}
      group by 1
    )
    select to_char(buckets.bucket, ${format}) as date,
      coalesce(sales.revenue, 0)::numeric(14, 2)::text as revenue,
      coalesce(sales.orders, 0)::int as orders
    from buckets left join sales on sales.bucket = buckets.bucket
    order by buckets.bucket`);

  const [discounts] = await queryRows<{ given: string }>(db, sql`
    select coalesce(sum(${orders.discountAmount}), 0)::numeric(14, 2)::text as given
    from ${orders}
    where ${isRevenue} and ${orders.paidAt} >= ${from} and ${orders.paidAt} < ${to}`);

  const bestSellers = await queryRows<{ productId: string; name: string | null; quantity: number; revenue: string }>(db, sql`
    select ${orderItems.productId} as "productId",
      (array_agg(${orderItems.productName} order by ${orders.paidAt} desc))[1] as name,
      sum(${orderItems.quantity})::int as quantity,
      sum(${orderItems.price} * ${orderItems.quantity})::numeric(14, 2)::text as revenue
    from ${orderItems} join ${orders} on ${orders.id} = ${orderItems.orderId}
    where ${isRevenue} and ${orders.paidAt} >= ${from} and ${orders.paidAt} < ${to}
    group by ${orderItems.productId}
    order by quantity desc, sum(${orderItems.price} * ${orderItems.quantity}) desc, ${orderItems.productId}
    limit ${BEST_SELLERS}`);

  const byStatus = await queryRows<{ status: string; count: number }>(db, sql`
    select ${orders.status} as status, count(*)::int as count from ${orders}
    where ${orders.createdAt} >= ${from} and ${orders.createdAt} < ${to} and not ${orders.isTest}
    group by ${orders.status}`);
  const counts = new Map(byStatus.map((row) => [row.status, Number(row.count)]));

  return {
    unit,
    series: series.map((row) => ({ date: row.date, revenue: String(row.revenue), orders: Number(row.orders) })),
    discountsGiven: String(discounts?.given ?? "0.00"),
    bestSellers: bestSellers.map((row) => ({
      productId: row.productId,
      name: row.name ?? "Deleted product",
      quantity: Number(row.quantity),
      revenue: String(row.revenue),
    })),
    ordersByStatus: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
  };
}
