import { PaymentWebhookAnswerSchema } from "../../../contract";
import { IPN_FIELDS } from "../../gateways/nowpayments";
import { BTCPAY_WEBHOOK_PATH, PAYMENT_WEBHOOK_PATH } from "../../shop/ordering";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { applyPaymentUpdate, isShopOrder } from "../../shop/payments";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { documentedOnly, ERROR_ANSWERS } from "../openapi";
import { WEBHOOK } from "../security";

// NOWPayments' IPN (docs/product.md rules 3 and 9). Open to anyone (WEBHOOK): the signature is the check.
// The answer comes right after the commit; the customer's Telegram message goes out afterwards,
// so a slow Telegram never makes the gateway wait (it gives up after a few seconds).
// A thin adapter (issue 21): the gateway checks and reads the notification through its port
// (readNotification, server/gateways/nowpayments/), then the shop's payment rules apply it.
const { REQUIRED_TEXT, OPTIONAL_AMOUNTS, OPTIONAL_TEXT } = IPN_FIELDS;
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

/** For the document only: the handler checks the signature of the raw bytes, then reads the two ids itself. */
const BTCPAY_DOC = {
  headers: documentedOnly({
    type: "object",
    properties: { "btcpay-sig": { type: "string", description: "\"sha256=\" and the hex HMAC-SHA256 of the raw body with the webhook's secret" } },
    required: ["btcpay-sig"],
  }),
  body: documentedOnly({
    type: "object",
    description: "A BTCPay Server webhook delivery: the shop reads deliveryId and invoiceId, then fetches the invoice from BTCPay",
    properties: { deliveryId: { type: "string" }, invoiceId: { type: "string" }, storeId: { type: "string" }, type: { type: "string" } },
    required: ["deliveryId", "invoiceId"],
  }),
};

/** A BTCPay delivery is a few hundred bytes; anything near this is not one. */
const BTCPAY_BODY_LIMIT_BYTES = 64 * 1024;

export const paymentWebhookRoutes: Routes = async (app, deps) => {
  const schema = { ...IPN_DOC, response: { 200: PaymentWebhookAnswerSchema, ...ERROR_ANSWERS } };
  app.post(PAYMENT_WEBHOOK_PATH, { ...WEBHOOK, schema }, async (request) => {
    const reading = await deps.gateway.readNotification({ body: request.body, headers: request.headers });
    if (!reading.ok) {
      if (reading.warning) request.log.warn(reading.warning);
      throw new HttpError(reading.problem === "unsigned" ? 401 : 400, reading.message);
    }

    const result = await applyPaymentUpdate({ ...deps, logger: request.log }, reading.payment);
    request.log.info(
      { orderId: result.orderId, paymentStatus: reading.payment.status, outcome: result.outcome },
      "payment notification handled",
    );
    return { ok: true as const, outcome: result.outcome, orderStatus: result.orderStatus };
  });

  // BTCPay Server's webhook (issue 24; docs/decisions/0035): signed over its raw bytes, so in its own
  // scope the JSON body is kept as the text that arrived; the adapter checks the signature before parsing.
  await app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: BTCPAY_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
    const btcpaySchema = { ...BTCPAY_DOC, response: { 200: PaymentWebhookAnswerSchema, ...ERROR_ANSWERS } };
    scope.post(BTCPAY_WEBHOOK_PATH, { ...WEBHOOK, bodyLimit: BTCPAY_BODY_LIMIT_BYTES, schema: btcpaySchema }, async (request) => {
      const rawBody = typeof request.body === "string" ? request.body : "";
      const reading = await deps.gateway.readNotification({ body: null, rawBody, headers: request.headers, gateway: "btcpay" });
      if (!reading.ok) {
        if (reading.warning) request.log.warn(reading.warning);
        throw new HttpError(reading.problem === "unsigned" ? 401 : 400, reading.message);
      }
      // A store may sell through other apps too: an invoice with no order of this shop is answered 200
      // (BTCPay would otherwise retry it and mark the webhook failing) and changes nothing.
      if (!(await isShopOrder(deps.db, reading.payment.orderId))) {
        request.log.info({ invoiceId: reading.payment.paymentId, deliveryId: reading.deliveryId }, "BTCPay notification about an invoice the shop did not create: ignored");
        return { ok: true as const, outcome: "ignored" as const, orderStatus: null };
      }
      const result = await applyPaymentUpdate({ ...deps, logger: request.log }, reading.payment, { deliveryKey: reading.deliveryId });
      request.log.info(
        { orderId: result.orderId, paymentStatus: reading.payment.status, outcome: result.outcome, deliveryId: reading.deliveryId },
        "BTCPay notification handled",
      );
      return { ok: true as const, outcome: result.outcome, orderStatus: result.orderStatus };
    });
  });
};
