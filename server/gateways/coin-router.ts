import type { GatewayName } from "../../contract";
import { GATEWAY_NAMES } from "../../contract";
import type { SecretBox } from "../crypto";
import type { DbOrTx } from "../db/client";
import type { CreatePaymentRequest, GatewayNotification, PayCoin, PaymentGateway } from "../shop/payments";
import { getPaymentGatewaySettings } from "../shop/settings";

// The server's one gateway (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md): a router that
// hands each payment to the gateway the owner chose for its coin, and each status check to the gateway
// that made the payment (as the order recorded it). Checkout, the sweep and the webhooks see one port.

export type CoinRouterOptions = {
  gateways: Record<GatewayName, PaymentGateway>;
  /** The gateway that takes a coin now, read at each payment (Bot Settings' choice). */
  gatewayFor: (coin: PayCoin) => Promise<GatewayName>;
};

function named(name: string | null | undefined): GatewayName {
  // An order from before issue 24 has none: NOWPayments made it.
  if (name === null || name === undefined) return "nowpayments";
  if (!(GATEWAY_NAMES as readonly string[]).includes(name)) throw new Error(`Unknown payment gateway "${name}".`);
  return name as GatewayName;
}

export function createCoinRouter(options: CoinRouterOptions): PaymentGateway {
  const { gateways } = options;
  return {
    name: "payment gateways",
    async isConfigured(coin?: PayCoin) {
      if (coin) return gateways[await options.gatewayFor(coin)].isConfigured(coin);
      for (const gateway of Object.values(gateways)) if (await gateway.isConfigured()) return true;
      return false;
    },
    async createPayment(request: CreatePaymentRequest) {
      const name = await options.gatewayFor(request.coin);
      return { ...(await gateways[name].createPayment(request)), gateway: name };
    },
    async getPayment(paymentId: string, gateway?: string | null) {
      const name = named(gateway);
      return { ...(await gateways[name].getPayment(paymentId)), gateway: name };
    },
    async readNotification(notification: GatewayNotification) {
      const name = named(notification.gateway);
      const reading = await gateways[name].readNotification(notification);
      return reading.ok ? { ...reading, payment: { ...reading.payment, gateway: name } } : reading;
    },
  };
}

/** The router over the shop's two gateways, with the coin map from the payment gateway settings. */
export function createCoinRouterFromSettings(deps: { db: DbOrTx; secrets: SecretBox; gateways: Record<GatewayName, PaymentGateway> }): PaymentGateway {
  return createCoinRouter({
    gateways: deps.gateways,
    gatewayFor: async (coin) => (await getPaymentGatewaySettings(deps.db, deps.secrets)).coins[coin.toUpperCase() as "BTC" | "LTC" | "XMR"],
  });
}
