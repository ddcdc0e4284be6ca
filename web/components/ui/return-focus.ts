import { useRef } from "react";

type FocusEventHandler = (event: Event) => void;

/**
 * Radix returns focus to a Dialog.Trigger / AlertDialog.Trigger when the dialog closes; most dialogs
 * and confirmations here are opened programmatically (an Edit or Delete button in a row, a View
 * button), so without this focus would fall to <body>. The control that had focus when the dialog
 * opened gets it back, on Esc, Cancel or the close button alike. A handler the caller passes runs
 * first; when it prevents the default, it has placed the focus itself.
 */
export function useReturnFocusToOpener(handlers: { onOpenAutoFocus?: FocusEventHandler; onCloseAutoFocus?: FocusEventHandler }) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      handlers.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      handlers.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const target = opener.current;
      opener.current = null;
      // The opener may be gone (its row deleted): then Radix's own choice stands.
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
