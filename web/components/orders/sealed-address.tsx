import { useQueryClient } from "@tanstack/react-query";
import { KeyRound, Lock, LockOpen } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { useCan } from "@/lib/account";
import { cn } from "@/lib/utils";
import { describeError } from "@/lib/api";
import {
  ASK_OWNER_TEXT,
  MY_GRANTS_KEY,
  useIsOwner,
  useMayUnlock,
  useMyGrants,
  useMySealKey,
  useOwnerKeys,
  type ShownAddress,
} from "@/lib/owner-keys";
import { AskOwnerForAccess, CheckKeyForm, SetUpKeyForm } from "./staff-key";

// Private addresses (docs/decisions/0025): where an address is shown, a sealed one says so and offers
// to unlock; the passphrase is asked for here and goes no further than this page's memory.

/** "Sealed: unlock to read", as every screen that shows an address says it. */
export const SEALED_TEXT = "Sealed: unlock to read";
/**
 * What the other roles read instead: the keys are the owner's alone ("privacy", contract/team.ts), so
 * a manager or packer cannot unlock, and is not offered to.
 */
export const SEALED_FOR_OWNER_TEXT = "Sealed: only the owner can read it";

/** What a staff member's unlock dialog asks for (docs/decisions/0037): their own key first, then the owner's access. */
type StaffStage = "loading" | "failed" | "set-up" | "new-key" | "ask" | "unlock";

const STAGE_TITLES: Record<StaffStage, string> = {
  loading: "Unlock addresses",
  failed: "Unlock addresses",
  "set-up": "Set up your key",
  "new-key": "Make a new key",
  ask: "Ask the owner for access",
  unlock: "Unlock addresses",
};

/**
 * Asks for the passphrase and unlocks the keys for this browser tab until reload or logout: the
 * owner's own, or for staff, the owner's keys they were given (after setting up a key of their own).
 */
export function UnlockDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { unlock } = useOwnerKeys();
  const isOwner = useIsOwner();
  const queryClient = useQueryClient();
  const myKey = useMySealKey();
  const myGrants = useMyGrants();
  const [makingNewKey, setMakingNewKey] = useState(false);
  /** The staff key's fingerprint as this browser made or checked it (shown to read to the owner). */
  const [checkedFingerprint, setCheckedFingerprint] = useState<string | null>(null);
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  // The owner may have given (or taken away) access since this page loaded: ask again on opening.
  useEffect(() => {
    if (open && !isOwner) void queryClient.invalidateQueries({ queryKey: MY_GRANTS_KEY });
  }, [open, isOwner, queryClient]);

  const stage: StaffStage = isOwner
    ? "unlock"
    : myKey.isError || myGrants.isError
      ? "failed"
      : !myKey.data || !myGrants.data
        ? "loading"
        : myKey.data.key === null
          ? "set-up"
          : makingNewKey
            ? "new-key"
            : myGrants.data.grants.length === 0
              ? "ask"
              : "unlock";

  const close = (next: boolean) => {
    if (!next) {
      setPassphrase("");
      setError(null);
      setMakingNewKey(false);
      setCheckedFingerprint(null);
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
          <DialogTitle>{STAGE_TITLES[stage]}</DialogTitle>
          <DialogDescription>
            {isOwner || stage === "unlock"
              ? "Your passphrase opens the sealed addresses in this browser tab only. It is not sent to the shop, and it is forgotten when you reload or log out."
              : "Sealed addresses open only in the browser of someone holding a key. Staff read them with a key of their own, which the owner gives access."}
          </DialogDescription>
        </DialogHeader>
        {stage === "loading" && (
          <p className="text-muted-foreground text-sm" role="status">
            Loading your key...
          </p>
        )}
        {stage === "failed" && (
          <p role="alert" className="text-destructive text-sm">
            Your key could not be loaded: {describeError(myKey.error ?? myGrants.error)}
          </p>
        )}
        {(stage === "set-up" || stage === "new-key") && (
          <SetUpKeyForm
            key={stage}
            replacing={stage === "new-key"}
            onCancel={stage === "new-key" ? () => setMakingNewKey(false) : undefined}
            onDone={(keyId) => {
              setMakingNewKey(false);
              setCheckedFingerprint(keyId);
            }}
          />
        )}
        {stage === "ask" &&
          myKey.data?.key &&
          (checkedFingerprint === myKey.data.key.keyId ? (
            <AskOwnerForAccess fingerprint={checkedFingerprint} />
          ) : (
            <CheckKeyForm staffKey={myKey.data.key} onChecked={setCheckedFingerprint} onNewKey={() => setMakingNewKey(true)} />
          ))}
        {stage === "unlock" && (
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
              {!isOwner && (
                <Button type="button" variant="ghost" onClick={() => setMakingNewKey(true)}>
                  Forgot your passphrase?
                </Button>
              )}
              <Button type="submit" disabled={busy || passphrase === ""}>
                <LockOpen />
                {busy ? "Unlocking..." : "Unlock"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The "Unlock addresses" button with its dialog; "Lock addresses" once unlocked (when `showLock`). */
export function UnlockAddressesButton({
  size = "sm",
  showLock = false,
  className,
  label = "Unlock addresses",
}: {
  size?: "sm" | "default";
  showLock?: boolean;
  className?: string;
  label?: string;
}) {
  const { keys, lock } = useOwnerKeys();
  const [open, setOpen] = useState(false);
  // The owner unlocks with the shop's key; staff who may read addresses with their own key and the
  // owner's grant (docs/decisions/0037).
  const canUnlock = useCan("orders.addresses");
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
        {label}
      </Button>
      <UnlockDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

/** What stands where a sealed address would: locked (with the unlock button), opening, or not openable. */
export function SealedAddressNotice({ shown, className }: { shown: ShownAddress; className?: string }) {
  const mayUnlock = useMayUnlock(shown.state === "locked" ? shown.keyId : null);
  const myKey = useMySealKey();
  const canUnlock = useCan("orders.addresses");
  if (shown.state === "locked" && mayUnlock === false) {
    // Staff without access to the key this address was sealed to: the owner gives it (docs/decisions/0037).
    return (
      <div className={cn("flex flex-wrap items-center gap-2 text-sm", className)} data-testid="sealed-address">
        <span className="inline-flex items-center gap-1.5 font-medium">
          <Lock className="size-4" aria-hidden="true" />
          {ASK_OWNER_TEXT}
        </span>
        {/* One button whatever the stage, so its dialog stays open from setting up a key to asking the owner. */}
        <UnlockAddressesButton label={myKey.data?.key === null ? "Set up your key" : "Your key"} />
      </div>
    );
  }
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
