import { DashboardStatsSchema, RevenueQuerySchema, RevenueReportSchema, SetupChecklistSchema } from "../../../contract";
import { getRevenueReport, getDashboardStats, getSetupChecklist } from "../../shop/insights";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

export const statsRoutes: Routes = (app, deps) => {
  app.get("/api/dashboard/stats", { ...may("insights"), schema: { response: { 200: DashboardStatsSchema, ...ERROR_ANSWERS } } }, async () =>
    getDashboardStats(deps.db, deps.now(), deps.config.timeZone),
  );
  // The dashboard's chart, best sellers and orders by status (issue 13): ?days=30 (or 90), or ?months=12.
  app.get(
    "/api/dashboard/revenue",
    { ...may("insights"), schema: { querystring: RevenueQuerySchema, response: { 200: RevenueReportSchema, ...ERROR_ANSWERS } } },
    async (request) => getRevenueReport(deps.db, request.query, deps.now(), deps.config.timeZone),
  );
  // A new shop's setup checklist and whether customers can pay (issue 22, item 8).
  app.get(
    "/api/dashboard/setup",
    {
      ...may("insights"),
      schema: {
        summary: "The setup checklist: bot token, payment gateway, a category, a product, postage, a test order; each done or not",
        response: { 200: SetupChecklistSchema, ...ERROR_ANSWERS },
      },
    },
    async (_request, reply) => {
      // Each step changes with writes on other screens (and the bot's orders): always asked afresh.
      reply.header("Cache-Control", "no-store");
      return getSetupChecklist(deps.db, deps.secrets);
    },
  );
};
