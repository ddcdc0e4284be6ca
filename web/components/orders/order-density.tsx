import { useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";

// The orders table's density (issue 22): Comfortable (the default) or Compact, tighter rows for an
// owner who packs many orders a day. Kept in this browser's localStorage, as the theme is.

export type OrderDensity = "comfortable" | "compact";
const DENSITY_KEY = "shop-admin.orders-density";
const listeners = new Set<() => void>();

function readDensity(): OrderDensity {
  try {
    return localStorage.getItem(DENSITY_KEY) === "compact" ? "compact" : "comfortable";
  } catch {
    return "comfortable"; // storage blocked (private mode in some browsers)
  }
}

function setDensity(density: OrderDensity) {
  try {
    if (density === "compact") localStorage.setItem(DENSITY_KEY, density);
    else localStorage.removeItem(DENSITY_KEY);
  } catch {
    // storage blocked: the choice lasts until the page reloads
  }
  for (const listener of listeners) listener();
}

export function useOrderDensity(): OrderDensity {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      // Another tab's choice applies here too.
      window.addEventListener("storage", onChange);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener("storage", onChange);
      };
    },
    readDensity,
  );
}

const CHOICES: { value: OrderDensity; label: string }[] = [
  { value: "comfortable", label: "Comfortable" },
  { value: "compact", label: "Compact" },
];

/** Two pressed-or-not buttons rather than a menu: both choices seen, one click to switch. */
export function OrderDensityToggle({ className }: { className?: string }) {
  const density = useOrderDensity();
  return (
    <div role="group" aria-label="Row density" className={className} data-testid="order-density">
      <div className="bg-muted inline-flex rounded-md p-0.5">
        {CHOICES.map(({ value, label }) => (
          <Button
            key={value}
            type="button"
            size="sm"
            variant="ghost"
            aria-pressed={density === value}
            onClick={() => setDensity(value)}
            className="aria-pressed:bg-background aria-pressed:text-foreground text-muted-foreground h-8 aria-pressed:shadow-xs"
          >
            {label}
          </Button>
        ))}
      </div>
    </div>
  );
}
