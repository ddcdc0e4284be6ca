import type { RefObject } from "react";
import type { Order } from "../../../contract";
import type { SealableAddress } from "../../../contract/owner-seal";
import { CopyButton } from "@/components/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useShownAddress } from "@/lib/owner-keys";
import { missingAddressText, shortId } from "@/lib/screen-helpers";
import { SealedAddressNotice } from "./sealed-address";

type ShippingAddress = SealableAddress;

/** The lines of a label, in the order they are written on a parcel; contact only when given. */
function addressLines(address: ShippingAddress): { label: string; value: string }[] {
  return [
    { label: "Name", value: address.name },
    { label: "Street address", value: address.streetAddress },
    { label: "Postcode", value: address.postcode },
    ...(address.contact ? [{ label: "Contact", value: address.contact }] : []),
  ];
}

/**
 * The order's shipping address, for writing a label or filling in a carrier's form: each line with
 * its own copy button (carrier forms ask for them one field at a time), and all of it at once.
 */
export function AddressDialog({
  order,
  open,
  onOpenChange,
  opener,
}: {
  order: Order;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened it: focus goes back there on close (the copy buttons' toasts take it meanwhile). */
  opener: RefObject<HTMLButtonElement | null>;
}) {
  // A sealed address (private addresses) shows here once this tab is unlocked.
  const shown = useShownAddress(order);
  const address = shown.state === "clear" || shown.state === "opened" ? shown.address : null;
  const lines = address ? addressLines(address) : [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="sm:max-w-lg"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Shipping Address - #{shortId(order.id)}</DialogTitle>
          <DialogDescription>Copy a line, or the whole address, for the label or the carrier's form.</DialogDescription>
        </DialogHeader>
        {address ? (
          <>
            <address className="divide-y rounded-md border text-sm not-italic" data-testid="shipping-label">
              {lines.map((line) => (
                <div key={line.label} className="flex items-center justify-between gap-3 p-3" role="group" aria-label={line.label}>
                  <div className="min-w-0">
                    <p className="text-muted-foreground text-xs">{line.label}</p>
                    <p className="font-medium break-words">{line.value}</p>
                  </div>
                  <CopyButton text={line.value} successTitle={`${line.label} copied!`} ariaLabel={`Copy ${line.label.toLowerCase()}`} />
                </div>
              ))}
            </address>
            <div className="flex justify-end">
              <CopyButton
                text={lines.map((line) => line.value).join("\n")}
                successTitle="Address copied!"
                label="Copy all"
              />
            </div>
          </>
        ) : shown.state === "none" ? (
          <p className="text-muted-foreground text-sm">{missingAddressText(order)}</p>
        ) : (
          <SealedAddressNotice shown={shown} className="rounded-md border p-3" />
        )}
      </DialogContent>
    </Dialog>
  );
}
