import { History } from "lucide-react";
import { describeError } from "@/lib/api";
import { useOrderEvents } from "@/lib/queries";
import { formatDateTime } from "@/lib/screen-helpers";
import { actionLabel, actorLabel } from "./order-money";

/** The order's audit trail: who did what to it, and when (payments, the owner, expiry). */
export function OrderActivity({ orderId }: { orderId: string }) {
  const eventsQuery = useOrderEvents(orderId);
  const events = eventsQuery.data ?? [];
  return (
    <section className="space-y-2" aria-labelledby="order-activity-heading">
      <h3 id="order-activity-heading" className="flex items-center gap-2 font-semibold">
        <History className="text-muted-foreground size-4" aria-hidden="true" />
        Activity
      </h3>
      {eventsQuery.isLoading ? (
        <p className="text-muted-foreground text-sm">Loading activity...</p>
      ) : eventsQuery.isError ? (
        <p className="text-destructive text-sm">{describeError(eventsQuery.error)}</p>
      ) : events.length === 0 ? (
        <p className="text-muted-foreground text-sm">No activity yet</p>
      ) : (
        <ol className="divide-y rounded-md border">
          {events.map((event) => (
            <li key={event.id} className="flex flex-col gap-0.5 p-3 text-sm sm:flex-row sm:gap-4" data-testid="order-event">
              <time dateTime={event.createdAt} className="text-muted-foreground shrink-0 text-xs sm:w-36 sm:pt-0.5">
                {formatDateTime(event.createdAt)}
              </time>
              <div className="min-w-0 break-words">
                <p className="font-medium">
                  {actionLabel(event.action)} <span className="text-muted-foreground font-normal">by {actorLabel(event.actor)}</span>
                </p>
                {event.detail && <p className="text-muted-foreground text-xs">{event.detail}</p>}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
