import { Truck } from "lucide-react";
import { useId, useState } from "react";
import { CARRIER_MAX_LENGTH, DISPATCH_NOTE_MAX_LENGTH, dispatchNoticePreview, KNOWN_CARRIERS, type Order, TRACKING_NUMBER_MAX_LENGTH } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { shortId } from "@/lib/screen-helpers";
import { customerLabel } from "./order-bits";
import type { DispatchDetails } from "./use-dispatch-order";

/**
 * Every dispatch goes through this dialog (issue 22): the carrier, the tracking number and a note,
 * all optional (a letter may go untracked), and the customer's message as it will be sent, built by
 * the same rule the server sends it with (contract/dispatch-notice.ts). The carrier list only
 * suggests: any carrier can be typed, and the known ones get a tracking link.
 */
export function DispatchDialog({
  order,
  onOpenChange,
  onDispatch,
  dispatching,
  onCloseAutoFocus,
}: {
  /** The order to dispatch; null closes the dialog. */
  order: Order | null;
  onOpenChange: (open: boolean) => void;
  onDispatch: (order: Order, details: DispatchDetails) => void;
  dispatching: boolean;
  /** Where the focus goes once the dialog has closed (the order's row, or the details dialog). */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={order !== null} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        {/* Keyed by order: each dispatch starts from empty fields. */}
        {order && <DispatchFields key={order.id} order={order} onDispatch={onDispatch} dispatching={dispatching} onCancel={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function DispatchFields({
  order,
  onDispatch,
  dispatching,
  onCancel,
}: {
  order: Order;
  onDispatch: (order: Order, details: DispatchDetails) => void;
  dispatching: boolean;
  onCancel: () => void;
}) {
  const [carrier, setCarrier] = useState("");
  const [trackingNumber, setTrackingNumber] = useState("");
  const [note, setNote] = useState("");
  const carrierId = useId();
  const carriersListId = useId();
  const trackingId = useId();
  const noteId = useId();
  const previewId = useId();
  return (
    <form
      className="grid min-w-0 gap-4"
      aria-label="Dispatch"
      onSubmit={(event) => {
        event.preventDefault();
        onDispatch(order, { carrier, trackingNumber, note });
      }}
    >
      <DialogHeader>
        <DialogTitle>Dispatch order #{shortId(order.id)}</DialogTitle>
        <DialogDescription>To {customerLabel(order)}. They get the message below a few seconds after you confirm; until then you can undo.</DialogDescription>
      </DialogHeader>
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
      <div className="grid gap-1.5">
        <Label htmlFor={noteId}>Note to the customer (optional)</Label>
        <Textarea
          id={noteId}
          value={note}
          maxLength={DISPATCH_NOTE_MAX_LENGTH}
          rows={2}
          placeholder="e.g. Left with your neighbour at no. 3"
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <div className="grid gap-1.5">
        <p id={previewId} className="text-sm font-medium">
          Message to the customer
        </p>
        {/* The real text (plain, as Telegram shows it), wrapped so a long link never widens the dialog. */}
        <output
          aria-labelledby={previewId}
          data-testid="dispatch-preview"
          className="bg-muted/60 block rounded-md border p-3 text-sm break-words whitespace-pre-wrap"
        >
          {dispatchNoticePreview(order.id, { carrier, trackingNumber, note })}
        </output>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={dispatching}>
          <Truck />
          {dispatching ? "Dispatching..." : "Dispatch and notify"}
        </Button>
      </DialogFooter>
    </form>
  );
}
