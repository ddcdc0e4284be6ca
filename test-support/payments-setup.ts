import type { SecretBox } from "../server/crypto";
import type { DbOrTx } from "../server/db/client";
import { createBotSettings, savePaymentGatewaySettings } from "../server/shop/settings";

// Bot settings with gateway keys, for tests that check out and pay (fake-nowpayments.ts).
export const TEST_NOWPAYMENTS_API_KEY = "test-nowpayments-api-key";
export const TEST_IPN_SECRET = "test-ipn-secret-0123456789";

export async function configurePayments(
  deps: { db: DbOrTx; secrets: SecretBox },
  options: { apiKey?: string | null; ipnSecret?: string | null; acceptedCurrencies?: ("BTC" | "LTC" | "XMR")[] } = {},
) {
  return createBotSettings(deps.db, deps.secrets, {
    botName: "Test Shop Bot",
    botToken: "123456:test-token",
    acceptedCurrencies: options.acceptedCurrencies ?? ["BTC", "LTC", "XMR"],
    welcomeMessage: "Welcome!",
    faqContent: "FAQ",
    nowpaymentsApiKey: options.apiKey === undefined ? TEST_NOWPAYMENTS_API_KEY : options.apiKey,
    nowpaymentsIpnSecret: options.ipnSecret === undefined ? TEST_IPN_SECRET : options.ipnSecret,
    webhookUrl: null,
  });
}

export const TEST_BTCPAY_WEBHOOK_SECRET = "test-btcpay-webhook-secret-0123456789";

/**
 * BTCPay Server as the gateway of `coins` (BTC by default), at a fake (fake-btcpay.ts), with a webhook
 * secret saved as if the webhook had been registered at `webhookUrl`.
 */
export async function configureBtcpay(
  deps: { db: DbOrTx; secrets: SecretBox },
  fake: { url: string; storeId: string; apiKey: string },
  options: { coins?: ("BTC" | "LTC" | "XMR")[]; webhookUrl?: string | null; webhookSecret?: string | null } = {},
) {
  const coins = options.coins ?? ["BTC"];
  return savePaymentGatewaySettings(deps.db, deps.secrets, {
    btcpay: {
      serverUrl: fake.url,
      storeId: fake.storeId,
      apiKey: fake.apiKey,
      webhookId: options.webhookUrl === null ? null : "FakeHook0",
      webhookUrl: options.webhookUrl ?? null,
      webhookSecret: options.webhookSecret === undefined ? TEST_BTCPAY_WEBHOOK_SECRET : options.webhookSecret,
    },
    coins: {
      BTC: coins.includes("BTC") ? "btcpay" : "nowpayments",
      LTC: coins.includes("LTC") ? "btcpay" : "nowpayments",
      XMR: coins.includes("XMR") ? "btcpay" : "nowpayments",
    },
  });
}
