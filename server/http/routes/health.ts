import { sql } from "drizzle-orm";
import type { Routes } from "../deps";
import { PUBLIC } from "../security";

export const healthRoutes: Routes = (app, deps) => {
  app.get("/api/health", PUBLIC, async (_request, reply) => {
    try {
      await deps.db.execute(sql`select 1`);
      return { status: "ok" };
    } catch {
      return reply.code(503).send({ error: "The database is not answering." });
    }
  });
};
