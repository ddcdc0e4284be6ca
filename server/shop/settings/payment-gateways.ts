import { and, eq } from "drizzle-orm";
import { CURRENCIES, GATEWAY_NAMES, looksMasked, maskSecret, SECRET_MASK, type Currency, type GatewayName } from "../../../contract";
import type { SecretBox } from "../../crypto";
import type { Db, DbOrTx } from "../../db/client";
import { paymentGatewaySettings } from "../../db/schema";
import { conflict, invalid } from "../common";
import { getBotSettings, saveNowpaymentsKeys } from "./settings";

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

/** A save's value for one secret: a masked value that is the stored secret's mask keeps it; any other mask is refused. */
function keepOrReplace(value: string | null | undefined, stored: string | null, label: string): string | null {
  if (value === undefined) return stored;
  if (value === null || !looksMasked(value)) return value;
  if (stored && value === maskSecret(stored)) return stored;
  throw invalid(`${label} cannot be "${SECRET_MASK}…": that stands for the one already saved; type the whole new one to replace it`);
}

export type PaymentGatewaysChange = {
  nowpayments?: { apiKey?: string | null; ipnSecret?: string | null };
  btcpay?: { serverUrl?: string | null; storeId?: string | null; apiKey?: string | null };
  coins?: Partial<Record<Currency, GatewayName | undefined>>;
};

/**
 * Saves what the Payment gateways card sent (PUT /api/payment-gateways; issue 24). Parts left out keep
 * what is stored; a masked secret sent back keeps the stored one. A BTCPay part that changes is checked
 * with the server first (`checkBtcpay` answers null, or the sentence saying what is wrong): refused,
 * nothing at all is saved. A new server or store drops the webhook registered on the old one.
 */
export async function updatePaymentGateways(
  deps: { db: Db; secrets: SecretBox },
  change: PaymentGatewaysChange,
  checkBtcpay: (btcpay: { serverUrl: string; storeId: string; apiKey: string }) => Promise<string | null>,
): Promise<void> {
  const { db, secrets } = deps;
  const bot = await getBotSettings(db, secrets);
  const stored = await getPaymentGatewaySettings(db, secrets);

  let nowpayments: { nowpaymentsApiKey: string | null; nowpaymentsIpnSecret: string | null } | null = null;
  if (change.nowpayments && (change.nowpayments.apiKey !== undefined || change.nowpayments.ipnSecret !== undefined)) {
    if (!bot) throw conflict("Save the Bot Settings first: NOWPayments' keys are kept with them.");
    nowpayments = {
      nowpaymentsApiKey: keepOrReplace(change.nowpayments.apiKey, bot.nowpaymentsApiKey, "NOWPayments API key"),
      nowpaymentsIpnSecret: keepOrReplace(change.nowpayments.ipnSecret, bot.nowpaymentsIpnSecret, "IPN secret key"),
    };
  }

  const btcpay: BtcpaySettings = { ...stored.btcpay };
  if (change.btcpay) {
    if (change.btcpay.serverUrl !== undefined) btcpay.serverUrl = change.btcpay.serverUrl ? change.btcpay.serverUrl.replace(/\/+$/, "") : null;
    if (change.btcpay.storeId !== undefined) btcpay.storeId = change.btcpay.storeId;
    btcpay.apiKey = keepOrReplace(change.btcpay.apiKey, stored.btcpay.apiKey, "BTCPay API key");
  }
  const moved = btcpay.serverUrl !== stored.btcpay.serverUrl || btcpay.storeId !== stored.btcpay.storeId;
  const changed = moved || btcpay.apiKey !== stored.btcpay.apiKey;
  if (changed) {
    const parts = [btcpay.serverUrl, btcpay.storeId, btcpay.apiKey];
    if (parts.some(Boolean) && !parts.every(Boolean)) {
      const missing = !btcpay.serverUrl ? "server address" : !btcpay.storeId ? "store ID" : "API key";
      throw invalid(`BTCPay Server needs its ${missing} too: fill in the server address, the store ID and the API key, or clear all three.`);
    }
    if (btcpayConfigured(btcpay)) {
      const problem = await checkBtcpay(btcpay as { serverUrl: string; storeId: string; apiKey: string });
      if (problem) throw invalid(problem);
    }
    // The webhook lives on the old store: it no longer reaches this one.
    if (moved || !btcpayConfigured(btcpay)) Object.assign(btcpay, { webhookId: null, webhookUrl: null, webhookSecret: null });
  }

  const coins: CoinGateways = { ...stored.coins };
  for (const coin of CURRENCIES) {
    const chosen = change.coins?.[coin];
    if (chosen) coins[coin] = chosen;
  }
  const unconnected = CURRENCIES.filter((coin) => coins[coin] === "btcpay" && !btcpayConfigured(btcpay));
  if (unconnected.length > 0) {
    throw invalid(`${unconnected.join(", ")} cannot go to BTCPay Server until it is connected: fill in its server address, store ID and API key.`);
  }

  await db.transaction(async (tx) => {
    if (nowpayments && bot) await saveNowpaymentsKeys(tx, secrets, bot.id, nowpayments);
    await savePaymentGatewaySettings(tx, secrets, { btcpay, coins });
  });
}

/**
 * Saves the webhook the shop registered on the store (its secret encrypted), or clears it (null),
 * only while the settings still name the server and store it was registered on: one UPDATE of the
 * webhook's columns, so a save of the other settings meanwhile is kept. Answers false, saving
 * nothing, when the owner moved to another server or store meanwhile.
 */
export async function saveBtcpayWebhook(
  db: DbOrTx,
  box: SecretBox,
  on: { serverUrl: string; storeId: string },
  webhook: { id: string; url: string; secret: string } | null,
): Promise<boolean> {
  const saved = await db
    .update(paymentGatewaySettings)
    .set({
      btcpayWebhookId: webhook?.id ?? null,
      btcpayWebhookUrl: webhook?.url ?? null,
      btcpayWebhookSecret: webhook ? box.encrypt(webhook.secret) : null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(paymentGatewaySettings.id, ROW_ID),
        eq(paymentGatewaySettings.btcpayServerUrl, on.serverUrl),
        eq(paymentGatewaySettings.btcpayStoreId, on.storeId),
      ),
    )
    .returning({ id: paymentGatewaySettings.id });
  return saved.length > 0;
}
