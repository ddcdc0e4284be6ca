import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BellRing, Link2, Unlink } from "lucide-react";
import { useEffect, useState } from "react";
import { OWNER_LINK_CODE_MINUTES, type OwnerAlertKind, type OwnerAlerts, type OwnerLinkCode } from "../../../contract";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";

// Owner alerts in Bot Settings (issue 14, item 5): link the owner's Telegram chat with a one-time
// code sent to the bot, switch each kind of alert on or off, unlink. The link happens in Telegram,
// so while a code is shown the card asks the server every 2 s whether it was used.

const OWNER_ALERTS_KEY = ["/api/owner-alerts"] as const;

const KIND_LABELS: { kind: OwnerAlertKind; label: string; description: string }[] = [
  { kind: "paidOrder", label: "Paid orders", description: "Order number, total and items" },
  { kind: "customerMessage", label: "Customer messages", description: "Who wrote, what, and a link to Messages" },
  { kind: "underpaid", label: "Underpaid payments", description: "What was paid against what was due" },
  { kind: "lowStock", label: "Low stock", description: "When a sale takes a product to its low-stock threshold" },
];

export function OwnerAlertsCard() {
  const queryClient = useQueryClient();
  const [linkCode, setLinkCode] = useState<OwnerLinkCode | null>(null);
  const [expiredCode, setExpiredCode] = useState<string | null>(null);
  // The shown code stops being waited for when it expires.
  useEffect(() => {
    if (!linkCode) return;
    const timer = setTimeout(() => setExpiredCode(linkCode.code), Math.max(0, Date.parse(linkCode.expiresAt) - Date.now()));
    return () => clearTimeout(timer);
  }, [linkCode]);
  const waitingForLink = linkCode !== null && expiredCode !== linkCode.code;
  const state = useQuery<OwnerAlerts>({
    queryKey: OWNER_ALERTS_KEY,
    refetchInterval: (query) => (waitingForLink && !query.state.data?.linked ? 2_000 : false),
  });
  const saved = (next: OwnerAlerts) => queryClient.setQueryData(OWNER_ALERTS_KEY, next);
  const failed = (title: string) => (error: unknown) => toast({ title, description: describeError(error), variant: "destructive" });

  const issueCode = useMutation({
    mutationFn: () => apiRequest<OwnerLinkCode>("POST", "/api/owner-alerts/link-code"),
    onSuccess: (code) => setLinkCode(code),
    onError: failed("No link code"),
  });
  const setKind = useMutation({
    mutationFn: (change: Partial<Record<OwnerAlertKind, boolean>>) => apiRequest<OwnerAlerts>("PUT", "/api/owner-alerts", { kinds: change }),
    onSuccess: saved,
    onError: failed("The alert setting was not saved"),
  });
  const unlink = useMutation({
    mutationFn: () => apiRequest<OwnerAlerts>("DELETE", "/api/owner-alerts/link"),
    onSuccess: (next) => {
      saved(next);
      setLinkCode(null);
      toast({ title: "Owner alerts unlinked" });
    },
    onError: failed("Not unlinked"),
  });

  const alerts = state.data;
  // Once linked, the code has been used: it is not shown any more.
  const showCode = linkCode !== null && !alerts?.linked;

  return (
    <Card data-testid="owner-alerts-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing className="h-5 w-5" aria-hidden="true" />
          Owner alerts
        </CardTitle>
        <CardDescription>Get a Telegram message when an order is paid, a customer writes, a payment falls short or stock runs low</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {state.isLoading ? (
          <p className="text-muted-foreground text-sm">Loading owner alerts...</p>
        ) : state.isError || !alerts ? (
          <p role="alert" className="text-destructive text-sm">
            Owner alerts could not be loaded: {describeError(state.error)}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm" data-testid="owner-alerts-link-state">
                {alerts.linked ? (
                  <>
                    <span className="font-medium text-green-700 dark:text-green-400">Linked</span>
                    {alerts.chatTitle ? <> to {alerts.chatTitle}</> : null}
                  </>
                ) : (
                  <span className="text-muted-foreground">Not linked</span>
                )}
              </p>
              <div className="flex gap-2">
                <Button type="button" variant="outline" onClick={() => issueCode.mutate()} disabled={issueCode.isPending}>
                  <Link2 className="mr-2 h-4 w-4" aria-hidden="true" />
                  {alerts.linked ? "Link another chat" : "Link Telegram"}
                </Button>
                {alerts.linked ? (
                  <Button type="button" variant="outline" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
                    <Unlink className="mr-2 h-4 w-4" aria-hidden="true" />
                    Unlink
                  </Button>
                ) : null}
              </div>
            </div>
            {showCode ? (
              <div className="bg-muted/50 space-y-2 rounded-md border p-3 text-sm" data-testid="owner-alerts-code">
                <p>
                  Send this to {linkCode.botUsername ? <span className="font-medium">@{linkCode.botUsername}</span> : "your bot"} in Telegram, in a private chat
                  for yourself or in a group the bot is in for the group. It works once, for {OWNER_LINK_CODE_MINUTES} minutes.
                </p>
                <div className="flex items-center gap-2">
                  <code className="bg-background rounded border px-2 py-1 font-mono text-base">{linkCode.command}</code>
                  <CopyButton text={linkCode.command} successTitle="Command copied" ariaLabel="Copy the link command" />
                </div>
                {waitingForLink ? (
                  <p className="text-muted-foreground" aria-live="polite">
                    Waiting for the bot to receive it...
                  </p>
                ) : (
                  <p className="text-destructive">This code has expired: get a new one.</p>
                )}
              </div>
            ) : null}
            <div className="grid gap-3 sm:grid-cols-2">
              {KIND_LABELS.map(({ kind, label, description }) => (
                <div key={kind} className="flex items-start justify-between gap-3 rounded-md border p-3">
                  <div>
                    <Label htmlFor={`owner-alert-${kind}`}>{label}</Label>
                    <p className="text-muted-foreground text-xs">{description}</p>
                  </div>
                  <Switch
                    id={`owner-alert-${kind}`}
                    checked={alerts.kinds[kind]}
                    disabled={setKind.isPending}
                    onCheckedChange={(checked) => setKind.mutate({ [kind]: checked })}
                  />
                </div>
              ))}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
