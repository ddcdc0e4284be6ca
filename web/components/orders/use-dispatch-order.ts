import { toast } from "@/hooks/use-toast";
import { useNotifyDispatch, useUpdateOrderStatus } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { shortId } from "@/lib/screen-helpers";

/** What the owner may give with a dispatch (both optional; blank means none). */
export type DispatchDetails = { carrier?: string; trackingNumber?: string };

type DispatchOutcome =
  /** Dispatched, and the customer has their message. */
  | { result: "notified" }
  /** Dispatched, but Telegram did not take the message. */
  | { result: "not-notified" }
  /** The server refused the dispatch (already dispatched, not paid, bad input): nothing changed. */
  | { result: "refused"; error: unknown };

/** "1 order" / "3 orders". */
const count = (n: number, singular: string, plural: string) => `${n} ${n === 1 ? singular : plural}`;

/**
 * docs/product.md §7's dispatch flow: mark the order dispatched, then ask the server to notify the customer.
 * The second step can fail on its own (Telegram unreachable); the order stays dispatched then.
 */
export function useDispatchOrder() {
  const updateStatus = useUpdateOrderStatus();
  const notifyDispatch = useNotifyDispatch();

  const dispatchQuietly = async (orderId: string, details: DispatchDetails = {}): Promise<DispatchOutcome> => {
    const carrier = details.carrier?.trim();
    const trackingNumber = details.trackingNumber?.trim();
    try {
      await updateStatus.mutateAsync({
        id: orderId,
        status: "dispatched",
        ...(carrier ? { carrier } : {}),
        ...(trackingNumber ? { trackingNumber } : {}),
      });
    } catch (error) {
      return { result: "refused", error };
    }
    try {
      await notifyDispatch.mutateAsync(orderId);
      return { result: "notified" };
    } catch {
      return { result: "not-notified" };
    }
  };

  /** One order, with the toasts of docs/product.md §8; answers whether the order is now dispatched. */
  const dispatch = async (orderId: string, details?: DispatchDetails): Promise<boolean> => {
    const outcome = await dispatchQuietly(orderId, details);
    if (outcome.result === "refused") {
      toast({ title: "Failed to update order", description: describeError(outcome.error), variant: "destructive" });
      return false;
    }
    if (outcome.result === "notified") {
      toast({ title: "Order dispatched and customer notified!" });
    } else {
      toast({
        title: "Order updated but notification failed",
        description: "The order was marked as dispatched, but the customer notification could not be sent.",
        variant: "destructive",
      });
    }
    return true;
  };

  /**
   * Several orders, one after the other (each its own request, so one refusal stops nothing else),
   * then one toast that sums up: toasts show one at a time, so one per order would hide the rest.
   */
  const dispatchMany = async (orderIds: string[]): Promise<void> => {
    const refused: string[] = [];
    let notNotified = 0;
    for (const id of orderIds) {
      const outcome = await dispatchQuietly(id);
      if (outcome.result === "refused") refused.push(`#${shortId(id)}: ${describeError(outcome.error)}`);
      if (outcome.result === "not-notified") notNotified += 1;
    }
    const dispatched = orderIds.length - refused.length;
    if (refused.length === 0 && notNotified === 0) {
      toast({
        title: `${count(dispatched, "order", "orders")} dispatched and ${dispatched === 1 ? "customer" : "customers"} notified!`,
      });
      return;
    }
    const problems = [
      ...(refused.length > 0 ? [`${count(refused.length, "order was", "orders were")} not dispatched. ${refused.join(" ")}`] : []),
      ...(notNotified > 0 ? [`${count(notNotified, "customer", "customers")} could not be notified.`] : []),
    ];
    toast({
      title: `Dispatched ${dispatched} of ${count(orderIds.length, "order", "orders")}`,
      description: problems.join(" "),
      variant: "destructive",
    });
  };

  return { dispatch, dispatchMany, pending: updateStatus.isPending || notifyDispatch.isPending };
}
