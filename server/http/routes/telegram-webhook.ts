import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Update } from "grammy/types";
import { TelegramWebhookAnswerSchema } from "../../../contract";
import { previewUpdate } from "../../telegram/preview";
import { TELEGRAM_WEBHOOK_PATH } from "../../telegram/runner";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { documentedOnly, ERROR_ANSWERS } from "../openapi";
import { isCrossSite, requirePermission, signedInSession, WEBHOOK } from "../security";

// Telegram's webhook (docs/product.md rule 9). Open to anyone (WEBHOOK); the check is here: Telegram's
// secret token header, or a signed-in account whose role has "bot" (the Bot Preview tester, which
// gets back what the bot would have sent instead of it going to Telegram; contract/team.ts).

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function asUpdate(body: unknown, { requireId }: { requireId: boolean }): Update {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpError(400, "Update must be a JSON object (a Telegram update).");
  }
  const update = body as Record<string, unknown>;
  if (update.update_id === undefined && !requireId) return { ...update, update_id: 0 } as Update;
  if (typeof update.update_id !== "number" || !Number.isInteger(update.update_id)) {
    throw new HttpError(400, "Update ID must be a whole number.");
  }
  return update as unknown as Update;
}

export const telegramWebhookRoutes: Routes = (app, deps) => {
  const fromTelegram = new WeakSet<FastifyRequest>();

  app.post(
    TELEGRAM_WEBHOOK_PATH,
    {
      ...WEBHOOK,
      schema: {
        // For the document only: the secret is checked before the body is read, the body by asUpdate.
        headers: documentedOnly({
          type: "object",
          properties: {
            [SECRET_HEADER]: {
              type: "string",
              description: "The secret token set with setWebhook; without it, the admin's session (Bot Preview)",
            },
          },
        }),
        body: documentedOnly({
          type: "object",
          description:
            "A Telegram Update (https://core.telegram.org/bots/api#update); the Bot Preview tester may leave out update_id",
          properties: { update_id: { type: "integer" } },
        }),
        response: { 200: TelegramWebhookAnswerSchema, ...ERROR_ANSWERS },
      },
      // Checked before the body is read: an unauthorised caller learns nothing, whatever it sends.
      onRequest: async (request) => {
        const given = request.headers[SECRET_HEADER];
        if (given !== undefined) {
          const expected = deps.bot?.webhookSecret();
          if (typeof given === "string" && expected && sameSecret(given, expected)) {
            fromTelegram.add(request);
            return;
          }
          request.log.warn("Telegram webhook call with a wrong secret token refused");
          throw new HttpError(401, "Invalid Telegram secret token.");
        }
        const signedIn = await signedInSession(request, deps);
        if (signedIn) {
          // The tester posts with the admin's cookie; a page on another site must not be able to.
          if (isCrossSite(request, deps.config.publicUrl)) throw new HttpError(403, "Cross-site requests are not allowed.");
          // It is Bot Preview's, like the simulator's routes: a packer's session does not drive the bot.
          request.signedIn = signedIn;
          requirePermission(request, "bot");
          return;
        }
        throw new HttpError(401, "Missing Telegram secret token.");
      },
    },
    async (request) => {
      if (fromTelegram.has(request)) {
        const update = asUpdate(request.body, { requireId: true });
        // Answered once stored in the inbox, before the bot handles it (telegram/inbox.ts): Telegram never
        // waits on the shop's own calls; an update Telegram sends twice is stored, and acts, once.
        const handled = (await deps.bot?.handleUpdate(update)) ?? false;
        if (!handled) throw new HttpError(503, "The Telegram bot is not running.");
        return { ok: true as const };
      }
      const update = asUpdate(request.body, { requireId: false });
      return previewUpdate(deps, update, { log: request.log, botInfo: deps.bot?.botInfo() });
    },
  );
};
