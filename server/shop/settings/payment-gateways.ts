import { CURRENCIES, GATEWAY_NAMES, type Currency, type GatewayName } from "../../../contract";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { paymentGatewaySettings } from "../../db/schema";

// The payment gateways' settings beside Bot Settings (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md):
// the owner's BTCPay Server (its API key and webhook secret encrypted, as Bot Settings' secrets are)
// and which gateway takes each coin. NOWPayments' keys stay in Bot Settings (shop/settings/settings.ts).

export type BtcpaySettings = {
  serverUrl: string | null;
  storeId: string | null;
  apiKey: string | null;
  /** The webhook the shop registered on the store (POST /api/payment-gateways/btcpay/webhook). */
  webhookId: string | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
};

export type CoinGateways = Record<Currency, GatewayName>;

export type PaymentGatewaySettings = { btcpay: BtcpaySettings; coins: CoinGateways };

const ROW_ID = "default";

export const EMPTY_BTCPAY_SETTINGS: BtcpaySettings = {
  serverUrl: null,
  storeId: null,
  apiKey: null,
  webhookId: null,
  webhookUrl: null,
  webhookSecret: null,
};

/** Whether BTCPay can be asked for invoices: a server, a store and an API key. */
export function btcpayConfigured(btcpay: BtcpaySettings): boolean {
  return Boolean(btcpay.serverUrl && btcpay.storeId && btcpay.apiKey);
}

function coinsOf(stored: Record<string, string> | null | undefined): CoinGateways {
  const coins = {} as CoinGateways;
  for (const coin of CURRENCIES) {
    const named = stored?.[coin];
    // A coin never assigned (and anything unreadable) is NOWPayments', as before issue 24.
    coins[coin] = (GATEWAY_NAMES as readonly string[]).includes(named ?? "") ? (named as GatewayName) : "nowpayments";
  }
  return coins;
}

/** The settings, secrets decrypted (a secret that does not decrypt counts as not set); defaults when none were saved. */
export async function getPaymentGatewaySettings(db: DbOrTx, box: SecretBox): Promise<PaymentGatewaySettings> {
  const [row] = await db.select().from(paymentGatewaySettings).limit(1);
  if (!row) return { btcpay: { ...EMPTY_BTCPAY_SETTINGS }, coins: coinsOf(null) };
  const secret = (stored: string | null, field: string) => (stored ? box.decryptOrNull(stored, field) : null);
  return {
    btcpay: {
      serverUrl: row.btcpayServerUrl,
      storeId: row.btcpayStoreId,
      apiKey: secret(row.btcpayApiKey, "btcpayApiKey"),
      webhookId: row.btcpayWebhookId,
      webhookUrl: row.btcpayWebhookUrl,
      webhookSecret: secret(row.btcpayWebhookSecret, "btcpayWebhookSecret"),
    },
    coins: coinsOf(row.coinGateways),
  };
}

/** Saves the whole settings (the one row), encrypting the secrets; answers them as saved. */
export async function savePaymentGatewaySettings(db: DbOrTx, box: SecretBox, settings: PaymentGatewaySettings): Promise<PaymentGatewaySettings> {
  const encrypt = (value: string | null) => (value ? box.encrypt(value) : null);
  const columns = {
    btcpayServerUrl: settings.btcpay.serverUrl,
    btcpayStoreId: settings.btcpay.storeId,
    btcpayApiKey: encrypt(settings.btcpay.apiKey),
    btcpayWebhookId: settings.btcpay.webhookId,
    btcpayWebhookUrl: settings.btcpay.webhookUrl,
    btcpayWebhookSecret: encrypt(settings.btcpay.webhookSecret),
    coinGateways: { ...settings.coins },
    updatedAt: new Date(),
  };
  await db
    .insert(paymentGatewaySettings)
    .values({ id: ROW_ID, ...columns })
    .onConflictDoUpdate({ target: paymentGatewaySettings.id, set: columns });
  return { btcpay: { ...settings.btcpay }, coins: { ...settings.coins } };
}
