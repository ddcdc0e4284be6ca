import type { BroadcastProgress as Progress_ } from "../../../contract";
import { Progress } from "@/components/ui/progress";

const STATUS_LABELS: Record<Progress_["status"], string> = { queued: "Queued", sending: "Sending", done: "Done" };

/** The share of recipients dealt with (sent, failed or skipped), and the numbers behind it. */
export function BroadcastProgressBar({ progress }: { progress: Progress_ }) {
  const handled = progress.sent + progress.failed + progress.skipped;
  const percent = progress.total === 0 ? 100 : Math.round((handled / progress.total) * 100);
  return (
    <div className="space-y-2" data-testid="broadcast-progress" data-status={progress.status}>
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium" data-testid="broadcast-status">
          {STATUS_LABELS[progress.status]}
        </span>
        <span className="text-muted-foreground tabular-nums">
          {handled} / {progress.total}
        </span>
      </div>
      <Progress value={percent} aria-label="Broadcast progress" />
      <p className="text-muted-foreground text-xs tabular-nums" data-testid="broadcast-counts">
        {progress.sent} sent · {progress.failed} failed · {progress.skipped} skipped
      </p>
    </div>
  );
}

export { STATUS_LABELS };
