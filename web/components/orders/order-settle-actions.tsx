import { BadgeCheck, XCircle } from "lucide-react";
import { useState } from "react";
import type { Order } from "../../../contract";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { useAcceptPayment, useCancelOrder } from "@/lib/queries";
import { shortId } from "@/lib/screen-helpers";
import { canAcceptPayment, canCancel, coinOf, moneyReceived } from "./order-money";

type Settlement = "accept" | "cancel";

/**
 * The owner settles an order's money (docs/product.md rule 4): accept what arrived (a short payment, or
 * money after expiry) or cancel a pending order. Both ask first; the server has the last word and
 * its sentence is shown when it refuses.
 */
export function SettleActions({ order }: { order: Order }) {
  const acceptPayment = useAcceptPayment();
  const cancelOrder = useCancelOrder();
  // The last action asked for stays chosen while the confirmation closes, so its text does not flip.
  const [settlement, setSettlement] = useState<Settlement>("accept");
  const [confirmOpen, setConfirmOpen] = useState(false);
  const ref = shortId(order.id);
  const pending = acceptPayment.isPending || cancelOrder.isPending;

  if (!canAcceptPayment(order) && !canCancel(order)) return null;

  const ask = (chosen: Settlement) => {
    setSettlement(chosen);
    setConfirmOpen(true);
  };

  const settle = () => {
    setConfirmOpen(false);
    if (settlement === "accept") {
      acceptPayment.mutate(order.id, {
        onSuccess: () => toast({ title: "Payment accepted", description: `Order #${ref} is ready to dispatch.` }),
        onError: (error) => toast({ title: "Failed to accept payment", description: describeError(error), variant: "destructive" }),
      });
    } else {
      cancelOrder.mutate(order.id, {
        onSuccess: (cancelled) =>
          toast({
            title: "Order cancelled",
            description:
              cancelled?.adminFlag === "refund_due"
                ? `Order #${ref} failed and its stock is back on sale. Refund due: money had arrived for it.`
                : `Order #${ref} failed and its stock is back on sale.`,
          }),
        onError: (error) => toast({ title: "Failed to cancel order", description: describeError(error), variant: "destructive" }),
      });
    }
  };

  const received = moneyReceived(order);
  const short = order.paymentStatus === "partially_paid";

  return (
    <>
      {canAcceptPayment(order) && (
        <Button variant="outline" onClick={() => ask("accept")} disabled={pending}>
          <BadgeCheck />
          {acceptPayment.isPending ? "Accepting..." : "Accept payment"}
        </Button>
      )}
      {canCancel(order) && (
        <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => ask("cancel")} disabled={pending}>
          <XCircle />
          {cancelOrder.isPending ? "Cancelling..." : "Cancel order"}
        </Button>
      )}

      <AlertDialog open={confirmOpen} onOpenChange={setConfirmOpen}>
        <AlertDialogContent>
          {settlement === "accept" ? (
            <AlertDialogHeader>
              <AlertDialogTitle>Accept payment for order #{ref}?</AlertDialogTitle>
              <AlertDialogDescription>
                {short
                  ? `Only ${order.actuallyPaid ?? "0"} of ${order.payAmount ?? "?"} ${coinOf(order)} arrived. `
                  : order.status === "failed"
                    ? "The money arrived after the order had failed. "
                    : ""}
                The order becomes Ready to Dispatch and counts as paid.
              </AlertDialogDescription>
            </AlertDialogHeader>
          ) : (
            <AlertDialogHeader>
              <AlertDialogTitle>Cancel order #{ref}?</AlertDialogTitle>
              <AlertDialogDescription>
                The order fails, its stock goes back on sale and the customer is told.
                {received && " Money has arrived for it: the order will be marked Refund due, and the refund is yours to send."}
              </AlertDialogDescription>
            </AlertDialogHeader>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel>{settlement === "cancel" ? "Keep order" : "Go back"}</AlertDialogCancel>
            <AlertDialogAction
              className={settlement === "cancel" ? buttonVariants({ variant: "destructive" }) : undefined}
              onClick={settle}
            >
              {settlement === "cancel" ? "Cancel order" : "Accept payment"}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
