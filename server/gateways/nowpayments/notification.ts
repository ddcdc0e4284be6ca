import type { GatewayNotification, NotificationReading } from "../../shop/payments";
import { gatewayAmountText } from "../../shop/common";
import { parseNowPayment } from "./client";
import { verifyIpnSignature } from "./signature";

// NOWPayments' IPN, checked and read for the gateway port (moved here from
// server/http/routes/payments-webhook.ts, issue 21): the signature first, then each field the shop reads.

export const REQUIRED_TEXT = ["payment_id", "payment_status", "order_id"] as const;
export const OPTIONAL_AMOUNTS = ["price_amount", "pay_amount", "actually_paid", "outcome_amount"] as const;
export const OPTIONAL_TEXT = ["price_currency", "pay_currency", "pay_address", "payin_hash", "expiration_estimate_date"] as const;

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
    // One grammar for every amount the gateway sends (shop/common/crypto-amounts.ts): "1e400" is not an
    // amount, and must not be read as nothing paid.
    if (gatewayAmountText(value) === null) return `Invalid ${field}: must be an amount`;
  }
  for (const field of OPTIONAL_TEXT) {
    const value = fields[field];
    if (value != null && (typeof value !== "string" || value.length > 500)) return `Invalid ${field}: must be a string`;
  }
  return null;
}

/** The fields of an IPN the shop reads, for the API document. */
export const IPN_FIELDS = { REQUIRED_TEXT, OPTIONAL_AMOUNTS, OPTIONAL_TEXT };

/** The header NOWPayments signs its IPN in. */
export const IPN_SIGNATURE_HEADER = "x-nowpayments-sig";

/** A NOWPayments IPN checked against the IPN secret (null: none configured) and read. */
export async function readIpn(notification: GatewayNotification, secret: string | null): Promise<NotificationReading> {
  if (!secret) return { ok: false, problem: "unsigned", message: "No IPN secret is configured, so payment notifications cannot be verified." };
  const signature = notification.headers[IPN_SIGNATURE_HEADER];
  if (typeof signature !== "string" || !verifyIpnSignature(notification.body, signature, secret)) {
    return { ok: false, problem: "unsigned", message: "Invalid IPN signature.", warning: "payment notification with a missing or wrong signature refused" };
  }

  const body = notification.body;
  if (!body || typeof body !== "object" || Array.isArray(body)) return { ok: false, problem: "malformed", message: "The notification must be a JSON object." };
  const fields = body as Record<string, unknown>;
  const problem = describeIpnFieldProblem(fields);
  if (problem) return { ok: false, problem: "malformed", message: problem };
  return { ok: true, payment: parseNowPayment(fields) };
}
