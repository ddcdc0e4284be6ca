import { applyPaymentUpdate, verifyIpnSignature } from "../../payments/ipn";
import { parseNowPayment } from "../../payments/nowpayments";
import { PAYMENT_WEBHOOK_PATH } from "../../shop/checkout";
import { getBotSettings } from "../../shop/settings";
import type { Routes } from "../deps";
import { HttpError } from "../errors";

// NOWPayments' IPN (DESIGN decisions 3 and 9). Public (security.ts): the signature is the check.
// The answer comes right after the commit; the customer's Telegram message goes out afterwards,
// so a slow Telegram never makes the gateway wait (it gives up after a few seconds).
export const paymentWebhookRoutes: Routes = (app, deps) => {
  app.post(PAYMENT_WEBHOOK_PATH, async (request) => {
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
    for (const field of ["payment_id", "payment_status", "order_id"]) {
      if (fields[field] === undefined || fields[field] === null || fields[field] === "") {
        throw new HttpError(400, `Invalid ${field}: is required`);
      }
    }

    const result = await applyPaymentUpdate({ ...deps, logger: request.log }, parseNowPayment(fields));
    request.log.info(
      { orderId: result.orderId, paymentStatus: fields.payment_status, outcome: result.outcome },
      "payment notification handled",
    );
    return { ok: true, outcome: result.outcome, orderStatus: result.orderStatus };
  });
};
