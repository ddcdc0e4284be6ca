import { LoginInputSchema } from "../../../contract";
import { checkAdminPassword } from "../../auth/admin";
import { createSession, deleteSession, SESSION_ABSOLUTE_MS } from "../../auth/sessions";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { hasAdminSession, SESSION_COOKIE } from "../security";

const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Failed logins per client address, kept in memory: enough for one admin and one process. */
export function createLoginThrottle(now: () => Date) {
  const failures = new Map<string, number[]>();
  const recent = (client: string) => {
    const since = now().getTime() - FAILURE_WINDOW_MS;
    const list = (failures.get(client) ?? []).filter((t) => t > since);
    if (list.length) failures.set(client, list);
    else failures.delete(client);
    return list;
  };
  return {
    /** Seconds to wait before the next try, or 0 when a try is allowed. */
    retryAfterSeconds(client: string): number {
      const list = recent(client);
      if (list.length < MAX_FAILURES) return 0;
      return Math.max(1, Math.ceil((list[0]! + FAILURE_WINDOW_MS - now().getTime()) / 1000));
    },
    fail(client: string) {
      failures.set(client, [...recent(client), now().getTime()]);
    },
    succeed(client: string) {
      failures.delete(client);
    },
  };
}

export const authRoutes: Routes = (app, deps) => {
  const throttle = createLoginThrottle(deps.now);
  const secureCookie = deps.config.publicUrl?.startsWith("https://") ?? false;

  app.post("/api/auth/login", { schema: { body: LoginInputSchema } }, async (request, reply) => {
    const client = request.ip;
    const wait = throttle.retryAfterSeconds(client);
    if (wait > 0) {
      throw new HttpError(429, `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`, {
        "Retry-After": String(wait),
      });
    }
    if (!(await checkAdminPassword(deps.db, request.body.password))) {
      throttle.fail(client);
      throw new HttpError(401, "Invalid password");
    }
    throttle.succeed(client);
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
    return { success: true };
  });

  app.get("/api/auth/status", async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    if (!(await hasAdminSession(request, deps))) return reply.code(401).send({ authenticated: false });
    return { authenticated: true };
  });

  app.post("/api/auth/logout", async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(deps.db, token);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { success: true };
  });
};
