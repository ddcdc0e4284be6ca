import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * `scrollLabel` names the container as a region a keyboard can reach and scroll (tab to it, then the
 * arrow keys), for a table wider than a phone's screen (axe's scrollable-region-focusable).
 */
function Table({ className, scrollLabel, ...props }: React.ComponentProps<"table"> & { scrollLabel?: string }) {
  return (
    <div
      data-slot="table-container"
      className="focus-visible:ring-ring/50 relative w-full overflow-x-auto outline-none focus-visible:ring-[3px] focus-visible:ring-inset"
      {...(scrollLabel ? { role: "region", "aria-label": scrollLabel, tabIndex: 0 } : {})}
    >
      <table data-slot="table" className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={cn("[&_tr]:border-b", className)} {...props} />;
}

function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

function TableFooter({ className, ...props }: React.ComponentProps<"tfoot">) {
  return (
    <tfoot data-slot="table-footer" className={cn("bg-muted/50 border-t font-medium [&>tr]:last:border-b-0", className)} {...props} />
  );
}

function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return (
    <tr
      data-slot="table-row"
      className={cn("hover:bg-muted/50 data-[state=selected]:bg-muted border-b transition-colors", className)}
      {...props}
    />
  );
}

function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        "text-foreground h-10 px-2 text-left align-middle font-medium whitespace-nowrap [&:has([role=checkbox])]:pr-0",
        className,
      )}
      {...props}
    />
  );
}

/**
 * Cells hold short values on one line (amounts, dates, badges, buttons): the table widens and its
 * container scrolls sideways rather than breaking "£10.00" in two. A cell of text the owner or a
 * customer typed (a name, a message, an address) is `wrap`: it breaks anywhere it must, even inside
 * a 183-character word, so it never draws over the next cell, and keeps a readable minimum width.
 * Every word of it stays on screen, for the mouse, the keyboard and a screen reader alike.
 */
function TableCell({ className, wrap = false, ...props }: React.ComponentProps<"td"> & { wrap?: boolean }) {
  return (
    <td
      data-slot="table-cell"
      data-wrap={wrap || undefined}
      className={cn("p-2 align-middle [&:has([role=checkbox])]:pr-0", wrap ? TEXT_CELL : "whitespace-nowrap", className)}
      {...props}
    />
  );
}

/** The shared style of a cell (or a list's line) holding typed text: see TableCell's `wrap`. */
const TEXT_CELL = "min-w-32 whitespace-normal [overflow-wrap:anywhere]";

/**
 * Long free text (a broadcast, a description) shown as its first lines in a list; hovering it or
 * reaching it with Tab shows it whole, in place: a title alone never reaches the keyboard. Only a
 * text that is cut is a tab stop: a short one has nothing more to show.
 */
function ClampedText({ text, lines = 2, className }: { text: string; lines?: 1 | 2 | 3; className?: string }) {
  const ref = React.useRef<HTMLSpanElement>(null);
  const [cut, setCut] = React.useState(false);
  React.useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      // Opened by the pointer or the keyboard, it shows all: whether it was cut is known from before.
      if (element.matches(":hover, :focus-visible")) return;
      setCut(element.scrollHeight > element.clientHeight + 1);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, lines]);
  return (
    <span
      ref={ref}
      data-slot="clamped-text"
      tabIndex={cut ? 0 : undefined}
      title={cut ? text : undefined}
      className={cn(
        "focus-visible:ring-ring/50 block rounded-sm [overflow-wrap:anywhere] whitespace-normal outline-none hover:line-clamp-none focus-visible:line-clamp-none focus-visible:ring-2",
        CLAMP[lines],
        className,
      )}
    >
      {text}
    </span>
  );
}
const CLAMP = { 1: "line-clamp-1", 2: "line-clamp-2", 3: "line-clamp-3" } as const;

function TableCaption({ className, ...props }: React.ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={cn("text-muted-foreground mt-4 text-sm", className)} {...props} />;
}

export { ClampedText, Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow, TEXT_CELL };
