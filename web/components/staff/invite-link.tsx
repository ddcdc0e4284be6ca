import { CopyButton } from "@/components/copy-button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/**
 * A one-time invite link as the owner sees it once (the server keeps only its hash): the link, a Copy
 * button, and what the link does. Selecting the field selects it whole, for copying by hand.
 */
export function InviteLinkField({ url, name }: { url: string; name: string }) {
  return (
    <div className="grid gap-2" data-testid="invite-link">
      <Label htmlFor="invite-link">Invite link for {name}</Label>
      <div className="flex gap-2">
        <Input id="invite-link" readOnly value={url} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={url} successTitle="Invite link copied" ariaLabel="Copy the invite link" />
      </div>
      <p className="text-muted-foreground text-sm">
        Send it to {name} yourself. It works once, within 48 hours: they choose their password there, then sign in with their username. This is the
        only time the link is shown; you can make a new one from the Staff list until they have used it.
      </p>
    </div>
  );
}
