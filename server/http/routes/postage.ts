import { z } from "zod";
import {
  IdParamsSchema,
  PostageOptionInputSchema,
  PostageOptionPatchSchema,
  PostageOptionSchema,
  SuccessSchema,
} from "../../../contract";
import { createPostageOption, deletePostageOption, listPostageOptions, updatePostageOption } from "../../shop/catalogue";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

const list = { 200: z.array(PostageOptionSchema), ...ERROR_ANSWERS };
const created = { 201: PostageOptionSchema, ...ERROR_ANSWERS };
const saved = { 200: PostageOptionSchema, ...ERROR_ANSWERS };
const deleted = { 200: SuccessSchema, ...ERROR_ANSWERS };

export const postageRoutes: Routes = (app, deps) => {
  app.get("/api/postage-options", { ...may("catalogue"), schema: { response: list } }, () => listPostageOptions(deps.db));

  app.post("/api/postage-options", { ...may("catalogue"), schema: { body: PostageOptionInputSchema, response: created } }, async (request, reply) =>
    reply.code(201).send(await createPostageOption(deps.db, request.body)),
  );

  app.patch(
    "/api/postage-options/:id",
    { ...may("catalogue"), schema: { params: IdParamsSchema, body: PostageOptionPatchSchema, response: saved } },
    (request) => updatePostageOption(deps.db, request.params.id, request.body),
  );

  app.delete("/api/postage-options/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, response: deleted } }, async (request) => {
    await deletePostageOption(deps.db, request.params.id);
    return { success: true as const };
  });
};
