import { CategoryInputSchema, IdParamsSchema } from "../../../contract";
import { createCategory, deleteCategory, listCategories, updateCategory } from "../../shop/categories";
import type { Routes } from "../deps";

export const categoryRoutes: Routes = (app, deps) => {
  app.get("/api/categories", () => listCategories(deps.db));

  app.post("/api/categories", { schema: { body: CategoryInputSchema } }, async (request, reply) =>
    reply.code(201).send(await createCategory(deps.db, request.body)),
  );

  app.put("/api/categories/:id", { schema: { params: IdParamsSchema, body: CategoryInputSchema } }, (request) =>
    updateCategory(deps.db, request.params.id, request.body),
  );

  app.delete("/api/categories/:id", { schema: { params: IdParamsSchema } }, async (request) => {
    await deleteCategory(deps.db, request.params.id);
    return { success: true };
  });
};
