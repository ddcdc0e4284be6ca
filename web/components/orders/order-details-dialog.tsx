import { AlertTriangle, CheckCircle2, ExternalLink, MapPin, Truck } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { itemDisplayName, type Order } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Separator } from "@/components/ui/separator";
import { useCan } from "@/lib/account";
import { useOrderItems, usePostageOptions } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { formatDateTime, formatGBP, missingAddressText, shortId } from "@/lib/screen-helpers";
import { countOf } from "@/lib/utils";
import { useShownAddress } from "@/lib/owner-keys";
import { AddressDialog } from "./address-dialog";
import { OrderActivity } from "./order-activity";
import { OrderHistory } from "./order-history";
import { AdminFlagBadge, customerLabel, OrderStatusBadge, PaymentStatus, TestOrderBadge } from "./order-bits";
import { ADMIN_FLAG_HINTS, coinOf, discountLine, underpaidText } from "./order-money";
import { SealedAddressNotice } from "./sealed-address";
import { SettleActions } from "./order-settle-actions";
import { SendMessagePanel } from "./send-message-panel";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 text-sm">
      <dt className="text-muted-foreground shrink-0">{label}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

function PostageLine({ order }: { order: Order }) {
  // The postage list is the catalogue's: a role without it reads the order's own snapshot only.
  const postageQuery = usePostageOptions(useCan("catalogue"));
  const option = order.postageOptionId ? postageQuery.data?.find((o) => o.id === order.postageOptionId) : undefined;
  let title: string;
  let detail: string | null = null;
  let price: string;
  if (order.postageName) {
    // The snapshot taken at checkout: what the customer chose and paid, even if the option changed or
    // was deleted since (docs/product.md rule 5). The option's description, while it exists, still helps.
    title = option?.description ? `${order.postageName} - ${option.description}` : order.postageName;
    price = formatGBP(order.postagePrice);
  } else if (!order.postageOptionId) {
    title = "No Postage Method Selected";
    detail = "Free shipping or pickup";
    price = formatGBP(0);
  } else if (option) {
    // An order from before snapshots: the option as it is now.
    title = option.description ? `${option.name} - ${option.description}` : option.name;
    if (option.estimatedDays != null) detail = `Estimated ${countOf(option.estimatedDays, "day")}`;
    price = formatGBP(option.price);
  } else {
    // Not in the postage list (not loaded, or deleted); its price is part of the total anyway.
    title = "Selected Postage Method";
    price = "Included";
  }
  return (
    <div className="bg-muted/50 flex items-center justify-between gap-4 rounded-md p-3 text-sm" data-testid="postage-line">
      <div className="flex min-w-0 items-center gap-2">
        <Truck className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-medium">{title}</p>
          {detail && <p className="text-muted-foreground text-xs">{detail}</p>}
        </div>
      </div>
      <p className="font-medium">{price}</p>
    </div>
  );
}

/** "Discount (SUMMER10) −£3.00": what the coupon took off the items (issue 23). */
function DiscountLine({ order }: { order: Order }) {
  const line = discountLine(order);
  if (!line) return null;
  return (
    <div className="flex items-center justify-between gap-4 px-3 text-sm" data-testid="discount-line">
      <p className="min-w-0 break-words">{line.label}</p>
      <p className="shrink-0 font-medium">{line.amount}</p>
    </div>
  );
}

/** What the owner must notice about the money: a short payment, and flags to act on. */
function PaymentAlerts({ order }: { order: Order }) {
  const underpaid = underpaidText(order);
  const flag = order.adminFlag;
  if (!underpaid && !flag) return null;
  return (
    <div className="space-y-2 pt-1">
      {underpaid && (
        <div className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900" data-testid="underpaid">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-medium">{underpaid}</p>
            {order.shortfall && (
              <p className="text-xs">
                Still due: {order.shortfall} {coinOf(order)}
              </p>
            )}
          </div>
        </div>
      )}
      {flag && (
        <div className="flex flex-col items-start gap-1 rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900" data-testid="admin-flag">
          <AdminFlagBadge flag={flag} />
          <p className="text-xs">{ADMIN_FLAG_HINTS[flag]}</p>
        </div>
      )}
    </div>
  );
}

/** How the parcel travels, once the order is dispatched with a carrier or tracking number. */
function ShipmentFields({ order }: { order: Order }) {
  if (!order.carrier && !order.trackingNumber) return null;
  return (
    <>
      {order.carrier && <Field label="Carrier">{order.carrier}</Field>}
      {order.trackingNumber && (
        <Field label="Tracking">
          {order.trackingUrl ? (
            <a
              href={order.trackingUrl}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 font-mono text-xs text-blue-700 underline underline-offset-2 dark:text-blue-400"
            >
              {order.trackingNumber}
              <ExternalLink className="size-3" aria-hidden="true" />
              <span className="sr-only">(opens the carrier's tracking page)</span>
            </a>
          ) : (
            <span className="font-mono text-xs">{order.trackingNumber}</span>
          )}
        </Field>
      )}
    </>
  );
}

export function OrderDetailsDialog({
  order,
  onOpenChange,
  onDispatch,
  dispatching,
  onComplete,
  completing,
}: {
  /** The order shown; null closes the dialog. */
  order: Order | null;
  onOpenChange: (open: boolean) => void;
  /** Opens the dispatch dialog for the order (carrier, tracking number, the customer's message); absent for a role that may not dispatch. */
  onDispatch?: (order: Order) => void;
  dispatching: boolean;
  onComplete?: (order: Order) => void;
  completing: boolean;
}) {
  const itemsQuery = useOrderItems(order?.id ?? null);
  // What the account's role may see and do here (contract/team.ts); the server refuses the rest anyway.
  const canSeeAddress = useCan("orders.addresses");
  const canSettle = useCan("orders.manage");
  const canSeeHistory = useCan("insights");
  const canMessage = useCan("messages");
  const [showAddress, setShowAddress] = useState(false);
  const viewAddressButton = useRef<HTMLButtonElement>(null);
  // Sealed to the owner's key (private addresses), the address shows once this tab is unlocked.
  const shown = useShownAddress(order);
  const address = shown.state === "clear" || shown.state === "opened" ? shown.address : null;
  const sealed = shown.state === "locked" || shown.state === "opening" || shown.state === "unopenable";

  return (
    <Dialog
      open={order !== null}
      onOpenChange={(open) => {
        if (!open) setShowAddress(false);
        onOpenChange(open);
      }}
    >
      <DialogContent className="sm:max-w-3xl">
        {order && (
          <>
            <DialogHeader>
              <DialogTitle>Order Details - #{shortId(order.id)}</DialogTitle>
              <DialogDescription className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
                <span>Placed {formatDateTime(order.createdAt)}</span>
                <OrderStatusBadge status={order.status} />
                <TestOrderBadge isTest={order.isTest} />
              </DialogDescription>
            </DialogHeader>

            <div className="grid gap-4 md:grid-cols-2">
              <section className="space-y-2 rounded-lg border p-4" aria-labelledby="customer-info-heading">
                <h3 id="customer-info-heading" className="font-semibold">
                  Customer Information
                </h3>
                <dl className="space-y-1.5">
                  <Field label="Username">
                    {order.isTest ? customerLabel(order) : order.telegramUsername ? `@${order.telegramUsername}` : order.telegramUserId}
                  </Field>
                  {!canSeeAddress ? (
                    <Field label="Address">
                      <span className="text-muted-foreground" data-testid="address-hidden">
                        Not shown to your role
                      </span>
                    </Field>
                  ) : sealed ? (
                    <Field label="Address">
                      <SealedAddressNotice shown={shown} className="justify-end" />
                    </Field>
                  ) : address || !order.addressErasedAt ? (
                    <>
                      <Field label="Name">{address?.name ?? "-"}</Field>
                      <Field label="Address">{address?.streetAddress ?? "-"}</Field>
                      <Field label="Postcode">{address?.postcode ?? "-"}</Field>
                      {address?.contact && <Field label="Contact">{address.contact}</Field>}
                    </>
                  ) : (
                    <Field label="Address">{missingAddressText(order)}</Field>
                  )}
                  <ShipmentFields order={order} />
                </dl>
              </section>
              <section className="space-y-2 rounded-lg border p-4" aria-labelledby="payment-info-heading">
                <h3 id="payment-info-heading" className="font-semibold">
                  Payment Information
                </h3>
                <dl className="space-y-1.5">
                  <Field label="Method">{order.paymentMethod ? order.paymentMethod.toUpperCase() : "Not specified"}</Field>
                  <Field label="Amount">{formatGBP(order.totalAmount)}</Field>
                  <Field label="Status">
                    <PaymentStatus order={order} data-testid="payment-status" />
                  </Field>
                  <Field label="Payment ID">
                    <span className="font-mono text-xs">{order.paymentId ?? "-"}</span>
                  </Field>
                  {order.payAmount && (
                    <Field label="Crypto amount">
                      {order.payAmount} {coinOf(order)}
                    </Field>
                  )}
                  {order.paidAt && <Field label="Paid">{formatDateTime(order.paidAt)}</Field>}
                </dl>
                <PaymentAlerts order={order} />
              </section>
            </div>

            <section className="space-y-2" aria-labelledby="order-items-heading">
              <h3 id="order-items-heading" className="font-semibold">
                Order Items
              </h3>
              {itemsQuery.isLoading ? (
                <p className="text-muted-foreground text-sm">Loading items...</p>
              ) : itemsQuery.isError ? (
                <p className="text-destructive text-sm">{describeError(itemsQuery.error)}</p>
              ) : (itemsQuery.data ?? []).length === 0 ? (
                <p className="text-muted-foreground text-sm">No items</p>
              ) : (
                <ul className="divide-y rounded-md border">
                  {(itemsQuery.data ?? []).map((item) => (
                    <li key={item.id} className="flex items-center justify-between gap-4 p-3 text-sm" data-testid="order-item">
                      <div className="min-w-0">
                        {/* Wrapped, not cut: on a phone a long product name is what tells the items apart. */}
                        <p className="font-medium break-words">
                          {itemDisplayName(item.productName || `Product ${shortId(item.productId)}`, item.variantLabel)}
                        </p>
                        {/* The variant's SKU as bought (issue 23): what the owner looks for on the shelf. */}
                        {item.sku && (
                          <p className="text-muted-foreground font-mono text-xs break-all" data-testid="order-item-sku">
                            SKU {item.sku}
                          </p>
                        )}
                        <p className="text-muted-foreground text-xs">
                          {item.quantity} × {formatGBP(item.price)}
                        </p>
                      </div>
                      <p className="shrink-0 font-medium">{formatGBP(Number(item.price) * item.quantity)}</p>
                    </li>
                  ))}
                </ul>
              )}
              <DiscountLine order={order} />
              <PostageLine order={order} />
              <Separator />
              <div className="flex items-center justify-between text-base font-semibold">
                <span>Total</span>
                <span data-testid="order-total">{formatGBP(order.totalAmount)}</span>
              </div>
            </section>

            <div className="flex flex-wrap gap-2">
              {onDispatch && order.status === "processing" && (
                <Button onClick={() => onDispatch(order)} disabled={dispatching} data-details-next-step>
                  <Truck />
                  {dispatching ? "Dispatching..." : "Mark as Dispatched"}
                </Button>
              )}
              {onComplete && order.status === "dispatched" && (
                <Button onClick={() => onComplete(order)} disabled={completing} data-details-next-step>
                  <CheckCircle2 />
                  {completing ? "Completing..." : "Mark as Completed"}
                </Button>
              )}
              {canSettle && <SettleActions order={order} />}
              {canSeeAddress && (
                <Button ref={viewAddressButton} variant="outline" onClick={() => setShowAddress(true)}>
                  <MapPin />
                  View Address
                </Button>
              )}
            </div>
            {canSeeAddress && <AddressDialog order={order} open={showAddress} onOpenChange={setShowAddress} opener={viewAddressButton} />}

            <OrderActivity orderId={order.id} />
            {/* The admin history is the activity log's ("insights"). */}
            {canSeeHistory && <OrderHistory orderId={order.id} />}

            {canMessage && <SendMessagePanel key={order.id} order={order} />}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
