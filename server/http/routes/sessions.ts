import { EndedSessionsSchema, IdParamsSchema, SessionListQuerySchema, SessionListSchema, SuccessSchema } from "../../../contract";
import { endOtherSessions, endSession, listSessions } from "../../shop/team";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { accountCan, may, requirePermission } from "../security";

// Where an account is signed in (issue 25): every role sees and ends its own sessions ("account");
// the owner ("staff") also another account's, by ?accountId= and by the session's id. A session
// another account cannot see answers 404, as if there were none.

const list = { 200: SessionListSchema, ...ERROR_ANSWERS };
const done = { 200: SuccessSchema, ...ERROR_ANSWERS };
const ended = { 200: EndedSessionsSchema, ...ERROR_ANSWERS };

export const sessionRoutes: Routes = (app, deps) => {
  app.get("/api/sessions", { ...may("account"), schema: { querystring: SessionListQuerySchema, response: list } }, (request) => {
    const { account, session } = request.signedIn!;
    const accountId = request.query.accountId ?? account.id;
    if (accountId !== account.id) requirePermission(request, "staff");
    return listSessions(deps.db, accountId, { sessionId: session.id }, deps.now());
  });

  app.delete("/api/sessions/:id", { ...may("account"), schema: { params: IdParamsSchema, response: done } }, async (request) => {
    const { account, session } = request.signedIn!;
    await endSession(deps.db, request.params.id, { accountId: account.id, sessionId: session.id, mayManageStaff: accountCan(request, "staff") });
    return { success: true as const };
  });

  // Every session of this account but the one asking: "sign out everywhere else".
  app.delete("/api/sessions", { ...may("account"), schema: { response: ended } }, async (request) => {
    const { account, session } = request.signedIn!;
    return { ended: await endOtherSessions(deps.db, { accountId: account.id, sessionId: session.id }) };
  });
};
