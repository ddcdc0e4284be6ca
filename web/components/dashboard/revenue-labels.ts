import { formatCalendarDay, formatCalendarDayShort, formatCalendarMonth } from "@/lib/dates";

// A revenue point's date in the owner's locale, as every date is shown (web/lib/dates.ts). The server's
// dates are already the shop's local days ("2026-01-15") or months ("2026-01").

/** For the table and the chart's tooltip: "15/01/2026" (en-GB), "01/15/2026" (en-US), "Jan 2026". */
export function pointLabel(date: string, unit: "day" | "month"): string {
  return unit === "month" ? formatCalendarMonth(date) : formatCalendarDay(date);
}

/** For the chart's axis, where space is short: "15/01" (en-GB), "01/15" (en-US), "Jan 2026". */
export function axisLabel(date: string, unit: "day" | "month"): string {
  return unit === "month" ? formatCalendarMonth(date) : formatCalendarDayShort(date);
}
