import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLocks } from "../db/leader";
import { createBotSettings } from "../shop/settings";
import { silentLog } from "../../test-support/bot-harness";
import { startTestServer, type TestServer } from "../../test-support/app";
import { startFakeTelegram, telegramUser, textUpdate, type FakeTelegram } from "../../test-support/fake-telegram";
import { createBotRunner } from "./runner";
import { watchBotSettings } from "./settings-watch";

// Long polling with a leader (db/leader.ts), two bot runtimes on one database as two server
// instances would be: one polls, the other stands by and takes over. And a save of Bot Settings
// reaching an instance that did not take the request. (server/cluster.test.ts does the same with
// two processes on PostgreSQL.)

const TOKEN = "123456:leader-test-token";
const settings = (welcomeMessage: string) => ({
  botName: "Shop",
  botToken: TOKEN,
  acceptedCurrencies: ["BTC" as const],
  welcomeMessage,
  faqContent: "FAQ",
  nowpaymentsApiKey: null,
  nowpaymentsIpnSecret: null,
  webhookUrl: null,
});

describe("long polling on one instance at a time", () => {
  let telegram: FakeTelegram;
  let server: TestServer;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    server = await startTestServer({ config: { telegramApiRoot: telegram.apiRoot, publicUrl: undefined } });
    await createBotSettings(server.deps.db, server.deps.secrets, settings("Hello from the leader!"));
  });
  afterAll(async () => {
    await server?.close();
    await telegram?.close();
  });

  it("polls from the leader only; the other takes over when it stops", async () => {
    const locks = createLocks({ databaseUrl: undefined });
    const first = createBotRunner(server.deps, { log: silentLog, pollingLeader: locks });
    const second = createBotRunner(server.deps, { log: silentLog, pollingLeader: locks });
    try {
      await first.start();
      await first.started();
      await second.start();
      await second.started(); // standing by counts as started
      expect(first.status()).toMatchObject({ mode: "polling", botUsername: "test_shop_bot", error: null });
      expect(second.status()).toMatchObject({ mode: "polling", botUsername: "test_shop_bot", error: null });
      await vi.waitFor(() => expect(telegram.pollsWaiting()).toBe(1));

      await first.stop();
      await vi.waitFor(() => expect(telegram.pollsWaiting()).toBe(1));
      telegram.pushUpdate(textUpdate(telegramUser(4001), "/start"));
      const reply = await telegram.waitForCall((c) => c.method === "sendMessage" && c.payload.chat_id === 4001);
      expect(reply.payload.text).toBe("Hello from the leader!");
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("rebuilds the bot when another instance saved new settings", async () => {
    const reloads = vi.fn(async () => {});
    const watch = watchBotSettings({ db: server.deps.db, onChange: reloads, log: silentLog, intervalMs: 60_000 });
    try {
      await watch.ready;
      await watch.checkNow();
      expect(reloads).not.toHaveBeenCalled();
      // Saved through another instance: this one's next look finds it, once.
      await createBotSettings(server.deps.db, server.deps.secrets, settings("A new welcome"));
      await watch.checkNow();
      await watch.checkNow();
      expect(reloads).toHaveBeenCalledTimes(1);
    } finally {
      watch.stop();
    }
  });
});
