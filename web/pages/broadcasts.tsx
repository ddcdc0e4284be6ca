import { Megaphone } from "lucide-react";
import { useState } from "react";
import type { BroadcastSummary } from "../../contract";
import { BroadcastForm, AUDIENCE_LABELS } from "@/components/broadcasts/broadcast-form";
import { BroadcastProgressBar, STATUS_LABELS } from "@/components/broadcasts/broadcast-progress";
import { useBroadcastProgress, useBroadcasts } from "@/components/broadcasts/queries";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ClampedText, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { LoadingRows } from "@/components/loading-rows";
import { describeError } from "@/lib/api";
import { formatDateTime } from "@/lib/screen-helpers";

// Broadcasts (issue 14, item 3): write a message, pick an audience, send it; follow it to done.

function audienceText(broadcast: BroadcastSummary) {
  const { audience } = broadcast;
  if (audience.kind === "recent") return `Ordered in the last ${audience.days} days`;
  if (audience.kind === "product") return "Bought a product";
  return AUDIENCE_LABELS[audience.kind].replace(/ \(.*\)$/, "");
}

/** The broadcast just sent, polled until done. */
function CurrentBroadcast({ id }: { id: string }) {
  const progress = useBroadcastProgress(id);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Latest broadcast</CardTitle>
      </CardHeader>
      <CardContent>
        {progress.data ? (
          <BroadcastProgressBar progress={progress.data} />
        ) : progress.error ? (
          <p className="text-destructive text-sm">{describeError(progress.error)}</p>
        ) : (
          <p className="text-muted-foreground text-sm">Loading...</p>
        )}
      </CardContent>
    </Card>
  );
}

function PastBroadcasts() {
  const broadcasts = useBroadcasts();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Past broadcasts</CardTitle>
      </CardHeader>
      <CardContent className="px-0">
        {broadcasts.isLoading ? (
          <LoadingRows label="Loading broadcasts..." rows={3} />
        ) : broadcasts.error ? (
          <p className="text-destructive px-6 text-sm">{describeError(broadcasts.error)}</p>
        ) : !broadcasts.data?.length ? (
          <div className="text-muted-foreground flex flex-col items-center gap-2 py-10 text-sm">
            <Megaphone className="size-8" aria-hidden="true" />
            No broadcasts yet
          </div>
        ) : (
          <Table scrollLabel="Past broadcasts">
            <TableHeader>
              <TableRow>
                <TableHead className="pl-6">Created</TableHead>
                <TableHead>Message</TableHead>
                <TableHead>Audience</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="pr-6 text-right">Sent / failed / skipped</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {broadcasts.data.map((broadcast) => (
                <TableRow key={broadcast.id} data-testid="broadcast-row">
                  <TableCell className="pl-6 whitespace-nowrap">{formatDateTime(broadcast.createdAt)}</TableCell>
                  <TableCell wrap className="max-w-80 min-w-48">
                    <ClampedText text={broadcast.text} lines={2} />
                  </TableCell>
                  <TableCell wrap>{audienceText(broadcast)}</TableCell>
                  <TableCell>{STATUS_LABELS[broadcast.status]}</TableCell>
                  <TableCell className="pr-6 text-right tabular-nums">
                    {broadcast.sent} / {broadcast.failed} / {broadcast.skipped} of {broadcast.total}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

export default function BroadcastsPage() {
  const [currentId, setCurrentId] = useState<string | null>(null);
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Broadcasts</h2>
        <p className="text-muted-foreground">Send a message to your customers in Telegram</p>
      </div>
      <BroadcastForm onSent={setCurrentId} />
      {currentId && <CurrentBroadcast id={currentId} />}
      <PastBroadcasts />
    </div>
  );
}
