import http from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for the NOWPayments API on 127.0.0.1, answering POST /payment and GET /payment/:id
// the way the real API does. Tests point NOWPAYMENTS_API_URL (config.nowpaymentsApiUrl) at `url`.

export type CreatePaymentCall = { apiKey: string | undefined; body: Record<string, unknown> };

export type FakePayment = {
  payment_id: string;
  payment_status: string;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string;
  order_description: string;
  ipn_callback_url: string | null;
  purchase_id: string;
  created_at: string;
  updated_at: string;
  expiration_estimate_date: string;
};

export type FakeNowPayments = {
  /** The API base, like https://api.nowpayments.io/v1. */
  url: string;
  /** Every POST /payment, in order. */
  created: CreatePaymentCall[];
  /** The payments made so far, by payment_id. */
  payments: Map<string, FakePayment>;
  /** Every GET /payment/:id (a status check, e.g. by the rescue sweep), with when it came. */
  statusChecks: { paymentId: string; at: number }[];
  /** What GET /payment/:id answers from now on (actually_paid defaults to the full amount once paid). */
  setStatus(paymentId: string, status: string, extra?: { actually_paid?: number }): void;
  /** Makes POST /payment answer this error until cleared with null. */
  refuseWith(refusal: { status: number; message: string } | null): void;
  /** Makes every call hang without answering (for timeout tests) until cleared. */
  hang(on: boolean): void;
  /** The body NOWPayments would post to ipn_callback_url for this payment in this status. */
  ipnBody(paymentId: string, status: string, extra?: { actually_paid?: number }): Record<string, unknown>;
  close(): Promise<void>;
};

/** How long a payment waits for its money, like NOWPayments' expiration_estimate_date (about 24 hours). */
export const FAKE_PAYMENT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** GBP per coin, to work out pay_amount. */
const RATES: Record<string, number> = { btc: 50_000, ltc: 70, xmr: 150 };
const PAID_STATUSES = new Set(["confirmed", "sending", "finished"]);

function readJson(request: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let data = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (data += chunk));
    request.on("end", () => {
      try {
        resolve(data ? JSON.parse(data) : {});
      } catch (error) {
        reject(error);
      }
    });
    request.on("error", reject);
  });
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/**
 * `now` is the fake's clock (created_at, expiration_estimate_date); give it the test's fixed clock
 * so the gateway's deadline is where the test expects it.
 */
export async function startFakeNowPayments(options: { apiKey?: string; now?: () => Date } = {}): Promise<FakeNowPayments> {
  const clock = options.now ?? (() => new Date());
  const created: CreatePaymentCall[] = [];
  const payments = new Map<string, FakePayment>();
  const statusChecks: FakeNowPayments["statusChecks"] = [];
  let refusal: { status: number; message: string } | null = null;
  let hanging = false;
  let nextId = 5_000_000_001;

  const server = http.createServer((request, response) => {
    void (async () => {
      if (hanging) return; // never answers; close() ends the socket
      const apiKey = request.headers["x-api-key"];
      const key = typeof apiKey === "string" ? apiKey : undefined;
      if (options.apiKey !== undefined && key !== options.apiKey) {
        return send(response, 403, { status: false, statusCode: 403, code: "INVALID_API_KEY", message: "Invalid api key" });
      }
      const url = new URL(request.url ?? "/", "http://127.0.0.1");

      if (request.method === "POST" && url.pathname === "/v1/payment") {
        let body: Record<string, unknown>;
        try {
          body = (await readJson(request)) as Record<string, unknown>;
        } catch {
          return send(response, 400, { status: false, statusCode: 400, code: "INVALID_REQUEST_PARAMS", message: "Invalid JSON" });
        }
        created.push({ apiKey: key, body });
        if (refusal) {
          return send(response, refusal.status, { status: false, statusCode: refusal.status, code: "ERROR", message: refusal.message });
        }
        const coin = String(body.pay_currency ?? "").toLowerCase();
        const rate = RATES[coin];
        if (!rate || typeof body.price_amount !== "number") {
          return send(response, 400, { status: false, statusCode: 400, code: "INVALID_REQUEST_PARAMS", message: "Currency or amount is not valid" });
        }
        const now = clock();
        const paymentId = String(nextId++);
        const payment: FakePayment = {
          payment_id: paymentId,
          payment_status: "waiting",
          pay_address: `${coin}-address-${paymentId}`,
          price_amount: body.price_amount,
          price_currency: String(body.price_currency ?? "").toLowerCase(),
          pay_amount: Number((body.price_amount / rate).toFixed(8)),
          actually_paid: 0,
          pay_currency: coin,
          order_id: String(body.order_id ?? ""),
          order_description: String(body.order_description ?? ""),
          ipn_callback_url: typeof body.ipn_callback_url === "string" ? body.ipn_callback_url : null,
          purchase_id: String(nextId + 900_000_000),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          expiration_estimate_date: new Date(now.getTime() + FAKE_PAYMENT_LIFETIME_MS).toISOString(),
        };
        payments.set(paymentId, payment);
        // The real API answers 201 with the payment, payment_id as a string.
        return send(response, 201, {
          ...payment,
          amount_received: null,
          burning_percent: null,
          network: coin,
          network_precision: 8,
          payin_extra_id: null,
          smart_contract: "",
          time_limit: null,
          type: "crypto2crypto",
        });
      }

      const match = /^\/v1\/payment\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && match) {
        statusChecks.push({ paymentId: decodeURIComponent(match[1]!), at: Date.now() });
        const payment = payments.get(decodeURIComponent(match[1]!));
        if (!payment) return send(response, 404, { status: false, statusCode: 404, code: "NOT_FOUND", message: "Payment not found" });
        // The status call writes payment_id as a number.
        return send(response, 200, { ...payment, payment_id: Number(payment.payment_id), outcome_amount: payment.actually_paid, outcome_currency: payment.pay_currency });
      }

      send(response, 404, { status: false, statusCode: 404, code: "NOT_FOUND", message: "Not found" });
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function find(paymentId: string): FakePayment {
    const payment = payments.get(paymentId);
    if (!payment) throw new Error(`fake NOWPayments has no payment ${paymentId}`);
    return payment;
  }

  function withStatus(payment: FakePayment, status: string, extra: { actually_paid?: number } = {}): FakePayment {
    const actuallyPaid = extra.actually_paid ?? (PAID_STATUSES.has(status) ? payment.pay_amount : payment.actually_paid);
    return { ...payment, payment_status: status, actually_paid: actuallyPaid, updated_at: clock().toISOString() };
  }

  return {
    url: `http://127.0.0.1:${port}/v1`,
    created,
    payments,
    statusChecks,
    setStatus(paymentId, status, extra) {
      payments.set(paymentId, withStatus(find(paymentId), status, extra));
    },
    refuseWith(next) {
      refusal = next;
    },
    hang(on) {
      hanging = on;
    },
    ipnBody(paymentId, status, extra) {
      const payment = withStatus(find(paymentId), status, extra);
      // What NOWPayments posts: numbers as numbers (price_amount is the fiat total the payment was
      // created for, price_currency its currency), and a nested fee object.
      return {
        payment_id: Number(payment.payment_id),
        parent_payment_id: null,
        invoice_id: null,
        payment_status: payment.payment_status,
        pay_address: payment.pay_address,
        payin_extra_id: null,
        price_amount: payment.price_amount,
        price_currency: payment.price_currency,
        pay_amount: payment.pay_amount,
        actually_paid: payment.actually_paid,
        actually_paid_at_fiat: 0,
        pay_currency: payment.pay_currency,
        order_id: payment.order_id,
        order_description: payment.order_description,
        purchase_id: payment.purchase_id,
        outcome_amount: payment.actually_paid,
        outcome_currency: payment.pay_currency,
        payment_extra_ids: null,
        fee: { currency: payment.pay_currency, depositFee: 0, withdrawalFee: 0, serviceFee: 0 },
        created_at: payment.created_at,
        updated_at: payment.updated_at,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
