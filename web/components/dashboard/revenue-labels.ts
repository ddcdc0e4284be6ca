const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-01-15" as "15 Jan", "2026-01" as "Jan 2026" (the server's dates are already the shop's local days). */
export function pointLabel(date: string, unit: "day" | "month"): string {
  const [year, month, day] = date.split("-");
  const name = MONTHS[Number(month) - 1] ?? month;
  return unit === "month" ? `${name} ${year}` : `${Number(day)} ${name}`;
}
