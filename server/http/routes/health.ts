import { sql } from "drizzle-orm";
import { HealthSchema } from "../../../contract";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { PUBLIC } from "../security";

const answers = { 200: HealthSchema, ...ERROR_ANSWERS };

export const healthRoutes: Routes = (app, deps) => {
  app.get("/api/health", { ...PUBLIC, schema: { response: answers } }, async (_request, reply) => {
    try {
      await deps.db.execute(sql`select 1`);
      return { status: "ok" as const };
    } catch {
      return reply.code(503).send({ error: "The database is not answering." });
    }
  });
};
