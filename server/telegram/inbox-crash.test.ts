import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTelegram, telegramUser, textUpdate, type FakeTelegram } from "../../test-support/fake-telegram";
import { callServer, startServerProcess, stopServerProcess, type ServerProcess } from "../../test-support/server-process";
import { webhookSecretFor } from "./runner";

// The inbox survives a crash (issue 12): updates Telegram delivered and the server acknowledged,
// then a kill -9 before the bot answered them, are answered after the restart. Telegram would not
// send them again: it had its 200.

const PASSWORD = "inbox crash admin password";
const TOKEN = "7000000009:inbox-crash-token";
const CUSTOMERS = 12;

describe("a server killed with updates in its inbox", () => {
  let telegram: FakeTelegram;
  let server: ServerProcess | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    env = {
      ADMIN_PASSWORD: PASSWORD,
      SECRET_KEY: "inbox crash test secret key",
      TELEGRAM_API_ROOT: telegram.apiRoot,
      NOWPAYMENTS_API_URL: "http://127.0.0.1:9",
      // https: the bot runs by webhook (Telegram's setWebhook goes to the fake).
      PUBLIC_URL: "https://shop.example",
    };
  });
  afterAll(async () => {
    if (server) await stopServerProcess(server, "SIGKILL");
    await telegram?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers after the restart every update it had acknowledged", { timeout: 120_000 }, async () => {
    server = await startServerProcess("inbox-crash", env);
    dataDir = server.dataDir;
    const login = await callServer(server, "POST", "/api/auth/login", { json: { password: PASSWORD } });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const saved = await callServer(server, "POST", "/api/bot-settings", {
      cookie,
      json: {
        botName: "Crash Shop",
        botToken: TOKEN,
        acceptedCurrencies: ["BTC"],
        welcomeMessage: "Welcome to the crash shop!",
        faqContent: "Ask us anything.",
        nowpaymentsApiKey: null,
        nowpaymentsIpnSecret: null,
        webhookUrl: null,
      },
    });
    expect(saved.status, await saved.text()).toBe(201);
    await telegram.waitForCall((call) => call.method === "setWebhook" && call.token === TOKEN, { timeoutMs: 20_000 });

    // Telegram is slow now: the bot is still waiting on its first answers when the server dies.
    telegram.delayAnswers(5_000);
    const customers = Array.from({ length: CUSTOMERS }, (_, index) => telegramUser(86_000_001 + index));
    const answers = await Promise.all(
      customers.map((customer) =>
        callServer(server!, "POST", "/api/telegram/webhook", {
          json: textUpdate(customer, "/start"),
          headers: { "x-telegram-bot-api-secret-token": webhookSecretFor(TOKEN) },
        }),
      ),
    );
    // Every update was acknowledged: Telegram will not send these again.
    expect(answers.map((answer) => answer.status)).toEqual(customers.map(() => 200));
    const welcomes = () =>
      telegram.callsOf("sendMessage").filter((call) => call.token === TOKEN && call.payload.text === "Welcome to the crash shop!");
    // The worker has taken some (it waits on Telegram); none was answered yet.
    await expect.poll(() => welcomes().length, { timeout: 10_000 }).toBeGreaterThan(0);
    await stopServerProcess(server, "SIGKILL");

    telegram.delayAnswers(0);
    const before = welcomes().length;
    server = await startServerProcess("inbox-crash-restarted", env, dataDir);
    // Every customer is answered: those never taken, and those in hand at the kill (taken again once
    // their claim ran out, so they may get the welcome twice: at least once, never lost).
    await expect
      .poll(() => new Set(welcomes().map((call) => Number(call.payload.chat_id))).size, { timeout: 60_000, interval: 250 })
      .toBe(CUSTOMERS);
    const afterRestart = welcomes().slice(before);
    expect(afterRestart.length).toBeGreaterThanOrEqual(CUSTOMERS - before);
    for (const customer of customers) {
      expect(welcomes().filter((call) => Number(call.payload.chat_id) === customer.id).length).toBeLessThanOrEqual(2);
    }
  });
});
