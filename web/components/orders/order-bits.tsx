import { Bitcoin, Coins } from "lucide-react";
import type { Order, OrderAdminFlag, OrderStatus } from "../../../contract";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { ADMIN_FLAG_LABELS } from "./order-money";

export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  dispatched: "Dispatched",
  completed: "Completed",
  failed: "Failed",
};

const STATUS_STYLES: Record<OrderStatus, string> = {
  pending: "bg-amber-100 text-amber-800 border-amber-200",
  processing: "bg-blue-100 text-blue-800 border-blue-200",
  dispatched: "bg-purple-100 text-purple-800 border-purple-200",
  completed: "bg-green-100 text-green-800 border-green-200",
  failed: "bg-red-100 text-red-800 border-red-200",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge variant="outline" className={cn(STATUS_STYLES[status] ?? "", "capitalize")}>
      {STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

/** SPEC §2: @username, else the user id, else 'Telegram User'. */
export function customerLabel(order: Pick<Order, "telegramUsername" | "telegramUserId">): string {
  if (order.telegramUsername) return `@${order.telegramUsername}`;
  return order.telegramUserId || "Telegram User";
}

export function PaymentMethod({ method }: { method: string | null }) {
  if (!method) return <span className="text-muted-foreground">N/A</span>;
  const Icon = method.toLowerCase() === "btc" ? Bitcoin : Coins;
  return (
    <span className="inline-flex items-center gap-1 font-medium">
      <Icon className="size-4 text-orange-500" aria-hidden="true" />
      {method.toUpperCase()}
    </span>
  );
}

export function PaymentStatus({ status }: { status: string | null }) {
  const shown = status || "pending";
  return (
    <span className={cn("text-xs capitalize", shown === "confirmed" ? "font-medium text-green-600" : "text-muted-foreground")}>
      {shown.replace(/_/g, " ")}
    </span>
  );
}

/** "Refund due" / "Refunded after dispatch": something the owner must act on; nothing when no flag. */
export function AdminFlagBadge({ flag }: { flag: OrderAdminFlag | null }) {
  if (!flag) return null;
  return (
    <Badge variant="destructive" data-testid="order-flag">
      {ADMIN_FLAG_LABELS[flag] ?? flag}
    </Badge>
  );
}
