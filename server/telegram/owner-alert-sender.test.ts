import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type Database } from "../db/client";
import { queryRows } from "../db/rows";
import { orders } from "../db/schema";
import { addToCart, checkout } from "../shop/ordering";
import { recordCustomerMessage, issueLinkCode, redeemLinkCode, setOwnerAlertKinds, unlinkOwnerChat } from "../shop/customers";
import { startTestServer, type TestServer } from "../../test-support/app";
import { silentLog } from "../../test-support/bot-harness";
import { insertOrder, insertProduct } from "../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram, type TelegramCall } from "../../test-support/fake-telegram";
import { configurePayments, TEST_IPN_SECRET } from "../../test-support/payments-setup";
import { postIpn } from "../../test-support/sign-ipn";
import { createOwnerAlertSender, type OwnerAlertSender } from "./owner-alert-sender";

// The owner alerts end to end against the fake Telegram and gateway (issue 14, item 5): the database
// triggers fill the outbox, the sender sends each alert once to the linked chat (also with two senders
// racing), holds back kinds switched off, retries a failed send and gives up on a refused one.

const OWNER_CHAT = "4242";

describe("the owner alert sender", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let server: TestServer;
  let senders: OwnerAlertSender[] = [];
  let seq = 0;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments();
    server = await startTestServer({
      config: { telegramApiRoot: telegram.apiRoot, nowpaymentsApiUrl: gateway.url, publicUrl: "https://shop.example" },
    });
    await configurePayments(server.deps);
    const { code } = await issueLinkCode(server.deps.db, new Date());
    expect(await redeemLinkCode(server.deps.db, code, { id: OWNER_CHAT, title: "Ada" }, new Date())).toBe(true);
  });
  afterEach(async () => {
    await Promise.all(senders.map((sender) => sender.stop()));
    senders = [];
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
    await telegram?.close();
  });

  function startSender(database: Pick<Database, "db" | "watchChanges"> = server.database) {
    const sender = createOwnerAlertSender(
      { db: database.db, secrets: server.deps.secrets, config: server.deps.config, changes: database },
      { log: silentLog, pollMs: 50, retryDelaysMs: [50, 50] },
    );
    senders.push(sender);
    sender.start();
    return sender;
  }

  type Row = { id: number; kind: string; state: string; attempts: number; error: string | null };
  const outbox = async () =>
    queryRows<Row>(server.deps.db, sql`select id, kind, state, attempts, error from owner_alerts order by id`);

  /** Waits until no alert is waiting or in a sender's hands. */
  async function drained(timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const waiting = (await outbox()).filter((row) => row.state === "pending");
      if (waiting.length === 0) return;
      if (Date.now() > until) throw new Error(`alerts still pending: ${JSON.stringify(waiting)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const alertsSince = (from: number): TelegramCall[] =>
    telegram.calls.slice(from).filter((call) => call.method === "sendMessage" && String(call.payload.chat_id) === OWNER_CHAT);
  const textsSince = (from: number) => alertsSince(from).map((call) => String(call.payload.text));

  /** A real checkout of a fresh product (the gateway's fake answers the payment). */
  async function placeOrder() {
    const { db } = server.deps;
    const product = await insertProduct(db, { name: `Widget ${++seq}`, price: "12.50", stock: 50 });
    const customer = `9000${seq}`;
    await addToCart(db, customer, product.id, 2);
    const { order } = await checkout(server.deps, {
      telegramUserId: customer,
      telegramUsername: `buyer${seq}`,
      shippingAddress: { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" },
      postageOptionId: null,
      coin: "BTC",
    });
    return { order, product };
  }

  it("sends a paid order once, to the linked chat, when the gateway's signed IPN says paid", async () => {
    startSender();
    const from = telegram.calls.length;
    const { order, product } = await placeOrder();
    const ipn = await postIpn(server.baseUrl, gateway.ipnBody(order.paymentId!, "finished"), { secret: TEST_IPN_SECRET });
    expect(ipn.status).toBe(200);
    const expected = `💰 Order #${order.id.slice(0, 8)} paid: £25.00\n2 × ${product.name}\nCustomer: @buyer${seq}`;
    await telegram.waitForCall((call) => call.method === "sendMessage" && call.payload.text === expected, { from });
    // The gateway repeating itself raises nothing new.
    await postIpn(server.baseUrl, gateway.ipnBody(order.paymentId!, "finished"), { secret: TEST_IPN_SECRET });
    await drained();
    expect(textsSince(from)).toEqual([expected]);
  });

  it("sends a customer's message with the dashboard's Messages link, once", async () => {
    startSender();
    const from = telegram.calls.length;
    await recordCustomerMessage(server.deps.db, { telegramUserId: "777", telegramUsername: "bob", message: "Is the blue one back?" });
    const expected = "✉️ New message from @bob:\nIs the blue one back?\n\nReply: https://shop.example/messages";
    await telegram.waitForCall((call) => call.method === "sendMessage" && call.payload.text === expected, { from });
    await drained();
    expect(textsSince(from)).toEqual([expected]);
  });

  it("two senders racing over the same outbox send each alert once", async () => {
    const from = telegram.calls.length;
    const { db } = server.deps;
    // The events first, then both senders start on the same backlog.
    const messages: string[] = [];
    for (let i = 0; i < 8; i++) {
      messages.push(`Question number ${i}`);
      await recordCustomerMessage(db, { telegramUserId: `55${i}`, telegramUsername: `racer${i}`, message: `Question number ${i}` });
    }
    const { order } = await insertOrder(db, { items: [{ product: await insertProduct(db, { name: "Race Widget" }) }] });
    await db.update(orders).set({ status: "processing", paidAt: new Date(), paymentStatus: "finished" }).where(eq(orders.id, order.id));

    // On PostgreSQL the second sender has its own connections, as another server instance would.
    const second = server.database.kind === "postgres" && "url" in server.database ? await openPostgres(String(server.database.url)) : null;
    try {
      startSender();
      startSender(second ?? server.database);
      await drained();
      await Promise.all(senders.map((sender) => sender.stop()));
    } finally {
      await second?.close();
    }
    const texts = textsSince(from);
    expect(texts).toHaveLength(9);
    expect(new Set(texts).size).toBe(9);
    for (const message of messages) expect(texts.filter((t) => t.includes(message))).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith(`💰 Order #${order.id.slice(0, 8)}`))).toHaveLength(1);
  });

  it("a kind switched off sends nothing; the others still go", async () => {
    startSender();
    const { db } = server.deps;
    await setOwnerAlertKinds(db, { customerMessage: false }, new Date());
    try {
      const from = telegram.calls.length;
      await recordCustomerMessage(db, { telegramUserId: "888", telegramUsername: "quiet", message: "Nobody should hear this" });
      const { order } = await insertOrder(db, { items: [{ product: await insertProduct(db, { name: "Loud Widget" }) }] });
      await db.update(orders).set({ status: "processing", paidAt: new Date() }).where(eq(orders.id, order.id));
      await telegram.waitForCall((call) => call.method === "sendMessage" && String(call.payload.text).startsWith(`💰 Order #${order.id.slice(0, 8)}`), { from });
      await drained();
      expect(textsSince(from).filter((t) => t.includes("Nobody should hear this"))).toEqual([]);
      expect(textsSince(from)).toHaveLength(1);
      const skipped = (await outbox()).filter((row) => row.kind === "customer_message").at(-1);
      expect(skipped).toMatchObject({ state: "skipped", error: "this kind of alert is switched off" });
    } finally {
      await setOwnerAlertKinds(db, { customerMessage: true }, new Date());
    }
  });

  it("retries a send Telegram failed, and gives up at once on one it refused", async () => {
    startSender();
    const { db } = server.deps;
    const from = telegram.calls.length;
    telegram.failNext("sendMessage", { error_code: 502, description: "Bad Gateway" });
    await recordCustomerMessage(db, { telegramUserId: "901", telegramUsername: "retry", message: "Second time lucky" });
    await drained();
    expect(textsSince(from).filter((t) => t.includes("Second time lucky"))).toHaveLength(2); // the failed call, then the one that went
    expect((await outbox()).at(-1)).toMatchObject({ state: "sent", attempts: 2 });

    telegram.failNext("sendMessage", { error_code: 403, description: "Forbidden: bot was kicked from the group chat" }, 5);
    await recordCustomerMessage(db, { telegramUserId: "902", telegramUsername: "gone", message: "Into the void" });
    await drained();
    telegram.failNext("sendMessage", { error_code: 403, description: "unused" }, 0);
    expect((await outbox()).at(-1)).toMatchObject({ state: "failed", attempts: 1, error: "Telegram refused the alert: Forbidden: bot was kicked from the group chat" });
  });

  it("after Unlink nothing is sent", async () => {
    startSender();
    const { db } = server.deps;
    await unlinkOwnerChat(db, new Date());
    const from = telegram.calls.length;
    await recordCustomerMessage(db, { telegramUserId: "903", telegramUsername: "late", message: "Anyone there?" });
    await drained();
    expect(alertsSince(from)).toEqual([]);
    expect((await outbox()).at(-1)).toMatchObject({ state: "skipped", error: "no chat is linked" });
  });
});
