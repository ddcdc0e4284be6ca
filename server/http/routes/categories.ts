import { z } from "zod";
import { CategoryInputSchema, CategorySchema, IdParamsSchema, SuccessSchema } from "../../../contract";
import { createCategory, deleteCategory, listCategories, updateCategory } from "../../shop/catalogue";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

const list = { 200: z.array(CategorySchema), ...ERROR_ANSWERS };
const created = { 201: CategorySchema, ...ERROR_ANSWERS };
const saved = { 200: CategorySchema, ...ERROR_ANSWERS };
const deleted = { 200: SuccessSchema, ...ERROR_ANSWERS };

export const categoryRoutes: Routes = (app, deps) => {
  app.get("/api/categories", { ...may("catalogue"), schema: { response: list } }, () => listCategories(deps.db));

  app.post("/api/categories", { ...may("catalogue"), schema: { body: CategoryInputSchema, response: created } }, async (request, reply) =>
    reply.code(201).send(await createCategory(deps.db, request.body)),
  );

  app.put("/api/categories/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, body: CategoryInputSchema, response: saved } }, (request) =>
    updateCategory(deps.db, request.params.id, request.body),
  );

  app.delete("/api/categories/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, response: deleted } }, async (request) => {
    await deleteCategory(deps.db, request.params.id);
    return { success: true as const };
  });
};
