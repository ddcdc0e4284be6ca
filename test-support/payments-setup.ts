import type { SecretBox } from "../server/crypto";
import type { DbOrTx } from "../server/db/client";
import { createBotSettings } from "../server/shop/settings";

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
