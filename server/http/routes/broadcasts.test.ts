import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { recordBotStart } from "../../shop/customers";
import { createBotSettings } from "../../shop/settings";
import { createDiskStorage } from "../../storage";
import { startTestServer, UNKNOWN_ID, type TestServer } from "../../../test-support/app";
import { createTestDatabase } from "../../../test-support/database";
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
    for (const id of ["81000001", "81000002", "81000003"]) await recordBotStart(database.db, id, null, new Date());
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

  it("refuses bad input with the field named, and an audience with nobody in it", async () => {
    const refused = async (body: unknown) => {
      const answer = await post(body);
      return { status: answer.status, error: ((await answer.json()) as { error: string }).error };
    };
    expect(await refused({ text: " ", audience: { kind: "all" } })).toMatchObject({ status: 400, error: expect.stringMatching(/text.*Message text is required/i) });
    expect(await refused({ text: "Hi", audience: { kind: "everyone" } })).toMatchObject({ status: 400, error: expect.stringMatching(/kind/) });
    expect(await refused({ text: "Hi", audience: { kind: "product" } })).toMatchObject({ status: 400, error: expect.stringMatching(/choose a product/) });
    expect(await refused({ text: "Hi", audience: { kind: "recent", days: 0 } })).toMatchObject({ status: 400, error: expect.stringMatching(/days must be at least 1/) });
    expect(await refused({ text: "Hi", imageUrl: "https://evil.example/x.png", audience: { kind: "all" } })).toMatchObject({ status: 400, error: expect.stringMatching(/objects/) });
    expect(await refused({ text: "x".repeat(1025), imageUrl: "/objects/abc", audience: { kind: "all" } })).toMatchObject({ status: 400, error: expect.stringMatching(/1024/) });
    expect(await refused({ text: "Hi", audience: { kind: "product", productId: UNKNOWN_ID } })).toEqual({ status: 409, error: "No customers match this audience." });
  });

  it("answers 404 for a broadcast that does not exist, and 401 without a session", async () => {
    expect((await server.request("GET", `/api/broadcasts/${UNKNOWN_ID}`, { cookie })).status).toBe(404);
    expect((await server.request("GET", "/api/broadcasts")).status).toBe(401);
    expect((await server.request("POST", "/api/broadcasts", { body: { text: "Hi", audience: { kind: "all" } } })).status).toBe(401);
  });
});
