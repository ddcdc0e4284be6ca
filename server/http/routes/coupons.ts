import { CouponInputSchema, CouponListSchema, CouponPatchSchema, CouponSchema, IdParamsSchema, SuccessSchema } from "../../../contract";
import { createCoupon, deleteCoupon, listCoupons, updateCoupon } from "../../shop/ordering";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// The owner's coupons (issue 23): the "catalogue" permission (contract/team.ts), audited by the audit log's hook
// (server/http/audit.ts), live through the coupons table's change notice (drizzle/0022).

const list = { 200: CouponListSchema, ...ERROR_ANSWERS };
const created = { 201: CouponSchema, ...ERROR_ANSWERS };
const saved = { 200: CouponSchema, ...ERROR_ANSWERS };
const deleted = { 200: SuccessSchema, ...ERROR_ANSWERS };

export const couponRoutes: Routes = (app, deps) => {
  app.get("/api/coupons", { ...may("catalogue"), schema: { response: list } }, () => listCoupons(deps.db, deps.now()));

  app.post("/api/coupons", { ...may("catalogue"), schema: { body: CouponInputSchema, response: created } }, async (request, reply) =>
    reply.code(201).send(await createCoupon(deps.db, request.body, deps.now())),
  );

  app.patch("/api/coupons/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, body: CouponPatchSchema, response: saved } }, (request) =>
    updateCoupon(deps.db, request.params.id, request.body, deps.now()),
  );

  app.delete("/api/coupons/:id", { ...may("catalogue"), schema: { params: IdParamsSchema, response: deleted } }, async (request) => {
    await deleteCoupon(deps.db, request.params.id);
    return { success: true as const };
  });
};
