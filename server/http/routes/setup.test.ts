import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SetupChecklist, WebhookAddresses } from "../../../contract";
import { startTestServer, type TestServer } from "../../../test-support/app";
import { insertOrder, insertProduct } from "../../../test-support/factories";
import { TEST_CUSTOMER_ID } from "../../shop/simulator";

// The Dashboard's setup checklist (issue 22, item 8): GET /api/dashboard/setup decides each step
// from the stored rows; and GET /api/webhook-addresses tells Bot Settings the PUBLIC_URL addresses.

const SETTINGS = { botName: "Setup Bot", botToken: "123:setup-token", acceptedCurrencies: ["BTC", "XMR"], welcomeMessage: "Hi", faqContent: "FAQ" };

describe("GET /api/dashboard/setup", () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
  });
  afterAll(() => server?.close());

  const checklist = async () => {
    const response = await server.request("GET", "/api/dashboard/setup", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    return (await response.json()) as SetupChecklist;
  };
  const doneSteps = (answer: SetupChecklist) => answer.steps.filter((step) => step.done).map((step) => step.id);
  const post = async (url: string, body: unknown) => {
    const response = await server.request("POST", url, { cookie, body });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return response.json() as Promise<{ id: string }>;
  };

  it("refuses without a session", async () => {
    const response = await server.request("GET", "/api/dashboard/setup");
    expect(response.status).toBe(401);
  });

  it("walks an empty shop through every step, in order, until it is complete", async () => {
    const empty = await checklist();
    expect(empty.steps.map((step) => step.id)).toEqual(["bot-token", "payment-gateway", "category", "product", "postage", "test-order"]);
    expect(doneSteps(empty)).toEqual([]);
    expect(empty).toMatchObject({ complete: false, paymentGatewayConfigured: false, acceptedCurrencies: ["BTC", "LTC", "XMR"] });

    // A token alone: the gateway still needs both its key and its IPN secret.
    const settings = await post("/api/bot-settings", { ...SETTINGS, nowpaymentsApiKey: "api-key-only" });
    let answer = await checklist();
    expect(doneSteps(answer)).toEqual(["bot-token"]);
    expect(answer).toMatchObject({ paymentGatewayConfigured: false, acceptedCurrencies: ["BTC", "XMR"] });
    const updated = await server.request("PUT", `/api/bot-settings/${settings.id}`, {
      cookie,
      body: { ...SETTINGS, nowpaymentsApiKey: "api-key", nowpaymentsIpnSecret: "ipn-secret" },
    });
    expect(updated.status).toBe(200);
    answer = await checklist();
    expect(doneSteps(answer)).toEqual(["bot-token", "payment-gateway"]);
    expect(answer.paymentGatewayConfigured).toBe(true);

    await post("/api/categories", { name: "Tea", description: null, icon: null, parentId: null });
    expect(doneSteps(await checklist())).toContain("category");

    // A product nobody can buy (inactive, or out of stock) is not yet one.
    await insertProduct(server.database.db, { isActive: false, stock: 5 });
    await insertProduct(server.database.db, { isActive: true, stock: 0 });
    expect(doneSteps(await checklist())).not.toContain("product");
    await insertProduct(server.database.db, { isActive: true, stock: 2 });
    expect(doneSteps(await checklist())).toContain("product");

    // Likewise an inactive postage option.
    await post("/api/postage-options", { name: "Hidden", price: "1.00", description: null, estimatedDays: null, isActive: false });
    expect(doneSteps(await checklist())).not.toContain("postage");
    await post("/api/postage-options", { name: "Royal Mail", price: "2.99", description: null, estimatedDays: 2, isActive: true });
    expect(doneSteps(await checklist())).toContain("postage");

    expect((await checklist()).complete).toBe(false);
    await insertOrder(server.database.db, { telegramUserId: TEST_CUSTOMER_ID, isTest: true, status: "pending" });
    answer = await checklist();
    expect(doneSteps(answer)).toEqual(["bot-token", "payment-gateway", "category", "product", "postage", "test-order"]);
    expect(answer.complete).toBe(true);
  });

  it("without PUBLIC_URL, the webhook addresses are null: the page shows its own origin's and says so", async () => {
    const response = await server.request("GET", "/api/webhook-addresses", { cookie });
    expect(await response.json()).toEqual({ publicUrl: null, telegramWebhookUrl: null, paymentsWebhookUrl: null });
  });
});

describe("GET /api/webhook-addresses", () => {
  it("answers the addresses built from PUBLIC_URL, the ones the server registers and gives the gateway", async () => {
    const server = await startTestServer({ config: { publicUrl: "https://shop.example" } });
    try {
      expect((await server.request("GET", "/api/webhook-addresses")).status).toBe(401);
      const response = await server.request("GET", "/api/webhook-addresses", { cookie: await server.login() });
      expect(response.status).toBe(200);
      expect((await response.json()) as WebhookAddresses).toEqual({
        publicUrl: "https://shop.example",
        telegramWebhookUrl: "https://shop.example/api/telegram/webhook",
        paymentsWebhookUrl: "https://shop.example/api/payments/webhook",
      });
    } finally {
      await server.close();
    }
  });
});
