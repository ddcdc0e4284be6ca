import { Download } from "lucide-react";
import type { OrderSort, OrderStatus } from "../../../contract";
import { buttonVariants } from "@/components/ui/button";
import { queryKeyUrl } from "@/lib/api";
import { dayEndIso, dayStartIso } from "@/lib/screen-helpers";

/** Where the CSV of the orders the list shows comes from: the list's own filters, without its paging. */
export function exportUrl(filters: { status: "all" | OrderStatus; q: string; sort: OrderSort; fromDay: string; toDay: string }): string {
  return queryKeyUrl([
    "/api/orders/export.csv",
    {
      status: filters.status === "all" ? undefined : filters.status,
      q: filters.q,
      sort: filters.sort === "newest" ? undefined : filters.sort,
      // The days the admin picked, in this browser's time zone, as the list asks for them.
      from: filters.fromDay ? dayStartIso(filters.fromDay) : undefined,
      to: filters.toDay ? dayEndIso(filters.toDay) : undefined,
    },
  ]);
}

/**
 * "Export": downloads the orders matching the Orders screen's filters as a CSV file (issue 13). A
 * plain link rather than a fetch, so the browser writes the file to disk as the server streams it,
 * however many orders there are, under the dated name the server gives.
 */
export function ExportButton(props: Parameters<typeof exportUrl>[0]) {
  return (
    <a href={exportUrl(props)} download className={buttonVariants({ variant: "outline" })} title="Download these orders as a CSV file">
      <Download aria-hidden="true" />
      Export
    </a>
  );
}
