import { BotSettingsInputSchema, BotSettingsSchema, IdParamsSchema } from "../../../contract";
import { createBotSettings, getBotSettings, updateBotSettings } from "../../shop/settings";
import type { AppDeps, Routes } from "../deps";
import type { FastifyBaseLogger } from "fastify";
import { ERROR_ANSWERS } from "../openapi";

/** Lets the bot rebuild with the new settings; its failure is logged, the save still stands. */
async function settingsSaved(deps: AppDeps, log: FastifyBaseLogger) {
  try {
    await deps.bot?.settingsSaved();
  } catch (error) {
    log.error({ err: error }, "applying the saved bot settings failed");
  }
}

// null until the settings are first saved.
const current = { 200: BotSettingsSchema.nullable(), ...ERROR_ANSWERS };
const created = { 201: BotSettingsSchema, ...ERROR_ANSWERS };
const saved = { 200: BotSettingsSchema, ...ERROR_ANSWERS };

export const botSettingsRoutes: Routes = (app, deps) => {
  // Secrets come back decrypted: this is the logged-in admin's own form.
  app.get("/api/bot-settings", { schema: { response: current } }, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    return reply.send(await getBotSettings(deps.db, deps.secrets));
  });

  app.post("/api/bot-settings", { schema: { body: BotSettingsInputSchema, response: created } }, async (request, reply) => {
    const saved = await createBotSettings(deps.db, deps.secrets, request.body);
    await settingsSaved(deps, request.log);
    return reply.code(201).send(saved);
  });

  app.put(
    "/api/bot-settings/:id",
    { schema: { params: IdParamsSchema, body: BotSettingsInputSchema, response: saved } },
    async (request) => {
      const saved = await updateBotSettings(deps.db, deps.secrets, request.params.id, request.body);
      await settingsSaved(deps, request.log);
      return saved;
    },
  );
};
