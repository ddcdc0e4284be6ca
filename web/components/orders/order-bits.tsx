import { Bitcoin, Coins } from "lucide-react";
import type * as React from "react";
import {
  PAID_PAYMENT_STATUSES,
  type PaymentWordsInput,
  paymentStatusWords,
  TEST_CUSTOMER_ID,
  TEST_CUSTOMER_NAME,
  type Order,
  type OrderAdminFlag,
  type OrderStatus,
} from "../../../contract";
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

/** docs/product.md §2: @username, else the user id, else 'Telegram User'. */
export function customerLabel(order: Pick<Order, "telegramUsername" | "telegramUserId">): string {
  if (order.telegramUsername) return `@${order.telegramUsername}`;
  // Bot Preview's test customer has no username; its reserved id would read like a real customer's.
  if (order.telegramUserId === TEST_CUSTOMER_ID) return TEST_CUSTOMER_NAME;
  return order.telegramUserId || "Telegram User";
}

const COIN_LETTERS: Record<string, { text: string; className: string }> = {
  ltc: { text: "Ł", className: "bg-slate-600" },
  xmr: { text: "M", className: "bg-orange-700" },
};

export function PaymentMethod({ method }: { method: string | null }) {
  if (!method) return <span className="text-muted-foreground">N/A</span>;
  const coin = method.toLowerCase();
  const letter = COIN_LETTERS[coin];
  return (
    <span className="inline-flex items-center gap-1 font-medium">
      {coin === "btc" ? (
        <Bitcoin className="size-4 text-orange-500" aria-hidden="true" data-coin-icon="btc" />
      ) : letter ? (
        // Each coin its own mark (issue 13): Litecoin's Ł, Monero's M, as round badges.
        <span
          aria-hidden="true"
          data-coin-icon={coin}
          data-letter={letter.text}
          // The letter is drawn by CSS, so it stays out of the cell's text ("LTC", not "ŁLTC").
          className={cn(
            "inline-flex size-4 items-center justify-center rounded-full text-[10px] leading-none font-bold text-white before:content-[attr(data-letter)]",
            letter.className,
          )}
        />
      ) : (
        <Coins className="size-4 text-orange-500" aria-hidden="true" data-coin-icon="other" />
      )}
      {method.toUpperCase()}
    </span>
  );
}

/**
 * The gateway's status as the owner thinks of it ("Waiting for payment", "Paid", "Underpaid by
 * 0.0004 BTC": contract/payment-words.ts); an order with no payment yet reads "pending"
 * (docs/product.md §2), and a paid one is green (§2: "green if confirmed").
 */
export function paymentStatusText(order: PaymentWordsInput): string {
  return order.paymentStatus ? paymentStatusWords(order) : "pending";
}

export function PaymentStatus({ order, className, ...props }: { order: PaymentWordsInput; className?: string } & React.ComponentProps<"span">) {
  const paid = PAID_PAYMENT_STATUSES.includes(order.paymentStatus ?? "");
  return (
    <span
      className={cn("inline-block first-letter:uppercase", paid ? "font-medium text-green-700 dark:text-green-400" : "text-muted-foreground", className)}
      {...props}
    >
      {paymentStatusText(order)}
    </span>
  );
}

/** An order of Bot Preview's test customer (docs/decisions/0023): paid by simulation, not revenue, deletable. */
export function TestOrderBadge({ isTest }: { isTest: boolean }) {
  if (!isTest) return null;
  return (
    <Badge variant="outline" className="border-amber-400 bg-amber-50 text-amber-950" data-testid="test-order-badge" title="Placed in Bot Preview's chat simulator: no real money, not counted as revenue">
      Test order
    </Badge>
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
