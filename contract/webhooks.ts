import { z } from "zod";

// What the payment gateway's and Telegram's webhooks answer.

/** POST /api/payments/webhook: what the IPN did. */
export const PaymentWebhookAnswerSchema = z
  .object({
    ok: z.literal(true),
    /**
     * applied: the order changed; duplicate: this status was seen before; stale: it would move the order
     * back; ignored: a BTCPay invoice the shop did not create (the owner's other sales on the same store).
     */
    outcome: z.enum(["applied", "duplicate", "stale", "ignored"]),
    /** The order's status after it; null when ignored. */
    orderStatus: z.string().nullable(),
  })
  .meta({ id: "PaymentWebhookAnswer" });
/**
 * POST /api/telegram/webhook: `{ ok: true }` to Telegram; to the admin's Bot Preview tester, also
 * the Bot API calls the bot would have made (method plus its parameters), instead of making them.
 */
export const TelegramWebhookAnswerSchema = z
  .object({ ok: z.literal(true), replies: z.array(z.looseObject({ method: z.string() })).optional() })
  .meta({ id: "TelegramWebhookAnswer" });

/**
 * GET /api/webhook-addresses: where Telegram and NOWPayments must call this shop, built from the
 * server's PUBLIC_URL (the addresses it registers and hands the gateway), or null without
 * PUBLIC_URL (the dashboard then shows its own origin's, saying so).
 */
export const WebhookAddressesSchema = z
  .object({
    publicUrl: z.string().nullable(),
    telegramWebhookUrl: z.string().nullable(),
    paymentsWebhookUrl: z.string().nullable(),
  })
  .meta({ id: "WebhookAddresses" });
export type WebhookAddresses = z.infer<typeof WebhookAddressesSchema>;
