/** Where the packing slips print view lives (registered in web/app.tsx, outside the app's frame). */
export const PACKING_SLIPS_PATH = "/orders/packing-slips";

/** The print view for these orders; with none, for every order Ready to Dispatch. */
export function packingSlipsHref(orderIds: readonly string[]): string {
  if (orderIds.length === 0) return PACKING_SLIPS_PATH;
  return `${PACKING_SLIPS_PATH}?${new URLSearchParams({ ids: orderIds.join(",") }).toString()}`;
}

/** The Orders screen's filter as the print view takes it: days as the date inputs hold them (YYYY-MM-DD). */
export type SlipFilter = { status: string; q: string; sort: string; fromDay: string; toDay: string };

/**
 * The print view for every order the Orders screen's filter matches ("Select all N matching", issue 22),
 * in the list's order. `matching=1` marks it: a link without it and without ids means every order Ready
 * to Dispatch, as before.
 */
export function packingSlipsForFilterHref(filter: SlipFilter): string {
  const params = new URLSearchParams({ matching: "1" });
  if (filter.status !== "all") params.set("status", filter.status);
  if (filter.q) params.set("q", filter.q);
  if (filter.sort !== "newest") params.set("sort", filter.sort);
  if (filter.fromDay) params.set("from", filter.fromDay);
  if (filter.toDay) params.set("to", filter.toDay);
  return `${PACKING_SLIPS_PATH}?${params.toString()}`;
}
