import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest, preParsingAsyncHookHandler } from "fastify";
import type { Language } from "../../contract";
import { translatorFor } from "../shop/languages";
import { HttpError } from "./errors";

// How often the storefront (the Telegram Mini App, issue 27) may be called
// (docs/decisions/0041-storefront-rate-limits.md): each customer has a budget of calls per minute for
// each kind of call, counted under the Telegram user id their init data proved (never a value the
// caller chooses), and each address a budget of failed sign-ins. Counted by @fastify/rate-limit in
// this instance's memory: N instances allow N times the budget. The budgets are against floods (a
// script with one customer's init data filling the owner's Messages), not quotas a customer would
// ever meet by using the shop.

/** A number of calls allowed in a window of time, counted from the window's first call. */
export type Budget = { max: number; windowMs: number };

/** The kinds of storefront call, each with its own budget per customer: a route declares its kind. */
export type StorefrontBudget = "reads" | "quote" | "orders" | "messages";

export type StorefrontBudgets = Record<StorefrontBudget, Budget> & {
  /** Per address (IPv6: per /64): requests refused for their init data (401), before any is read. */
  failedSignIns: Budget;
};

const MINUTE = 60_000;

/**
 * The production budgets. Each is several times what the Mini App itself asks for, so a customer
 * never meets one by using it (web/storefront/screens/):
 * - reads: the payment screen polls its order every 3 s (20 a minute), Support its thread every 5 s
 *   (12), My Orders every 15 s (4); with the catalogue and a second device open, well under 120.
 * - quote: asked as the checkout opens and at each change of postage, coin or coupon.
 * - orders: placing an order is a tap after filling an address; 10 a minute is no shopper's pace,
 *   and the cap of unpaid orders (docs/decisions/0040) stops a fourth anyway.
 * - messages: a human typing; a script would fill the owner's Messages.
 * - failedSignIns: the Mini App sends Telegram's init data as it came, so a customer fails at most
 *   once (an expired session) before reopening; 60 bounds guessing and the work it costs.
 */
export const STOREFRONT_BUDGETS: StorefrontBudgets = {
  reads: { max: 120, windowMs: MINUTE },
  quote: { max: 30, windowMs: MINUTE },
  orders: { max: 10, windowMs: MINUTE },
  messages: { max: 10, windowMs: MINUTE },
  failedSignIns: { max: 60, windowMs: MINUTE },
};

/**
 * How many customers (or addresses) each budget remembers at once, least recently seen forgotten
 * first: memory stays bounded whatever the traffic. Customer ids need Telegram's signature, so only
 * real customers fill those; many addresses failing at once may make an address's count forgotten
 * early, which gives it no more than a fresh window.
 */
const REMEMBERED = 10_000;

declare module "fastify" {
  interface FastifyContextConfig {
    /** A "storefront" route's kind of call, whose budget it counts against (none declared: "reads"). */
    storefrontBudget?: StorefrontBudget;
  }
}

/** The refusal of a call over its budget: in the customer's language, never kept by a cache. */
function tooManyRequests(language: Language | null | undefined, headers: Record<string, string> = {}) {
  return new HttpError(429, translatorFor(language).t("too-many-requests"), { ...headers, "Cache-Control": "no-store" });
}

/** The access hook's part (storefront-auth.ts): the failed sign-ins of the request's address. */
export type SignInFailures = {
  /**
   * Refuses (429) a request from an address that failed its budget of sign-ins in this window,
   * before its init data is looked at: a guess that happened to be right is refused too, so the
   * guesses an address may try stay bounded, and it costs nothing to refuse.
   */
  refuseWhenSpent(request: FastifyRequest, language: Language): Promise<void>;
  /** Counts a failed sign-in of the request's address; 429 instead of its 401 once it is one too many. */
  count(request: FastifyRequest, language: Language): Promise<void>;
};

/**
 * Registers the budgets: each "storefront" route counts its caller's calls against its declared
 * budget once the access hook has proved who the caller is (security.ts runs at onRequest; this at
 * preParsing, so an over-budget call is refused before its body is read or checked), and the access
 * hook counts failed sign-ins with what this answers. Call before any route is registered.
 */
export async function registerStorefrontLimits(app: FastifyInstance, budgets: StorefrontBudgets = STOREFRONT_BUDGETS): Promise<SignInFailures> {
  await app.register(rateLimit, {
    // Only where this module puts it: the admin's routes, webhooks and pages are not limited here.
    global: false,
    // Retry-After on a refusal, and no other header: the budgets are not the Mini App's business.
    addHeaders: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false, "retry-after": true },
    addHeadersOnExceeding: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false },
  });

  const perCustomer = (budget: Budget): preParsingAsyncHookHandler => {
    const limit = app.rateLimit({
      max: budget.max,
      timeWindow: budget.windowMs,
      cache: REMEMBERED,
      keyGenerator: (request) => {
        // Set by the access hook (onRequest) before any preParsing hook runs; a route reaching here
        // without it is a bug, and must not be counted under a key all such requests would share.
        if (!request.storefrontCustomer) throw new Error(`${request.method} ${request.url} has no storefront customer to count: is the route "storefront"?`);
        return request.storefrontCustomer.telegramUserId;
      },
      errorResponseBuilder: (request) => tooManyRequests(request.storefrontLanguage),
    });
    return async function countCall(request, reply) {
      await limit.call(app, request, reply);
    };
  };
  const limits: Record<StorefrontBudget, preParsingAsyncHookHandler> = {
    reads: perCustomer(budgets.reads),
    quote: perCustomer(budgets.quote),
    orders: perCustomer(budgets.orders),
    messages: perCustomer(budgets.messages),
  };
  app.addHook("onRoute", (route) => {
    if (route.config?.access !== "storefront") return;
    route.preParsing = [...[route.preParsing ?? []].flat(), limits[route.config.storefrontBudget ?? "reads"]];
  });

  // Keyed by the plugin's own reading of the address: request.ip (TRUST_PROXY decides whose
  // X-Forwarded-For counts, app.ts), an IPv6 address by its /64 as one client usually owns a whole one.
  // `cache` is passed on to the store as for app.rateLimit, though the plugin's types leave it out here.
  const failureOptions = { max: budgets.failedSignIns.max, timeWindow: budgets.failedSignIns.windowMs, cache: REMEMBERED };
  const failures = app.createRateLimit(failureOptions);
  const retryAfter = (seconds: number) => ({ "Retry-After": String(Math.max(1, seconds)) });
  return {
    async refuseWhenSpent(request, language) {
      const seen = await failures(request, { increment: false });
      if (!seen.isAllowed && seen.remaining === 0) throw tooManyRequests(language, retryAfter(seen.ttlInSeconds));
    },
    async count(request, language) {
      const counted = await failures(request);
      if (!counted.isAllowed && counted.isExceeded) throw tooManyRequests(language, retryAfter(counted.ttlInSeconds));
    },
  };
}
