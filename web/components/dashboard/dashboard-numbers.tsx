import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowRight, Trophy } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import type { RevenueReport } from "../../../contract";
import { OrderStatusBadge } from "@/components/orders/order-bits";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatGBP } from "@/lib/screen-helpers";
import { cn } from "@/lib/utils";
import { pointLabel } from "./revenue-labels";

// Recharts is large: it loads after the dashboard has painted, into a box of the chart's height.
const RevenueChart = lazy(() => import("./revenue-chart"));

/** The chart's ranges (GET /api/dashboard/revenue's parameters). */
export const REVENUE_PERIODS = [
  { id: "30d", label: "30 days", params: { days: 30 }, caption: "the last 30 days" },
  { id: "90d", label: "90 days", params: { days: 90 }, caption: "the last 90 days" },
  { id: "12m", label: "12 months", params: { months: 12 }, caption: "the last 12 months" },
] as const;
type PeriodId = (typeof REVENUE_PERIODS)[number]["id"];

const CHART_HEIGHT = "h-64";

function plural(count: number, one: string, many: string) {
  return count === 1 ? `1 ${one}` : `${count} ${many}`;
}

export function useRevenueReport(period: PeriodId) {
  const { params } = REVENUE_PERIODS.find((p) => p.id === period)!;
  return useQuery<RevenueReport>({ queryKey: ["/api/dashboard/revenue", params] });
}

/** Issue 13: the revenue chart (30 days, 90 days or 12 months), best sellers and orders by status. */
export function DashboardNumbers({ lowStockProducts }: { lowStockProducts: number }) {
  const [period, setPeriod] = useState<PeriodId>("30d");
  const report = useRevenueReport(period);
  const chosen = REVENUE_PERIODS.find((p) => p.id === period)!;
  const data = report.data;
  const total = data ? data.series.reduce((sum, point) => sum + Math.round(Number(point.revenue) * 100), 0) / 100 : 0;
  const paidOrders = data ? data.series.reduce((sum, point) => sum + point.orders, 0) : 0;
  const summary = `Revenue over ${chosen.caption}: ${formatGBP(total)} from ${plural(paidOrders, "paid order", "paid orders")}.`;

  return (
    <>
      <Card data-testid="revenue-chart">
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle>Revenue</CardTitle>
            <CardDescription data-testid="revenue-summary" aria-live="polite">
              {data ? summary : `Revenue over ${chosen.caption}`}
            </CardDescription>
            {data && (
              // What coupons took off the same paid orders (issue 23): the revenue above is already net of it.
              <p data-testid="discounts-given" aria-live="polite" className="text-muted-foreground text-sm">
                Discounts given <span className="text-foreground font-medium tabular-nums">{formatGBP(data.discountsGiven)}</span>
              </p>
            )}
          </div>
          <div role="group" aria-label="Revenue period" className="bg-muted inline-flex shrink-0 rounded-lg p-1">
            {REVENUE_PERIODS.map((option) => (
              <button
                key={option.id}
                type="button"
                aria-pressed={option.id === period}
                onClick={() => setPeriod(option.id)}
                className={cn(
                  "focus-visible:ring-ring rounded-md px-3 py-1 text-sm font-medium outline-none focus-visible:ring-2",
                  option.id === period ? "bg-background text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
                )}
              >
                {option.label}
              </button>
            ))}
          </div>
        </CardHeader>
        <CardContent>
          <div className={cn(CHART_HEIGHT, "w-full")} aria-hidden="true">
            {report.isError ? (
              <p className="text-destructive py-24 text-center text-sm">The revenue could not be loaded: {report.error.message}</p>
            ) : data ? (
              <Suspense fallback={<ChartPlaceholder />}>
                <RevenueChart series={data.series} unit={data.unit} />
              </Suspense>
            ) : (
              <ChartPlaceholder />
            )}
          </div>
          {data && (
            // Hidden in a div: a table grows to fit its cells whatever its own width says, so a
            // "sr-only" table stuck out of the page and made phones scroll sideways.
            <div className="sr-only">
              <table data-testid="revenue-table">
                <caption>{summary}</caption>
                <thead>
                  <tr>
                    <th scope="col">{data.unit === "month" ? "Month" : "Day"}</th>
                    <th scope="col">Revenue</th>
                    <th scope="col">Paid orders</th>
                  </tr>
                </thead>
                <tbody>
                  {data.series.map((point) => (
                    <tr key={point.date}>
                      <th scope="row">{pointLabel(point.date, data.unit)}</th>
                      <td>{formatGBP(point.revenue)}</td>
                      <td>{point.orders}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>

      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Card data-testid="best-sellers">
          <CardHeader>
            <CardTitle>Best Sellers</CardTitle>
            <CardDescription>Most units sold in {chosen.caption}</CardDescription>
          </CardHeader>
          <CardContent>
            {!data ? (
              <p className="text-muted-foreground py-6 text-center text-sm">Loading best sellers...</p>
            ) : data.bestSellers.length === 0 ? (
              <div className="text-muted-foreground flex flex-col items-center gap-2 py-6 text-sm">
                <Trophy className="size-8 opacity-40" aria-hidden="true" />
                <p>No sales in this period</p>
              </div>
            ) : (
              <ol className="divide-y">
                {data.bestSellers.map((product, index) => (
                  // The figures under the name rather than beside it: in the three-column row a long
                  // name then keeps the card's width instead of being cut or squeezed into a column.
                  <li key={product.productId} className="flex items-start gap-3 py-2.5 first:pt-0 last:pb-0">
                    <span className="bg-muted text-muted-foreground mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold">
                      {index + 1}
                    </span>
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-words" data-testid="best-seller-name">
                        {product.name}
                      </p>
                      <p className="text-muted-foreground text-sm tabular-nums">{`${product.quantity} sold · ${formatGBP(product.revenue)}`}</p>
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>

        <Card data-testid="orders-by-status">
          <CardHeader>
            <CardTitle>Orders by Status</CardTitle>
            <CardDescription>Orders placed in {chosen.caption}</CardDescription>
          </CardHeader>
          <CardContent>
            {!data ? (
              <p className="text-muted-foreground py-6 text-center text-sm">Loading orders...</p>
            ) : (
              <ul className="divide-y">
                {data.ordersByStatus.map((row) => (
                  <li key={row.status} data-status={row.status} className="flex items-center justify-between gap-3 py-2 first:pt-0 last:pb-0">
                    <OrderStatusBadge status={row.status} />
                    <span className="font-semibold tabular-nums">{row.count}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card data-testid="stat-Low Stock" data-alert={lowStockProducts > 0} className={cn(lowStockProducts > 0 && "border-amber-300 bg-amber-50 dark:bg-amber-950/30")}>
          <CardHeader className="flex flex-row items-start justify-between gap-2">
            <div className="space-y-1.5">
              <CardTitle>Low Stock</CardTitle>
              <CardDescription>Active products at or below their low stock alert</CardDescription>
            </div>
            <div className="flex size-8 shrink-0 items-center justify-center rounded-md bg-amber-100 text-amber-800">
              <AlertTriangle className="size-4" aria-hidden="true" />
            </div>
          </CardHeader>
          <CardContent className="space-y-4">
            <p className="text-3xl font-bold tabular-nums" data-testid="low-stock-count">
              {lowStockProducts}
            </p>
            <Button asChild variant="outline" size="sm">
              <Link href="/products?status=low-stock">
                View low stock products
                <ArrowRight />
              </Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function ChartPlaceholder() {
  return <div className="bg-muted/50 size-full animate-pulse rounded-md" />;
}
