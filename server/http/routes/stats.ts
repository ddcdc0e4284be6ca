import { DashboardStatsSchema } from "../../../contract";
import { getDashboardStats } from "../../shop/stats";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";

export const statsRoutes: Routes = (app, deps) => {
  app.get("/api/dashboard/stats", { schema: { response: { 200: DashboardStatsSchema, ...ERROR_ANSWERS } } }, async () =>
    getDashboardStats(deps.db, deps.now(), deps.config.timeZone),
  );
};
