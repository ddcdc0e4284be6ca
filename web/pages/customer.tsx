import { ArrowLeft, Ban, Eraser, Eye, MessagesSquare, ShieldCheck, ShoppingCart } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useParams } from "wouter";
import { type Customer, CUSTOMER_MESSAGES_SHOWN, CUSTOMER_ORDERS_SHOWN, type CustomerDetail, type Order } from "../../contract";
import { BlockedBadge } from "@/components/customers/customer-bits";
import { CustomerNotes } from "@/components/customers/customer-notes";
import { useCustomerDetail, useForgetCustomer, useSetCustomerBlocked } from "@/components/customers/queries";
import { CustomerAvatar } from "@/components/messages/conversation-list";
import { displayName } from "@/components/messages/conversations";
import { Bubble } from "@/components/messages/message-thread";
import { OrderStatusBadge, PaymentStatus } from "@/components/orders/order-bits";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { LoadingRows } from "@/components/loading-rows";
import { toast } from "@/hooks/use-toast";
import { IfCan } from "@/lib/account";
import { ApiError, describeError } from "@/lib/api";
import { DESKTOP_QUERY, formatDate, formatDateTime, formatGBP, shortId, useMediaQuery } from "@/lib/screen-helpers";
import { countOf } from "@/lib/utils";

/** The Orders screen searching for this order's whole id, which finds just it. */
const orderLink = (order: Order) => `/orders?q=${order.id}`;

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Card className="gap-1 py-4">
      <CardContent className="px-4">
        <p className="text-muted-foreground text-sm">{label}</p>
        <p className="text-xl font-bold tabular-nums" data-testid={testId}>
          {children}
        </p>
      </CardContent>
    </Card>
  );
}

/** "Block customer" or "Unblock customer", each after a confirmation saying what it does. */
function BlockButton({ customer }: { customer: Customer }) {
  const setBlocked = useSetCustomerBlocked();
  const blocking = !customer.isBlocked;
  const who = displayName(customer);
  const confirm = () =>
    setBlocked.mutate(
      { telegramUserId: customer.telegramUserId, blocked: blocking },
      {
        onSuccess: () => toast({ title: blocking ? `${who} is blocked` : `${who} is unblocked` }),
        onError: (error) =>
          toast({
            title: blocking ? "Failed to block customer" : "Failed to unblock customer",
            description: describeError(error),
            variant: "destructive",
          }),
      },
    );
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant={blocking ? "destructive" : "outline"} disabled={setBlocked.isPending}>
          {blocking ? <Ban /> : <ShieldCheck />}
          {blocking ? "Block customer" : "Unblock customer"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{blocking ? `Block ${who}?` : `Unblock ${who}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {blocking
              ? "The bot will answer everything they send or press only with a polite refusal. Their orders and messages stay as they are. You can unblock them at any time."
              : "The bot will serve them again: they can browse, order and write to you."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={blocking ? buttonVariants({ variant: "destructive" }) : undefined} onClick={confirm}>
            {blocking ? "Block customer" : "Unblock customer"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * "Erase customer data" (issue 15): what /forgetme does, done by the owner for the customer, after a
 * confirmation saying what goes and what stays.
 */
function ForgetButton({ customer }: { customer: Customer }) {
  const forget = useForgetCustomer();
  const who = displayName(customer);
  const confirm = () =>
    forget.mutate(customer.telegramUserId, {
      onSuccess: (result) =>
        toast({
          title: `${who}'s data is erased`,
          description:
            `${countOf(result.addressesErased, "address", "addresses")} and ${countOf(result.messagesErased, "message", "messages")} erased.` +
            (result.addressesKept > 0
              ? ` ${countOf(result.addressesKept, "address", "addresses")} of orders still to be sent will be erased once dispatched.`
              : ""),
        }),
      onError: (error) => toast({ title: "Failed to erase customer data", description: describeError(error), variant: "destructive" }),
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={forget.isPending}>
          <Eraser />
          Erase customer data
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Erase {who}'s data?</AlertDialogTitle>
          <AlertDialogDescription>
            Their delivery addresses, messages and username are erased from every order, as /forgetme does, and your note about them is deleted. An order still awaiting
            payment or dispatch keeps its address until it is dispatched. Amounts, items and statuses stay for your accounts. This
            cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={confirm}>
            Erase customer data
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function OrderRows({ orders }: { orders: Order[] }) {
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  if (isDesktop) {
    return (
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="pl-4">Order ID</TableHead>
            <TableHead>Date</TableHead>
            <TableHead className="text-right">Total</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="pr-4 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {orders.map((order) => (
            <TableRow key={order.id} data-testid="customer-order">
              <TableCell className="pl-4 font-mono font-medium">#{shortId(order.id)}</TableCell>
              <TableCell>{formatDate(order.createdAt)}</TableCell>
              <TableCell className="text-right font-medium tabular-nums">{formatGBP(order.totalAmount)}</TableCell>
              <TableCell>
                <div className="flex flex-wrap items-center gap-2">
                  <OrderStatusBadge status={order.status} />
                  <PaymentStatus order={order} className="text-xs" data-testid="customer-order-payment" />
                </div>
              </TableCell>
              <TableCell className="pr-4 text-right">
                <Button variant="ghost" size="icon" asChild>
                  <Link href={orderLink(order)} aria-label={`View order ${shortId(order.id)}`} title="View in Orders">
                    <Eye />
                  </Link>
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }
  return (
    <ul className="divide-y">
      {orders.map((order) => (
        <li key={order.id} className="flex items-center justify-between gap-2 p-4" data-testid="customer-order">
          <div className="min-w-0">
            <p className="font-mono font-medium">#{shortId(order.id)}</p>
            <p className="text-muted-foreground text-xs">{formatDate(order.createdAt)}</p>
            <PaymentStatus order={order} className="text-xs" data-testid="customer-order-payment" />
          </div>
          <div className="flex items-center gap-2">
            <span className="font-medium tabular-nums">{formatGBP(order.totalAmount)}</span>
            <OrderStatusBadge status={order.status} />
            <Button variant="ghost" size="icon" asChild>
              <Link href={orderLink(order)} aria-label={`View order ${shortId(order.id)}`}>
                <Eye />
              </Link>
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function OrdersCard({ detail }: { detail: CustomerDetail }) {
  const { customer, orders } = detail;
  return (
    <Card className="gap-0 py-0">
      <CardHeader className="flex flex-row items-center justify-between border-b px-4 py-3 [.border-b]:pb-3">
        <CardTitle className="text-base">Orders</CardTitle>
        {customer.ordersCount > orders.length && (
          <span className="text-muted-foreground text-xs">
            Latest {CUSTOMER_ORDERS_SHOWN} of {customer.ordersCount}
          </span>
        )}
      </CardHeader>
      <CardContent className="p-0">
        {orders.length === 0 ? (
          <div className="py-10 text-center">
            <ShoppingCart className="text-muted-foreground mx-auto mb-2 size-10" aria-hidden="true" />
            <p className="text-muted-foreground text-sm">No orders yet</p>
          </div>
        ) : (
          <OrderRows orders={orders} />
        )}
      </CardContent>
    </Card>
  );
}

function ConversationCard({ detail }: { detail: CustomerDetail }) {
  const { customer, messages } = detail;
  return (
    <Card className="gap-0 py-0">
      <CardHeader className="flex flex-row items-center justify-between border-b px-4 py-3 [.border-b]:pb-3">
        <CardTitle className="text-base">Conversation</CardTitle>
        <IfCan permission="messages">
          <Link href={`/messages?user=${customer.telegramUserId}`} className="text-primary text-sm font-medium hover:underline">
            Reply in Messages
          </Link>
        </IfCan>
      </CardHeader>
      <CardContent className="p-0">
        {customer.messagesCount > messages.length && (
          <p className="text-muted-foreground border-b px-4 py-2 text-xs">
            The latest {CUSTOMER_MESSAGES_SHOWN} of {customer.messagesCount} messages
          </p>
        )}
        {messages.length === 0 ? (
          <div className="py-10 text-center">
            <MessagesSquare className="text-muted-foreground mx-auto mb-2 size-10" aria-hidden="true" />
            <p className="text-muted-foreground text-sm">No messages yet</p>
          </div>
        ) : (
          <div className="max-h-[480px] space-y-3 overflow-y-auto p-4" role="log" aria-label="Conversation" tabIndex={0}>
            {messages.map((message) => (
              <Bubble key={message.id} message={message} />
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export default function CustomerPage() {
  const { telegramUserId = "" } = useParams<{ telegramUserId: string }>();
  const detailQuery = useCustomerDetail(telegramUserId);
  const back = (
    <Link href="/customers" className="text-muted-foreground hover:text-foreground inline-flex items-center gap-1 text-sm">
      <ArrowLeft className="size-4" aria-hidden="true" />
      Customers
    </Link>
  );

  if (detailQuery.isLoading) {
    return (
      <div className="space-y-4">
        {back}
        <LoadingRows label="Loading customer..." />
      </div>
    );
  }
  if (!detailQuery.data) {
    const missing = detailQuery.error instanceof ApiError && (detailQuery.error.status === 404 || detailQuery.error.status === 400);
    return (
      <div className="space-y-4">
        {back}
        <p className={missing ? "py-12 text-center font-medium" : "text-destructive py-12 text-center"}>
          {missing ? "Customer not found" : describeError(detailQuery.error)}
        </p>
      </div>
    );
  }

  const { customer } = detailQuery.data;
  return (
    <div className="space-y-6">
      {back}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-center gap-4">
          <CustomerAvatar customer={customer} />
          <div className="min-w-0">
            <h2 className="flex flex-wrap items-center gap-2 text-2xl font-bold tracking-tight break-all" data-testid="customer-title">
              {displayName(customer)}
              {customer.isBlocked && <BlockedBadge />}
            </h2>
            <p className="text-muted-foreground text-sm">
              {customer.name ? `${customer.name} · ` : ""}Telegram ID {customer.telegramUserId}
              {customer.blockedAt && ` · blocked ${formatDateTime(customer.blockedAt)}`}
            </p>
          </div>
        </div>
        {/* Erasing and blocking change the customer: "customers.manage" (contract/team.ts), not support's reading. */}
        <IfCan permission="customers.manage">
          <div className="flex flex-col gap-2 sm:flex-row">
            <ForgetButton customer={customer} />
            <BlockButton customer={customer} />
          </div>
        </IfCan>
      </div>

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Orders" testId="stat-orders">
          {customer.ordersCount}
        </Stat>
        <Stat label="Total spent" testId="stat-spent">
          {formatGBP(customer.totalSpent)}
        </Stat>
        <Stat label="Last order">{customer.lastOrderAt ? formatDate(customer.lastOrderAt) : "Never"}</Stat>
        <Stat label="Unread" testId="stat-unread">
          {countOf(customer.unreadCount, "message")}
        </Stat>
      </div>

      <CustomerNotes key={customer.telegramUserId} telegramUserId={customer.telegramUserId} />

      <div className="grid gap-6 xl:grid-cols-2">
        <OrdersCard detail={detailQuery.data} />
        <ConversationCard detail={detailQuery.data} />
      </div>
    </div>
  );
}
