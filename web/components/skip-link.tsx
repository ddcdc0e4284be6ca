/**
 * A link past a block of controls, shown only while it has the keyboard's focus (as the app's "Skip
 * to main content"): the Orders screen's filters take some twenty Tab stops (a date input alone takes
 * four), so the list's first row would be far from a fresh load without it (issue 22 item 11). The
 * target needs an id and tabIndex={-1}. The focus moves without a hash in the URL: the screens' URLs
 * hold their state, and a hash would add a history entry.
 */
export function SkipLink({ targetId, children }: { targetId: string; children: string }) {
  return (
    <a
      href={`#${targetId}`}
      className="bg-background text-foreground focus-visible:ring-ring sr-only z-50 rounded-md border px-4 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:px-4 focus:py-2 focus-visible:ring-2"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(targetId)?.focus();
      }}
    >
      {children}
    </a>
  );
}
