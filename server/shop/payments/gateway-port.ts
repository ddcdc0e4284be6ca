// The payment gateway as the shop sees it (its one port to a gateway): create a payment, read its
// status, verify and parse a notification. Each gateway is one adapter folder implementing it
// (server/gateways/nowpayments/), chosen in server/services.ts; a second one (BTCPay Server) is one
// more folder and one line of wiring, without touching checkout or the payment rules.

/** How long one call to the gateway may take before the customer is told to try again. */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 15_000;

export const NOT_CONFIGURED_MESSAGE = "Payments are not configured yet, so orders cannot be paid right now. Please try again later.";

/** The coins the shop sells for, as the gateways write them. */
export type PayCoin = "btc" | "ltc" | "xmr";

/**
 * Payment statuses (NOWPayments' vocabulary, which other gateways are mapped onto).
 * docs/product.md rule 3 says what each one does to an order (see payment-updates.ts).
 */
export const PAYMENT_STATUSES = [
  "waiting",
  "confirming",
  "partially_paid",
  "confirmed",
  "sending",
  "finished",
  "failed",
  "expired",
  "refunded",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === "string" && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export type CreatePaymentRequest = {
  orderId: string;
  /** The GBP amount to collect. */
  pricePence: number;
  coin: PayCoin;
  description: string;
  /** Where the gateway posts status updates; absent when the server has no public address. */
  callbackUrl?: string;
};

/** A payment as the gateway reports it; amounts in the coin stay decimal strings, exactly as sent. */
export type GatewayPayment = {
  paymentId: string;
  status: string;
  orderId: string | null;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string | null;
  /** The fiat amount the payment is for ("15.5"), as the gateway echoes it; checked against the order's total. */
  priceAmount: string | null;
  priceCurrency: string | null;
  actuallyPaid: string | null;
  transactionHash: string | null;
  /** When the customer's time to pay runs out, when the gateway says. */
  expiresAt: Date | null;
  /** The gateway's own answer, kept in payment_events for the record. */
  raw: Record<string, unknown>;
  /** Which gateway made it ("nowpayments", "btcpay"), when the gateway says (the coin router does); kept on the order. */
  gateway?: string;
  /** The gateway's own page for paying it (BTCPay's invoice checkout link), shown beside the address. */
  checkoutUrl?: string | null;
  /**
   * Money the gateway reports as arrived too late to count (BTCPay's PaidLate): applied as a short
   * payment whatever its amount, so the owner decides (accept it or cancel / refund), never the tolerance.
   */
  ownerDecides?: boolean;
};

export interface PaymentGateway {
  readonly name: string;
  /**
   * False while the shop has no keys for it; checkout refuses before it creates anything. With a coin:
   * whether that coin can be paid (the coin router asks the coin's gateway).
   */
  isConfigured(coin?: PayCoin): Promise<boolean>;
  /** Throws a ShopError("unavailable") with a sentence a customer can read when it refuses or cannot be reached. */
  createPayment(request: CreatePaymentRequest): Promise<GatewayPayment>;
  /** `gateway`: the one that made it, as the order recorded it (null: an order from before issue 24, NOWPayments'). */
  getPayment(paymentId: string, gateway?: string | null): Promise<GatewayPayment>;
  /**
   * Checks a notification the gateway posted (its signature, then the fields the shop reads) and
   * reads the payment it reports. Refused: "unsigned" (no secret to check it with, or a wrong or
   * missing signature; answered 401) or "malformed" (signed but unreadable; answered 400).
   */
  readNotification(notification: GatewayNotification): Promise<NotificationReading>;
}

/** A notification as it arrived: its parsed JSON body and its HTTP headers. */
export type GatewayNotification = {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as it arrived, for gateways that sign the bytes (BTCPay Server). */
  rawBody?: string;
  /** Which gateway's address it was posted to (absent: NOWPayments'). */
  gateway?: string;
};

export type NotificationReading =
  | {
      ok: true;
      payment: GatewayPayment;
      /** The gateway's id of this delivery (BTCPay's deliveryId): a redelivery of it is taken once. */
      deliveryId?: string;
    }
  | {
      ok: false;
      problem: "unsigned" | "malformed";
      /** The answer's sentence. */
      message: string;
      /** What the server's log is told, when the refusal is worth a warning. */
      warning?: string;
    };
