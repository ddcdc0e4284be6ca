import { Truck } from "lucide-react";
import { useId, useState } from "react";
import { CARRIER_MAX_LENGTH, KNOWN_CARRIERS, TRACKING_NUMBER_MAX_LENGTH } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { DispatchDetails } from "./use-dispatch-order";

/**
 * Dispatching from the order's details: the carrier and tracking number are asked for here, both
 * optional (a letter may go untracked). The carrier list only suggests: any carrier can be typed,
 * and the known ones get a tracking link in the customer's message.
 */
export function DispatchForm({ onDispatch, dispatching }: { onDispatch: (details: DispatchDetails) => void; dispatching: boolean }) {
  const [carrier, setCarrier] = useState("");
  const [trackingNumber, setTrackingNumber] = useState("");
  const carrierId = useId();
  const carriersListId = useId();
  const trackingId = useId();
  return (
    <form
      className="space-y-3 rounded-lg border p-4"
      aria-label="Dispatch"
      onSubmit={(event) => {
        event.preventDefault();
        onDispatch({ carrier, trackingNumber });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={carrierId}>Carrier (optional)</Label>
          <Input
            id={carrierId}
            list={carriersListId}
            value={carrier}
            maxLength={CARRIER_MAX_LENGTH}
            placeholder="e.g. Royal Mail"
            autoComplete="off"
            onChange={(event) => setCarrier(event.target.value)}
          />
          <datalist id={carriersListId}>
            {KNOWN_CARRIERS.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={trackingId}>Tracking number (optional)</Label>
          <Input
            id={trackingId}
            value={trackingNumber}
            maxLength={TRACKING_NUMBER_MAX_LENGTH}
            placeholder="e.g. AB123456789GB"
            autoComplete="off"
            onChange={(event) => setTrackingNumber(event.target.value)}
          />
        </div>
      </div>
      <Button type="submit" disabled={dispatching}>
        <Truck />
        {dispatching ? "Dispatching..." : "Mark as Dispatched"}
      </Button>
    </form>
  );
}
