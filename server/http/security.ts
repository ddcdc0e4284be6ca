import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { missingPermissionMessage, type Permission, ROLE_LABELS, roleCan, type Role } from "../../contract/team";
import { validateSession, type ValidSession } from "../auth/sessions";
import { getTeamSettings } from "../shop/team";
import type { AppDeps } from "./deps";
import { HttpError } from "./errors";
import { storefrontAccess } from "./storefront-auth";
import type { SignInFailures, StorefrontBudget } from "./storefront-limits";

export const SESSION_COOKIE = "sid";

/**
 * Who may call a route (docs/product.md rule 9), declared in the route's own options:
 * `app.get(path, { config: { access: "public" } }, handler)`.
 * - "admin" (the default, also when nothing is declared): a signed-in account (issue 25) whose role
 *   has the route's `permission` (contract/team.ts). A route that declares no permission is the
 *   owner's alone: deny by default, for roles as for access.
 * - "public": anyone; the route does its own checking where it needs any (login, webhooks).
 * - "webhook": anyone, and writes from another site are allowed too (Telegram and NOWPayments are
 *   not browsers; their secret token or signature is the check).
 * - "storefront": a Telegram user of the shop's bot, by the init data Telegram signed for the Mini App
 *   (storefront-auth.ts; issue 27), and not blocked. No admin session; writes from another site are
 *   refused as for the admin (the Mini App is served from this origin). Each customer's calls, and
 *   each address's failed sign-ins, are limited (storefront-limits.ts).
 */
export type RouteAccess = "admin" | "public" | "webhook" | "storefront";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** What a signed-in account's role must allow (contract/team.ts); none declared: the owner only. */
    permission?: Permission;
    /**
     * A sensitive action (staff, the CSV export): an account with two-factor on must have proved a
     * code in the last STEP_UP_WINDOW_MS (POST /api/auth/step-up), else 403 `stepUpRequired`.
     */
    stepUp?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in session and its account, on "admin" routes (set by the access hook). */
    signedIn?: ValidSession;
  }
}

export const PUBLIC: { config: { access: RouteAccess } } = { config: { access: "public" } };
export const WEBHOOK: { config: { access: RouteAccess } } = { config: { access: "webhook" } };
/**
 * A storefront route, and the kind of call it is: each customer's calls of a kind are counted
 * against its budget (storefront-limits.ts). `{ ...storefront("orders"), schema }`.
 */
export const storefront = (budget: StorefrontBudget): { config: { access: RouteAccess; storefrontBudget: StorefrontBudget } } => ({
  config: { access: "storefront", storefrontBudget: budget },
});
/** A storefront route that only reads: the budget of reads. */
export const STOREFRONT = storefront("reads");

/** Route options naming the permission a route needs: `app.get(path, { ...may("catalogue"), schema }, handler)`. */
export const may = (permission: Permission): { config: { permission: Permission } } => ({ config: { permission } });

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The 403 of a staff account without two-factor when the owner requires it. */
export const TWO_FACTOR_REQUIRED_MESSAGE = "Your shop requires two-factor sign-in: turn it on under Your account.";

/** How long a two-factor code proved at sign-in or step-up counts as fresh for sensitive actions. */
export const STEP_UP_WINDOW_MS = 5 * 60 * 1000;

/**
 * Refuses a sensitive action (403 with `stepUpRequired: true`) unless the account has no two-factor
 * or its session proved a code within STEP_UP_WINDOW_MS. Routes declare `stepUp: true`; a route
 * where only some changes are sensitive (the bot token in Bot Settings) calls this itself.
 */
export function requireFreshTwoFactor(request: FastifyRequest, now: Date): void {
  const signedIn = request.signedIn;
  if (!signedIn?.account.totpEnabled) return;
  const provedAt = signedIn.session.totpAt?.getTime();
  if (provedAt !== undefined && now.getTime() - provedAt <= STEP_UP_WINDOW_MS) return;
  throw new HttpError(403, "Enter a fresh two-factor code to do this.", {}, { stepUpRequired: true });
}

/** The live session the request's cookie names, with its account; null when there is none. */
export async function signedInSession(request: FastifyRequest, deps: Pick<AppDeps, "db" | "now">): Promise<ValidSession | null> {
  const token = request.cookies[SESSION_COOKIE];
  return typeof token === "string" && token.length > 0 && token.length <= 256 ? validateSession(deps.db, token, deps.now()) : null;
}

/** The signed-in account of an "admin" route's request (the access hook has checked it). */
export function signedInAccount(request: FastifyRequest): ValidSession["account"] {
  if (!request.signedIn) throw new Error(`${request.method} ${request.url} has no signed-in account: is the route "admin"?`);
  return request.signedIn.account;
}

/** Whether the request's account may do what `permission` names (checks inside a route, e.g. one field of a form). */
export function accountCan(request: FastifyRequest, permission: Permission): boolean {
  return request.signedIn !== undefined && roleCan(request.signedIn.account.role as Role, permission);
}

/** Refuses (403, naming the permission) unless the request's account may do what `permission` names. */
export function requirePermission(request: FastifyRequest, permission: Permission): void {
  const account = signedInAccount(request);
  if (!roleCan(account.role as Role, permission)) throw new HttpError(403, missingPermissionMessage(account.role as Role, permission));
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
 * route did not open. A route that declares nothing needs a signed-in account whose role allows its
 * permission (none declared: the owner). Unmatched requests go on to
 * the JSON 404.
 */
export type RegisteredRoute = { method: string; url: string; access: RouteAccess; permission: Permission | null };
type RouteOptionsSeen = { method: string | string[]; url?: string; path?: string; config?: { access?: RouteAccess; permission?: Permission } };
const routeTables = new WeakMap<FastifyInstance, RouteOptionsSeen[]>();

/**
 * Every route registered on the app with the access it declared: the access tests are generated from
 * it. Read when asked, not when each route was added: a scope's own onRoute hook (mayInScope) runs
 * after the app's and may still name a route's permission.
 */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return (routeTables.get(app) ?? []).flatMap((route) =>
    [route.method].flat().map((method) => ({
      method,
      url: route.url ?? route.path ?? "",
      access: route.config?.access ?? "admin",
      permission: route.config?.permission ?? null,
    })),
  );
}

/**
 * Names the permission of every route registered in `scope` that names none: for routes a plugin
 * registers itself with options we do not write (the API reference's pages, @fastify/swagger-ui).
 */
export function mayInScope(scope: FastifyInstance, permission: Permission): void {
  scope.addHook("onRoute", (route) => {
    route.config = { ...route.config, permission: route.config?.permission ?? permission };
  });
}

export function registerSecurity(app: FastifyInstance, deps: AppDeps, signInFailures: SignInFailures) {
  const table: RouteOptionsSeen[] = [];
  routeTables.set(app, table);
  app.addHook("onRoute", (route) => {
    table.push(route);
  });
  const checkStorefront = storefrontAccess(deps, signInFailures);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return;
    const access: RouteAccess = request.routeOptions.config.access ?? "admin";
    if (access !== "webhook" && !SAFE_METHODS.has(request.method) && isCrossSite(request, deps.config.publicUrl)) {
      throw new HttpError(403, "Cross-site requests are not allowed.");
    }
    if (access === "storefront") return checkStorefront(request, reply);
    if (access !== "admin") return;
    const signedIn = await signedInSession(request, deps);
    if (!signedIn) {
      reply.header("Cache-Control", "no-store");
      throw new HttpError(401, "Not logged in.");
    }
    request.signedIn = signedIn;
    const role = signedIn.account.role as Role;
    // No permission declared: the owner's alone (deny by default).
    const permission = request.routeOptions.config.permission;
    if (permission ? !roleCan(role, permission) : role !== "owner") {
      reply.header("Cache-Control", "no-store");
      throw new HttpError(403, permission ? missingPermissionMessage(role, permission) : `Only the shop's owner can do this (your role: ${ROLE_LABELS[role]}).`);
    }
    // "Require two-factor for staff" (issue 25): a staff account without it may only reach its own
    // account's routes (turning two-factor on, its sessions); the owner is never held back. The team
    // settings are read only for such accounts, so everyone else pays no query for it.
    if (role !== "owner" && !signedIn.account.totpEnabled && permission !== "account" && (await getTeamSettings(deps.db)).requireTwoFactor) {
      reply.header("Cache-Control", "no-store");
      throw new HttpError(403, TWO_FACTOR_REQUIRED_MESSAGE, {}, { twoFactorRequired: true });
    }
    if (request.routeOptions.config.stepUp) requireFreshTwoFactor(request, deps.now());
    // The admin's answers hold customers' data: never kept by a shared cache, and a browser's copy is
    // checked with the server each time (its ETag then saves sending the same list again).
    reply.header("Cache-Control", "private, no-cache");
  });
}
