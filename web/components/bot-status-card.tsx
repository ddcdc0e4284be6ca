import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Activity, RefreshCw, Webhook } from "lucide-react";
import { Link } from "wouter";
import { NO_BOT_TOKEN_REASON, type BotStatusAnswer, type WebhookRegistered } from "../../contract";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";
import { formatDateTime } from "@/lib/screen-helpers";

// The bot's health on Bot Preview and Bot Settings (issue 14, item 2): what GET /api/bot/status
// says, green only when the bot runs and Telegram answered just now.

export const BOT_STATUS_KEY = ["/api/bot/status"] as const;

/** How often the card asks again while it is on screen. */
const STATUS_POLL_MS = 15_000;

/**
 * Unlike the shop's lists (read once, docs/product.md §9), the status is polled: whether Telegram answers
 * changes without any write on this screen, and a stale "Running" is the lie this card replaces.
 */
export function useBotStatus() {
  return useQuery<BotStatusAnswer>({
    queryKey: BOT_STATUS_KEY,
    staleTime: 0,
    refetchInterval: STATUS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** After a save of Bot Settings: the bot was rebuilt with them, so ask again. */
export function useReloadBotStatus() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: BOT_STATUS_KEY });
}

const STATE_LOOK = {
  running: { label: "Running", className: "border-green-200 bg-green-50 text-green-700", dot: "bg-green-500" },
  stopped: { label: "Stopped", className: "border-neutral-300 bg-neutral-100 text-neutral-700", dot: "bg-neutral-400" },
  error: { label: "Error", className: "border-red-200 bg-red-50 text-red-700", dot: "bg-red-500" },
} as const;

export function BotStatusBadge({ state }: { state: BotStatusAnswer["state"] | "unknown" }) {
  const look =
    state === "unknown"
      ? { label: "Unknown", className: "border-neutral-300 bg-neutral-100 text-neutral-700", dot: "bg-neutral-400" }
      : STATE_LOOK[state];
  return (
    <Badge variant="outline" className={look.className} data-testid="bot-status-badge" data-state={state}>
      <span className={`size-1.5 rounded-full ${look.dot}`} />
      {look.label}
    </Badge>
  );
}

/** Which screen shows the card: it tells the owner where to fix a missing token, not to go where they are. */
export type BotStatusPlace = "bot-settings" | "bot-preview";

export function BotStatusCard({ place }: { place: BotStatusPlace }) {
  const status = useBotStatus();
  const reload = useReloadBotStatus();
  const register = useMutation({
    mutationFn: () => apiRequest<WebhookRegistered>("POST", "/api/bot/webhook"),
    onSuccess: (answer) => toast({ title: "Webhook registered", description: answer.url }),
    onError: (error) => toast({ title: "Failed to register the webhook", description: describeError(error), variant: "destructive" }),
    onSettled: () => reload(),
  });
  const data = status.data;

  return (
    <Card data-testid="bot-status">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Activity className="text-muted-foreground size-5" />
          Bot Status
          <BotStatusBadge state={data?.state ?? "unknown"} />
        </CardTitle>
        <CardDescription>Whether your bot is running and Telegram answers it, checked every 15 seconds</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {status.isError && (
          <p role="alert" className="text-destructive text-sm">
            The status could not be loaded: {describeError(status.error)}
          </p>
        )}
        {status.isLoading && <p className="text-muted-foreground text-sm">Checking the bot...</p>}
        {data && <StatusDetails status={data} place={place} />}
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => void status.refetch()} disabled={status.isFetching}>
            <RefreshCw />
            {status.isFetching ? "Checking..." : "Check now"}
          </Button>
          {data?.webhookUrlToRegister && (
            <Button type="button" variant="secondary" size="sm" onClick={() => register.mutate()} disabled={register.isPending}>
              <Webhook />
              {register.isPending ? "Registering..." : "Register webhook now"}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function NoTokenHint({ place }: { place: BotStatusPlace }) {
  if (place === "bot-settings") return <> Enter it in Bot Token above, then Save Settings.</>;
  return (
    <>
      {" "}
      <Link href="/bot-settings" className="text-foreground font-medium underline underline-offset-2">
        Add it in Bot Settings
      </Link>
      .
    </>
  );
}

function StatusDetails({ status, place }: { status: BotStatusAnswer; place: BotStatusPlace }) {
  const problem = status.state === "error" ? status.lastError : status.state === "stopped" ? status.reason : null;
  const noToken = status.state === "stopped" && status.reason === NO_BOT_TOKEN_REASON;
  return (
    <>
      {problem && (
        <p
          role={status.state === "error" ? "alert" : undefined}
          data-testid="bot-status-problem"
          className={
            status.state === "error"
              ? "rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
              : "bg-muted/50 text-muted-foreground rounded-md border p-3 text-sm"
          }
        >
          {problem}
          {noToken && <NoTokenHint place={place} />}
        </p>
      )}
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-muted-foreground">Bot</dt>
        <dd data-testid="bot-status-username">{status.username ? `@${status.username}` : "-"}</dd>
        <dt className="text-muted-foreground">Updates by</dt>
        <dd>{status.mode === "webhook" ? "Webhook" : "Long polling"}</dd>
        {status.webhook && status.mode === "webhook" && (
          <>
            <dt className="text-muted-foreground">Telegram delivers to</dt>
            <dd className="font-mono text-xs break-all">{status.webhook.url || "nowhere (no webhook set)"}</dd>
            <dt className="text-muted-foreground">Waiting updates</dt>
            <dd>{status.webhook.pendingUpdateCount}</dd>
          </>
        )}
        {status.webhook?.lastErrorMessage && (
          <>
            <dt className="text-muted-foreground">Last delivery error</dt>
            <dd>
              {status.webhook.lastErrorMessage}
              {status.webhook.lastErrorDate && <span className="text-muted-foreground"> ({formatDateTime(status.webhook.lastErrorDate)})</span>}
            </dd>
          </>
        )}
        <dt className="text-muted-foreground">Last update</dt>
        <dd>{status.lastUpdateAt ? formatDateTime(status.lastUpdateAt) : "None since the bot started"}</dd>
        <dt className="text-muted-foreground">Telegram answered</dt>
        <dd>{status.telegramAnsweredAt ? formatDateTime(status.telegramAnsweredAt) : "-"}</dd>
        {status.lastError && status.state !== "error" && (
          <>
            <dt className="text-muted-foreground">Last error</dt>
            <dd data-testid="bot-status-last-error">
              {status.lastError}
              {status.lastErrorAt && <span className="text-muted-foreground"> ({formatDateTime(status.lastErrorAt)})</span>}
            </dd>
          </>
        )}
      </dl>
    </>
  );
}
