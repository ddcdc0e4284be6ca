import { OwnerAlertsInputSchema, OwnerAlertsSchema, OwnerLinkCodeSchema } from "../../../contract";
import { getOwnerAlerts, issueLinkCode, setOwnerAlertKinds, unlinkOwnerChat } from "../../shop/customers";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// Owner alerts in Bot Settings (issue 14, item 5): which chat gets them, which kinds, the one-time
// link code. The "bot" permission (contract/team.ts): they are part of Bot Settings. The sending runs
// in the background (telegram/owner-alert-sender.ts), started and stopped with the server's other
// background jobs (server/jobs.ts).

export const ownerAlertRoutes: Routes = (app, deps) => {
  app.get(
    "/api/owner-alerts",
    { ...may("bot"), schema: { summary: "The owner alerts: the linked Telegram chat and the kinds switched on", response: { 200: OwnerAlertsSchema, ...ERROR_ANSWERS } } },
    async (_request, reply) => {
      reply.header("Cache-Control", "no-store");
      return getOwnerAlerts(deps.db);
    },
  );

  app.put(
    "/api/owner-alerts",
    {
      ...may("bot"),
      schema: {
        summary: "Switch kinds of owner alert on or off (a kind left out stays as it is)",
        body: OwnerAlertsInputSchema,
        response: { 200: OwnerAlertsSchema, ...ERROR_ANSWERS },
      },
    },
    async (request) => setOwnerAlertKinds(deps.db, request.body.kinds, deps.now()),
  );

  app.post(
    "/api/owner-alerts/link-code",
    {
      ...may("bot"),
      schema: {
        summary: "A one-time code (valid 15 minutes) to send to the bot as /link 123456, from the chat that should get the alerts",
        response: { 200: OwnerLinkCodeSchema, ...ERROR_ANSWERS },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "no-store");
      const { code, expiresAt } = await issueLinkCode(deps.db, deps.now());
      return { code, expiresAt: expiresAt.toISOString(), command: `/link ${code}`, botUsername: deps.bot?.botInfo()?.username ?? null };
    },
  );

  app.delete(
    "/api/owner-alerts/link",
    { ...may("bot"), schema: { summary: "Unlink the chat: no owner alert is sent until one is linked again", response: { 200: OwnerAlertsSchema, ...ERROR_ANSWERS } } },
    async () => unlinkOwnerChat(deps.db, deps.now()),
  );
};
