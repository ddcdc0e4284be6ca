// The public face of shop/payments/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { type CreatePaymentRequest, DEFAULT_GATEWAY_TIMEOUT_MS, type GatewayNotification, type GatewayPayment, NOT_CONFIGURED_MESSAGE, type NotificationReading, type PayCoin, type PaymentGateway } from "./gateway-port";
export { applyPaymentUpdate, isShopOrder, type PaymentUpdateDeps, type PaymentUpdateResult } from "./payment-updates";
export { rescueUnsettledPayments } from "./rescue";
