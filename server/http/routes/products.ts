import { IdParamsSchema, ProductInputSchema, ProductVariantsInputSchema, ProductListQuerySchema, ProductSchema, SuccessSchema } from "../../../contract";
import { listProductPage, listProductsMatching, createProduct, deleteProduct, getProduct, replaceVariants, updateProduct } from "../../shop/catalogue";
import type { Routes } from "../deps";
import { sendSerialized, serializeJson } from "../cached-json";
import { isPaged, sendPage } from "../paging";
import { ERROR_ANSWERS, pagedList } from "../openapi";
import { may } from "../security";

const list = { 200: pagedList(ProductSchema), ...ERROR_ANSWERS };
const allProducts = ProductSchema.array();
const created = { 201: ProductSchema, ...ERROR_ANSWERS };
const saved = { 200: ProductSchema, ...ERROR_ANSWERS };
const deleted = { 200: SuccessSchema, ...ERROR_ANSWERS };

export const productRoutes: Routes = (app, deps) => {
  app.get("/api/products", { ...may("catalogue"), schema: { querystring: ProductListQuerySchema, response: list } }, async (request, reply) => {
    const { query } = request;
    if (isPaged(query)) return sendPage(request, reply, await listProductPage(deps.db, query));
    if (query.q !== undefined || query.categoryId !== undefined || query.status !== undefined) return listProductsMatching(deps.db, query);
    // The whole catalogue (docs/product.md §7's call): serialized once per change to the products (issue 12).
    const answer = await deps.cache.read(`admin:products:${query.sort}`, ["products"], async () =>
      serializeJson(allProducts, await listProductsMatching(deps.db, query)),
    );
    return sendSerialized(reply, answer);
  });

  app.get("/api/products/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, response: saved } }, (request) => getProduct(deps.db, request.params.id));

  app.post("/api/products", { ...may("catalogue"), schema: { body: ProductInputSchema, response: created } }, async (request, reply) =>
    reply.code(201).send(await createProduct(deps.db, request.body)),
  );

  app.put("/api/products/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, body: ProductInputSchema, response: saved } }, (request) =>
    updateProduct(deps.db, request.params.id, request.body),
  );

  // Issue 23: the options and variants as one set, replaced in one transaction (docs/decisions/0034-product-variants.md).
  app.put(
    "/api/products/:id/variants",
    { ...may("catalogue"), schema: { params: IdParamsSchema, body: ProductVariantsInputSchema, response: saved } },
    (request) => replaceVariants(deps.db, request.params.id, request.body, new Date()),
  );

  app.delete("/api/products/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, response: deleted } }, async (request) => {
    await deleteProduct(deps.db, request.params.id);
    return { success: true as const };
  });
};
