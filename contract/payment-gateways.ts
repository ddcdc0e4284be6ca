import { z } from "zod";
import { optionalText } from "./fields";

// Payment gateways (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md): NOWPayments (custodial)
// and the owner's own BTCPay Server (self-custody), chosen per coin. Secrets are answered masked as in
// Bot Settings (contract/secret-mask.ts); a masked value sent back keeps the stored secret.

export const GATEWAY_NAMES = ["nowpayments", "btcpay"] as const;
export type GatewayName = (typeof GATEWAY_NAMES)[number];

const MASKED = "Masked in every answer: \"••••••••\" and the last 4 characters; sent back unchanged, the stored secret is kept";

const gatewayChoice = z.enum(GATEWAY_NAMES, { error: "must be nowpayments or btcpay" }).optional();
/** Which gateway takes each coin; a coin left out keeps the gateway it has (NOWPayments at first). */
export const CoinGatewaysSchema = z.object({ BTC: gatewayChoice, LTC: gatewayChoice, XMR: gatewayChoice }).strict();

/** A BTCPay Server's address: https, or http only for a server on this machine (tests, a local node). */
const serverUrl = optionalText.refine(
  (value) => {
    if (value === null) return true;
    try {
      const url = new URL(value);
      const local = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
      return (url.protocol === "https:" || (url.protocol === "http:" && local)) && url.username === "" && url.password === "";
    } catch {
      return false;
    }
  },
  { message: "must be the https:// address of your BTCPay Server, such as https://btcpay.example.com" },
);

export const PaymentGatewaysInputSchema = z.object({
  nowpayments: z.object({ apiKey: optionalText, ipnSecret: optionalText }).partial().optional(),
  btcpay: z
    .object({
      serverUrl,
      storeId: optionalText.refine((value) => value === null || /^[A-Za-z0-9_-]{1,100}$/.test(value), {
        message: "must be the store's ID as BTCPay shows it under Store settings",
      }),
      apiKey: optionalText,
    })
    .partial()
    .optional(),
  coins: CoinGatewaysSchema.optional(),
});
export type PaymentGatewaysInput = z.input<typeof PaymentGatewaysInputSchema>;

/** The webhook the shop registered on the BTCPay store, as last seen. */
export const BtcpayWebhookStateSchema = z.object({
  /** BTCPay's id of the webhook; null while none is registered. */
  id: z.string().nullable(),
  /** The address it posts to (PUBLIC_URL + /api/payments/btcpay/webhook). */
  url: z.string().nullable(),
  /** "registered", "not-registered", or "no-public-url" (the server has no PUBLIC_URL, so the rescue sweep polls instead). */
  state: z.enum(["registered", "not-registered", "no-public-url"]),
});

export const PaymentGatewaysSchema = z
  .object({
    nowpayments: z.object({
      apiKey: z.string().nullable().meta({ description: MASKED }),
      ipnSecret: z.string().nullable().meta({ description: MASKED }),
    }),
    btcpay: z.object({
      serverUrl: z.string().nullable(),
      storeId: z.string().nullable(),
      apiKey: z.string().nullable().meta({ description: MASKED }),
      webhookSecret: z.string().nullable().meta({ description: MASKED }),
      webhook: BtcpayWebhookStateSchema,
    }),
    /** Every coin with the gateway that takes it. */
    coins: z.object({ BTC: z.enum(GATEWAY_NAMES), LTC: z.enum(GATEWAY_NAMES), XMR: z.enum(GATEWAY_NAMES) }),
  })
  .meta({ id: "PaymentGateways" });
export type PaymentGateways = z.infer<typeof PaymentGatewaysSchema>;
