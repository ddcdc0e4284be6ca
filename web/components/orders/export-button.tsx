import { useMutation } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useRef, type MouseEvent } from "react";
import type { OrderSort, OrderStatus } from "../../../contract";
import { buttonVariants } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";
import { ApiError, confirmFreshTwoFactor, describeError, queryKeyUrl } from "@/lib/api";
import { useOwnerKeys } from "@/lib/owner-keys";
import { dayEndIso, dayStartIso } from "@/lib/screen-helpers";
import { downloadOpenedExport } from "./opened-export";

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
 *
 * A link alone would save the server's 401 answer as the "CSV" once the session has ended. So a
 * click first asks for the session through the app's API layer: a 401 there takes the owner to the
 * login screen with "Your session ended", like any other call; only a live session lets the link's
 * own download go ahead.
 *
 * Unlocked (private addresses), the file is fetched instead, and the sealed addresses in it are
 * opened and filled in by this browser before it is saved (opened-export.ts).
 */
export function ExportButton(props: Parameters<typeof exportUrl>[0]) {
  const link = useRef<HTMLAnchorElement>(null);
  /** Set just before the link is clicked again after the check: that click downloads. */
  const sessionChecked = useRef(false);
  // The session, and a fresh two-factor code when the account has it on (the export is sensitive, issue 25).
  const checkSession = useMutation({ mutationFn: () => confirmFreshTwoFactor() });
  const { keys } = useOwnerKeys();
  const openedExport = useMutation({
    mutationFn: async () => {
      await confirmFreshTwoFactor();
      await downloadOpenedExport(exportUrl(props), keys);
    },
  });

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (sessionChecked.current) {
      sessionChecked.current = false;
      return;
    }
    event.preventDefault();
    if (checkSession.isPending || openedExport.isPending) return;
    if (keys.size > 0) {
      openedExport.mutate(undefined, {
        onError: (error) => {
          if (error instanceof ApiError && error.status === 401) return;
          toast({ title: "Failed to export orders", description: describeError(error), variant: "destructive" });
        },
      });
      return;
    }
    checkSession.mutate(undefined, {
      onSuccess: () => {
        sessionChecked.current = true;
        link.current?.click();
      },
      onError: (error) => {
        // A 401 is handled for every call alike (web/lib/api.ts): the login screen says the session ended.
        if (error instanceof ApiError && error.status === 401) return;
        toast({ title: "Failed to export orders", description: describeError(error), variant: "destructive" });
      },
    });
  };

  return (
    <a
      ref={link}
      href={exportUrl(props)}
      download
      onClick={onClick}
      aria-busy={checkSession.isPending || openedExport.isPending}
      className={buttonVariants({ variant: "outline" })}
      title={keys.size > 0 ? "Download these orders as a CSV file, with the unlocked addresses" : "Download these orders as a CSV file"}
    >
      <Download aria-hidden="true" />
      Export
    </a>
  );
}
