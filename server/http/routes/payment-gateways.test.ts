import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentGateways } from "../../../contract";
import { auditLog, paymentGatewaySettings } from "../../db/schema";
import { getBotSettings, getPaymentGatewaySettings } from "../../shop/settings";
import { startTestServer, type TestServer } from "../../../test-support/app";
import { startFakeBtcpay, type FakeBtcpay } from "../../../test-support/fake-btcpay";
import { configurePayments, TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../../test-support/payments-setup";
import { NO_PUBLIC_URL_MESSAGE } from "./payment-gateways";

// GET/PUT /api/payment-gateways and POST /api/payment-gateways/btcpay/webhook (issue 24): secrets
// masked, masks sent back keep them, BTCPay details checked with the server before anything is saved.

const mask = (secret: string) => "••••••••" + secret.slice(-4);

async function closedPort(): Promise<number> {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return port;
}

describe("payment gateways API", () => {
  let server: TestServer;
  let withPublicUrl: TestServer;
  let btcpay: FakeBtcpay;
  let cookie: string;

  beforeAll(async () => {
    btcpay = await startFakeBtcpay();
    server = await startTestServer();
    withPublicUrl = await startTestServer({ config: { publicUrl: "https://shop.example" } });
    await configurePayments(server.deps);
    await configurePayments(withPublicUrl.deps);
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await withPublicUrl?.close();
    await btcpay?.close();
  });

  const call = async (target: TestServer, method: string, url: string, body?: unknown, session?: string) =>
    target.request(method, url, { body, cookie: session ?? (target === server ? cookie : await target.login()) });
  const get = async (target = server) => (await (await call(target, "GET", "/api/payment-gateways")).json()) as PaymentGateways;
  const put = (body: unknown, target = server) => call(target, "PUT", "/api/payment-gateways", body);
  const connection = () => ({ serverUrl: btcpay.url, storeId: btcpay.storeId, apiKey: btcpay.apiKey });

  it("needs the admin", async () => {
    for (const [method, url] of [["GET", "/api/payment-gateways"], ["PUT", "/api/payment-gateways"], ["POST", "/api/payment-gateways/btcpay/webhook"]] as const) {
      expect((await server.request(method, url, { body: method === "GET" ? undefined : {} })).status).toBe(401);
    }
  });

  it("answers NOWPayments' keys from Bot Settings, masked, and nothing of BTCPay yet", async () => {
    expect(await get()).toEqual({
      nowpayments: { apiKey: mask(TEST_NOWPAYMENTS_API_KEY), ipnSecret: mask(TEST_IPN_SECRET) },
      btcpay: { serverUrl: null, storeId: null, apiKey: null, webhookSecret: null, webhook: { id: null, url: null, state: "no-public-url" } },
      coins: { BTC: "nowpayments", LTC: "nowpayments", XMR: "nowpayments" },
    });
  });

  it("refuses BTCPay details the server refuses, saving nothing (not even the other parts)", async () => {
    const before = await get();
    const cases: [Record<string, string>, RegExp][] = [
      [{ apiKey: "wrong-key-0123456789" }, /^BTCPay Server refused the API key/],
      [{ storeId: "NoSuchStore" }, /^BTCPay Server has no store with the ID NoSuchStore/],
      [{ serverUrl: `http://127.0.0.1:${await closedPort()}` }, /^BTCPay Server could not be reached/],
    ];
    for (const [override, message] of cases) {
      const response = await put({ nowpayments: { apiKey: "a-new-nowpayments-key" }, btcpay: { ...connection(), ...override }, coins: { BTC: "btcpay" } });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    btcpay.refuseWith(403);
    try {
      const response = await put({ btcpay: connection() });
      expect(((await response.json()) as { error: string }).error).toMatch(/check its permissions/);
    } finally {
      btcpay.refuseWith(null);
    }
    expect(await get()).toEqual(before);
    expect((await getBotSettings(server.deps.db, server.deps.secrets))!.nowpaymentsApiKey).toBe(TEST_NOWPAYMENTS_API_KEY);
    // A coin cannot go to a BTCPay Server that is not connected.
    const early = await put({ coins: { XMR: "btcpay" } });
    expect(early.status).toBe(400);
    expect(await early.json()).toEqual({ error: "XMR cannot go to BTCPay Server until it is connected: fill in its server address, store ID and API key." });
    // Half the details: which part is missing.
    const half = await put({ btcpay: { serverUrl: btcpay.url } });
    expect(await half.json()).toEqual({ error: "BTCPay Server needs its store ID too: fill in the server address, the store ID and the API key, or clear all three." });
  });

  it("saves details the server accepts, the key encrypted and answered masked; a mask sent back keeps each secret", async () => {
    const saved = await put({ btcpay: connection(), coins: { BTC: "btcpay" } });
    expect(saved.status).toBe(200);
    const answer = (await saved.json()) as PaymentGateways;
    expect(answer.btcpay).toMatchObject({ serverUrl: btcpay.url, storeId: btcpay.storeId, apiKey: mask(btcpay.apiKey) });
    expect(answer.coins).toEqual({ BTC: "btcpay", LTC: "nowpayments", XMR: "nowpayments" });
    const [row] = await server.deps.db.select().from(paymentGatewaySettings);
    expect(row!.btcpayApiKey).not.toContain(btcpay.apiKey);
    expect((await getPaymentGatewaySettings(server.deps.db, server.deps.secrets)).btcpay.apiKey).toBe(btcpay.apiKey);

    // The form sends everything back as it got it: nothing changes, and BTCPay is not asked again.
    btcpay.refuseWith(500);
    try {
      const again = await put({ nowpayments: answer.nowpayments, btcpay: { serverUrl: answer.btcpay.serverUrl, storeId: answer.btcpay.storeId, apiKey: answer.btcpay.apiKey }, coins: answer.coins });
      expect(again.status).toBe(200);
    } finally {
      btcpay.refuseWith(null);
    }
    const stored = await getBotSettings(server.deps.db, server.deps.secrets);
    expect(stored).toMatchObject({ nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY, nowpaymentsIpnSecret: TEST_IPN_SECRET });
    expect((await getPaymentGatewaySettings(server.deps.db, server.deps.secrets)).btcpay.apiKey).toBe(btcpay.apiKey);

    // Another mask is refused; a new NOWPayments key lands in Bot Settings, whose own form shows it.
    const other = await put({ btcpay: { apiKey: "••••••••zzzz" } });
    expect(other.status).toBe(400);
    expect(await put({ nowpayments: { apiKey: "np-new-key-0123456789" } })).toMatchObject({ status: 200 });
    const botSettings = (await (await call(server, "GET", "/api/bot-settings")).json()) as { nowpaymentsApiKey: string };
    expect(botSettings.nowpaymentsApiKey).toBe(mask("np-new-key-0123456789"));

    // The audit log says what changed, never a secret.
    const entries = await server.deps.db.select().from(auditLog);
    const text = JSON.stringify(entries.filter((e) => e.action.startsWith("payment-gateways")));
    expect(text).toContain("payment-gateways.update");
    for (const secret of [btcpay.apiKey, "np-new-key-0123456789"]) expect(text).not.toContain(secret);
  });

  it("registers the webhook only with PUBLIC_URL; it is stored encrypted and shown as registered", async () => {
    const refused = await call(server, "POST", "/api/payment-gateways/btcpay/webhook");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: NO_PUBLIC_URL_MESSAGE });
    expect((await get()).btcpay.webhook.state).toBe("no-public-url");

    const target = withPublicUrl;
    const early = await call(target, "POST", "/api/payment-gateways/btcpay/webhook");
    expect(early.status).toBe(409);
    expect(((await get(target)).btcpay.webhook.state)).toBe("not-registered");
    expect((await put({ btcpay: connection() }, target)).status).toBe(200);
    const hooks = btcpay.webhooks.length;
    const registered = await call(target, "POST", "/api/payment-gateways/btcpay/webhook");
    expect(registered.status).toBe(200);
    const hook = btcpay.webhooks.at(-1)!;
    expect(btcpay.webhooks).toHaveLength(hooks + 1);
    expect(hook.url).toBe("https://shop.example/api/payments/btcpay/webhook");
    expect(hook.secret.length).toBeGreaterThanOrEqual(40);
    expect(hook.body).toMatchObject({ enabled: true, authorizedEvents: { everything: false, specificEvents: expect.arrayContaining(["InvoiceSettled", "InvoiceExpired"]) } });
    expect(((await registered.json()) as PaymentGateways).btcpay).toMatchObject({
      webhookSecret: mask(hook.secret),
      webhook: { id: hook.id, url: hook.url, state: "registered" },
    });
    const [row] = await target.deps.db.select().from(paymentGatewaySettings);
    expect(row!.btcpayWebhookSecret).not.toContain(hook.secret);
    expect((await getPaymentGatewaySettings(target.deps.db, target.deps.secrets)).btcpay.webhookSecret).toBe(hook.secret);

    // A key without the webhook permission: BTCPay's refusal is a sentence, nothing saved.
    btcpay.refuseWebhooks(403);
    try {
      const denied = await call(target, "POST", "/api/payment-gateways/btcpay/webhook");
      expect(denied.status).toBe(502);
      expect(((await denied.json()) as { error: string }).error).toMatch(/permission to modify the store's webhooks/);
    } finally {
      btcpay.refuseWebhooks(null);
    }
    expect((await get(target)).btcpay.webhook.id).toBe(hook.id);
  });
});
