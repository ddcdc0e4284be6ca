import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { checkBotToken, decideBotStatus, withoutToken, type RunnerState } from "./bot-health";

// The pieces of the bot's health (issue 14, item 2) the HTTP tests reach only slowly: a Telegram
// that answers too late, and the rules that turn what the runner saw into a state.

describe("checkBotToken", () => {
  let telegram: FakeTelegram;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
  });
  afterAll(() => telegram.close());

  it("counts a Telegram that answers too late as unreachable, not as a refusal", async () => {
    telegram.delayAnswers(1_000);
    try {
      const check = await checkBotToken(telegram.apiRoot, "1:slow", { timeoutMs: 200 });
      expect(check).toEqual({
        outcome: "unreachable",
        botUsername: null,
        warning: "The token could not be checked: Telegram did not answer within 0.2 s. The settings are saved; the bot starts once Telegram answers.",
      });
    } finally {
      telegram.delayAnswers(0);
    }
  });

  it("refuses on 401 and 404 only", async () => {
    telegram.refuseToken("1:revoked");
    expect(await checkBotToken(telegram.apiRoot, "1:revoked")).toEqual({ outcome: "refused", description: "Unauthorized" });
    telegram.failNext("getMe", { error_code: 429, description: "Too Many Requests: retry after 5" });
    expect((await checkBotToken(telegram.apiRoot, "1:busy")).outcome).toBe("unreachable");
    expect(await checkBotToken(telegram.apiRoot, "1:fine")).toEqual({ outcome: "accepted", botUsername: "test_shop_bot", warning: null });
  });
});

describe("decideBotStatus", () => {
  const now = new Date("2026-11-25T04:00:00Z");
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
  const runner = (over: Partial<Extract<RunnerState, { mode: "polling" | "webhook" }>> = {}): RunnerState => ({
    mode: "polling",
    botUsername: "shop_bot",
    error: null,
    telegramAnsweredAt: now,
    lastError: null,
    lastErrorAt: null,
    lastUpdateAt: null,
    ...over,
  });
  const decide = (state: RunnerState, webhook = null as Parameters<typeof decideBotStatus>[0]["webhook"], webhookUrl: string | null = null) =>
    decideBotStatus({ runner: state, configuredMode: "polling", webhook, webhookUrl, now });

  it("is running only when Telegram answered lately and after the last failure", () => {
    expect(decide(runner()).state).toBe("running");
    expect(decide(runner({ telegramAnsweredAt: minutesAgo(3) })).state).toBe("error");
    expect(decide(runner({ telegramAnsweredAt: null })).lastError).toBe("Telegram has not answered lately.");
    const failedAfter = decide(runner({ telegramAnsweredAt: minutesAgo(1), lastError: "boom", lastErrorAt: now }));
    expect(failedAfter).toMatchObject({ state: "error", lastError: "boom", lastErrorAt: now.toISOString() });
    const answeredAfter = decide(runner({ lastError: "boom", lastErrorAt: minutesAgo(1) }));
    expect(answeredAfter).toMatchObject({ state: "running", lastError: "boom" });
    expect(decide(runner({ error: "401: Unauthorized" }))).toMatchObject({ state: "error", lastError: "The bot could not start: 401: Unauthorized" });
  });

  it("is stopped, with the runner's reason, when the bot is off", () => {
    expect(decide({ mode: "off", reason: "No bot token is configured." })).toMatchObject({ state: "stopped", reason: "No bot token is configured.", username: null });
  });

  it("in webhook mode, is an error when the webhook is another URL, or deliveries fail with updates waiting", () => {
    const url = "https://shop.example/api/telegram/webhook";
    const hook = { url, pendingUpdateCount: 0, lastErrorDate: null, lastErrorMessage: null };
    const webhookRunner = runner({ mode: "webhook" });
    expect(decide(webhookRunner, hook, url).state).toBe("running");
    expect(decide(webhookRunner, { ...hook, url: "" }, url).lastError).toBe("Telegram has no webhook for this bot, so no updates arrive. Register the webhook again.");
    const failing = { ...hook, pendingUpdateCount: 2, lastErrorDate: minutesAgo(1).toISOString(), lastErrorMessage: "Wrong response from the webhook: 502 Bad Gateway" };
    expect(decide(webhookRunner, failing, url).state).toBe("error");
    // An update handled since the delivery error: deliveries work again.
    expect(decide(runner({ mode: "webhook", lastUpdateAt: now }), failing, url).state).toBe("running");
  });

  it("never keeps a token from an error's URL", () => {
    expect(withoutToken("request to http://127.0.0.1:9/bot123:ABC-def/getMe failed")).toBe("request to http://127.0.0.1:9/bot<token>/getMe failed");
  });
});
