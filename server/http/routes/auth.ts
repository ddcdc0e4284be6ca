import { AuthStatusSchema, LoginInputSchema, SuccessSchema } from "../../../contract";
import { checkAdminPassword } from "../../auth/admin";
import { createLoginThrottle } from "../../auth/login-throttle";
import { createSession, deleteSession, SESSION_ABSOLUTE_MS } from "../../auth/sessions";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { ERROR_ANSWERS } from "../openapi";
import { hasAdminSession, PUBLIC, SESSION_COOKIE } from "../security";

const done = { 200: SuccessSchema, ...ERROR_ANSWERS };
// Not logged in answers 401 with { authenticated: false } (SPEC §7 reads it as null).
const status = { 200: AuthStatusSchema, 401: AuthStatusSchema, ...ERROR_ANSWERS };

export const authRoutes: Routes = (app, deps) => {
  const throttle = createLoginThrottle(deps.db, deps.now);
  const secureCookie = deps.config.publicUrl?.startsWith("https://") ?? false;

  app.post("/api/auth/login", { ...PUBLIC, schema: { body: LoginInputSchema, response: done } }, async (request, reply) => {
    // request.ip is the socket's address unless TRUST_PROXY names the proxy in front (app.ts).
    const verdict = await throttle.begin(request.ip);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      const who = verdict.scope === "global" ? "Too many failed logins on this shop" : "Too many failed attempts";
      throw new HttpError(429, `${who}. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`, {
        "Retry-After": String(verdict.retryAfterSeconds),
      });
    }
    if (!(await checkAdminPassword(deps.db, request.body.password))) {
      throw new HttpError(401, "Invalid password");
    }
    await throttle.succeeded(request.ip);
    // A fresh session id at every login; any old cookie is replaced.
    const old = request.cookies[SESSION_COOKIE];
    if (old) await deleteSession(deps.db, old);
    const token = await createSession(deps.db, deps.now());
    reply.setCookie(SESSION_COOKIE, token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookie || request.protocol === "https",
      maxAge: SESSION_ABSOLUTE_MS / 1000,
    });
    return { success: true as const };
  });

  app.get("/api/auth/status", { ...PUBLIC, schema: { response: status } }, async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    if (!(await hasAdminSession(request, deps))) return reply.code(401).send({ authenticated: false });
    return { authenticated: true };
  });

  app.post("/api/auth/logout", { ...PUBLIC, schema: { response: done } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(deps.db, token);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { success: true as const };
  });
};
