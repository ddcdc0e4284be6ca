import { z } from "zod";

// The live updates of GET /api/events (issue 13): a Server-Sent Events stream telling the signed-in
// dashboard what changed, so it reloads those lists. The events name what changed, never the rows:
// the browser reads the rows through the usual calls, with their usual checks.
// Depends on zod only (contract/index.ts re-exports this file).

/**
 * - orders: an order was placed, changed status, or its payment changed.
 * - messages: a customer message arrived, was read, or the admin replied.
 * - customers: a customer was blocked or unblocked.
 * - coupons: a coupon was created, changed or deleted, or one of its uses was held, counted or released.
 * - order-paid: one order's payment was confirmed (data: LiveOrderPaid), for the optional notification.
 * - resync: changes may have been missed (the server lost its database notices, or the browser was
 *   away too long): reload everything.
 * - ready: sent once when a connection starts listening; its id is where a reconnect resumes from.
 */
export const LIVE_EVENT_NAMES = ["orders", "messages", "customers", "coupons", "order-paid", "resync", "ready"] as const;
export const LiveEventNameSchema = z.enum(LIVE_EVENT_NAMES);
export type LiveEventName = z.infer<typeof LiveEventNameSchema>;

/** The data of an order-paid event. */
export const LiveOrderPaidSchema = z.object({
  orderId: z.string(),
  /** The order's total, two decimals, in `currency` (GBP). */
  totalAmount: z.string(),
  currency: z.string(),
});
export type LiveOrderPaid = z.infer<typeof LiveOrderPaidSchema>;

/** How long the browser waits before reconnecting after the stream broke (the SSE `retry:` field). */
export const LIVE_RETRY_MS = 3_000;
