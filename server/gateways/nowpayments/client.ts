import type { Config } from "../../config";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { gatewayAmountText, unavailable } from "../../shop/common";
import { formatPence } from "../../shop/catalogue";
import { getBotSettings } from "../../shop/settings";
import { DEFAULT_GATEWAY_TIMEOUT_MS, NOT_CONFIGURED_MESSAGE, type CreatePaymentRequest, type GatewayPayment, type PaymentGateway } from "../../shop/payments";
import { readIpn } from "./notification";

// A small NOWPayments client over fetch, no SDK: the two calls of their API v1 the shop
// makes, POST /payment (create) and GET /payment/{id} (status), with the key in x-api-key.

export type NowPaymentsOptions = {
  /** NOWPAYMENTS_API_URL, e.g. https://api.nowpayments.io/v1 (no trailing slash). */
  apiUrl: string;
  /** Read at each call, so a key saved in Bot Settings is used at once. */
  getApiKey: () => Promise<string | null | undefined>;
  /** How long one call may take before the customer is told to try again. */
  timeoutMs?: number;
  /** The IPN secret that signs notifications, read at each one; absent: notifications are refused. */
  getIpnSecret?: () => Promise<string | null | undefined>;
};

/**
 * An amount field of a NOWPayments payment as decimal text; null when the field is absent. An amount
 * that is not in the grammar (shop/common/crypto-amounts.ts, docs/SECURITY.md "Input limits") is an error,
 * never money: "1e400" read as nothing received would turn a payment into a short one.
 */
function amount(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  const text = gatewayAmountText(value);
  if (text === null) throw unavailable(`The payment service sent an unreadable ${field}. Please try again.`);
  return text;
}

function text(value: unknown): string | null {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

function date(value: unknown): Date | null {
  if (typeof value !== "string" || value === "") return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** A NOWPayments payment object (create answer, status answer or IPN body) in the gateway's terms. */
export function parseNowPayment(body: Record<string, unknown>): GatewayPayment {
  const paymentId = text(body.payment_id);
  const status = text(body.payment_status);
  if (!paymentId || !status) throw unavailable("The payment service sent an answer we could not read. Please try again.");
  return {
    paymentId,
    status,
    orderId: text(body.order_id),
    payAddress: text(body.pay_address),
    payAmount: amount(body, "pay_amount"),
    payCurrency: text(body.pay_currency)?.toLowerCase() ?? null,
    priceAmount: amount(body, "price_amount"),
    priceCurrency: text(body.price_currency)?.toLowerCase() ?? null,
    actuallyPaid: amount(body, "actually_paid"),
    transactionHash: text(body.payin_hash),
    expiresAt: date(body.expiration_estimate_date),
    raw: body,
  };
}

export function createNowPaymentsGateway(options: NowPaymentsOptions): PaymentGateway {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<Record<string, unknown>> {
    const apiKey = await options.getApiKey();
    if (!apiKey) throw unavailable(NOT_CONFIGURED_MESSAGE);
    let response: Response;
    try {
      response = await fetch(options.apiUrl + path, {
        method,
        headers: { "x-api-key": apiKey, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw unavailable("The payment service did not answer in time. Please try again in a few minutes.");
      }
      throw unavailable("The payment service could not be reached. Please try again in a few minutes.");
    }
    let payload: unknown = null;
    try {
      payload = await response.json();
    } catch {
      // Not JSON (a proxy's error page): the status code below says enough.
    }
    const record = payload && typeof payload === "object" ? (payload as Record<string, unknown>) : {};
    if (!response.ok) {
      if (response.status === 401 || response.status === 403) {
        throw unavailable("The payment service refused the shop's API key. Please try again later.");
      }
      const reason = typeof record.message === "string" && record.message.trim() !== "" ? record.message.trim() : null;
      if (response.status >= 400 && response.status < 500 && reason) {
        throw unavailable(`The payment service refused the payment: ${reason.replace(/\.?$/, ".")}`);
      }
      throw unavailable(`The payment service answered with an error (${response.status}). Please try again in a few minutes.`);
    }
    return record;
  }

  return {
    name: "NOWPayments",
    async isConfigured() {
      return Boolean(await options.getApiKey());
    },
    async createPayment(request: CreatePaymentRequest) {
      const body: Record<string, unknown> = {
        price_amount: Number(formatPence(request.pricePence)),
        price_currency: "gbp",
        pay_currency: request.coin,
        order_id: request.orderId,
        order_description: request.description,
      };
      if (request.callbackUrl) body.ipn_callback_url = request.callbackUrl;
      const payment = parseNowPayment(await call("POST", "/payment", body));
      if (!payment.payAddress || !payment.payAmount) {
        throw unavailable("The payment service did not give an address to pay to. Please try again.");
      }
      return payment;
    },
    async getPayment(paymentId: string) {
      return parseNowPayment(await call("GET", `/payment/${encodeURIComponent(paymentId)}`));
    },
    async readNotification(notification) {
      return readIpn(notification, (await options.getIpnSecret?.()) ?? null);
    },
  };
}

/**
 * The shop's NOWPayments gateway: the API key and the IPN secret are read from Bot Settings at each
 * call, so a key saved there is used at once. Built once, at start-up (server/services.ts).
 */
export function createNowPaymentsGatewayFromSettings(deps: {
  db: DbOrTx;
  secrets: SecretBox;
  config: Pick<Config, "nowpaymentsApiUrl">;
}): PaymentGateway {
  return createNowPaymentsGateway({
    apiUrl: deps.config.nowpaymentsApiUrl,
    getApiKey: async () => (await getBotSettings(deps.db, deps.secrets))?.nowpaymentsApiKey,
    getIpnSecret: async () => (await getBotSettings(deps.db, deps.secrets))?.nowpaymentsIpnSecret,
  });
}
