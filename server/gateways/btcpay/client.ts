import { EXPIRED_ORDER_AGE_MS } from "../../../contract";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { gatewayAmountText, isPositiveDecimal, unavailable } from "../../shop/common";
import { formatPence } from "../../shop/catalogue";
import {
  type BtcpayConnection,
  btcpayConfigured,
  type BtcpaySettings,
  type BtcpayWebhookApi,
  getBotSettings,
  getPaymentGatewaySettings,
} from "../../shop/settings";
import {
  DEFAULT_GATEWAY_TIMEOUT_MS,
  NOT_CONFIGURED_MESSAGE,
  type CreatePaymentRequest,
  type GatewayNotification,
  type GatewayPayment,
  type NotificationReading,
  type PayCoin,
  type PaymentGateway,
} from "../../shop/payments";
import { BTCPAY_SIGNATURE_HEADER, verifyBtcpaySignature } from "./signature";

// The BTCPay Server adapter (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md): the owner's own
// server, through its Greenfield API v1 over fetch (no SDK), with "Authorization: token {apiKey}".
// An invoice is the payment: created in GBP for the order's total, read back with its payment
// methods (the address and the amount due), and mapped onto the shop's payment statuses.

/**
 * The payment method asked for each coin. BTCPay Server 2 names on-chain methods "BTC-CHAIN"; older
 * servers said "BTC" and 2.x still reads those, but we ask in the current names (decision 0035) and
 * read either form back. Monero is BTCPay's plugin: "XMR-CHAIN" works only where the owner installed it.
 */
export const BTCPAY_PAYMENT_METHODS: Record<PayCoin, string> = { btc: "BTC-CHAIN", ltc: "LTC-CHAIN", xmr: "XMR-CHAIN" };

/** The coin of a payment method id ("BTC-CHAIN", or "BTC" from older servers); null for any other method (Lightning, ...). */
function coinOfMethod(method: unknown): PayCoin | null {
  if (typeof method !== "string") return null;
  const match = /^(BTC|LTC|XMR)(-CHAIN)?$/i.exec(method);
  return match ? (match[1]!.toLowerCase() as PayCoin) : null;
}

export type BtcpayOptions = {
  /** Read at each call, so settings saved in Bot Settings are used at once. */
  getSettings: () => Promise<BtcpaySettings>;
  /** Bot Settings' underpayment tolerance (%), passed to BTCPay as the invoice's paymentTolerance. */
  getTolerancePercent: () => Promise<number>;
  timeoutMs?: number;
};

type Answer = { status: number; body: unknown };

/** The sentence a refusal or failure of BTCPay gives; `refused` names what BTCPay refused (a 4xx with its reason). */
function failure(status: number, body: unknown, refused = "the payment"): string {
  if (status === 401) return "BTCPay Server refused the API key: check it in Bot Settings.";
  if (status === 403) return "BTCPay Server refused the API key: check its permissions.";
  if (status === 404) return "BTCPay Server does not know the store: check the store ID in Bot Settings.";
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const first = Array.isArray(body) ? (body[0] as Record<string, unknown> | undefined) : undefined;
  const reason = typeof record.message === "string" ? record.message : typeof first?.message === "string" ? first.message : null;
  if (status >= 400 && status < 500 && reason && reason.trim() !== "") {
    return `BTCPay Server refused ${refused}: ${reason.trim().slice(0, 200).replace(/\.?$/, ".")}`;
  }
  return `BTCPay Server answered with an error (${status}). Please try again in a few minutes.`;
}

/**
 * One call to the Greenfield API. Throws a ShopError("unavailable") with a sentence when BTCPay
 * cannot be reached or does not answer in time; otherwise answers the status and the JSON body.
 */
export async function greenfield(
  connection: { serverUrl: string; apiKey: string },
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Answer> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(connection.serverUrl.replace(/\/+$/, "") + path, {
      method,
      headers: {
        authorization: `token ${connection.apiKey}`,
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      // BTCPay's answers come straight back: a redirect would carry the API key somewhere else.
      redirect: "manual",
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
    });
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      throw unavailable("BTCPay Server did not answer in time. Please try again in a few minutes.");
    }
    throw unavailable("BTCPay Server could not be reached. Please try again in a few minutes.");
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return { status: response.status, body: parsed };
}

const storePath = (settings: { storeId: string }) => `/api/v1/stores/${encodeURIComponent(settings.storeId)}`;

/**
 * Checks a server, store and API key before they are saved (GET /api/v1/stores/{storeId}): null
 * when BTCPay answers for the store, else the sentence that says what is wrong.
 */
export async function checkBtcpayStore(settings: { serverUrl: string; storeId: string; apiKey: string }, timeoutMs?: number): Promise<string | null> {
  let answer: Answer;
  try {
    answer = await greenfield(settings, "GET", storePath(settings), undefined, { timeoutMs });
  } catch {
    return `BTCPay Server could not be reached at ${settings.serverUrl}: check the server address.`;
  }
  if (answer.status === 200) return null;
  if (answer.status === 401) return "BTCPay Server refused the API key: check that it is the whole key, as BTCPay showed it.";
  if (answer.status === 403) return "BTCPay Server refused the API key: check its permissions (it needs to view and create invoices on this store).";
  if (answer.status === 404) return `BTCPay Server has no store with the ID ${settings.storeId}: check the store ID (Store settings, General).`;
  return `BTCPay Server answered with an error (${answer.status}): check the server address.`;
}

/** The invoice events the shop listens to. */
export const BTCPAY_WEBHOOK_EVENTS = [
  "InvoiceReceivedPayment",
  "InvoicePaymentSettled",
  "InvoiceProcessing",
  "InvoiceExpired",
  "InvoiceSettled",
  "InvoiceInvalid",
] as const;

const WEBHOOK_PERMISSION =
  "the API key needs the permission to modify the store's webhooks (btcpay.store.webhooks.canmodifywebhooks or btcpay.store.canmodifystoresettings). Give the key that permission in BTCPay, then register the webhook again.";

/**
 * The store's webhooks through the Greenfield API, as the shop's BtcpayWebhookApi
 * (shop/settings/btcpay-webhook.ts decides what to keep): GET and POST /api/v1/stores/{storeId}/webhooks,
 * PUT and DELETE .../webhooks/{webhookId}. BTCPay lists and reads webhooks without their secrets, and
 * an update replaces the whole webhook. One permission allows all four calls; a refusal says which
 * one and what the key needs. Every call ends when `signal` does (the registration's deadline).
 */
export function btcpayWebhookApi(connection: BtcpayConnection, signal?: AbortSignal): BtcpayWebhookApi {
  const webhooks = `${storePath(connection)}/webhooks`;
  const one = (id: string) => `${webhooks}/${encodeURIComponent(id)}`;
  const ask = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) => greenfield(connection, method, path, body, { signal });
  const refusal = (answer: Answer, doing: string) =>
    unavailable(answer.status === 403 ? `BTCPay Server refused to ${doing}: ${WEBHOOK_PERMISSION}` : failure(answer.status, answer.body, "the webhook"));
  const webhookBody = (webhook: { url: string; secret: string }) => ({
    enabled: true,
    automaticRedelivery: true,
    url: webhook.url,
    secret: webhook.secret,
    authorizedEvents: { everything: false, specificEvents: [...BTCPAY_WEBHOOK_EVENTS] },
  });

  return {
    async list() {
      const answer = await ask("GET", webhooks);
      if (answer.status !== 200) throw refusal(answer, "list the store's webhooks");
      if (!Array.isArray(answer.body)) throw unavailable("BTCPay Server sent a list of webhooks we could not read. Please try again.");
      return (answer.body as unknown[]).flatMap((hook) => {
        const record = hook && typeof hook === "object" ? (hook as Record<string, unknown>) : {};
        return typeof record.id === "string" && typeof record.url === "string" ? [{ id: record.id, url: record.url }] : [];
      });
    },
    async create(webhook) {
      const answer = await ask("POST", webhooks, webhookBody(webhook));
      const body = answer.body && typeof answer.body === "object" ? (answer.body as Record<string, unknown>) : {};
      if (answer.status !== 200) throw refusal(answer, "add the webhook");
      if (typeof body.id !== "string" || body.id === "") throw unavailable("BTCPay Server sent an answer we could not read. Please try again.");
      return body.id;
    },
    async update(id, webhook) {
      const answer = await ask("PUT", one(id), webhookBody(webhook));
      if (answer.status === 404) return false;
      if (answer.status !== 200) throw refusal(answer, "update the shop's webhook");
      return true;
    },
    async remove(id) {
      const answer = await ask("DELETE", one(id));
      if (answer.status !== 200 && answer.status !== 404) throw refusal(answer, "delete an old webhook of the shop");
    },
  };
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** An amount BTCPay sent, as decimal text; one outside the grammar is an error, never money. */
function amount(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  const parsed = gatewayAmountText(value);
  if (parsed === null) throw unavailable(`BTCPay Server sent an unreadable ${field}. Please try again.`);
  return parsed;
}

type Invoice = Record<string, unknown>;
type PaymentMethod = Record<string, unknown>;

/**
 * The shop's payment status for an invoice (docs/decisions/0035): New → waiting, Processing → confirming,
 * Settled → finished (PaidOver too: the overpayment is noted on the order's trail), Expired with money
 * (or PaidPartial) → partially_paid, Expired unpaid → expired, Invalid → failed. PaidLate → partially_paid
 * for the owner to decide (ownerDecides). Money seen on a New invoice is a partial payment so far.
 */
export function shopStatusOf(invoice: { status?: unknown; additionalStatus?: unknown }, paid: string | null): { status: string; ownerDecides: boolean } {
  const additional = invoice.additionalStatus;
  const somethingPaid = isPositiveDecimal(paid);
  if (invoice.status === "Invalid") return { status: "failed", ownerDecides: false };
  if (additional === "PaidLate") return { status: "partially_paid", ownerDecides: true };
  switch (invoice.status) {
    case "New":
      return { status: somethingPaid || additional === "PaidPartial" ? "partially_paid" : "waiting", ownerDecides: false };
    case "Processing":
      return { status: "confirming", ownerDecides: false };
    case "Settled":
      return { status: "finished", ownerDecides: false };
    case "Expired":
      return { status: somethingPaid || additional === "PaidPartial" ? "partially_paid" : "expired", ownerDecides: false };
    default:
      throw unavailable("BTCPay Server sent an invoice status we could not read. Please try again.");
  }
}

/** An invoice and its payment methods as the shop's GatewayPayment. */
export function parseBtcpayInvoice(invoice: Invoice, methods: PaymentMethod[]): GatewayPayment {
  const invoiceId = text(invoice.id);
  if (!invoiceId || typeof invoice.status !== "string") throw unavailable("BTCPay Server sent an answer we could not read. Please try again.");
  const asked = invoice.checkout && typeof invoice.checkout === "object" ? (invoice.checkout as Record<string, unknown>).paymentMethods : null;
  const askedCoin = Array.isArray(asked) ? coinOfMethod(asked[0]) : null;
  // The invoice's one on-chain method (the shop asks for one); the first one we can read otherwise.
  const method =
    methods.find((m) => coinOfMethod(m.paymentMethodId ?? m.paymentMethod) === askedCoin && askedCoin !== null) ??
    methods.find((m) => coinOfMethod(m.paymentMethodId ?? m.paymentMethod) !== null) ??
    null;
  const coin = method ? coinOfMethod(method.paymentMethodId ?? method.paymentMethod) : askedCoin;
  const paid = method ? amount(method.totalPaid, "totalPaid") : null;
  const { status, ownerDecides } = shopStatusOf(invoice, paid);
  const metadata = invoice.metadata && typeof invoice.metadata === "object" ? (invoice.metadata as Record<string, unknown>) : {};
  const payments = method && Array.isArray(method.payments) ? (method.payments as Record<string, unknown>[]) : [];
  const expiration = typeof invoice.expirationTime === "number" ? new Date(invoice.expirationTime * 1000) : null;
  return {
    paymentId: invoiceId,
    status,
    orderId: text(metadata.orderId),
    payAddress: method ? text(method.destination) : null,
    payAmount: method ? amount(method.amount, "amount") : null,
    payCurrency: coin,
    priceAmount: amount(invoice.amount, "amount"),
    priceCurrency: text(invoice.currency)?.toLowerCase() ?? null,
    actuallyPaid: paid,
    transactionHash: text(payments.at(-1)?.id),
    expiresAt: expiration && !Number.isNaN(expiration.getTime()) ? expiration : null,
    raw: { invoice, paymentMethods: methods },
    gateway: "btcpay",
    checkoutUrl: text(invoice.checkoutLink),
    ...(ownerDecides ? { ownerDecides } : {}),
  };
}

export function createBtcpayGateway(options: BtcpayOptions): PaymentGateway {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;

  async function connection() {
    const settings = await options.getSettings();
    if (!btcpayConfigured(settings)) throw unavailable(NOT_CONFIGURED_MESSAGE);
    return settings as BtcpaySettings & { serverUrl: string; storeId: string; apiKey: string };
  }

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const settings = await connection();
    const answer = await greenfield(settings, method, storePath(settings) + path, body, { timeoutMs });
    if (answer.status !== 200) throw unavailable(failure(answer.status, answer.body));
    return answer.body;
  }

  async function readInvoice(invoiceId: string): Promise<GatewayPayment> {
    const path = `/invoices/${encodeURIComponent(invoiceId)}`;
    const invoice = await call("GET", path);
    const methods = await call("GET", `${path}/payment-methods`);
    if (!invoice || typeof invoice !== "object" || !Array.isArray(methods)) {
      throw unavailable("BTCPay Server sent an answer we could not read. Please try again.");
    }
    return parseBtcpayInvoice(invoice as Invoice, methods as PaymentMethod[]);
  }

  return {
    name: "BTCPay Server",
    async isConfigured() {
      return btcpayConfigured(await options.getSettings());
    },
    async createPayment(request: CreatePaymentRequest) {
      const tolerance = await options.getTolerancePercent();
      const created = await call("POST", "/invoices", {
        amount: formatPence(request.pricePence),
        currency: "GBP",
        metadata: { orderId: request.orderId, itemDesc: request.description },
        checkout: {
          paymentMethods: [BTCPAY_PAYMENT_METHODS[request.coin]],
          // The order's own deadline (docs/product.md rule 1): the address stops taking money when the order expires.
          expirationMinutes: Math.round(EXPIRED_ORDER_AGE_MS / 60_000),
          paymentTolerance: tolerance,
        },
      });
      const invoiceId = created && typeof created === "object" ? text((created as Invoice).id) : null;
      if (!invoiceId) throw unavailable("BTCPay Server sent an answer we could not read. Please try again.");
      const payment = await readInvoice(invoiceId);
      if (!payment.payAddress || !payment.payAmount || payment.payCurrency !== request.coin) {
        throw unavailable(`BTCPay Server did not give a ${request.coin.toUpperCase()} address to pay to. Please try again.`);
      }
      return payment;
    },
    getPayment(invoiceId: string) {
      return readInvoice(invoiceId);
    },
    async readNotification(notification: GatewayNotification): Promise<NotificationReading> {
      return readBtcpayWebhook(notification, await options.getSettings(), readInvoice);
    },
  };
}

/**
 * A webhook delivery: the signature of the raw body first (nothing is parsed before it), then the
 * invoice it names is fetched from BTCPay and that is what the shop acts on. The body's own status
 * is never believed: a signed body only says "look at this invoice".
 */
export async function readBtcpayWebhook(
  notification: GatewayNotification,
  settings: BtcpaySettings,
  readInvoice: (invoiceId: string) => Promise<GatewayPayment>,
): Promise<NotificationReading> {
  if (!settings.webhookSecret) {
    return {
      ok: false,
      problem: "unsigned",
      message: "BTCPay notifications cannot be checked yet: register the webhook in Bot Settings.",
      warning: "BTCPay webhook refused: no webhook secret is saved (register the webhook in Bot Settings)",
    };
  }
  const header = notification.headers[BTCPAY_SIGNATURE_HEADER];
  const signature = Array.isArray(header) ? header[0] : header;
  if (notification.rawBody === undefined || !verifyBtcpaySignature(notification.rawBody, signature, settings.webhookSecret)) {
    return {
      ok: false,
      problem: "unsigned",
      message: "Invalid or missing BTCPay-Sig signature.",
      warning: signature ? "BTCPay webhook refused: wrong signature" : "BTCPay webhook refused: no signature",
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(notification.rawBody);
  } catch {
    return { ok: false, problem: "malformed", message: "The notification is not JSON." };
  }
  const record = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const deliveryId = text(record.deliveryId);
  const invoiceId = text(record.invoiceId);
  if (!deliveryId || !invoiceId || invoiceId.length > 200 || deliveryId.length > 200) {
    return { ok: false, problem: "malformed", message: "The notification has no deliveryId or invoiceId." };
  }
  if (record.storeId !== undefined && record.storeId !== settings.storeId) {
    return { ok: false, problem: "malformed", message: "The notification is about another store." };
  }
  return { ok: true, payment: await readInvoice(invoiceId), deliveryId };
}

/**
 * The shop's BTCPay gateway: the server, store and keys read from the payment gateway settings at each
 * call, the tolerance from Bot Settings. Built once, at start-up (server/services.ts).
 */
export function createBtcpayGatewayFromSettings(deps: { db: DbOrTx; secrets: SecretBox }): PaymentGateway {
  return createBtcpayGateway({
    getSettings: async () => (await getPaymentGatewaySettings(deps.db, deps.secrets)).btcpay,
    getTolerancePercent: async () => (await getBotSettings(deps.db, deps.secrets))?.underpaymentTolerancePercent ?? 1,
  });
}
