import { Keyboard } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/** The Orders screen's shortcuts (issue 22 item 11), as the dialog lists them. */
export const ORDER_SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: "/", does: "Search orders" },
  { keys: "j", does: "Next order" },
  { keys: "k", does: "Previous order" },
  { keys: "o", does: "Open the order's details" },
  { keys: "d", does: "Dispatch the order (when Ready to Dispatch)" },
  { keys: "?", does: "Show these shortcuts" },
];

/** The button that opens the list; "?" opens it too. */
export function ShortcutsButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="outline" size="icon" onClick={onClick} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" aria-keyshortcuts="?">
      <Keyboard />
    </Button>
  );
}

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>On the Orders screen, when you are not typing in a field.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
          {ORDER_SHORTCUTS.map(({ keys, does }) => (
            <div key={keys} className="contents">
              <dt>
                <kbd className="bg-muted inline-flex min-w-7 justify-center rounded border px-1.5 py-0.5 font-mono text-xs font-semibold">{keys}</kbd>
              </dt>
              <dd>{does}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
