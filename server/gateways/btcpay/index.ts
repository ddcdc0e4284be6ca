// The BTCPay Server adapter (issue 24): implements the shop's payment gateway port
// (shop/payments/gateway-port.ts) beside server/gateways/nowpayments/. Wired in server/services.ts.
export {
  BTCPAY_PAYMENT_METHODS,
  BTCPAY_WEBHOOK_EVENTS,
  btcpayWebhookApi,
  checkBtcpayStore,
  createBtcpayGateway,
  createBtcpayGatewayFromSettings,
  parseBtcpayInvoice,
  readBtcpayWebhook,
  shopStatusOf,
  type BtcpayOptions,
} from "./client";
export { BTCPAY_SIGNATURE_HEADER, btcpaySignature, verifyBtcpaySignature } from "./signature";
