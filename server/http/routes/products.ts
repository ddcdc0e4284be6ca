import { z } from "zod";
import { IdParamsSchema, ProductInputSchema, ProductSchema, SuccessSchema } from "../../../contract";
import { createProduct, deleteProduct, listProducts, updateProduct } from "../../shop/products";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";

const list = { 200: z.array(ProductSchema), ...ERROR_ANSWERS };
const created = { 201: ProductSchema, ...ERROR_ANSWERS };
const saved = { 200: ProductSchema, ...ERROR_ANSWERS };
const deleted = { 200: SuccessSchema, ...ERROR_ANSWERS };

export const productRoutes: Routes = (app, deps) => {
  app.get("/api/products", { schema: { response: list } }, () => listProducts(deps.db));

  app.post("/api/products", { schema: { body: ProductInputSchema, response: created } }, async (request, reply) =>
    reply.code(201).send(await createProduct(deps.db, request.body)),
  );

  app.put("/api/products/:id", { schema: { params: IdParamsSchema, body: ProductInputSchema, response: saved } }, (request) =>
    updateProduct(deps.db, request.params.id, request.body),
  );

  app.delete("/api/products/:id", { schema: { params: IdParamsSchema, response: deleted } }, async (request) => {
    await deleteProduct(deps.db, request.params.id);
    return { success: true as const };
  });
};
