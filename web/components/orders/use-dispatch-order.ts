import { toast } from "@/hooks/use-toast";
import { useNotifyDispatch, useUpdateOrderStatus } from "@/lib/queries";
import { describeError } from "@/lib/api";

/**
 * SPEC §7's dispatch flow: mark the order dispatched, then ask the server to notify the customer.
 * The second step can fail on its own (Telegram unreachable); the order stays dispatched then.
 */
export function useDispatchOrder() {
  const updateStatus = useUpdateOrderStatus();
  const notifyDispatch = useNotifyDispatch();

  const dispatch = async (orderId: string): Promise<boolean> => {
    try {
      await updateStatus.mutateAsync({ id: orderId, status: "dispatched" });
    } catch (error) {
      toast({ title: "Failed to update order", description: describeError(error), variant: "destructive" });
      return false;
    }
    toast({ title: "Order updated successfully!" });
    try {
      await notifyDispatch.mutateAsync(orderId);
      toast({ title: "Order dispatched and customer notified!" });
    } catch {
      toast({
        title: "Order updated but notification failed",
        description: "The order was marked as dispatched, but the customer notification could not be sent.",
        variant: "destructive",
      });
    }
    return true;
  };

  return { dispatch, pending: updateStatus.isPending || notifyDispatch.isPending };
}
