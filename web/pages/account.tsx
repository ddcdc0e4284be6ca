import { ShieldAlert } from "lucide-react";
import { SessionsCard } from "@/components/account/sessions-card";
import { TeamSettingsCard } from "@/components/account/team-settings-card";
import { TwoFactorCard } from "@/components/account/two-factor-card";
import { ROLE_LABELS } from "../../contract";
import { useAuthStatus } from "@/lib/queries";
import { useTwoFactorRequired } from "@/lib/two-factor";

// Your account (issue 25): the signed-in account's own sign-in settings, for every role. The owner
// also sets the team's rules here.
export default function AccountPage() {
  const account = useAuthStatus().data?.account;
  const required = useTwoFactorRequired();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Your account</h2>
        {account && (
          <p className="text-muted-foreground">
            {account.name} · <span className="font-mono">{account.username}</span> · {ROLE_LABELS[account.role]}
          </p>
        )}
      </div>
      {required && account && !account.totpEnabled && (
        <div role="alert" className="border-destructive/50 bg-destructive/10 flex gap-3 rounded-md border p-4 text-sm">
          <ShieldAlert className="text-destructive mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-medium">Your shop requires two-factor sign-in</p>
            <p className="text-muted-foreground">The owner asks every staff account to use it. Turn it on below to carry on with your work.</p>
          </div>
        </div>
      )}
      <TwoFactorCard />
      <SessionsCard title="Your sessions" description="Where you are signed in. End a session you do not recognise." />
      {account?.role === "owner" && <TeamSettingsCard />}
    </div>
  );
}
