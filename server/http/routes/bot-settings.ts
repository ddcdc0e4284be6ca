import { BotSettingsInputSchema, BotSettingsSchema, IdParamsSchema, TOKEN_REFUSED_MESSAGE, TokenCheckSchema, type SecretSettingsField, type TokenCheck } from "../../../contract";
import { invalid } from "../../shop/common";
import { maskSecrets, unmaskSecrets, createBotSettings, getBotSettings, updateBotSettings } from "../../shop/settings";
import { checkBotToken } from "../../telegram/bot-health";
import type { AppDeps, Routes } from "../deps";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { ERROR_ANSWERS } from "../openapi";
import { may, requireFreshTwoFactor, requirePermission } from "../security";

/** Lets the bot rebuild with the new settings; its failure is logged, the save still stands. */
async function settingsSaved(deps: AppDeps, log: FastifyBaseLogger) {
  try {
    await deps.bot?.settingsSaved();
  } catch (error) {
    log.error({ err: error }, "applying the saved bot settings failed");
  }
}

/**
 * Asks Telegram about the token before saving (bot-health.ts checkBotToken). A refused token is
 * not saved: a 400 on the botToken field. A server without a bot (deps.bot absent: tests of other
 * things) calls Telegram for nothing, as it neither answers webhooks nor rebuilds a bot. Nor does a
 * save that keeps the stored token (the form sends its mask back): only a new token is checked.
 */
async function checkToken(deps: AppDeps, token: string, storedToken: string | undefined, log: FastifyBaseLogger): Promise<TokenCheck> {
  if (!deps.bot || token === storedToken) return { outcome: "not-checked", botUsername: null, warning: null };
  const check = await checkBotToken(deps.config.telegramApiRoot, token);
  if (check.outcome === "refused") {
    log.warn({ telegram: check.description }, "bot settings: Telegram refused the token");
    throw invalid(TOKEN_REFUSED_MESSAGE);
  }
  if (check.outcome === "unreachable") log.warn({ warning: check.warning }, "bot settings: saved without checking the token");
  return check;
}

type SecretValues = { [field in SecretSettingsField]: string | null | undefined };

/**
 * Bot Settings is the "bot" permission's, but its secrets are not (contract/team.ts): replacing or
 * clearing the bot token needs "bot.token", the NOWPayments API key or IPN secret "payments", and
 * either needs a fresh two-factor code when the account has two-factor on. Compared after the masks
 * are turned back into what they stand for, so a manager saving the form with the masks as they came
 * (the welcome message, the FAQ) changes no secret and is not refused. Checked before Telegram is
 * asked about a token and before anything is stored.
 */
function guardSecretChanges(request: FastifyRequest, deps: AppDeps, values: SecretValues, stored: SecretValues | null) {
  const changed = (field: keyof SecretValues) => (values[field] || null) !== (stored?.[field] || null);
  const tokenChanged = changed("botToken");
  const paymentKeysChanged = changed("nowpaymentsApiKey") || changed("nowpaymentsIpnSecret");
  if (tokenChanged) requirePermission(request, "bot.token");
  if (paymentKeysChanged) requirePermission(request, "payments");
  if (tokenChanged || paymentKeysChanged) requireFreshTwoFactor(request, deps.now());
}

// The settings saved, and what Telegram said of the token.
const SavedSettingsSchema = BotSettingsSchema.extend({ tokenCheck: TokenCheckSchema });

// null until the settings are first saved.
const current = { 200: BotSettingsSchema.nullable(), ...ERROR_ANSWERS };
const created = { 201: SavedSettingsSchema, ...ERROR_ANSWERS };
const saved = { 200: SavedSettingsSchema, ...ERROR_ANSWERS };

export const botSettingsRoutes: Routes = (app, deps) => {
  // Secrets are answered masked, even to the admin (docs/SECURITY.md): a stolen session or a
  // screen left open does not hand out the bot token or the gateway keys.
  app.get("/api/bot-settings", { ...may("bot"), schema: { response: current } }, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    const settings = await getBotSettings(deps.db, deps.secrets);
    return reply.send(settings && maskSecrets(settings));
  });

  app.post("/api/bot-settings", { ...may("bot"), schema: { body: BotSettingsInputSchema, response: created } }, async (request, reply) => {
    const stored = await getBotSettings(deps.db, deps.secrets);
    const values = unmaskSecrets(request.body, stored);
    guardSecretChanges(request, deps, values, stored);
    const tokenCheck = await checkToken(deps, values.botToken, stored?.botToken, request.log);
    const saved = await createBotSettings(deps.db, deps.secrets, values);
    await settingsSaved(deps, request.log);
    return reply.code(201).send({ ...maskSecrets(saved), tokenCheck });
  });

  app.put(
    "/api/bot-settings/:id",
    { ...may("bot"), schema: { params: IdParamsSchema, body: BotSettingsInputSchema, response: saved } },
    async (request) => {
      // There is one settings record: it is the one a masked secret stands for.
      const stored = await getBotSettings(deps.db, deps.secrets);
      const values = unmaskSecrets(request.body, stored);
      guardSecretChanges(request, deps, values, stored);
      const tokenCheck = await checkToken(deps, values.botToken, stored?.botToken, request.log);
      const saved = await updateBotSettings(deps.db, deps.secrets, request.params.id, values);
      await settingsSaved(deps, request.log);
      return { ...maskSecrets(saved), tokenCheck };
    },
  );
};
