// One date format everywhere (issue 22, item 12): every screen shows dates and times through these,
// in the owner's locale (the browser's language), and as the browser's own date inputs show a day
// (the Orders filter's From and To): 26/11/2026 in en-GB, 11/26/2026 in en-US. Formatters are made
// once: toLocaleDateString builds a new one on every call, which showed in the Orders screen's
// profile (a list of rows, each with dates).

/** The owner's locale; undefined (the runtime's default) where there is no browser. */
const LOCALE = typeof navigator === "undefined" ? undefined : navigator.language;

const DAY = { day: "2-digit", month: "2-digit", year: "numeric" } as const;
const TIME = { hour: "2-digit", minute: "2-digit" } as const;

const DATE_FORMAT = new Intl.DateTimeFormat(LOCALE, DAY);
const DATE_TIME_FORMAT = new Intl.DateTimeFormat(LOCALE, { ...DAY, ...TIME });
const TIME_FORMAT = new Intl.DateTimeFormat(LOCALE, TIME);

function dateOf(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A day: "26/11/2026" (en-GB). Empty for a value that is not a date. */
export function formatDate(iso: string): string {
  const date = dateOf(iso);
  return date ? DATE_FORMAT.format(date) : "";
}

/** A moment: "26/11/2026, 09:40" (en-GB), the same day as formatDate plus the time. */
export function formatDateTime(iso: string): string {
  const date = dateOf(iso);
  return date ? DATE_TIME_FORMAT.format(date) : "";
}

/** A time of day: "09:40" (en-GB), "09:40 AM" (en-US). */
export function formatTime(iso: string): string {
  const date = dateOf(iso);
  return date ? TIME_FORMAT.format(date) : "";
}

const RELATIVE_FORMAT = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });
/** The largest unit that fits first: under a minute in seconds, under an hour in minutes, and so on. */
const AGE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 60 * 60],
  ["month", 30 * 24 * 60 * 60],
  ["week", 7 * 24 * 60 * 60],
  ["day", 24 * 60 * 60],
  ["hour", 60 * 60],
  ["minute", 60],
];

/**
 * How long ago, in the owner's locale: "3 hours ago", "yesterday", "2 days ago" (en-GB). A moment a
 * clock ahead of the browser's puts in the future reads "now"; empty for a value that is not a date.
 */
export function formatAge(iso: string, now = Date.now()): string {
  const date = dateOf(iso);
  if (!date) return "";
  const seconds = Math.max(0, Math.floor((now - date.getTime()) / 1000));
  for (const [unit, size] of AGE_UNITS) {
    if (seconds >= size) return RELATIVE_FORMAT.format(-Math.floor(seconds / size), unit);
  }
  return RELATIVE_FORMAT.format(-seconds, "second");
}

// Days and months the server already counted in the shop's time zone ("2026-11-26", "2026-11": the
// revenue chart's points) are calendar days, not moments: read as UTC and shown in UTC, so the label
// is that day wherever the browser is, never the day before.
const CALENDAR_DAY_FORMAT = new Intl.DateTimeFormat(LOCALE, { ...DAY, timeZone: "UTC" });
const CALENDAR_DAY_SHORT_FORMAT = new Intl.DateTimeFormat(LOCALE, { day: "2-digit", month: "2-digit", timeZone: "UTC" });
const CALENDAR_MONTH_FORMAT = new Intl.DateTimeFormat(LOCALE, { month: "short", year: "numeric", timeZone: "UTC" });

function calendarDateOf(day: string): Date | null {
  return /^\d{4}-\d{2}(-\d{2})?$/.test(day) ? dateOf(day) : null;
}

/** A calendar day "2026-11-26" as formatDate shows a day: "26/11/2026" (en-GB), "11/26/2026" (en-US). */
export function formatCalendarDay(day: string): string {
  const date = calendarDateOf(day);
  return date ? CALENDAR_DAY_FORMAT.format(date) : "";
}

/** The same day without its year, where space is short (a chart's axis): "26/11" (en-GB), "11/26" (en-US). */
export function formatCalendarDayShort(day: string): string {
  const date = calendarDateOf(day);
  return date ? CALENDAR_DAY_SHORT_FORMAT.format(date) : "";
}

/** A calendar month "2026-11": "Nov 2026". */
export function formatCalendarMonth(month: string): string {
  const date = calendarDateOf(month);
  return date ? CALENDAR_MONTH_FORMAT.format(date) : "";
}
