import { DashboardStatsSchema, RevenueQuerySchema, RevenueReportSchema } from "../../../contract";
import { getRevenueReport, getDashboardStats } from "../../shop/insights";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";

export const statsRoutes: Routes = (app, deps) => {
  app.get("/api/dashboard/stats", { schema: { response: { 200: DashboardStatsSchema, ...ERROR_ANSWERS } } }, async () =>
    getDashboardStats(deps.db, deps.now(), deps.config.timeZone),
  );
  // The dashboard's chart, best sellers and orders by status (issue 13): ?days=30 (or 90), or ?months=12.
  app.get(
    "/api/dashboard/revenue",
    { schema: { querystring: RevenueQuerySchema, response: { 200: RevenueReportSchema, ...ERROR_ANSWERS } } },
    async (request) => getRevenueReport(deps.db, request.query, deps.now(), deps.config.timeZone),
  );
};
