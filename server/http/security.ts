import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { validateSession } from "../auth/sessions";
import type { AppDeps } from "./deps";
import { HttpError } from "./errors";

export const SESSION_COOKIE = "sid";

/**
 * Who may call a route (docs/product.md rule 9), declared in the route's own options:
 * `app.get(path, { config: { access: "public" } }, handler)`.
 * - "admin" (the default, also when nothing is declared): a valid admin session.
 * - "public": anyone; the route does its own checking where it needs any (login, webhooks).
 * - "webhook": anyone, and writes from another site are allowed too (Telegram and NOWPayments are
 *   not browsers; their secret token or signature is the check).
 */
export type RouteAccess = "admin" | "public" | "webhook";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

export const PUBLIC: { config: { access: RouteAccess } } = { config: { access: "public" } };
export const WEBHOOK: { config: { access: RouteAccess } } = { config: { access: "webhook" } };

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function hasAdminSession(request: FastifyRequest, deps: Pick<AppDeps, "db" | "now">): Promise<boolean> {
  const token = request.cookies[SESSION_COOKIE];
  return typeof token === "string" && token.length > 0 && token.length <= 256
    ? validateSession(deps.db, token, deps.now())
    : false;
}

/**
 * A request made by a page of another site (a form or fetch there, carrying the admin's cookie).
 * Browsers say so in Sec-Fetch-Site; older ones send Origin, compared (scheme and host) with
 * PUBLIC_URL when set, else with the Host the request was sent to.
 */
export function isCrossSite(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const fetchSite = request.headers["sec-fetch-site"];
  if (typeof fetchSite === "string") return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = request.headers.origin;
  if (origin === undefined) return false; // curl, server-to-server callers: no browser, no ambient cookies at risk
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return true; // "null" (sandboxed frames, file://) and anything unreadable
  }
  if (publicUrl) {
    const own = new URL(publicUrl);
    return from.protocol !== own.protocol || from.host !== own.host;
  }
  return from.host !== request.headers.host || from.protocol !== `${request.protocol}:`;
}

/**
 * One hook decides access for every request on the route Fastify matched, never on the URL text,
 * so no spelling of a path (%61pi, //api, /./api, an absolute-form target) reaches a handler the
 * route did not open. A route that declares nothing needs the admin. Unmatched requests go on to
 * the JSON 404.
 */
export type RegisteredRoute = { method: string; url: string; access: RouteAccess };
const routeTables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered on the app with the access it declared: the access tests are generated from it. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return routeTables.get(app) ?? [];
}

export function registerSecurity(app: FastifyInstance, deps: AppDeps) {
  const table: RegisteredRoute[] = [];
  routeTables.set(app, table);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) table.push({ method, url: route.url ?? route.path, access: route.config?.access ?? "admin" });
  });
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return;
    const access: RouteAccess = request.routeOptions.config.access ?? "admin";
    if (access !== "webhook" && !SAFE_METHODS.has(request.method) && isCrossSite(request, deps.config.publicUrl)) {
      throw new HttpError(403, "Cross-site requests are not allowed.");
    }
    if (access !== "admin") return;
    if (!(await hasAdminSession(request, deps))) {
      reply.header("Cache-Control", "no-store");
      throw new HttpError(401, "Not logged in.");
    }
    // The admin's answers hold customers' data: never kept by a shared cache, and a browser's copy is
    // checked with the server each time (its ETag then saves sending the same list again).
    reply.header("Cache-Control", "private, no-cache");
  });
}
