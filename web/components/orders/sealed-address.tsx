import { KeyRound, Lock, LockOpen } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { useCan } from "@/lib/account";
import { cn } from "@/lib/utils";
import { useOwnerKeys, type ShownAddress } from "@/lib/owner-keys";

// Private addresses (docs/decisions/0025): where an address is shown, a sealed one says so and offers
// to unlock; the passphrase is asked for here and goes no further than this page's memory.

/** "Sealed: unlock to read", as every screen that shows an address says it. */
export const SEALED_TEXT = "Sealed: unlock to read";
/**
 * What the other roles read instead: the keys are the owner's alone ("privacy", contract/team.ts), so
 * a manager or packer cannot unlock, and is not offered to.
 */
export const SEALED_FOR_OWNER_TEXT = "Sealed: only the owner can read it";

/** Asks for the passphrase and unlocks the owner's keys for this browser tab until reload or logout. */
export function UnlockDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { unlock } = useOwnerKeys();
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const close = (next: boolean) => {
    if (!next) {
      setPassphrase("");
      setError(null);
    }
    onOpenChange(next);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const opened = await unlock(passphrase);
      toast({ title: "Addresses unlocked", description: opened > 1 ? `${opened} keys unlocked until you reload or log out.` : "Until you reload the page or log out." });
      close(false);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Unlock addresses</DialogTitle>
          <DialogDescription>
            Your passphrase opens the sealed addresses in this browser tab only. It is not sent to the shop, and it is forgotten when you reload or
            log out.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <div className="space-y-2">
            <Label htmlFor={`${id}-passphrase`}>Passphrase</Label>
            <Input
              id={`${id}-passphrase`}
              type="password"
              autoComplete="current-password"
              value={passphrase}
              onChange={(event) => setPassphrase(event.target.value)}
              aria-invalid={error !== null}
              aria-describedby={error ? `${id}-error` : undefined}
              autoFocus
            />
            {error && (
              <p id={`${id}-error`} role="alert" className="text-destructive text-sm">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="submit" disabled={busy || passphrase === ""}>
              <LockOpen />
              {busy ? "Unlocking..." : "Unlock"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The "Unlock addresses" button with its dialog; "Lock addresses" once unlocked (when `showLock`). */
export function UnlockAddressesButton({ size = "sm", showLock = false, className }: { size?: "sm" | "default"; showLock?: boolean; className?: string }) {
  const { keys, lock } = useOwnerKeys();
  const [open, setOpen] = useState(false);
  const canUnlock = useCan("privacy");
  if (!canUnlock) return null;
  if (keys.size > 0 && showLock) {
    return (
      <Button
        type="button"
        variant="outline"
        size={size}
        className={className}
        onClick={() => {
          lock();
          toast({ title: "Addresses locked" });
        }}
      >
        <Lock />
        Lock addresses
      </Button>
    );
  }
  return (
    <>
      <Button type="button" variant="outline" size={size} className={className} onClick={() => setOpen(true)}>
        <KeyRound />
        Unlock addresses
      </Button>
      <UnlockDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

/** What stands where a sealed address would: locked (with the unlock button), opening, or not openable. */
export function SealedAddressNotice({ shown, className }: { shown: ShownAddress; className?: string }) {
  const canUnlock = useCan("privacy");
  if (shown.state === "locked") {
    return (
      <div className={cn("flex flex-wrap items-center gap-2 text-sm", className)} data-testid="sealed-address">
        <span className="inline-flex items-center gap-1.5 font-medium">
          <Lock className="size-4" aria-hidden="true" />
          {canUnlock ? SEALED_TEXT : SEALED_FOR_OWNER_TEXT}
        </span>
        <UnlockAddressesButton />
      </div>
    );
  }
  if (shown.state === "opening") {
    return (
      <p className={cn("text-muted-foreground text-sm", className)} role="status">
        Opening the sealed address...
      </p>
    );
  }
  if (shown.state === "unopenable") {
    return (
      <p className={cn("text-destructive text-sm", className)} role="alert" data-testid="sealed-address-error">
        {shown.message}
      </p>
    );
  }
  return null;
}
