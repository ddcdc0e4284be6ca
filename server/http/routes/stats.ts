import { getDashboardStats } from "../../shop/stats";
import type { Routes } from "../deps";

export const statsRoutes: Routes = (app, deps) => {
  app.get("/api/dashboard/stats", async () => getDashboardStats(deps.db, deps.now(), deps.config.timeZone));
};
