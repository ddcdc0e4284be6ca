import { useQueryClient } from "@tanstack/react-query";
import type { BulkDispatch, BulkDispatchResult, Order } from "../../../contract";
import { ToastAction } from "@/components/ui/toast";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";
import { useBulkDispatch, useNotifyDispatch, useUndoDispatch, useUpdateOrderStatus } from "@/lib/queries";
import { shortId } from "@/lib/screen-helpers";

/** What the owner may give with a dispatch (all optional; blank means none). */
export type DispatchDetails = { carrier?: string; trackingNumber?: string; note?: string };

type DispatchOutcome =
  /** Dispatched; the customer's message is held until heldUntil (the undo window), or was sent (null). */
  | { result: "notified"; heldUntil: string | null }
  /** Dispatched, but the message could not be sent or held. */
  | { result: "not-notified" }
  /** The server refused the dispatch (already dispatched, not paid, bad input): nothing changed. */
  | { result: "refused"; error: unknown };

/** "1 order" / "3 orders". */
const count = (n: number, singular: string, plural: string) => `${n} ${n === 1 ? singular : plural}`;

/** How long the Undo stays offered: until the server's hold ends, within sane bounds should the clocks differ. */
const undoToastMs = (heldUntil: string) => Math.min(60_000, Math.max(1_000, new Date(heldUntil).getTime() - Date.now()));

const NOT_NOTIFIED = {
  title: "Order updated but notification failed",
  description: "The order was marked as dispatched, but the customer notification could not be sent.",
  variant: "destructive",
} as const;

/** How many refused orders a bulk dispatch's toast names one by one. */
const MAX_NAMED_REFUSALS = 5;

/** After the undo window: whether the held messages reached their customers (the sender's outcome). */
const LATE_CHECK_MS = 2_500;
/** How many orders the check after the window reads at once. */
const LATE_CHECK_BATCH = 6;

/**
 * docs/product.md §7's dispatch flow: mark the order dispatched, then ask the server to notify the
 * customer. The server holds the message for the undo window (issue 22; docs/decisions/0027): the
 * toast offers Undo until then, and Undo takes the order back to Ready to Dispatch before the
 * customer hears of it. `onUndone` places the focus once the order is back (its row's dispatch button).
 */
export function useDispatchOrder({ onUndone }: { onUndone?: (orderIds: string[]) => void } = {}) {
  const queryClient = useQueryClient();
  const updateStatus = useUpdateOrderStatus();
  const notifyDispatch = useNotifyDispatch();
  const undoDispatch = useUndoDispatch();
  const bulkDispatch = useBulkDispatch();

  const dispatchQuietly = async (orderId: string, details: DispatchDetails = {}): Promise<DispatchOutcome> => {
    const carrier = details.carrier?.trim();
    const trackingNumber = details.trackingNumber?.trim();
    const note = details.note?.trim();
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
      const { heldUntil } = await notifyDispatch.mutateAsync({ id: orderId, ...(note ? { note } : {}) });
      return { result: "notified", heldUntil };
    } catch {
      return { result: "not-notified" };
    }
  };

  /** Once the window has passed: the lists show the outcome, and a message Telegram refused is said. */
  const checkAfterWindow = (orderIds: string[], heldUntil: string) => {
    setTimeout(async () => {
      await queryClient.invalidateQueries({ queryKey: ["/api/orders"] });
      const failedOne = async (id: string) => {
        const [order] = await apiRequest<Order[]>("GET", `/api/orders?q=${encodeURIComponent(id)}`).catch(() => []);
        return order?.id === id && order.dispatchNotice?.state === "failed";
      };
      // A few at a time, and only until one failed (the toast is the same for one or many): a bulk
      // dispatch of hundreds does not read hundreds of orders one after the other.
      for (let at = 0; at < orderIds.length; at += LATE_CHECK_BATCH) {
        const failed = await Promise.all(orderIds.slice(at, at + LATE_CHECK_BATCH).map(failedOne));
        if (failed.includes(true)) {
          toast(NOT_NOTIFIED);
          return;
        }
      }
    }, undoToastMs(heldUntil) + LATE_CHECK_MS);
  };

  const undo = async (orderIds: string[]) => {
    const refused: string[] = [];
    for (const id of orderIds) {
      try {
        await undoDispatch.mutateAsync(id);
      } catch (error) {
        refused.push(orderIds.length === 1 ? describeError(error) : `#${shortId(id)}: ${describeError(error)}`);
      }
    }
    const undone = orderIds.length - refused.length;
    if (refused.length > 0) {
      toast({ title: "Failed to undo the dispatch", description: refused.join(" "), variant: "destructive" });
    } else {
      toast({
        title: "Dispatch undone",
        description:
          orderIds.length === 1
            ? `Order #${shortId(orderIds[0]!)} is Ready to Dispatch again. The customer was not told.`
            : `${count(undone, "order is", "orders are")} Ready to Dispatch again. No customer was told.`,
      });
    }
    onUndone?.(orderIds);
  };

  /** The toast that offers Undo while the messages are held. */
  const heldToast = (title: string, orderIds: string[], heldUntil: string) => {
    const seconds = Math.round(undoToastMs(heldUntil) / 1000);
    toast({
      title,
      description: `${orderIds.length === 1 ? "The customer's message goes" : "The customers' messages go"} out in ${seconds} seconds; Undo puts ${
        orderIds.length === 1 ? "the order" : "them"
      } back to Ready to Dispatch.`,
      duration: undoToastMs(heldUntil),
      action: (
        <ToastAction altText="Undo the dispatch" onClick={() => void undo(orderIds)}>
          Undo
        </ToastAction>
      ),
    });
    checkAfterWindow(orderIds, heldUntil);
  };

  /** One order, with the toasts of docs/product.md §8; answers whether the order is now dispatched. */
  const dispatch = async (orderId: string, details?: DispatchDetails): Promise<boolean> => {
    const outcome = await dispatchQuietly(orderId, details);
    if (outcome.result === "refused") {
      toast({ title: "Failed to update order", description: describeError(outcome.error), variant: "destructive" });
      return false;
    }
    if (outcome.result === "notified" && outcome.heldUntil) {
      heldToast("Order dispatched and customer notified!", [orderId], outcome.heldUntil);
    } else if (outcome.result === "notified") {
      toast({ title: "Order dispatched and customer notified!" });
    } else {
      toast(NOT_NOTIFIED);
    }
    return true;
  };

  /**
   * Several orders in one request (POST /api/orders/bulk-dispatch, issue 22): the ticked ones by id, or
   * every order a filter matches ("Select all N matching"). The server dispatches each one Ready to
   * Dispatch and holds its message, and skips the others with the reason; one toast sums it up (toasts
   * show one at a time, so one per order would hide the rest). Answers whether the request went through.
   */
  const dispatchMany = async (target: BulkDispatch): Promise<boolean> => {
    let result: BulkDispatchResult;
    try {
      result = await bulkDispatch.mutateAsync(target);
    } catch (error) {
      toast({ title: "Failed to dispatch orders", description: describeError(error), variant: "destructive" });
      return false;
    }
    const { dispatched, skipped, notNotified, heldUntil } = result;
    if (skipped.length === 0 && notNotified.length === 0) {
      const title = `${count(dispatched.length, "order", "orders")} dispatched and ${dispatched.length === 1 ? "customer" : "customers"} notified!`;
      if (heldUntil) heldToast(title, dispatched, heldUntil);
      else toast({ title });
      return true;
    }
    // Each refusal is named, up to a few: a toast is no place for a list of hundreds.
    const named = skipped.slice(0, MAX_NAMED_REFUSALS).map(({ id, reason }) => `#${shortId(id)}: ${reason}`);
    if (skipped.length > MAX_NAMED_REFUSALS) named.push(`and ${skipped.length - MAX_NAMED_REFUSALS} more.`);
    const problems = [
      ...(skipped.length > 0 ? [`${count(skipped.length, "order was", "orders were")} not dispatched. ${named.join(" ")}`] : []),
      ...(notNotified.length > 0 ? [`${count(notNotified.length, "customer", "customers")} could not be notified.`] : []),
    ];
    toast({
      title: `Dispatched ${dispatched.length} of ${count(dispatched.length + skipped.length, "order", "orders")}`,
      description: problems.join(" "),
      variant: "destructive",
    });
    if (heldUntil) checkAfterWindow(dispatched, heldUntil);
    return true;
  };

  return { dispatch, dispatchMany, pending: updateStatus.isPending || notifyDispatch.isPending || bulkDispatch.isPending };
}
