import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { validateSession } from "../auth/sessions";
import type { AppDeps } from "./deps";
import { HttpError } from "./errors";

export const SESSION_COOKIE = "sid";

/** Calls that need no session; each does its own checking where it needs any. */
const PUBLIC_API = new Set([
  "POST /api/auth/login",
  "GET /api/auth/status",
  "POST /api/auth/logout",
  "GET /api/health",
  "POST /api/telegram/webhook",
  "POST /api/payments/webhook",
]);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function hasAdminSession(request: FastifyRequest, deps: AppDeps): Promise<boolean> {
  const token = request.cookies[SESSION_COOKIE];
  return token ? validateSession(deps.db, token, deps.now()) : false;
}

/** A write from another site (a form or fetch on some other page) is refused (DESIGN decision 9). */
export function isCrossSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers["sec-fetch-site"];
  if (typeof fetchSite === "string") return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = request.headers.origin;
  if (!origin) return false; // curl, server-to-server callers: no browser, no ambient cookies at risk
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

export function registerSecurity(app: FastifyInstance, deps: AppDeps) {
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0]!;
    if (!path.startsWith("/api/")) return;
    const route = `${request.method} ${path}`;
    const isWebhook = path === "/api/telegram/webhook" || path === "/api/payments/webhook";
    if (!SAFE_METHODS.has(request.method) && !isWebhook && isCrossSite(request)) {
      throw new HttpError(403, "Cross-site requests are not allowed.");
    }
    if (PUBLIC_API.has(route)) return;
    if (!(await hasAdminSession(request, deps))) {
      reply.header("Cache-Control", "no-store");
      throw new HttpError(401, "Not logged in.");
    }
  });
}
