/** Where the packing slips print view lives (registered in web/app.tsx, outside the app's frame). */
export const PACKING_SLIPS_PATH = "/orders/packing-slips";

/** The print view for these orders; with none, for every order Ready to Dispatch. */
export function packingSlipsHref(orderIds: readonly string[]): string {
  if (orderIds.length === 0) return PACKING_SLIPS_PATH;
  return `${PACKING_SLIPS_PATH}?${new URLSearchParams({ ids: orderIds.join(",") }).toString()}`;
}
