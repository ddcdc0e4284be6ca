import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../config";
import { createSecretBox } from "../crypto";
import type { Database } from "../db/client";
import { orders, products } from "../db/schema";
import { addToCart, checkout } from "../shop/ordering";
import { createRecordingNotifier } from "../../test-support/app";
import { createTestDatabase } from "../../test-support/database";
import { insertProduct } from "../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { configurePayments } from "../../test-support/payments-setup";
import { startPaymentJobs, type PaymentJobsDeps } from "./jobs";
import { createNowPaymentsGatewayFromSettings } from "../gateways/nowpayments/client";
import type { SecretBox } from "../crypto";

describe("payment jobs: rescue sweep and expiry cleanup", () => {
  let database: Database;
  let gateway: FakeNowPayments;
  let deps: PaymentJobsDeps & { config: ReturnType<typeof loadConfig>; secrets: SecretBox };
  let notifier: ReturnType<typeof createRecordingNotifier>;
  let clock = new Date();
  let seq = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startFakeNowPayments({ now: () => clock });
    notifier = createRecordingNotifier();
    const secrets = createSecretBox(Buffer.alloc(32, 5));
    const config = { ...loadConfig({}), nowpaymentsApiUrl: gateway.url };
    deps = {
      db: database.db,
      secrets,
      config,
      gateway: createNowPaymentsGatewayFromSettings({ db: database.db, secrets, config }),
      notifier,
      now: () => clock,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    };
    await configurePayments(deps);
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.close();
  });

  async function placeOrder(quantity = 2) {
    const product = await insertProduct(database.db, { name: `Gizmo ${++seq}`, stock: 10 });
    const customer = `7700${seq}`;
    await addToCart(database.db, customer, product.id, quantity);
    const { order } = await checkout(deps, {
      telegramUserId: customer,
      shippingAddress: { name: "Grace", streetAddress: "2 Lane", postcode: "ZZ1 1ZZ" },
      postageOptionId: null,
      coin: "XMR",
    });
    return { order, product, customer, paymentId: order.paymentId! };
  }
  const orderRow = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const stockOf = async (id: string) =>
    (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

  it("settles, once at start-up, an order whose IPN was lost", async () => {
    const { order, customer, paymentId } = await placeOrder();
    gateway.setStatus(paymentId, "finished"); // paid, but the IPN never arrived

    const jobs = startPaymentJobs({ ...deps, intervalMs: 60 * 60 * 1000 });
    try {
      await vi.waitFor(async () => expect((await orderRow(order.id)).status).toBe("processing"));
      await jobs.runNow(); // a second sweep finds nothing new to say
    } finally {
      await jobs.stop();
    }
    expect(await orderRow(order.id)).toMatchObject({ paymentStatus: "finished", actuallyPaid: gateway.payments.get(paymentId)!.actually_paid.toString() });
    expect(notifier.sent.filter((m) => m.chatId === customer)).toHaveLength(1);
  });

  it("runs on its interval", async () => {
    const { order, paymentId } = await placeOrder();
    const jobs = startPaymentJobs({ ...deps, intervalMs: 20 });
    try {
      await jobs.runNow();
      expect((await orderRow(order.id)).status).toBe("pending");
      gateway.setStatus(paymentId, "confirmed");
      await vi.waitFor(async () => expect((await orderRow(order.id)).status).toBe("processing"));
    } finally {
      await jobs.stop();
    }
  });

  it("fails abandoned orders at the gateway's deadline, tells their customers, and never fails one whose money is on its way", async () => {
    const abandoned = await placeOrder(3);
    const confirming = await placeOrder(3);
    gateway.setStatus(confirming.paymentId, "confirming");
    const lostGatewayAnswer = await placeOrder(1);
    gateway.payments.delete(lostGatewayAnswer.paymentId); // the gateway no longer knows it: the sweep goes on with the others
    const started = clock;
    /** Two server instances on one database run their jobs at the same moment. */
    const runTwoInstancesAt = async (hoursLater: number) => {
      clock = new Date(started.getTime() + hoursLater * 60 * 60 * 1000);
      const first = startPaymentJobs({ ...deps, intervalMs: 60 * 60 * 1000 });
      const second = startPaymentJobs({ ...deps, intervalMs: 60 * 60 * 1000 });
      try {
        await Promise.all([first.runNow(), second.runNow()]);
      } finally {
        await Promise.all([first.stop(), second.stop()]);
        clock = new Date();
      }
    };

    // 3 hours on, the customer was told to pay within 24: nothing fails yet.
    await runTwoInstancesAt(3);
    expect(await orderRow(abandoned.order.id)).toMatchObject({ status: "pending" });
    expect(await stockOf(abandoned.product.id)).toBe(7);

    await runTwoInstancesAt(25);
    expect(await orderRow(abandoned.order.id)).toMatchObject({ status: "failed" });
    expect(await stockOf(abandoned.product.id)).toBe(10);
    expect(notifier.sent.filter((m) => m.chatId === abandoned.customer).map((m) => m.text)).toEqual([
      expect.stringMatching(new RegExp(`^Order #${abandoned.order.id.slice(0, 8)} expired: no payment arrived`)),
    ]);
    expect(await orderRow(confirming.order.id)).toMatchObject({ status: "pending", paymentStatus: "confirming" });
    expect(await stockOf(confirming.product.id)).toBe(7);
    expect((await orderRow(lostGatewayAnswer.order.id)).status).toBe("failed");
    expect(await stockOf(lostGatewayAnswer.product.id)).toBe(10);
  });

  it("releases stock once when the gateway reports an expiry that both instances see", async () => {
    const { order, customer, paymentId, product } = await placeOrder(4);
    gateway.setStatus(paymentId, "expired");
    const first = startPaymentJobs({ ...deps, intervalMs: 60 * 60 * 1000 });
    const second = startPaymentJobs({ ...deps, intervalMs: 60 * 60 * 1000 });
    try {
      await Promise.all([first.runNow(), second.runNow()]);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    expect(await orderRow(order.id)).toMatchObject({ status: "failed", paymentStatus: "expired" });
    expect(await stockOf(product.id)).toBe(10);
    expect(notifier.sent.filter((m) => m.chatId === customer)).toHaveLength(1);
  });
});
