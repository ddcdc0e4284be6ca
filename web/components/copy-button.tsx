import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";

async function writeClipboard(text: string) {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Plain http on another host is not a secure context: no Clipboard API there.
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("copy refused");
}

/**
 * Copies `text` and confirms with a toast (`successTitle`); the icon shows a tick for a moment.
 * `ariaLabel` names the button for screen readers where several "Copy" buttons sit side by side.
 */
export function CopyButton({
  text,
  successTitle,
  label = "Copy",
  ariaLabel,
}: {
  text: string;
  successTitle: string;
  label?: string;
  ariaLabel?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await writeClipboard(text);
      setCopied(true);
      toast({ title: successTitle });
    } catch {
      toast({ title: "Copy failed", description: "Select the text and copy it by hand.", variant: "destructive" });
    }
  };

  return (
    <Button type="button" variant="outline" onClick={() => void copy()} className="shrink-0" aria-label={ariaLabel}>
      {copied ? <Check className="text-green-700" /> : <Copy />}
      {label}
    </Button>
  );
}
