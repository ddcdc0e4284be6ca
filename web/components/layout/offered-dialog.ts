import { useCallback, useEffect, useRef, useState } from "react";

// A dialog web/lib/api.ts opens and waits on (offerSignInAgain, offerStepUp): a refused call asks it,
// the dialog answers true (go on: the call is sent again, once) or false (closed without). Mounted once
// in the signed-in app; calls refused together share one open dialog.

type Offer = (ask: () => Promise<boolean>) => () => void;

/** `onOpen` clears what the last use left typed; `finish(answer)` closes the dialog with that answer. */
export function useOfferedDialog(offer: Offer, onOpen: () => void) {
  const [open, setOpen] = useState(false);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(
    () =>
      offer(
        () =>
          new Promise<boolean>((resolve) => {
            answer.current = resolve;
            onOpen();
            setOpen(true);
          }),
      ),
    [offer, onOpen],
  );

  const finish = useCallback((confirmed: boolean) => {
    setOpen(false);
    answer.current?.(confirmed);
    answer.current = null;
  }, []);

  return { open, finish, onOpenChange: (next: boolean) => !next && finish(false) };
}
