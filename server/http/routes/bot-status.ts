import { BotStatusSchema, WebhookAddressesSchema, WebhookRegisteredSchema } from "../../../contract";
import { conflict } from "../../shop/common";
import { decideBotStatus } from "../../telegram/bot-health";
import { PAYMENT_WEBHOOK_PATH } from "../../shop/ordering";
import { TELEGRAM_WEBHOOK_PATH, webhookUrlFor, type BotRuntime } from "../../telegram/runner";
import type { AppDeps, Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// The bot's health for Bot Preview and Bot Settings (issue 14, item 2): the "bot" permission
// (contract/team.ts). The runner and bot-health.ts decide; this only answers.

type BotHealthSource = Pick<BotRuntime, "health" | "registerWebhook">;

/**
 * AppDeps names only what the other routes need of the bot; the real runner (services.ts) has
 * health() too. A server without it (tests of other things) runs no bot: it says so and asks
 * Telegram nothing.
 */
function runnerOf(bot: AppDeps["bot"]): BotHealthSource | null {
  if (!bot || !("health" in bot) || !("registerWebhook" in bot)) return null;
  return typeof bot.health === "function" && typeof bot.registerWebhook === "function" ? (bot as BotHealthSource) : null;
}

const NO_BOT_REASON = "This server runs no Telegram bot.";

export const botStatusRoutes: Routes = (app, deps) => {
  // Bot Settings shows these, not addresses built from the browser's origin: behind a proxy or
  // on another host name the page's origin is not where Telegram and NOWPayments can call.
  app.get(
    "/api/webhook-addresses",
    {
      ...may("bot"),
      schema: {
        summary: "The Telegram and payment webhook addresses built from PUBLIC_URL (null without PUBLIC_URL)",
        response: { 200: WebhookAddressesSchema, ...ERROR_ANSWERS },
      },
    },
    async () => {
      const publicUrl = deps.config.publicUrl ?? null;
      return {
        publicUrl,
        telegramWebhookUrl: publicUrl && publicUrl + TELEGRAM_WEBHOOK_PATH,
        paymentsWebhookUrl: publicUrl && publicUrl + PAYMENT_WEBHOOK_PATH,
      };
    },
  );

  app.get(
    "/api/bot/status",
    {
      ...may("bot"),
      schema: {
        summary: "Whether the bot runs and Telegram answers: state, mode, webhook (getWebhookInfo), last update and last error",
        response: { 200: BotStatusSchema, ...ERROR_ANSWERS },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "no-store");
      const runner = runnerOf(deps.bot);
      if (runner) return runner.health();
      const webhookUrl = webhookUrlFor(deps.config.publicUrl);
      return decideBotStatus({
        runner: { mode: "off", reason: NO_BOT_REASON },
        configuredMode: webhookUrl ? "webhook" : "polling",
        webhook: null,
        webhookUrl: null,
        now: deps.now(),
      });
    },
  );

  app.post(
    "/api/bot/webhook",
    {
      ...may("bot"),
      schema: {
        summary: "Register the webhook with Telegram now (setWebhook with this server's PUBLIC_URL and secret, as start-up does)",
        response: { 200: WebhookRegisteredSchema, ...ERROR_ANSWERS },
      },
    },
    async () => {
      const runner = runnerOf(deps.bot);
      if (!runner) throw conflict(NO_BOT_REASON);
      const { url } = await runner.registerWebhook();
      return { ok: true as const, url };
    },
  );
};
