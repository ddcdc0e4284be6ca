import http from "node:http";
import type { AddressInfo } from "node:net";
import { btcpaySignature } from "../server/gateways/btcpay/signature";

// A stand-in for a BTCPay Server's Greenfield API on 127.0.0.1 (issue 24): the store, the API-key check,
// invoices and their payment methods, the store's webhooks (list, create, read, update, delete, as
// BTCPay answers them: no secret in what it lists or reads back); and, as the real server does,
// signed webhook deliveries to the shop. Tests drive the invoices (paid in full, short, over, late,
// expired, settled, invalid) and deliver webhooks when they choose.

export type FakeInvoice = {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  status: "New" | "Processing" | "Expired" | "Invalid" | "Settled";
  additionalStatus: "None" | "PaidLate" | "PaidPartial" | "Marked" | "Invalid" | "PaidOver";
  metadata: Record<string, unknown>;
  checkout: Record<string, unknown>;
  checkoutLink: string;
  createdTime: number;
  expirationTime: number;
  /** The one payment method: its id as asked ("BTC-CHAIN"), destination, amount due in the coin, paid so far. */
  method: { id: string; destination: string; amount: string; paid: string };
};

/** A webhook on the store: its secret and the last body it was created or updated with. */
export type FakeWebhook = { id: string; url: string; secret: string; body: Record<string, unknown> };

/** The webhook calls of the Greenfield API, each of which a test can have refused. */
export type FakeWebhookCall = "list" | "read" | "create" | "update" | "delete";

export type FakeBtcpay = {
  /** The server's address, as the owner types it in Bot Settings. */
  url: string;
  storeId: string;
  apiKey: string;
  /** Every POST .../invoices body, in order. */
  created: Record<string, unknown>[];
  invoices: Map<string, FakeInvoice>;
  /** Every GET of an invoice (a status check), in order. */
  invoiceReads: string[];
  /** The store's webhooks now, oldest first (tests may remove one, as the owner could in BTCPay). */
  webhooks: FakeWebhook[];
  /** Every webhook call answered, in order ("update FakeHook2"), refused ones included. */
  webhookCalls: string[];
  /** Answers every call with this status (401, 403, 500) until cleared with null. */
  refuseWith(status: number | null): void;
  /** Answers the webhook calls (all, or only those named) with this status until cleared with null. */
  refuseWebhooks(status: number | null, only?: FakeWebhookCall[]): void;
  /** Makes each webhook call wait this long before it is handled, so parallel callers interleave. */
  delayWebhooks(ms: number): void;
  /** A webhook someone else put on the store (another integration, or an old registration). */
  addWebhook(webhook: { url: string; secret?: string }): FakeWebhook;
  /** Moves an invoice as BTCPay would. */
  payInFull(invoiceId: string): void;
  payShort(invoiceId: string, paid: string): void;
  payOver(invoiceId: string, paid: string): void;
  settle(invoiceId: string): void;
  expire(invoiceId: string): void;
  payLate(invoiceId: string, paid?: string): void;
  invalidate(invoiceId: string): void;
  /** The webhook body BTCPay would post for this invoice (a fresh deliveryId unless given). */
  webhookBody(invoiceId: string, type: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /**
   * Posts a webhook delivery to `url` (default: the registered webhook's), signed with the registered
   * secret unless `signature` is given (null: no header). `raw` replaces the body's text.
   */
  deliver(body: Record<string, unknown>, options?: { url?: string; secret?: string; signature?: string | null; raw?: string }): Promise<Response>;
  /**
   * Posts the delivery as BTCPay does for an event: to every webhook on the store whose url starts
   * with `urlPrefix`, each signed with its own secret; answers each webhook's id and response.
   */
  deliverToEach(body: Record<string, unknown>, urlPrefix: string): Promise<{ webhookId: string; response: Response }[]>;
  close(): Promise<void>;
};

/** GBP per coin, to work out the amount due. */
const RATES: Record<string, number> = { BTC: 50_000, LTC: 70, XMR: 150 };

function decimal(value: number): string {
  return value.toFixed(8).replace(/0+$/, "").replace(/\.$/, "");
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let data = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (data += chunk));
    request.on("end", () => {
      try {
        resolve(data ? (JSON.parse(data) as Record<string, unknown>) : {});
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    request.on("error", reject);
  });
}

export async function startFakeBtcpay(options: { apiKey?: string; storeId?: string; now?: () => Date } = {}): Promise<FakeBtcpay> {
  const apiKey = options.apiKey ?? "btcpay-test-api-key-0123456789";
  const storeId = options.storeId ?? "FakeStore7wzC3hRx9";
  const clock = options.now ?? (() => new Date());
  const created: Record<string, unknown>[] = [];
  const invoices = new Map<string, FakeInvoice>();
  const invoiceReads: string[] = [];
  const webhooks: FakeWebhook[] = [];
  const webhookCalls: string[] = [];
  let refusal: number | null = null;
  let webhookRefusal: { status: number; only: FakeWebhookCall[] | null } | null = null;
  let webhookDelayMs = 0;
  let nextId = 1;
  let nextWebhook = 1;
  let nextDelivery = 1;
  let base = "";

  function invoiceJson(invoice: FakeInvoice) {
    return {
      id: invoice.id,
      storeId: invoice.storeId,
      amount: invoice.amount,
      currency: invoice.currency,
      type: "Standard",
      checkoutLink: invoice.checkoutLink,
      createdTime: invoice.createdTime,
      expirationTime: invoice.expirationTime,
      monitoringExpiration: invoice.expirationTime + 3600,
      status: invoice.status,
      additionalStatus: invoice.additionalStatus,
      metadata: invoice.metadata,
      checkout: invoice.checkout,
      archived: false,
      availableStatusesForManualMarking: [],
    };
  }

  function methodsJson(invoice: FakeInvoice) {
    const { method } = invoice;
    const due = Math.max(Number(method.amount) - Number(method.paid), 0);
    return [
      {
        paymentMethodId: method.id,
        currency: method.id.split("-")[0],
        destination: method.destination,
        paymentLink: `bitcoin:${method.destination}?amount=${method.amount}`,
        rate: String(RATES[method.id.split("-")[0]!] ?? 1),
        paymentMethodPaid: method.paid,
        totalPaid: method.paid,
        due: decimal(due),
        amount: method.amount,
        networkFee: "0",
        payments:
          Number(method.paid) > 0
            ? [{ id: `tx-${invoice.id}-0`, receivedDate: invoice.createdTime + 60, value: method.paid, fee: "0", status: invoice.status === "Settled" ? "Settled" : "Processing", destination: method.destination }]
            : [],
        activated: true,
        additionalData: {},
      },
    ];
  }

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (refusal) return send(response, refusal, { code: "refused", message: "Refused by the test" });
      if (request.headers.authorization !== `token ${apiKey}`) {
        return send(response, 401, { code: "unauthenticated", message: "Authentication is required for accessing this endpoint" });
      }
      const store = /^\/api\/v1\/stores\/([^/]+)(\/.*)?$/.exec(url.pathname);
      if (!store || decodeURIComponent(store[1]!) !== storeId) return send(response, 404, { code: "store-not-found", message: "The store was not found" });
      const rest = store[2] ?? "";

      if (request.method === "GET" && rest === "") return send(response, 200, { id: storeId, name: "Fake store", defaultCurrency: "GBP" });

      if (request.method === "POST" && rest === "/invoices") {
        const body = await readJson(request).catch(() => null);
        if (!body) return send(response, 400, { code: "invalid-json", message: "Invalid JSON" });
        created.push(body);
        const checkout = (body.checkout ?? {}) as Record<string, unknown>;
        const methodId = Array.isArray(checkout.paymentMethods) ? String(checkout.paymentMethods[0]) : "BTC-CHAIN";
        const coin = methodId.split("-")[0]!;
        const rate = RATES[coin];
        if (!rate || typeof body.amount !== "string" || body.currency !== "GBP") {
          return send(response, 422, [{ path: "checkout.paymentMethods", message: `The payment method ${methodId} is not available` }]);
        }
        const now = Math.floor(clock().getTime() / 1000);
        const id = `FakeInv${String(nextId++).padStart(6, "0")}`;
        const minutes = typeof checkout.expirationMinutes === "number" ? checkout.expirationMinutes : 15;
        const invoice: FakeInvoice = {
          id,
          storeId,
          amount: body.amount,
          currency: "GBP",
          status: "New",
          additionalStatus: "None",
          metadata: (body.metadata ?? {}) as Record<string, unknown>,
          checkout,
          checkoutLink: `${base}/i/${id}`,
          createdTime: now,
          expirationTime: now + minutes * 60,
          method: { id: methodId, destination: `${coin.toLowerCase()}-btcpay-address-${id}`, amount: decimal(Number(body.amount) / rate), paid: "0" },
        };
        invoices.set(id, invoice);
        return send(response, 200, invoiceJson(invoice));
      }

      const invoiceMatch = /^\/invoices\/([^/]+)(\/payment-methods)?$/.exec(rest);
      if (request.method === "GET" && invoiceMatch) {
        const id = decodeURIComponent(invoiceMatch[1]!);
        const invoice = invoices.get(id);
        if (!invoice) return send(response, 404, { code: "invoice-not-found", message: "The invoice was not found" });
        if (!invoiceMatch[2]) invoiceReads.push(id);
        return send(response, 200, invoiceMatch[2] ? methodsJson(invoice) : invoiceJson(invoice));
      }

      const webhookMatch = /^\/webhooks(?:\/([^/]+))?$/.exec(rest);
      if (webhookMatch) {
        const webhookId = webhookMatch[1] === undefined ? null : decodeURIComponent(webhookMatch[1]);
        const call = webhookCallOf(request.method, webhookId);
        if (!call) return send(response, 405, { code: "method-not-allowed", message: "Method not allowed" });
        if (webhookDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, webhookDelayMs));
        webhookCalls.push(webhookId === null ? call : `${call} ${webhookId}`);
        if (webhookRefusal && (!webhookRefusal.only || webhookRefusal.only.includes(call))) {
          return send(response, webhookRefusal.status, { code: "refused", message: "Refused by the test" });
        }
        // As BTCPay reads and answers its webhooks: the secret only in the answer to creating one.
        const webhookJson = (hook: FakeWebhook, withSecret: boolean) => ({
          id: hook.id,
          enabled: hook.body.enabled ?? true,
          automaticRedelivery: hook.body.automaticRedelivery ?? true,
          url: hook.url,
          secret: withSecret ? hook.secret : null,
          authorizedEvents: hook.body.authorizedEvents ?? { everything: true, specificEvents: [] },
        });
        if (call === "list") return send(response, 200, webhooks.map((hook) => webhookJson(hook, false)));
        if (call === "create") {
          const body = await readJson(request).catch(() => null);
          if (!body || typeof body.url !== "string" || !URL.canParse(body.url)) return send(response, 422, [{ path: "url", message: "Invalid Url" }]);
          const hook = addWebhook({ url: body.url, secret: typeof body.secret === "string" && body.secret !== "" ? body.secret : undefined }, body);
          return send(response, 200, webhookJson(hook, true));
        }
        const index = webhooks.findIndex((hook) => hook.id === webhookId);
        if (index < 0) return send(response, 404, { code: "webhook-not-found", message: "The webhook was not found" });
        const hook = webhooks[index]!;
        if (call === "read") return send(response, 200, webhookJson(hook, false));
        if (call === "delete") {
          webhooks.splice(index, 1);
          response.writeHead(200);
          return response.end();
        }
        const body = await readJson(request).catch(() => null);
        if (!body || typeof body.url !== "string" || !URL.canParse(body.url)) return send(response, 422, [{ path: "url", message: "Invalid Url" }]);
        // An update replaces the whole webhook; a missing or empty secret keeps the old one.
        const secret = typeof body.secret === "string" && body.secret !== "" ? body.secret : hook.secret;
        const updated = { id: hook.id, url: body.url, secret, body };
        webhooks[index] = updated;
        return send(response, 200, webhookJson(updated, false));
      }

      send(response, 404, { code: "not-found", message: "Not found" });
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  function webhookCallOf(method: string | undefined, webhookId: string | null): FakeWebhookCall | null {
    if (webhookId === null) return method === "GET" ? "list" : method === "POST" ? "create" : null;
    return method === "GET" ? "read" : method === "PUT" ? "update" : method === "DELETE" ? "delete" : null;
  }

  function addWebhook(webhook: { url: string; secret?: string }, body: Record<string, unknown> = { enabled: true, url: webhook.url }): FakeWebhook {
    const id = `FakeHook${nextWebhook++}`;
    const hook = { id, url: webhook.url, secret: webhook.secret ?? `generated-secret-${id}`, body };
    webhooks.push(hook);
    return hook;
  }

  function find(id: string): FakeInvoice {
    const invoice = invoices.get(id);
    if (!invoice) throw new Error(`fake BTCPay has no invoice ${id}`);
    return invoice;
  }
  const set = (id: string, changes: Partial<Pick<FakeInvoice, "status" | "additionalStatus">>, paid?: string) => {
    const invoice = find(id);
    invoices.set(id, { ...invoice, ...changes, method: { ...invoice.method, paid: paid ?? invoice.method.paid } });
  };

  return {
    url: base,
    storeId,
    apiKey,
    created,
    invoices,
    invoiceReads,
    webhooks,
    webhookCalls,
    refuseWith(status) {
      refusal = status;
    },
    refuseWebhooks(status, only) {
      webhookRefusal = status === null ? null : { status, only: only ?? null };
    },
    delayWebhooks(ms) {
      webhookDelayMs = ms;
    },
    addWebhook: (webhook) => addWebhook(webhook),
    payInFull: (id) => set(id, { status: "Processing", additionalStatus: "None" }, find(id).method.amount),
    payShort: (id, paid) => set(id, { status: "New", additionalStatus: "PaidPartial" }, paid),
    payOver: (id, paid) => set(id, { status: "Settled", additionalStatus: "PaidOver" }, paid),
    settle: (id) => set(id, { status: "Settled" }, Number(find(id).method.paid) > 0 ? undefined : find(id).method.amount),
    expire: (id) => set(id, { status: "Expired", additionalStatus: Number(find(id).method.paid) > 0 ? "PaidPartial" : "None" }),
    payLate: (id, paid) => set(id, { status: "Expired", additionalStatus: "PaidLate" }, paid ?? find(id).method.amount),
    invalidate: (id) => set(id, { status: "Invalid", additionalStatus: "Invalid" }),
    webhookBody(invoiceId, type, extra = {}) {
      const invoice = find(invoiceId);
      return {
        deliveryId: `FakeDelivery${nextDelivery++}`,
        webhookId: webhooks.at(-1)?.id ?? "FakeHook0",
        originalDeliveryId: null,
        isRedelivery: false,
        type,
        timestamp: Math.floor(clock().getTime() / 1000),
        storeId,
        invoiceId,
        metadata: invoice.metadata,
        ...extra,
      };
    },
    async deliver(body, deliverOptions = {}) {
      const hook = webhooks.at(-1);
      const target = deliverOptions.url ?? hook?.url;
      if (!target) throw new Error("fake BTCPay has no webhook to deliver to");
      const raw = deliverOptions.raw ?? JSON.stringify(body);
      const secret = deliverOptions.secret ?? hook?.secret ?? "";
      const signature = deliverOptions.signature === undefined ? btcpaySignature(raw, secret) : deliverOptions.signature;
      return fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "BTCPayServer", ...(signature !== null ? { "BTCPay-Sig": signature } : {}) },
        body: raw,
      });
    },
    async deliverToEach(body, urlPrefix) {
      const raw = JSON.stringify(body);
      const targets = webhooks.filter((hook) => hook.url.startsWith(urlPrefix));
      return Promise.all(
        targets.map(async (hook) => ({
          webhookId: hook.id,
          response: await fetch(hook.url, {
            method: "POST",
            headers: { "content-type": "application/json", "user-agent": "BTCPayServer", "BTCPay-Sig": btcpaySignature(raw, hook.secret) },
            body: raw,
          }),
        })),
      );
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
