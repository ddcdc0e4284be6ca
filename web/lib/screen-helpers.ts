import { useSyncExternalStore } from "react";
import { formatDate } from "./dates";

// Small helpers shared by the Categories, Products, Postage, Orders and Messages screens.

/** "£4.99" from "4.99", 4.99 or null (docs/product.md §9: GBP with two decimals). */
export function formatGBP(value: string | number | null | undefined): string {
  const n = Number(value ?? 0);
  return `£${(Number.isFinite(n) ? n : 0).toFixed(2)}`;
}

/** Order ids are shown as their first 8 characters (docs/product.md §1). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

// Dates and times: one format for every screen (web/lib/dates.ts).
export { formatDate, formatDateTime, formatTime } from "./dates";

/**
 * What an order without its address says instead (issue 15): when the address was erased by the
 * retention rules or at the customer's request, or that it never had one.
 */
export function missingAddressText(order: { addressErasedAt: string | null }): string {
  return order.addressErasedAt ? `Address erased on ${formatDate(order.addressErasedAt)}` : "No shipping address on this order";
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

/** Whether `value` is a day as a date input gives it: "2026-03-10". */
export function isDay(value: string | null): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

function localMidnight(day: string, addDays = 0): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date + addDays);
}

/** The first moment of a day in this browser's time zone, as an ISO instant (a list's `from`). */
export function dayStartIso(day: string): string {
  return localMidnight(day).toISOString();
}

/** The last millisecond of a day in this browser's time zone, as an ISO instant (a list's inclusive `to`). */
export function dayEndIso(day: string): string {
  return new Date(localMidnight(day, 1).getTime() - 1).toISOString();
}
