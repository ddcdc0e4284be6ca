import { IdParamsSchema, ProductInputSchema } from "../../../contract";
import { createProduct, deleteProduct, listProducts, updateProduct } from "../../shop/products";
import type { Routes } from "../deps";

export const productRoutes: Routes = (app, deps) => {
  app.get("/api/products", () => listProducts(deps.db));

  app.post("/api/products", { schema: { body: ProductInputSchema } }, async (request, reply) =>
    reply.code(201).send(await createProduct(deps.db, request.body)),
  );

  app.put("/api/products/:id", { schema: { params: IdParamsSchema, body: ProductInputSchema } }, (request) =>
    updateProduct(deps.db, request.params.id, request.body),
  );

  app.delete("/api/products/:id", { schema: { params: IdParamsSchema } }, async (request) => {
    await deleteProduct(deps.db, request.params.id);
    return { success: true };
  });
};
