import { AuditEntrySchema, AuditLogQuerySchema } from "../../../contract";
import { listAuditLog } from "../../shop/common";
import type { Routes } from "../deps";
import { ERROR_ANSWERS, pagedList } from "../openapi";
import { may } from "../security";
import { sendPage } from "../paging";

// GET /api/audit-log (issue 13, item 6): what the admin did, newest first, a page at a time; with
// targetType and targetId, one thing's history (the order details dialog asks for its order's).

export const auditLogRoutes: Routes = (app, deps) => {
  app.get(
    "/api/audit-log",
    { ...may("insights"), schema: { querystring: AuditLogQuerySchema, response: { 200: pagedList(AuditEntrySchema), ...ERROR_ANSWERS } } },
    async (request, reply) => sendPage(request, reply, await listAuditLog(deps.db, request.query)),
  );
};
