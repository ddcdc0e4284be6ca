import { useContext, useEffect, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from "react";
import type { StockState } from "../../contract/storefront";
import { FirstTextsContext, StorefrontContext, useStorefront } from "./context";
import { haptic, showMainButton } from "./telegram";
import { englishTexts } from "./texts";

// The storefront's few building blocks, in the design tokens' colours (storefront.css): its own, so
// the Mini App's bundle carries none of the dashboard's components.

export function cx(...classes: (string | false | null | undefined)[]) {
  return classes.filter(Boolean).join(" ");
}

const BUTTON = {
  primary: "bg-primary text-primary-foreground hover:opacity-90",
  outline: "border border-input bg-card text-card-foreground hover:bg-accent",
  ghost: "text-foreground hover:bg-accent",
} as const;

export function Button({ variant = "outline", className, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof BUTTON }) {
  return (
    <button
      type="button"
      {...props}
      className={cx(
        "inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50",
        BUTTON[variant],
        className,
      )}
    />
  );
}

/**
 * The screen's primary action (Add to cart, Checkout, Place order & pay). Inside Telegram it is the
 * client's Main Button under the page, and nothing is drawn; in a plain browser tab, where there is
 * no Main Button, the same action is a button at the foot of the screen.
 */
export function PrimaryAction({ text, onClick, disabled = false, busy = false }: { text: string; onClick: () => void; disabled?: boolean; busy?: boolean }) {
  const { launch } = useStorefront();
  const latestClick = useRef(onClick);
  useEffect(() => {
    latestClick.current = onClick;
  });
  useEffect(() => {
    if (!launch.insideTelegram) return;
    return showMainButton({ text, enabled: !disabled && !busy, busy }, () => latestClick.current());
  }, [launch.insideTelegram, text, disabled, busy]);
  if (launch.insideTelegram) return null;
  return (
    <div className="sticky bottom-0 -mx-4 mt-4 border-t bg-background/95 px-4 py-3 backdrop-blur">
      <Button variant="primary" className="w-full text-base" onClick={onClick} disabled={disabled || busy} aria-busy={busy} data-testid="primary-action">
        {busy && <Spinner />}
        {text}
      </Button>
    </div>
  );
}

export function Spinner() {
  return <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}

/**
 * The words of the launch's language: the catalogue's, or while the catalogue (which names the
 * language) loads, the first guess's; null while even those load.
 */
function useTexts() {
  const storefront = useContext(StorefrontContext);
  const first = useContext(FirstTextsContext);
  return storefront?.texts ?? first;
}

export function Loading() {
  const texts = useTexts();
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-10 text-muted-foreground">
      <Spinner />
      {texts?.loading}
    </p>
  );
}

/** A failure with its sentence and, when there is something to try again, the button for it. */
export function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const texts = useTexts() ?? englishTexts;
  return (
    <div role="alert" className="my-4 rounded-md border border-destructive/40 bg-card p-3 text-sm text-destructive">
      <p>{message}</p>
      {onRetry && (
        <Button className="mt-2" onClick={onRetry}>
          {texts.retry}
        </Button>
      )}
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-destructive">
      {message}
    </p>
  );
}

export function Card({ children, className, ...props }: { children: ReactNode; className?: string } & React.HTMLAttributes<HTMLElement>) {
  return (
    <section {...props} className={cx("rounded-lg border bg-card p-4 text-card-foreground", className)}>
      {children}
    </section>
  );
}

export function StockLabel({ state, left }: { state: StockState; left: number | null }) {
  const { texts } = useStorefront();
  if (state === "in_stock") return <span className="text-sm text-muted-foreground">{texts.inStock}</span>;
  if (state === "low_stock") return <span className="text-sm font-medium text-foreground">{texts.onlyLeft(left)}</span>;
  return <span className="text-sm font-medium text-destructive">{texts.outOfStock}</span>;
}

export function QuantityStepper({ value, onChange, max, label }: { value: number; onChange: (value: number) => void; max: number; label: string }) {
  const { texts } = useStorefront();
  return (
    <div role="group" aria-label={label} className="inline-flex items-center rounded-md border border-input bg-card">
      <button type="button" className="size-11 text-lg disabled:opacity-40" aria-label={texts.decrease} disabled={value <= 1} onClick={() => onChange(value - 1)}>
        −
      </button>
      <output aria-live="polite" className="min-w-8 text-center tabular-nums">
        {value}
      </output>
      <button type="button" className="size-11 text-lg disabled:opacity-40" aria-label={texts.increase} disabled={value >= max} onClick={() => onChange(value + 1)}>
        +
      </button>
    </div>
  );
}

async function writeClipboard(text: string) {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Without the Clipboard API (an old webview): the selection and the copy command.
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

/** Copies `text`; the button says it did for a moment (a failure says so below it), to screen readers too. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { texts } = useStorefront();
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), 2500);
    return () => clearTimeout(timer);
  }, [said]);
  const copy = async () => {
    try {
      await writeClipboard(text);
      setSaid(texts.copied);
    } catch {
      haptic.error();
      setSaid(texts.copyFailed);
    }
  };
  return (
    <>
      <Button className="shrink-0" onClick={() => void copy()} aria-label={label}>
        {said === texts.copied ? texts.copied : texts.copy}
      </Button>
      <span role="status" className="sr-only">
        {said}
      </span>
      {said && said !== texts.copied && <p className="w-full text-sm text-destructive">{said}</p>}
    </>
  );
}

/** Calls `tick` every `ms` while `active`, and once at once; stops with the screen. */
export function usePolling(tick: () => void | Promise<void>, ms: number, active = true) {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const run = async () => {
      try {
        await latest.current();
      } finally {
        if (!stopped) timer = setTimeout(() => void run(), ms);
      }
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ms, active]);
}

export function ScreenTitle({ children }: { children: ReactNode }) {
  return (
    <h1 tabIndex={-1} className="mb-3 text-xl font-semibold outline-none" data-screen-title>
      {children}
    </h1>
  );
}
