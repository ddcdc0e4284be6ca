import { KNOWN_CARRIERS, type KnownCarrier } from "./orders";

// The customer's dispatch message, built here once (issue 22): the server sends it
// (server/shop/orders/dispatch-notices.ts) and the dashboard's dispatch dialog previews the very same
// text before the owner confirms. Where each known carrier's tracking page lives is part of it
// (issue 13), so it lives here too; server/shop/orders/carriers.ts is its face in the shop.

/** Each known carrier's tracking page for one parcel; `number` arrives already URL-encoded. */
const TRACKING_PAGES: Record<KnownCarrier, (number: string) => string> = {
  "Royal Mail": (number) => `https://www.royalmail.com/track-your-item#/tracking-results/${number}`,
  DPD: (number) => `https://track.dpd.co.uk/parcels/${number}`,
  Evri: (number) => `https://www.evri.com/track/parcel/${number}`,
  UPS: (number) => `https://www.ups.com/track?tracknum=${number}`,
  DHL: (number) => `https://www.dhl.com/gb-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=${number}`,
};

/** "Royal Mail", "royal mail" and "ROYALMAIL" are one carrier: compare letters and digits only, ignoring case. */
const comparable = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The known carrier this name means, or null for any other carrier. */
export function findKnownCarrier(name: string): KnownCarrier | null {
  const wanted = comparable(name);
  return KNOWN_CARRIERS.find((carrier) => comparable(carrier) === wanted) ?? null;
}

/**
 * The carrier as it is stored: a known carrier in its own spelling (so the list and the message read
 * the same whoever typed it), any other as given; null when none was given.
 */
export function carrierName(name: string | null): string | null {
  if (!name) return null;
  return findKnownCarrier(name) ?? name;
}

/**
 * The tracking page for a parcel, or null when the carrier is unknown or there is no number.
 * Spaces are left out of the number: owners copy numbers as printed ("AB 1234 5678 9GB"), while
 * the carriers' pages look them up without.
 */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  const known = carrier ? findKnownCarrier(carrier) : null;
  const number = trackingNumber?.replace(/\s+/g, "") ?? "";
  if (!known || number === "") return null;
  return TRACKING_PAGES[known](encodeURIComponent(number));
}

/**
 * Where a dispatched parcel is, as the customer reads it (the dispatch message and My Orders): the
 * carrier, the tracking number and, for a known carrier, the link to its tracking page, each when known.
 */
export function parcelLines(order: { carrier: string | null; trackingNumber: string | null }): string[] {
  const link = trackingUrl(order.carrier, order.trackingNumber);
  return [
    ...(order.carrier ? [`Carrier: ${order.carrier}`] : []),
    ...(order.trackingNumber ? [`Tracking number: ${order.trackingNumber}`] : []),
    ...(link ? [`Track your parcel: ${link}`] : []),
  ];
}

/**
 * The customer's dispatch message: the carrier, the tracking number and, for a known carrier, the
 * link to its tracking page, each when known. Plain text (the notifier sends no markup), so a
 * carrier's name can never turn into formatting.
 */
export function dispatchNotice(order: { id: string; carrier: string | null; trackingNumber: string | null; note?: string | null }): string {
  return [
    `Good news! Your order #${order.id.slice(0, 8)} has been dispatched.`,
    ...parcelLines(order),
    ...(order.note ? [`Note from the shop: ${order.note}`] : []),
    "Thank you for shopping with us.",
  ].join("\n");
}

/**
 * The message as it will read for what the owner typed in the dispatch dialog: trimmed and with the
 * carrier spelt as the server stores it (updateOrderStatus), blank meaning none.
 */
export function dispatchNoticePreview(orderId: string, typed: { carrier?: string; trackingNumber?: string; note?: string }): string {
  return dispatchNotice({
    id: orderId,
    carrier: carrierName(typed.carrier?.trim() || null),
    trackingNumber: typed.trackingNumber?.trim() || null,
    note: typed.note?.trim() || null,
  });
}
