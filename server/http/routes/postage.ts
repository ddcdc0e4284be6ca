import { IdParamsSchema, PostageOptionInputSchema, PostageOptionPatchSchema } from "../../../contract";
import { createPostageOption, deletePostageOption, listPostageOptions, updatePostageOption } from "../../shop/postage";
import type { Routes } from "../deps";

export const postageRoutes: Routes = (app, deps) => {
  app.get("/api/postage-options", () => listPostageOptions(deps.db));

  app.post("/api/postage-options", { schema: { body: PostageOptionInputSchema } }, async (request, reply) =>
    reply.code(201).send(await createPostageOption(deps.db, request.body)),
  );

  app.patch(
    "/api/postage-options/:id",
    { schema: { params: IdParamsSchema, body: PostageOptionPatchSchema } },
    (request) => updatePostageOption(deps.db, request.params.id, request.body),
  );

  app.delete("/api/postage-options/:id", { schema: { params: IdParamsSchema } }, async (request) => {
    await deletePostageOption(deps.db, request.params.id);
    return { success: true };
  });
};
