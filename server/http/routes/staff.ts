import type { FastifyRequest } from "fastify";
import {
  AcceptInviteInputSchema,
  IdParamsSchema,
  InviteGreetingSchema,
  InviteLinkSchema,
  InviteTokenParamsSchema,
  StaffInvitedSchema,
  StaffInviteInputSchema,
  StaffListSchema,
  StaffMemberSchema,
  StaffPatchSchema,
  SuccessSchema,
} from "../../../contract";
import { createLoginThrottle } from "../../auth/login-throttle";
import { acceptInvite, createStaff, deleteStaff, INVITE_GONE_MESSAGE, inviteGreeting, listStaff, renewInvite, updateStaff } from "../../shop/team";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { ERROR_ANSWERS } from "../openapi";
import { may, PUBLIC } from "../security";

// The owner's staff (issue 25): the list, inviting, a new invite link, role and disabling, deleting.
// No permission declared: the owner's alone (server/http/security.ts); every change needs a fresh
// two-factor code when the owner has two-factor on (`stepUp`). The invite link's two routes are public
// (the invitee has no account yet) and throttled by address like the login, so tokens cannot be
// tried fast; a link that names a real invite is not counted against its address.

const list = { 200: StaffListSchema, ...ERROR_ANSWERS };
const invited = { 201: StaffInvitedSchema, ...ERROR_ANSWERS };
const link = { 200: InviteLinkSchema, ...ERROR_ANSWERS };
const saved = { 200: StaffMemberSchema, ...ERROR_ANSWERS };
const done = { 200: SuccessSchema, ...ERROR_ANSWERS };
const greeting = { 200: InviteGreetingSchema, ...ERROR_ANSWERS };
const SENSITIVE = { config: { permission: "staff" as const, stepUp: true } };

export const staffRoutes: Routes = (app, deps) => {
  const throttle = createLoginThrottle(deps.db, deps.now);

  /** The link the owner sends: PUBLIC_URL when set, else the address the owner's browser used. */
  const inviteUrl = (request: FastifyRequest, token: string) =>
    `${deps.config.publicUrl ?? `${request.protocol}://${request.host}`}/invite/${encodeURIComponent(token)}`;

  /** Counts the attempt before the token is looked at (429 when the address has tried too often). */
  const beginInviteAttempt = async (request: FastifyRequest) => {
    const verdict = await throttle.begin(request.ip, null);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      throw new HttpError(429, `Too many attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`, {
        "Retry-After": String(verdict.retryAfterSeconds),
      });
    }
  };

  app.get("/api/staff", { ...may("staff"), schema: { response: list } }, () => listStaff(deps.db));

  app.post("/api/staff", { ...SENSITIVE, schema: { body: StaffInviteInputSchema, response: invited } }, async (request, reply) => {
    const { id, token } = await createStaff(deps.db, request.body, deps.now());
    return reply.code(201).send({ id, inviteUrl: inviteUrl(request, token) });
  });

  app.post("/api/staff/:id/invite", { ...SENSITIVE, schema: { params: IdParamsSchema, response: link } }, async (request) => {
    const { token } = await renewInvite(deps.db, request.params.id, deps.now());
    return { inviteUrl: inviteUrl(request, token) };
  });

  app.patch("/api/staff/:id", { ...SENSITIVE, schema: { params: IdParamsSchema, body: StaffPatchSchema, response: saved } }, async (request) => {
    const { member, addressGrantsRevoked } = await updateStaff(deps.db, request.params.id, request.body, deps.now());
    // The audit log says when a new role took the account's access to sealed addresses (server/http/audit.ts).
    request.auditAddressGrantsRevoked = addressGrantsRevoked;
    return member;
  });

  app.delete("/api/staff/:id", { ...SENSITIVE, schema: { params: IdParamsSchema, response: done } }, async (request) => {
    await deleteStaff(deps.db, request.params.id);
    return { success: true as const };
  });

  app.get("/api/staff/invites/:token", { ...PUBLIC, schema: { params: InviteTokenParamsSchema, response: greeting } }, async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    await beginInviteAttempt(request);
    const invitee = await inviteGreeting(deps.db, request.params.token, deps.now());
    if (!invitee) throw new HttpError(410, INVITE_GONE_MESSAGE);
    await throttle.notAGuess(request.ip);
    return invitee;
  });

  app.post("/api/staff/invites/:token", { ...PUBLIC, schema: { params: InviteTokenParamsSchema, body: AcceptInviteInputSchema, response: done } }, async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    await beginInviteAttempt(request);
    const { token } = request.params;
    if (!(await inviteGreeting(deps.db, token, deps.now()))) throw new HttpError(410, INVITE_GONE_MESSAGE);
    // A real invite: whatever the password policy says next, this was no guess.
    await throttle.notAGuess(request.ip);
    const result = await acceptInvite(deps.db, token, request.body.password, deps.now());
    // Another browser used the link between the look and the update: exactly one of them wins.
    if (!result.accepted) throw new HttpError(410, INVITE_GONE_MESSAGE);
    // The audit log names the account that set its password (server/http/audit.ts).
    request.auditAccount = result.account;
    return { success: true as const };
  });
};
