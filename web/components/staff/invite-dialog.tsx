import { useState, type FormEvent } from "react";
import { ROLE_LABELS, STAFF_NAME_MAX, STAFF_ROLES, StaffInviteInputSchema, type StaffInvited, type StaffRole } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { describeError } from "@/lib/api";
import { InviteLinkField } from "./invite-link";
import { useInviteStaff } from "./queries";
import { ROLE_SUMMARIES } from "./role-words";

// "Invite staff" (issue 25): a username, a name and a role; the answer is the one-time link, shown
// here once with a Copy button. The server checks everything again and words any refusal (a taken
// username is its 409); this form only spares a round trip for what the contract already says.

type Fields = { username: string; name: string; role: StaffRole };
const EMPTY: Fields = { username: "", name: "", role: "packer" };

export function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const invite = useInviteStaff();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [invited, setInvited] = useState<(StaffInvited & { name: string }) | null>(null);

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      // Cleared once closed: the next invite starts empty, and the link is not kept on the page.
      setFields(EMPTY);
      setError(null);
      setInvited(null);
      invite.reset();
    }
  };
  const change = (patch: Partial<Fields>) => {
    setFields((current) => ({ ...current, ...patch }));
    setError(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = StaffInviteInputSchema.safeParse(fields);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Check the form.");
      return;
    }
    invite.mutate(parsed.data, {
      onSuccess: (answer) => setInvited({ ...answer, name: parsed.data.name }),
      onError: (failure) => setError(describeError(failure)),
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{invited ? "Staff invited" : "Invite staff"}</DialogTitle>
          <DialogDescription>
            {invited ? "Copy the link and send it to them." : "They get their own sign-in. Their role decides what they can see and do."}
          </DialogDescription>
        </DialogHeader>
        {invited ? (
          <>
            <InviteLinkField url={invited.inviteUrl} name={invited.name} />
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <div className="grid gap-2">
              <Label htmlFor="invite-name">Name</Label>
              <Input
                id="invite-name"
                autoComplete="off"
                maxLength={STAFF_NAME_MAX}
                value={fields.name}
                onChange={(event) => change({ name: event.target.value })}
                placeholder="Sam Smith"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="invite-username">Username</Label>
              <Input
                id="invite-username"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                value={fields.username}
                onChange={(event) => change({ username: event.target.value })}
                placeholder="sam"
                aria-describedby="invite-username-hint"
              />
              <p id="invite-username-hint" className="text-muted-foreground text-xs">
                What they sign in with: letters, digits, dots, dashes or underscores.
              </p>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="invite-role">Role</Label>
              <Select value={fields.role} onValueChange={(role) => change({ role: role as StaffRole })}>
                <SelectTrigger id="invite-role" className="w-full" aria-describedby="invite-role-hint">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {STAFF_ROLES.map((role) => (
                    <SelectItem key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p id="invite-role-hint" className="text-muted-foreground text-xs">
                {ROLE_SUMMARIES[fields.role]}
              </p>
            </div>
            {error && (
              <p className="text-destructive text-sm" role="alert" data-testid="invite-error">
                {error}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending ? "Inviting..." : "Invite"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
