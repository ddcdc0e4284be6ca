import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSecretBox } from "../crypto";
import type { Database } from "../db/client";
import { botCustomers, broadcastRecipients, broadcasts } from "../db/schema";
import { createBroadcast, getBroadcastProgress, SKIPPED_UNREACHABLE } from "../shop/customers/broadcasts";
import { createBotSettings } from "../shop/settings";
import { createDiskStorage } from "../storage";
import { createTestDatabase } from "../../test-support/database";
import { seedBotCustomers } from "../../test-support/factories";
import { startFakeTelegram, type FakeTelegram, type TelegramCall } from "../../test-support/fake-telegram";
import { createBroadcastSender, type BroadcastSender } from "./broadcast-sender";

// The broadcast sender against the fake Telegram (issue 14, item 3): Telegram's limits measured
// from the times the fake received the calls, a 429's retry_after, a customer who blocked the bot.

const TOKEN = "7000000019:broadcast-test-token";
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

/** The most calls that arrived within any one second. */
function busiestSecond(calls: TelegramCall[]): number {
  const times = calls.map((call) => call.at).sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= 1_000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** The shortest time between two calls to the same chat. */
function shortestGapPerChat(calls: TelegramCall[]): number {
  const byChat = new Map<string, number[]>();
  for (const call of calls) byChat.set(String(call.payload.chat_id), [...(byChat.get(String(call.payload.chat_id)) ?? []), call.at]);
  let shortest = Infinity;
  for (const times of byChat.values()) {
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, times[i]! - times[i - 1]!);
  }
  return shortest;
}

describe("the broadcast sender", () => {
  let telegram: FakeTelegram;
  let database: Database;
  let dataDir: string;
  let sender: BroadcastSender | undefined;
  const secrets = createSecretBox(Buffer.alloc(32, 9));

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-broadcast-"));
    await createBotSettings(database.db, secrets, {
      botName: "Shop",
      botToken: TOKEN,
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: null,
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
    });
  });
  afterAll(async () => {
    await database?.close();
    await telegram?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db.delete(broadcasts);
    await database.db.delete(botCustomers);
  });
  afterEach(async () => {
    await sender?.stop();
    sender = undefined;
  });

  const storage = () => createDiskStorage(path.join(dataDir, "objects"));

  function startSender(ratePerSecond?: number) {
    sender = createBroadcastSender(
      { db: database.db, secrets, storage: storage(), config: { telegramApiRoot: telegram.apiRoot } },
      { log: silentLog, soleInstance: true, ratePerSecond, idlePollMs: 100 },
    );
    sender.start();
    return sender;
  }

  const sendsOf = (from: number, text: string) =>
    telegram.calls.slice(from).filter((call) => call.method === "sendMessage" && call.payload.text === text);

  it(
    "sends 200 customers one message each at most 25 a second, waits out a 429's retry_after, and skips a customer who blocked the bot",
    { timeout: 60_000 },
    async () => {
      const customers = Array.from({ length: 200 }, (_, i) => String(71_000_000 + i));
      await seedBotCustomers(database.db, { started: customers });
      const blocker = customers[7]!;
      telegram.failChat(blocker, { error_code: 403, description: "Forbidden: bot was blocked by the user" });
      const from = telegram.calls.length;

      startSender();
      const { id } = await createBroadcast(database.db, { text: "Spring sale!", imageUrl: null, audience: { kind: "all" } }, new Date());
      sender!.kick();

      // A third of the way, Telegram asks the bot to wait a second.
      await expect.poll(() => sendsOf(from, "Spring sale!").length, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(60);
      telegram.failNext("sendMessage", { error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } });
      // The fake answers calls in the order they arrive: the next send is the one refused.
      const marker = telegram.calls.length;
      await expect.poll(async () => (await getBroadcastProgress(database.db, id)).status, { timeout: 40_000, interval: 200 }).toBe("done");

      expect(await getBroadcastProgress(database.db, id)).toEqual({ id, status: "done", total: 200, sent: 199, failed: 0, skipped: 1 });
      const calls = sendsOf(from, "Spring sale!");
      // 200 deliveries, one refused with 429 (sent again later), one refused with 403.
      expect(calls).toHaveLength(201);
      expect(busiestSecond(calls)).toBeLessThanOrEqual(25);
      // The real limit, not a much slower one: 200 messages at 25 a second (and a 1 s wait) take about 9.5 s.
      expect(calls.at(-1)!.at - calls[0]!.at).toBeLessThan(20_000);
      for (const customer of customers) {
        expect(telegram.messages(customer).filter((m) => m.text === "Spring sale!"), customer).toHaveLength(customer === blocker ? 0 : 1);
      }

      // The 429: nothing reached Telegram for the second it asked for (the calls already on their way aside).
      const refused = telegram.calls.slice(marker).find((call) => call.method === "sendMessage")!;
      // Its customer got the message once, after the wait.
      expect(calls.filter((call) => call.payload.chat_id === refused.payload.chat_id)).toHaveLength(2);
      const refusedAt = refused.at;
      const during = calls.filter((call) => call.at > refusedAt + 100 && call.at < refusedAt + 950);
      expect(during).toEqual([]);

      // The customer who blocked the bot is unreachable: skipped in later broadcasts, never called.
      const [row] = await database.db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, blocker));
      expect(row?.unreachableAt).not.toBeNull();
      await sender!.stop();
      const next = await createBroadcast(database.db, { text: "Next", imageUrl: null, audience: { kind: "all" } }, new Date());
      expect(await getBroadcastProgress(database.db, next.id)).toMatchObject({ total: 200, skipped: 1 });
      const [skipped] = await database.db
        .select({ error: broadcastRecipients.error })
        .from(broadcastRecipients)
        .where(and(eq(broadcastRecipients.broadcastId, next.id), eq(broadcastRecipients.telegramUserId, blocker)));
      expect(skipped?.error).toBe(SKIPPED_UNREACHABLE);
    },
  );

  it("sends one chat at most one message a second, even from several broadcasts at once", { timeout: 30_000 }, async () => {
    const customers = ["72000001", "72000002", "72000003"];
    await seedBotCustomers(database.db, { started: customers });
    const from = telegram.calls.length;
    const texts = ["First", "Second", "Third"];
    const ids: string[] = [];
    for (const text of texts) ids.push((await createBroadcast(database.db, { text, imageUrl: null, audience: { kind: "all" } }, new Date())).id);
    // No overall limit to speak of: only the per-chat one holds the sends back.
    startSender(1_000);
    for (const id of ids) {
      await expect.poll(async () => (await getBroadcastProgress(database.db, id)).status, { timeout: 20_000, interval: 100 }).toBe("done");
    }
    const calls = telegram.calls.slice(from).filter((call) => call.method === "sendMessage");
    expect(calls).toHaveLength(9);
    expect(shortestGapPerChat(calls)).toBeGreaterThanOrEqual(1_000);
    for (const customer of customers) {
      expect(telegram.messages(customer).map((m) => m.text)).toEqual(expect.arrayContaining(texts));
    }
  });

  it("sends a photo with the text as its caption, uploading the image once", { timeout: 30_000 }, async () => {
    const customers = ["73000001", "73000002", "73000003"];
    await seedBotCustomers(database.db, { started: customers });
    const png = fs.readFileSync(path.join(import.meta.dirname, "../../e2e/fixtures/product.png"));
    await storage().put("broadcastImage01", png, "image/png");
    const from = telegram.calls.length;
    const { id } = await createBroadcast(database.db, { text: "New teapots", imageUrl: "/objects/broadcastImage01", audience: { kind: "all" } }, new Date());
    startSender();
    await expect.poll(async () => (await getBroadcastProgress(database.db, id)).status, { timeout: 20_000, interval: 100 }).toBe("done");
    const photos = telegram.calls.slice(from).filter((call) => call.method === "sendPhoto");
    expect(photos.map((call) => call.payload.caption)).toEqual(["New teapots", "New teapots", "New teapots"]);
    // The first upload carries the bytes; the others reuse Telegram's file_id.
    expect(photos.filter((call) => Object.values(call.files).some((file) => file.size === png.length))).toHaveLength(1);
    expect(photos.filter((call) => typeof call.payload.photo === "string" && !call.payload.photo.startsWith("attach://"))).toHaveLength(2);
    for (const customer of customers) expect(telegram.messages(customer).filter((m) => m.caption === "New teapots")).toHaveLength(1);
  });
});
