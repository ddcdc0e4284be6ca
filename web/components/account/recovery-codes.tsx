import { Download, TriangleAlert } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";

// The ten recovery codes, shown once when two-factor is turned on (issue 25): the server keeps only
// their hashes, so this is the one chance to save them.

function download(codes: string[]) {
  const text = [
    "Shop Admin: two-factor recovery codes",
    "Each code signs you in once, in place of the authenticator app's code.",
    "",
    ...codes,
    "",
  ].join("\n");
  const href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = href;
  link.download = "shop-admin-recovery-codes.txt";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

export function RecoveryCodesList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-labelledby="recovery-codes-title" className="space-y-4">
      <div role="alert" className="flex gap-3 rounded-md border border-amber-500/50 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div>
          <p id="recovery-codes-title" className="font-medium">
            Save your recovery codes now
          </p>
          <p>
            If you lose your phone, each code signs you in once instead of the app's code. They are shown only this once: keep
            them somewhere safe, away from your password.
          </p>
        </div>
      </div>
      <ul className="grid grid-cols-1 gap-2 font-mono text-sm sm:grid-cols-2" aria-label="Recovery codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="bg-muted rounded px-3 py-1.5 tracking-wider">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={codes.join("\n")} successTitle="Recovery codes copied" label="Copy" ariaLabel="Copy the recovery codes" />
        <Button type="button" variant="outline" onClick={() => download(codes)}>
          <Download />
          Download
        </Button>
        <Button type="button" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </section>
  );
}
