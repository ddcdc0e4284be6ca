import { useSyncExternalStore } from "react";

// Small helpers shared by the Categories, Products, Postage, Orders and Messages screens.

/** "£4.99" from "4.99", 4.99 or null (SPEC §9: GBP with two decimals). */
export function formatGBP(value: string | number | null | undefined): string {
  const n = Number(value ?? 0);
  return `£${(Number.isFinite(n) ? n : 0).toFixed(2)}`;
}

/** Order ids are shown as their first 8 characters (SPEC §1). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString("en-GB");
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleString("en-GB", { day: "2-digit", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** Whether a CSS media query matches now; follows changes (e.g. rotating a phone). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's `md` breakpoint: tables from here up, cards below. */
export const DESKTOP_QUERY = "(min-width: 768px)";
