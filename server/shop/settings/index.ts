// The public face of shop/settings/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { type BtcpayConnection, type BtcpayWebhookApi, registerBtcpayWebhook } from "./btcpay-webhook";
export { maskSecrets, unmaskSecrets } from "./masked-secrets";
export { createBotSettings, DEFAULT_WELCOME_MESSAGE, getBotSettings, saveNowpaymentsKeys, updateBotSettings } from "./settings";
export {
  btcpayConfigured,
  type BtcpaySettings,
  type CoinGateways,
  EMPTY_BTCPAY_SETTINGS,
  getPaymentGatewaySettings,
  type PaymentGatewaySettings,
  savePaymentGatewaySettings,
  type PaymentGatewaysChange,
  updatePaymentGateways,
} from "./payment-gateways";
