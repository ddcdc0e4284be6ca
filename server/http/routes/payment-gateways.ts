import { maskSecret, PaymentGatewaysInputSchema, PaymentGatewaysSchema, type PaymentGateways } from "../../../contract";
import { btcpayWebhookApi, checkBtcpayStore } from "../../gateways/btcpay";
import { conflict } from "../../shop/common";
import { BTCPAY_WEBHOOK_PATH } from "../../shop/ordering";
import { getBotSettings, getPaymentGatewaySettings, registerBtcpayWebhook, updatePaymentGateways } from "../../shop/settings";
import type { AppDeps, Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// The Payment gateways card of Bot Settings (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md):
// NOWPayments' keys (kept in Bot Settings), the owner's BTCPay Server and which gateway takes each coin.
// The "payments" permission: the owner's alone (contract/team.ts). Secrets are answered masked, as Bot Settings' are (docs/SECURITY.md).

export const NO_PUBLIC_URL_MESSAGE =
  "The server has no PUBLIC_URL, so BTCPay Server cannot reach it: set PUBLIC_URL to register the webhook. Until then the shop asks BTCPay about open invoices every few minutes.";

async function answer(deps: Pick<AppDeps, "db" | "secrets" | "config">): Promise<PaymentGateways> {
  const bot = await getBotSettings(deps.db, deps.secrets);
  const { btcpay, coins } = await getPaymentGatewaySettings(deps.db, deps.secrets);
  return {
    nowpayments: { apiKey: maskSecret(bot?.nowpaymentsApiKey ?? null), ipnSecret: maskSecret(bot?.nowpaymentsIpnSecret ?? null) },
    btcpay: {
      serverUrl: btcpay.serverUrl,
      storeId: btcpay.storeId,
      apiKey: maskSecret(btcpay.apiKey),
      webhookSecret: maskSecret(btcpay.webhookSecret),
      webhook: {
        id: btcpay.webhookId,
        url: btcpay.webhookUrl,
        state: btcpay.webhookId ? "registered" : deps.config.publicUrl ? "not-registered" : "no-public-url",
      },
    },
    coins,
  };
}

const answered = { 200: PaymentGatewaysSchema, ...ERROR_ANSWERS };

export const paymentGatewayRoutes: Routes = (app, deps) => {
  app.get("/api/payment-gateways", { ...may("payments"), schema: { response: answered } }, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    return reply.send(await answer(deps));
  });

  // Where the shop's money goes (keys, the BTCPay server and store, the coins' gateways): a fresh
  // two-factor code first when the account has two-factor on (issue 25, security.ts stepUp).
  app.put("/api/payment-gateways", { config: { permission: "payments", stepUp: true }, schema: { body: PaymentGatewaysInputSchema, response: answered } }, async (request, reply) => {
    await updatePaymentGateways(deps, request.body, (btcpay) => checkBtcpayStore(btcpay));
    reply.header("Cache-Control", "no-store");
    return reply.send(await answer(deps));
  });

  // Registers the shop's webhook on the BTCPay store with a new secret, replacing the one registered
  // before (shop/settings/btcpay-webhook.ts); without PUBLIC_URL there is no address BTCPay could post
  // to (the rescue sweep polls instead).
  app.post("/api/payment-gateways/btcpay/webhook", { ...may("payments"), schema: { response: answered } }, async (_request, reply) => {
    if (!deps.config.publicUrl) throw conflict(NO_PUBLIC_URL_MESSAGE);
    const url = deps.config.publicUrl.replace(/\/+$/, "") + BTCPAY_WEBHOOK_PATH;
    await registerBtcpayWebhook(deps, { url, webhooksOf: btcpayWebhookApi });
    reply.header("Cache-Control", "no-store");
    return reply.send(await answer(deps));
  });
};
