import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeNowPayments, type FakeNowPayments } from "../../../test-support/fake-nowpayments";
import { createNowPaymentsGateway } from "./client";

describe("NOWPayments client", () => {
  let fake: FakeNowPayments;
  const apiKey = "key-123";
  beforeAll(async () => {
    fake = await startFakeNowPayments({ apiKey });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const client = (options: { key?: string | null; timeoutMs?: number; apiUrl?: string } = {}) =>
    createNowPaymentsGateway({
      apiUrl: options.apiUrl ?? fake.url,
      getApiKey: async () => (options.key === undefined ? apiKey : options.key),
      timeoutMs: options.timeoutMs,
    });

  it("creates a payment in GBP with the key in x-api-key and keeps what the customer must send", async () => {
    const payment = await client().createPayment({
      orderId: "5b0e8a8e-0000-4000-8000-000000000001",
      pricePence: 4649,
      coin: "xmr",
      description: "Order #5b0e8a8e: 1 x Widget",
      callbackUrl: "https://shop.example/api/payments/webhook",
    });
    expect(fake.created.at(-1)).toEqual({
      apiKey,
      body: {
        price_amount: 46.49,
        price_currency: "gbp",
        pay_currency: "xmr",
        order_id: "5b0e8a8e-0000-4000-8000-000000000001",
        order_description: "Order #5b0e8a8e: 1 x Widget",
        ipn_callback_url: "https://shop.example/api/payments/webhook",
      },
    });
    const stored = fake.payments.get(payment.paymentId)!;
    expect(payment).toMatchObject({
      status: "waiting",
      orderId: "5b0e8a8e-0000-4000-8000-000000000001",
      payAddress: stored.pay_address,
      payAmount: String(stored.pay_amount),
      payCurrency: "xmr",
      priceAmount: "46.49",
      priceCurrency: "gbp",
      expiresAt: new Date(stored.expiration_estimate_date),
    });
  });

  it("reads a payment's status (payment_id comes back as a number)", async () => {
    const created = await client().createPayment({ orderId: "o-1", pricePence: 1000, coin: "btc", description: "d" });
    fake.setStatus(created.paymentId, "partially_paid", { actually_paid: 0.0001 });
    const status = await client().getPayment(created.paymentId);
    expect(status).toMatchObject({ paymentId: created.paymentId, status: "partially_paid", actuallyPaid: "0.0001", payCurrency: "btc" });
  });

  it("turns refusals, a wrong key, an unreachable or silent gateway into clear sentences", async () => {
    const request = { orderId: "o-2", pricePence: 1000, coin: "btc" as const, description: "d" };
    fake.refuseWith({ status: 400, message: "Currency xyz was not found" });
    await expect(client().createPayment(request)).rejects.toThrow("The payment service refused the payment: Currency xyz was not found.");
    fake.refuseWith(null);

    await expect(client({ key: "wrong" }).createPayment(request)).rejects.toThrow("The payment service refused the shop's API key.");
    await expect(client({ key: null }).createPayment(request)).rejects.toThrow(/Payments are not configured/);
    expect(await client({ key: null }).isConfigured()).toBe(false);
    await expect(client().getPayment("999")).rejects.toThrow(/Payment not found/);

    // A port nothing listens on.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(client({ apiUrl: `http://127.0.0.1:${port}/v1` }).createPayment(request)).rejects.toThrow(
      "The payment service could not be reached. Please try again in a few minutes.",
    );

    fake.hang(true);
    try {
      await expect(client({ timeoutMs: 150 }).getPayment("1")).rejects.toThrow(
        "The payment service did not answer in time. Please try again in a few minutes.",
      );
    } finally {
      fake.hang(false);
    }
  });
});
