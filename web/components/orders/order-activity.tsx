import { History } from "lucide-react";
import { useOrderEvents } from "@/lib/queries";
import { OrderTimeline } from "./order-timeline";
import { actionLabel, actorLabel } from "./order-money";

/** The order's audit trail: who did what to it, and when (payments, the owner, expiry). */
export function OrderActivity({ orderId }: { orderId: string }) {
  return (
    <OrderTimeline
      id="order-activity-heading"
      icon={History}
      title="Activity"
      query={useOrderEvents(orderId)}
      loadingText="Loading activity..."
      emptyText="No activity yet"
      entryTestId="order-event"
    >
      {(event) => (
        <>
          <p className="font-medium">
            {actionLabel(event.action)} <span className="text-muted-foreground font-normal">by {actorLabel(event.actor)}</span>
          </p>
          {event.detail && <p className="text-muted-foreground text-xs">{event.detail}</p>}
        </>
      )}
    </OrderTimeline>
  );
}
