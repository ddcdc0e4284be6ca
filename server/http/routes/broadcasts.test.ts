import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { botCustomers } from "../../db/schema";
import { issueLinkCode, redeemLinkCode, unlinkOwnerChat } from "../../shop/customers";
import { createBotSettings } from "../../shop/settings";
import { createDiskStorage } from "../../storage";
import { startTestServer, UNKNOWN_ID, type TestServer } from "../../../test-support/app";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder, insertProduct, seedBotCustomers } from "../../../test-support/factories";
import { startFakeTelegram, type FakeTelegram } from "../../../test-support/fake-telegram";
import { createBroadcastSender } from "../../telegram/broadcast-sender";

// The Broadcasts API (issue 14, item 3): POST queues and answers 202 at once, GET follows the
// progress to done, the list shows past broadcasts; bad input is refused with the field named.

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

describe("/api/broadcasts", () => {
  let telegram: FakeTelegram;
  let database: Database;
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    database = await createTestDatabase();
    const secrets = createSecretBox(Buffer.alloc(32, 7));
    // The sender as services.ts builds it, on this test's database, sending to the fake Telegram.
    const broadcasts = createBroadcastSender(
      { db: database.db, secrets, storage: createDiskStorage("/nonexistent"), config: { telegramApiRoot: telegram.apiRoot } },
      { log: silentLog, soleInstance: true, idlePollMs: 100 },
    );
    server = await startTestServer({ database, deps: { secrets, broadcasts } });
    cookie = await server.login();
    await createBotSettings(database.db, secrets, {
      botName: "Shop",
      botToken: "7000000020:broadcast-routes-token",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: null,
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await telegram?.close();
  });

  const post = (body: unknown) => server.request("POST", "/api/broadcasts", { body, cookie });

  it("queues a broadcast (202), whose progress reaches done, and lists it", async () => {
    await seedBotCustomers(database.db, { started: ["81000001", "81000002", "81000003"] });
    const answer = await post({ text: "Hello, everyone!", audience: { kind: "all" } });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: string };

    await expect
      .poll(async () => (await (await server.request("GET", `/api/broadcasts/${id}`, { cookie })).json()) as unknown, { timeout: 20_000, interval: 100 })
      .toEqual({ id, status: "done", total: 3, sent: 3, failed: 0, skipped: 0 });
    for (const chat of ["81000001", "81000002", "81000003"]) {
      expect(telegram.messages(chat).map((m) => m.text)).toEqual(["Hello, everyone!"]);
    }

    const list = (await (await server.request("GET", "/api/broadcasts", { cookie })).json()) as { id: string; text: string; status: string; audience: unknown }[];
    expect(list[0]).toMatchObject({ id, text: "Hello, everyone!", status: "done", audience: { kind: "all" }, imageUrl: null, sent: 3 });
  });

  it("sends each customer the text in their language, else the default text (issue 26)", async () => {
    await seedBotCustomers(database.db, { started: ["82000001", "82000002", "82000003"] });
    await database.db.update(botCustomers).set({ language: "de" }).where(eq(botCustomers.telegramUserId, "82000001"));
    await database.db.update(botCustomers).set({ language: "fr" }).where(eq(botCustomers.telegramUserId, "82000002"));
    const answer = await post({ text: "Hello!", textTranslations: { de: " Hallo! ", es: "  " }, audience: { kind: "all" } });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: string };
    await expect
      .poll(async () => ((await (await server.request("GET", `/api/broadcasts/${id}`, { cookie })).json()) as { status: string }).status, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe("done");
    expect(telegram.messages("82000001").map((m) => m.text)).toEqual(["Hallo!"]);
    // No French text: the default. Language not known yet: the default.
    expect(telegram.messages("82000002").map((m) => m.text)).toEqual(["Hello!"]);
    expect(telegram.messages("82000003").map((m) => m.text)).toEqual(["Hello!"]);
    const list = (await (await server.request("GET", "/api/broadcasts", { cookie })).json()) as { id: string }[];
    expect(list[0]).toMatchObject({ id, text: "Hello!", textTranslations: { de: "Hallo!" } });
  });

  it("refuses bad input with the field named, and an audience with nobody in it", async () => {
    const refused = async (body: unknown) => {
      const answer = await post(body);
      return { status: answer.status, error: ((await answer.json()) as { error: string }).error };
    };
    expect(await refused({ text: " ", audience: { kind: "all" } })).toMatchObject({ status: 400, error: "Message text is required" });
    expect(await refused({ text: "Hi", audience: { kind: "everyone" } })).toMatchObject({ status: 400, error: "Kind must be one of all, product, recent, never-ordered" });
    expect(await refused({ text: "Hi", audience: { kind: "product" } })).toMatchObject({ status: 400, error: "Choose a product" });
    expect(await refused({ text: "Hi", audience: { kind: "recent", days: 0 } })).toMatchObject({ status: 400, error: "Days must be at least 1" });
    expect(await refused({ text: "Hi", imageUrl: "https://evil.example/x.png", audience: { kind: "all" } })).toMatchObject({ status: 400, error: "Image must be an /objects/ path from this server (upload the image first)" });
    expect(await refused({ text: "x".repeat(1025), imageUrl: "/objects/abc", audience: { kind: "all" } })).toMatchObject({ status: 400, error: expect.stringMatching(/1024/) });
    expect(await refused({ text: "Hi", textTranslations: { de: "x".repeat(1025) }, imageUrl: "/objects/abc", audience: { kind: "all" } })).toEqual({
      status: 400,
      error: "With an image the message must be at most 1024 characters",
    });
    expect(await refused({ text: "Hi", textTranslations: { de: "x".repeat(4097) }, audience: { kind: "all" } })).toEqual({
      status: 400,
      error: "Message translations (Deutsch) can be at most 4,096 characters",
    });
    expect(await refused({ text: "Hi", textTranslations: { zz: "?" }, audience: { kind: "all" } })).toEqual({
      status: 400,
      error: 'Message translations has "zz", which is not a language the bot speaks (en, de, es, fr, ru, uk)',
    });
    expect(await refused({ text: "Hi", audience: { kind: "product", productId: UNKNOWN_ID } })).toEqual({ status: 409, error: "No customers match this audience." });
  });

  it("answers 404 for a broadcast that does not exist, and 401 without a session", async () => {
    expect((await server.request("GET", `/api/broadcasts/${UNKNOWN_ID}`, { cookie })).status).toBe(404);
    expect((await server.request("GET", "/api/broadcasts")).status).toBe(401);
    expect((await server.request("POST", "/api/broadcasts", { body: { text: "Hi", audience: { kind: "all" } } })).status).toBe(401);
  });
});

// Issue 22, item 2: before "Send now" the owner is told how many customers it will reach (the queue's
// own rule: opted out, blocked the bot and blocked by the owner left out, each customer once), and can
// send a test to their own linked chat only. A database of its own: "all customers" counts everyone.
describe("/api/broadcasts/reach and /api/broadcasts/test", () => {
  let telegram: FakeTelegram;
  let database: Database;
  let server: TestServer;
  let cookie: string;
  const secrets = createSecretBox(Buffer.alloc(32, 7));

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    database = await createTestDatabase();
    server = await startTestServer({ database, deps: { secrets }, config: { telegramApiRoot: telegram.apiRoot } });
    cookie = await server.login();
    await createBotSettings(database.db, secrets, {
      botName: "Shop",
      botToken: "7000000021:broadcast-test-token",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: null,
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await telegram?.close();
  });

  const reach = async (audience: unknown) => {
    const answer = await server.request("POST", "/api/broadcasts/reach", { body: { audience }, cookie });
    return { status: answer.status, body: (await answer.json()) as unknown };
  };
  const sendTest = (body: unknown) => server.request("POST", "/api/broadcasts/test", { body, cookie });

  it("counts the audience less opted-out, unreachable and blocked customers, each customer once, as the queue then sends", async () => {
    const now = new Date();
    // 82000005 opted out and was blocked by the owner too: skipped once, for the owner's block (the queue's first reason).
    await seedBotCustomers(
      database.db,
      {
        started: ["82000001", "82000002", "82000003", "82000004", "82000005", "82000006"],
        optedOut: ["82000002", "82000005"],
        unreachable: ["82000003"],
        blocked: ["82000004", "82000005"],
      },
      now,
    );

    expect(await reach({ kind: "all" })).toEqual({ status: 200, body: { audience: 6, reach: 2, skipped: { optedOut: 1, unreachable: 1, blocked: 2 } } });

    // Two paid orders of the same product by one customer: one person to reach, not two.
    const product = await insertProduct(database.db);
    for (let i = 0; i < 2; i++) {
      await insertOrder(database.db, { telegramUserId: "82000001", status: "processing", paymentStatus: "finished", items: [{ product }] });
    }
    await insertOrder(database.db, { telegramUserId: "82000002", status: "completed", paymentStatus: "finished", items: [{ product, quantity: 3 }] });
    // Unpaid: has not bought it.
    await insertOrder(database.db, { telegramUserId: "82000006", status: "pending", items: [{ product }] });
    expect(await reach({ kind: "product", productId: product.id })).toEqual({
      status: 200,
      body: { audience: 2, reach: 1, skipped: { optedOut: 1, unreachable: 0, blocked: 0 } },
    });

    // The number shown is the number the queue sends to: what it did not skip.
    const queued = await server.request("POST", "/api/broadcasts", { body: { text: "Counted", audience: { kind: "all" } }, cookie });
    const { id } = (await queued.json()) as { id: string };
    const progress = (await (await server.request("GET", `/api/broadcasts/${id}`, { cookie })).json()) as { total: number; skipped: number };
    expect({ total: progress.total, toSend: progress.total - progress.skipped }).toEqual({ total: 6, toSend: 2 });
  });

  it("answers 0 for an audience with nobody, and refuses bad audiences or no session", async () => {
    expect(await reach({ kind: "product", productId: UNKNOWN_ID })).toEqual({ status: 200, body: { audience: 0, reach: 0, skipped: { optedOut: 0, unreachable: 0, blocked: 0 } } });
    expect(await reach({ kind: "recent", days: 0 })).toMatchObject({ status: 400, body: { error: "Days must be at least 1" } });
    expect(await reach({ kind: "product", productId: "1' or '1'='1" })).toMatchObject({ status: 400, body: { error: "Product must be a valid id" } });
    expect((await server.request("POST", "/api/broadcasts/reach", { body: { audience: { kind: "all" } } })).status).toBe(401);
    expect((await server.request("POST", "/api/broadcasts/test", { body: { text: "Hi" } })).status).toBe(401);
  });

  it("sends a test only to the owner's linked chat, text and image, and says when none is linked", async () => {
    await unlinkOwnerChat(database.db, new Date());
    const before = telegram.calls.length;
    const refused = await sendTest({ text: "Test me" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toBe(
      "No owner chat is linked, so there is nowhere to send a test. Link your Telegram under Owner alerts in Bot Settings first.",
    );
    expect(telegram.calls.length).toBe(before);

    const { code } = await issueLinkCode(database.db, new Date());
    expect(await redeemLinkCode(database.db, code, { id: "5150", title: "Ada (@ada_owner)" }, new Date())).toBe(true);
    const customersBefore = ["82000001", "82000006"].map((chat) => telegram.messages(chat).length);

    const sent = await sendTest({ text: "  Spring sale <b>&amp; 🍵  " });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ sentTo: "Ada (@ada_owner)" });
    expect(telegram.messages("5150").map((m) => m.text)).toEqual(["Spring sale <b>&amp; 🍵"]);

    // With an image: a photo with the text as its caption, uploaded from this server's storage.
    await server.deps.storage.put("broadcastTestImage1", Buffer.from("not really a png"), "image/png");
    const withImage = await sendTest({ text: "With a picture", imageUrl: "/objects/broadcastTestImage1" });
    expect(withImage.status).toBe(200);
    const photo = telegram.callsOf("sendPhoto").at(-1)!;
    expect(photo.payload).toMatchObject({ chat_id: "5150", caption: "With a picture" });
    expect(Object.values(photo.files).map((file) => file.size)).toEqual([16]);

    // No customer got either, and nothing was queued or listed.
    expect(["82000001", "82000006"].map((chat) => telegram.messages(chat).length)).toEqual(customersBefore);
    const list = (await (await server.request("GET", "/api/broadcasts", { cookie })).json()) as { text: string }[];
    expect(list.map((b) => b.text)).not.toContain("With a picture");

    // The same rules as a broadcast's message; Telegram's refusal is the owner's to read.
    expect((await sendTest({ text: " " })).status).toBe(400);
    expect((await sendTest({ text: "Hi", imageUrl: "https://evil.example/x.png" })).status).toBe(400);
    expect((await sendTest({ text: "x".repeat(1025), imageUrl: "/objects/broadcastTestImage1" })).status).toBe(400);
    telegram.failNext("sendMessage", { error_code: 400, description: "Bad Request: chat not found" });
    const failed = await sendTest({ text: "Hi" });
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: string }).error).toBe("Telegram refused the test message: Bad Request: chat not found");
  });
});
