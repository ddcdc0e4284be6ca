import { Laptop, LogOut } from "lucide-react";
import type { Session } from "../../../contract";
import { LoadingRows } from "@/components/loading-rows";
import { useEndOtherSessions, useEndSession, useSessions } from "@/components/staff/queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { formatAge, formatDateTime } from "@/lib/dates";
import { cn } from "@/lib/utils";

// Where an account is signed in (issue 25): each session with its device, address and last use, and
// an End button. Without `accountId` it is this account's own list (for the "Your account" page), with
// "End all other sessions"; with one, the owner's view of a staff member's sessions (the Staff screen).
// A list, not a table: it reads the same on a phone.

function SessionRow({ session, onEnd, ending }: { session: Session; onEnd?: () => void; ending: boolean }) {
  return (
    <li className="flex items-start gap-3 py-3" data-testid="session-row">
      <Laptop className="text-muted-foreground mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-0.5 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {session.device}
          {session.current && <Badge variant="secondary">This browser</Badge>}
        </p>
        <p className="text-muted-foreground [overflow-wrap:anywhere]">
          {session.ip ?? "Unknown address"} · last seen <time dateTime={session.lastSeenAt} title={formatDateTime(session.lastSeenAt)}>{formatAge(session.lastSeenAt)}</time>
        </p>
        <p className="text-muted-foreground text-xs">Signed in {formatDateTime(session.createdAt)}</p>
      </div>
      {onEnd && (
        <Button variant="outline" size="sm" onClick={onEnd} disabled={ending} aria-label={`End the session on ${session.device}${session.ip ? ` from ${session.ip}` : ""}`}>
          End
        </Button>
      )}
    </li>
  );
}

export function SessionsCard({
  accountId,
  title = "Sessions",
  description,
  className,
}: {
  /** Another account's sessions (the owner only); this account's when absent. */
  accountId?: string;
  title?: string;
  description?: string;
  className?: string;
}) {
  const sessions = useSessions(accountId);
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const own = accountId === undefined;
  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current);

  const end = (session: Session) =>
    endSession.mutate(session.id, {
      onSuccess: () => toast({ title: "Session ended", description: `${session.device} is signed out.` }),
      onError: (error) => toast({ title: "Could not end the session", description: describeError(error), variant: "destructive" }),
    });
  const endAllOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) => toast({ title: ended === 1 ? "1 other session ended" : `${ended} other sessions ended` }),
      onError: (error) => toast({ title: "Could not end the other sessions", description: describeError(error), variant: "destructive" }),
    });

  return (
    <Card className={cn("gap-4", className)} data-testid="sessions-card">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description ?? (own ? "Where you are signed in. End any you do not recognise." : "Where this account is signed in.")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {sessions.isLoading ? (
          <LoadingRows label="Loading sessions..." rows={2} className="px-0 sm:px-0" />
        ) : sessions.isError ? (
          <p className="text-destructive text-sm">{describeError(sessions.error)}</p>
        ) : list.length === 0 ? (
          <p className="text-muted-foreground text-sm">Not signed in anywhere.</p>
        ) : (
          <ul className="divide-y" aria-label={title}>
            {list.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                // Your own browser is signed out with Logout, not from this list.
                onEnd={session.current ? undefined : () => end(session)}
                ending={endSession.isPending && endSession.variables === session.id}
              />
            ))}
          </ul>
        )}
        {own && others.length > 0 && (
          <Button variant="outline" onClick={endAllOthers} disabled={endOthers.isPending}>
            <LogOut />
            End all other sessions
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
