import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldOff, UserCheck, Users } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import type { PrivateAddresses, StaffAddressAccess, StaffAddressAccessList } from "../../../contract";
import { formatKeyId, grantOwnerKeys } from "../../../contract/owner-seal";
import { ROLE_LABELS, type Role } from "../../../contract/team";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";
import { cryptoAvailable, PRIVATE_ADDRESSES_KEY, STAFF_ACCESS_KEY } from "@/lib/owner-keys";

// "Staff access" in the Private addresses card (docs/decisions/0037-sealed-address-grants.md): the
// owner gives a staff member's own key the owner's keys, sealed here in the owner's browser (the
// server never sees a private key), and takes that access away again.

const roleLabel = (role: string) => ROLE_LABELS[role as Role] ?? role;

/** What the row says of an account's access, in words. */
function accessText(entry: StaffAddressAccess, shopKeys: readonly string[]): string {
  if (!entry.eligible) return `Their role (${roleLabel(entry.role)}) no longer reads addresses.`;
  if (!entry.key) return "No key yet: ask them to open Orders, choose \"Unlock addresses\" and set up their key.";
  const granted = shopKeys.filter((keyId) => entry.grants.some((grant) => grant.ownerKeyId === keyId)).length;
  if (granted === 0) return "Has a key; no access.";
  if (granted === shopKeys.length) return shopKeys.length === 1 ? "Can read sealed addresses." : "Can read sealed addresses, under every key.";
  return `Can read addresses under ${granted} of ${shopKeys.length} keys: grant access again to add the others.`;
}

export function StaffAddressAccessSection({ setup }: { setup: PrivateAddresses }) {
  const list = useQuery<StaffAddressAccessList>({ queryKey: STAFF_ACCESS_KEY });
  const titleId = useId();
  const shopKeys = setup.keys.map((key) => key.keyId);
  return (
    <section className="space-y-3 rounded-md border p-4" aria-labelledby={titleId} data-testid="staff-address-access">
      <h3 id={titleId} className="flex items-center gap-2 font-semibold">
        <Users className="text-muted-foreground size-4" aria-hidden="true" />
        Staff access
      </h3>
      <p className="text-muted-foreground text-sm">
        Staff who pack orders can read sealed addresses with a key of their own. Each sets up their key on the Orders screen ("Unlock addresses");
        you then grant that key access here, with your passphrase. Neither key nor passphrase is ever sent to the shop.
      </p>
      {list.isError ? (
        <p role="alert" className="text-destructive text-sm">
          Staff access could not be loaded: {describeError(list.error)}
        </p>
      ) : !list.data ? (
        <p className="text-muted-foreground text-sm">Loading staff...</p>
      ) : list.data.accounts.length === 0 ? (
        <p className="text-sm">No staff account may read addresses yet: packers and managers can.</p>
      ) : (
        <ul className="divide-y">
          {list.data.accounts.map((entry) => (
            <li key={entry.accountId} className="flex flex-wrap items-center justify-between gap-3 py-3" aria-label={entry.name}>
              <div className="min-w-0 space-y-0.5 text-sm">
                <p className="font-medium">
                  {entry.name} <span className="text-muted-foreground font-normal">({entry.username}, {roleLabel(entry.role)}{entry.disabled ? ", disabled" : ""})</span>
                </p>
                <p data-testid="staff-access-state">{accessText(entry, shopKeys)}</p>
                {entry.key && (
                  <p className="text-muted-foreground">
                    Key fingerprint: <span className="font-mono">{formatKeyId(entry.key.keyId)}</span>
                  </p>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                {entry.eligible && entry.key && !entry.disabled && <GrantButton entry={entry} staffKey={entry.key} />}
                {entry.grants.length > 0 && <RevokeButton entry={entry} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantButton({ entry, staffKey }: { entry: StaffAddressAccess; staffKey: NonNullable<StaffAddressAccess["key"]> }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [passphrase, setPassphrase] = useState("");
  const [checked, setChecked] = useState(false);
  const [problem, setProblem] = useState<{ field: "checked" | "passphrase" | "form"; message: string } | null>(null);

  const close = (next: boolean) => {
    if (!next) {
      setPassphrase("");
      setChecked(false);
      setProblem(null);
    }
    setOpen(next);
  };

  const grant = useMutation({
    mutationFn: async () => {
      // Every key the shop ever had, fresh: older orders were sealed to older keys.
      const setup = await queryClient.fetchQuery<PrivateAddresses>({ queryKey: PRIVATE_ADDRESSES_KEY, staleTime: 0 });
      const sealed = await grantOwnerKeys(setup.keys, passphrase, { accountId: entry.accountId, publicKey: staffKey.publicKey, keyId: staffKey.keyId });
      const answer = await apiRequest<StaffAddressAccess>("PUT", `/api/private-addresses/grants/${entry.accountId}`, { grants: sealed.grants });
      return { answer, notOpened: sealed.notOpened.length };
    },
    onSuccess: ({ notOpened }) => {
      void queryClient.invalidateQueries({ queryKey: STAFF_ACCESS_KEY });
      close(false);
      toast({
        title: `${entry.name} can read sealed addresses`,
        description:
          notOpened > 0
            ? `${notOpened} older ${notOpened === 1 ? "key uses" : "keys use"} another passphrase: grant access again with ${notOpened === 1 ? "it" : "each"} to add ${notOpened === 1 ? "it" : "them"}.`
            : "Their passphrase now opens the sealed addresses in their browser.",
      });
    },
    onError: (error) => {
      const message = describeError(error);
      setProblem({ field: /does not unlock/.test(message) ? "passphrase" : "form", message });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (grant.isPending) return;
    if (!checked) return setProblem({ field: "checked", message: `Check the fingerprint with ${entry.name} first.` });
    if (passphrase === "") return setProblem({ field: "passphrase", message: "Please type your passphrase." });
    setProblem(null);
    grant.mutate();
  }

  return (
    <>
      <Button type="button" size="sm" onClick={() => setOpen(true)} disabled={!cryptoAvailable()}>
        <UserCheck />
        {entry.grants.length > 0 ? "Grant access again" : "Grant access"}
      </Button>
      <Dialog open={open} onOpenChange={close}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Grant {entry.name} access</DialogTitle>
            <DialogDescription>
              Your passphrase opens your keys in this browser, and each is sealed to {entry.name}'s key: only their passphrase opens it.
            </DialogDescription>
          </DialogHeader>
          <form onSubmit={submit} className="space-y-4" aria-label={`Grant ${entry.name} access`} noValidate>
            <div className="bg-muted rounded-md p-3 text-sm">
              <p>Their key's fingerprint:</p>
              <p className="font-mono text-base" data-testid="grant-fingerprint">
                {formatKeyId(staffKey.keyId)}
              </p>
              <p className="text-muted-foreground mt-1">
                Ask {entry.name} to read you theirs (Orders, "Unlock addresses"). If it is not the same, someone changed their key: do not go on.
              </p>
            </div>
            <div className="space-y-1">
              <div className="flex items-start gap-2">
                <Checkbox
                  id={`${id}-checked`}
                  checked={checked}
                  onCheckedChange={(value) => {
                    setChecked(value === true);
                    if (value === true && problem?.field === "checked") setProblem(null);
                  }}
                  aria-describedby={problem?.field === "checked" ? `${id}-checked-error` : undefined}
                />
                <Label htmlFor={`${id}-checked`} className="leading-snug font-normal">
                  {entry.name} sees the same fingerprint
                </Label>
              </div>
              {problem?.field === "checked" && (
                <p id={`${id}-checked-error`} role="alert" className="text-destructive text-sm">
                  {problem.message}
                </p>
              )}
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${id}-passphrase`}>Your passphrase</Label>
              <Input
                id={`${id}-passphrase`}
                type="password"
                autoComplete="current-password"
                value={passphrase}
                onChange={(event) => setPassphrase(event.target.value)}
                aria-invalid={problem?.field === "passphrase" ? true : undefined}
                aria-describedby={problem?.field === "passphrase" ? `${id}-passphrase-error` : undefined}
              />
              {problem?.field === "passphrase" && (
                <p id={`${id}-passphrase-error`} role="alert" className="text-destructive text-sm">
                  {problem.message}
                </p>
              )}
            </div>
            {problem?.field === "form" && (
              <p role="alert" className="text-destructive text-sm">
                {problem.message}
              </p>
            )}
            <DialogFooter>
              <Button type="submit" disabled={grant.isPending}>
                <UserCheck />
                {grant.isPending ? "Granting access..." : "Grant access"}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}

function RevokeButton({ entry }: { entry: StaffAddressAccess }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => apiRequest<StaffAddressAccess>("DELETE", `/api/private-addresses/grants/${entry.accountId}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: STAFF_ACCESS_KEY });
      toast({
        title: `${entry.name} can no longer open sealed addresses`,
        description: "To keep new addresses from what their browser may have kept, turn private addresses off and on again: that makes a new key.",
      });
    },
    onError: (error) => toast({ title: "Access was not revoked", description: describeError(error), variant: "destructive" }),
  });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" size="sm" variant="outline" disabled={revoke.isPending}>
          <ShieldOff />
          Revoke
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke {entry.name}'s access?</AlertDialogTitle>
          <AlertDialogDescription>
            Their browser will no longer open sealed addresses after a reload. Whatever it opened before, it may have kept, your keys included: to keep
            new addresses from them, turn private addresses off and on again (a new key), then grant access again to the staff who still need it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => revoke.mutate()}>Revoke</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
