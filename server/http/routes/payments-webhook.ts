import { PaymentWebhookAnswerSchema } from "../../../contract";
import { applyPaymentUpdate, verifyIpnSignature } from "../../shop/payments/payment-updates";
import { parseNowPayment } from "../../gateways/nowpayments/client";
import { PAYMENT_WEBHOOK_PATH } from "../../shop/ordering/checkout";
import { gatewayAmountText } from "../../shop/common/crypto-amounts";
import { getBotSettings } from "../../shop/settings/settings";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { documentedOnly, ERROR_ANSWERS } from "../openapi";
import { WEBHOOK } from "../security";

const REQUIRED_TEXT = ["payment_id", "payment_status", "order_id"] as const;
const OPTIONAL_AMOUNTS = ["price_amount", "pay_amount", "actually_paid", "outcome_amount"] as const;
const OPTIONAL_TEXT = ["price_currency", "pay_currency", "pay_address", "payin_hash", "expiration_estimate_date"] as const;

/**
 * A signed body is still only trusted for its meaning, not its shape: each field the shop reads must
 * have the type NOWPayments sends, else 400 (an object where an id belongs is a bug or an attack).
 */
function describeIpnFieldProblem(fields: Record<string, unknown>): string | null {
  const isText = (value: unknown) => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
  for (const field of REQUIRED_TEXT) {
    const value = fields[field];
    if (value === undefined || value === null || value === "") return `Invalid ${field}: is required`;
    if (!isText(value) || String(value).length > 200) return `Invalid ${field}: must be a string`;
  }
  if (typeof fields.payment_status !== "string") return "Invalid payment_status: must be a string";
  for (const field of OPTIONAL_AMOUNTS) {
    const value = fields[field];
    if (value == null) continue;
    // One grammar for every amount the gateway sends (shop/crypto-amounts.ts): "1e400" is not an
    // amount, and must not be read as nothing paid.
    if (gatewayAmountText(value) === null) return `Invalid ${field}: must be an amount`;
  }
  for (const field of OPTIONAL_TEXT) {
    const value = fields[field];
    if (value != null && (typeof value !== "string" || value.length > 500)) return `Invalid ${field}: must be a string`;
  }
  return null;
}

// NOWPayments' IPN (DESIGN decisions 3 and 9). Open to anyone (WEBHOOK): the signature is the check.
// The answer comes right after the commit; the customer's Telegram message goes out afterwards,
// so a slow Telegram never makes the gateway wait (it gives up after a few seconds).
/** For the document only: the handler checks the signature first, then these fields itself. */
const IPN_DOC = {
  headers: documentedOnly({
    type: "object",
    properties: {
      "x-nowpayments-sig": { type: "string", description: "HMAC-SHA512 of the sorted JSON body with the IPN secret from Bot Settings" },
    },
    required: ["x-nowpayments-sig"],
  }),
  body: documentedOnly({
    type: "object",
    description: "A NOWPayments instant payment notification (IPN)",
    properties: {
      ...Object.fromEntries(REQUIRED_TEXT.map((field) => [field, { type: ["string", "number"] }])),
      ...Object.fromEntries(OPTIONAL_AMOUNTS.map((field) => [field, { type: ["string", "number", "null"] }])),
      ...Object.fromEntries(OPTIONAL_TEXT.map((field) => [field, { type: ["string", "null"] }])),
    },
    required: [...REQUIRED_TEXT],
  }),
};

export const paymentWebhookRoutes: Routes = (app, deps) => {
  const schema = { ...IPN_DOC, response: { 200: PaymentWebhookAnswerSchema, ...ERROR_ANSWERS } };
  app.post(PAYMENT_WEBHOOK_PATH, { ...WEBHOOK, schema }, async (request) => {
    const secret = (await getBotSettings(deps.db, deps.secrets))?.nowpaymentsIpnSecret;
    if (!secret) throw new HttpError(401, "No IPN secret is configured, so payment notifications cannot be verified.");
    const signature = request.headers["x-nowpayments-sig"];
    if (typeof signature !== "string" || !verifyIpnSignature(request.body, signature, secret)) {
      request.log.warn("payment notification with a missing or wrong signature refused");
      throw new HttpError(401, "Invalid IPN signature.");
    }

    const body = request.body;
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "The notification must be a JSON object.");
    const fields = body as Record<string, unknown>;
    const problem = describeIpnFieldProblem(fields);
    if (problem) throw new HttpError(400, problem);

    const result = await applyPaymentUpdate({ ...deps, logger: request.log }, parseNowPayment(fields));
    request.log.info(
      { orderId: result.orderId, paymentStatus: fields.payment_status, outcome: result.outcome },
      "payment notification handled",
    );
    return { ok: true as const, outcome: result.outcome, orderStatus: result.orderStatus };
  });
};
