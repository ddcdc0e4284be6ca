import {
  AlertTriangle,
  ArrowRight,
  Bitcoin,
  Clock,
  Coins,
  MessageSquare,
  Package,
  PoundSterling,
  Truck,
  type LucideIcon,
} from "lucide-react";
import { Link } from "wouter";
import type { Currency, CustomerMessage, Order, SetupChecklist as SetupChecklistAnswer } from "../../contract";
import { DashboardNumbers } from "@/components/dashboard/dashboard-numbers";
import { PAYMENT_GATEWAY_HREF, SetupChecklist } from "@/components/dashboard/setup-checklist";
import { OrderStatusBadge } from "@/components/orders/order-bits";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadingRows } from "@/components/loading-rows";
import {
  DASHBOARD_RECENT_COUNT as RECENT_COUNT,
  useDashboardStats,
  useRecentCustomerMessages,
  useRecentOrders,
  useSetupChecklist,
} from "@/lib/queries";
import { formatDate, formatGBP, shortId } from "@/lib/screen-helpers";
import { cn } from "@/lib/utils";

const PAYMENT_METHODS: { name: string; code: Currency; icon: LucideIcon; color: string }[] = [
  { name: "Bitcoin", code: "BTC", icon: Bitcoin, color: "text-orange-500 bg-orange-50" },
  { name: "Litecoin", code: "LTC", icon: Coins, color: "text-slate-500 bg-slate-100" },
  { name: "Monero", code: "XMR", icon: Coins, color: "text-orange-600 bg-orange-50" },
];

export default function DashboardPage() {
  const stats = useDashboardStats();
  // Only what the cards show (issue 12): the server answers 3 of each, not every order and message.
  const orders = useRecentOrders();
  const messages = useRecentCustomerMessages();
  const setup = useSetupChecklist();

  const s = stats.data;
  const readyToDispatch = s?.processingOrders ?? 0;
  const unread = s?.unreadMessages ?? 0;
  const recentOrders = (orders.data ?? []).slice(0, RECENT_COUNT);
  const recentMessages = (messages.data ?? []).slice(0, RECENT_COUNT);

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Dashboard</h2>
        <p className="text-muted-foreground">An overview of your shop: orders, revenue and customer messages.</p>
      </div>

      {stats.isLoading ? (
        // The heading stays while the figures load (issue 22, item 12).
        <LoadingRows label="Loading dashboard..." rows={5} className="bg-card rounded-xl border" />
      ) : (
        <>
      {stats.isError && (
        <p role="alert" className="border-destructive/30 bg-destructive/5 text-destructive rounded-md border p-3 text-sm">
          The dashboard figures could not be loaded: {stats.error.message}
        </p>
      )}

      {setup.data && <SetupChecklist checklist={setup.data} />}

      {readyToDispatch > 0 && (
        // Its dark-mode colours are a dark red: the light pink glared from a dark page.
        <div
          data-testid="dispatch-banner"
          className="flex flex-col gap-4 rounded-xl border border-red-200 bg-red-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-red-900 dark:bg-red-950/40"
        >
          <div className="flex items-start gap-3">
            <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-100 text-red-600 dark:bg-red-900/60 dark:text-red-300">
              <AlertTriangle className="size-5" />
            </div>
            <div>
              <p className="font-semibold text-red-900 dark:text-red-200">Orders Ready to Dispatch</p>
              <p className="text-sm text-red-700 dark:text-red-300">
                {readyToDispatch === 1
                  ? "You have 1 paid order waiting to be dispatched."
                  : `You have ${readyToDispatch} paid orders waiting to be dispatched.`}
              </p>
            </div>
          </div>
          <Button asChild variant="destructive" className="shrink-0">
            <Link href="/orders">
              View Orders
              <ArrowRight />
            </Link>
          </Button>
        </div>
      )}

      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard title="Total Products" value={s?.totalProducts ?? 0} icon={Package} />
        <StatCard title="Pending Orders" value={s?.pendingOrders ?? 0} icon={Clock} />
        <StatCard title="Ready to Dispatch" value={readyToDispatch} icon={Truck} alert={readyToDispatch > 0} pulse />
        <StatCard title="Unread Messages" value={unread} icon={MessageSquare} alert={unread > 0} />
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        <RevenueCard title="Daily Revenue" value={s?.dailyRevenue} caption="Since midnight" />
        <RevenueCard title="Weekly Revenue" value={s?.weeklyRevenue} caption="Last 7 days" />
        <RevenueCard title="Total Revenue" value={s?.totalRevenue} caption="All time" />
      </div>

      <DashboardNumbers lowStockProducts={s?.lowStockProducts ?? 0} />

      <div className="grid gap-4 lg:grid-cols-2">
        <Card data-testid="recent-orders">
          <CardHeader className="flex flex-row items-center justify-between">
            <div className="space-y-1.5">
              <CardTitle>Recent Orders</CardTitle>
              <CardDescription>The latest orders from your customers</CardDescription>
            </div>
            <Button asChild variant="outline" size="sm">
              <Link href="/orders">View All</Link>
            </Button>
          </CardHeader>
          <CardContent>
            {orders.isLoading ? (
              <LoadingRows label="Loading orders..." rows={3} className="px-0 py-2 sm:px-0" />
            ) : recentOrders.length === 0 ? (
              <EmptyText icon={Package} text="No recent orders" />
            ) : (
              <ul className="divide-y">
                {recentOrders.map((order) => (
                  <RecentOrder key={order.id} order={order} />
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card data-testid="recent-messages">
          <CardHeader className="flex flex-row items-center justify-between">
            <div className="space-y-1.5">
              <CardTitle>Recent Messages</CardTitle>
              <CardDescription>What customers wrote to the bot</CardDescription>
            </div>
            <Button asChild variant="outline" size="sm">
              <Link href="/messages">View All</Link>
            </Button>
          </CardHeader>
          <CardContent>
            {messages.isLoading ? (
              <p className="text-muted-foreground py-6 text-center text-sm">Loading messages...</p>
            ) : recentMessages.length === 0 ? (
              <EmptyText icon={MessageSquare} text="No customer messages" />
            ) : (
              <ul className="divide-y">
                {recentMessages.map((message) => (
                  <RecentMessage key={message.id} message={message} />
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <PaymentMethodsCard setup={setup.data} />
        </>
      )}
    </div>
  );
}

/**
 * Each coin's state from the server (issue 22, item 8), not a promise: Active only when the gateway
 * has its keys and Bot Settings accept the coin; otherwise what is missing, linking to where it is fixed.
 */
function PaymentMethodsCard({ setup }: { setup: SetupChecklistAnswer | undefined }) {
  return (
    <Card data-testid="payment-methods">
      <CardHeader>
        <CardTitle>Payment Methods</CardTitle>
        <CardDescription>Cryptocurrencies your customers can pay with</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-3">
          {PAYMENT_METHODS.map(({ name, code, icon: Icon, color }) => (
            <div key={code} data-testid={`payment-method-${code}`} className="flex items-center justify-between gap-2 rounded-lg border p-3">
              <div className="flex min-w-0 items-center gap-3">
                <div className={cn("flex size-9 shrink-0 items-center justify-center rounded-full", color)}>
                  <Icon className="size-5" />
                </div>
                <span className="text-sm font-medium">{`${name} (${code})`}</span>
              </div>
              <PaymentMethodState setup={setup} code={code} />
            </div>
          ))}
        </div>
        <p className="text-muted-foreground text-sm">Payments are processed securely by NOWPayments.io.</p>
      </CardContent>
    </Card>
  );
}

function PaymentMethodState({ setup, code }: { setup: SetupChecklistAnswer | undefined; code: Currency }) {
  // Nothing is claimed until the server has answered.
  if (!setup) return null;
  if (!setup.paymentGatewayConfigured) {
    return (
      <Link
        href={PAYMENT_GATEWAY_HREF}
        className="shrink-0 rounded-md border border-amber-200 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 hover:underline dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-300"
      >
        Setup needed
      </Link>
    );
  }
  if (!setup.acceptedCurrencies.includes(code)) {
    return (
      <Link href="/bot-settings" className="text-muted-foreground shrink-0 rounded-md border px-2 py-0.5 text-xs font-medium hover:underline">
        Not accepted
      </Link>
    );
  }
  return (
    <Badge variant="outline" className="shrink-0 border-green-200 bg-green-50 text-green-700 dark:border-green-900 dark:bg-green-950/40 dark:text-green-300">
      Active
    </Badge>
  );
}

function StatCard({
  title,
  value,
  icon: Icon,
  alert = false,
  pulse = false,
}: {
  title: string;
  value: number;
  icon: LucideIcon;
  alert?: boolean;
  pulse?: boolean;
}) {
  return (
    <Card data-testid={`stat-${title}`} data-alert={alert} className={cn("gap-2 py-4 sm:py-5", alert && "border-red-200 bg-red-50 dark:border-red-900 dark:bg-red-950/40")}>
      <CardHeader className="flex flex-row items-start justify-between gap-2 px-4 sm:px-5">
        <CardTitle className={cn("text-muted-foreground text-sm font-medium", alert && "text-red-700 dark:text-red-300")}>{title}</CardTitle>
        <div className={cn("bg-muted text-muted-foreground flex size-8 shrink-0 items-center justify-center rounded-md", alert && "bg-red-100 text-red-600 dark:bg-red-900/60 dark:text-red-300")}>
          <Icon className="size-4" />
        </div>
      </CardHeader>
      <CardContent className="flex items-center gap-2 px-4 sm:px-5">
        <span className={cn("text-3xl font-bold tabular-nums", alert && "text-red-700 dark:text-red-300")}>{value}</span>
        {alert && pulse && (
          <span data-testid="pulse-dot" className="relative flex size-2.5">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-400 opacity-75" />
            <span className="relative inline-flex size-2.5 rounded-full bg-red-500" />
          </span>
        )}
      </CardContent>
    </Card>
  );
}

function RevenueCard({ title, value, caption }: { title: string; value: string | undefined; caption: string }) {
  return (
    <Card data-testid={`stat-${title}`} className="gap-2 py-5">
      <CardHeader className="flex flex-row items-center justify-between px-5">
        <CardTitle className="text-muted-foreground text-sm font-medium">{title}</CardTitle>
        <div className="flex size-8 items-center justify-center rounded-md bg-emerald-50 text-emerald-600">
          <PoundSterling className="size-4" />
        </div>
      </CardHeader>
      <CardContent className="px-5">
        <p className="text-3xl font-bold tabular-nums">{formatGBP(value ?? "0.00")}</p>
        <p className="text-muted-foreground text-xs">{caption}</p>
      </CardContent>
    </Card>
  );
}

function RecentOrder({ order }: { order: Order }) {
  return (
    <li className="flex items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
      <div className="min-w-0">
        <p className="font-medium">{`Order #${shortId(order.id)}`}</p>
        <p className="text-muted-foreground text-sm">
          {formatGBP(order.totalAmount)} · {order.paymentMethod ? order.paymentMethod.toUpperCase() : "Pending"} ·{" "}
          {formatDate(order.createdAt)}
        </p>
      </div>
      <OrderStatusBadge status={order.status} />
    </li>
  );
}

function RecentMessage({ message }: { message: CustomerMessage }) {
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <div className="flex items-center justify-between gap-3">
        <p className="truncate font-medium">{message.telegramUsername ? `@${message.telegramUsername}` : message.telegramUserId}</p>
        <div className="flex shrink-0 items-center gap-2">
          <span className="text-muted-foreground text-xs">{formatDate(message.createdAt)}</span>
          {!message.isRead && <span data-testid="unread-dot" role="img" aria-label="Unread" className="size-2 rounded-full bg-blue-500" />}
        </div>
      </div>
      <p className="text-muted-foreground mt-1 line-clamp-2 text-sm">{message.message}</p>
    </li>
  );
}

function EmptyText({ icon: Icon, text }: { icon: LucideIcon; text: string }) {
  return (
    <div className="text-muted-foreground flex flex-col items-center gap-2 py-8 text-sm">
      <Icon className="size-8 opacity-40" />
      <p>{text}</p>
    </div>
  );
}
