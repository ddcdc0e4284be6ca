import crypto from "node:crypto";
import { parse, signData, validate, isExpiredError } from "@telegram-apps/init-data-node";
import type { FastifyReply, FastifyRequest } from "fastify";
import { INIT_DATA_MAX_AGE_SECONDS, type Language, STOREFRONT_AUTH_SCHEME } from "../../contract";
import { cachedReads } from "../shop/catalogue";
import { isBlocked } from "../shop/customers";
import { defaultLanguageOf, resolveLanguage, translatorFor } from "../shop/languages";
import { isTestCustomer } from "../shop/simulator";
import { meetStorefrontCustomer, type StorefrontCustomer } from "../shop/storefront";
import type { AppDeps } from "./deps";
import { HttpError } from "./errors";
import type { SignInFailures } from "./storefront-limits";

// Who calls the storefront (issue 27; docs/decisions/0039-mini-app-storefront.md): no session, but the
// init data Telegram hands the Mini App, signed with the bot's token (core.telegram.org/bots/webapps,
// "Validating data received via the Mini App"), sent as `Authorization: tma <init data>`. Checked
// against the bot token saved in Bot Settings now: read through the read cache, which drops it when
// bot_settings changes (shop/catalogue/read-cache.ts), so a new token counts at once and the old one
// no longer does.

export const OPEN_FROM_BOT_MESSAGE = "Open the shop from its Telegram bot.";
export const SESSION_EXPIRED_MESSAGE = "This shop session has expired. Close and reopen the shop.";
export const SHOP_NOT_SET_UP_MESSAGE = "This shop is not set up yet. Please try again later.";

/** Far more than Telegram's init data ever holds (a few hundred bytes); anything longer is not it. */
const MAX_INIT_DATA_LENGTH = 8192;

declare module "fastify" {
  interface FastifyRequest {
    /** The Telegram user the init data names, on "storefront" routes (set by the access hook). */
    storefrontCustomer?: StorefrontCustomer;
    /** The language the storefront speaks to them (as the bot would): refusals are translated into it. */
    storefrontLanguage?: Language;
  }
}

const refuse = (message: string) => new HttpError(401, message, { "Cache-Control": "no-store" });

/**
 * Whether `initData`'s hash is the one the bot token gives its fields, compared in constant time
 * (the library compares its own with !==): the data-check string is built as the library and
 * Telegram build it, every field but hash as key=value, sorted, one per line.
 */
function hashMatches(initData: URLSearchParams, botToken: string): boolean {
  const hash = initData.get("hash") ?? "";
  const pairs: string[] = [];
  initData.forEach((value, key) => {
    if (key !== "hash") pairs.push(`${key}=${value}`);
  });
  const expected = Buffer.from(signData(pairs.sort().join("\n"), botToken));
  const given = Buffer.from(hash);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * The customer `authorization` names, or a 401 with the sentence to show: a header that is not
 * `tma <init data>`, init data not signed with `botToken` (forged, changed after signing, another
 * bot's), older than INIT_DATA_MAX_AGE_SECONDS, or naming no user.
 */
export function readInitData(authorization: string | undefined, botToken: string | null): StorefrontCustomer {
  const match = /^(\S+) +(\S+)$/.exec(authorization ?? "");
  if (!match || match[1]!.toLowerCase() !== STOREFRONT_AUTH_SCHEME || match[2]!.length > MAX_INIT_DATA_LENGTH) throw refuse(OPEN_FROM_BOT_MESSAGE);
  if (!botToken) throw refuse(SHOP_NOT_SET_UP_MESSAGE);
  const raw = match[2]!;
  const fields = new URLSearchParams(raw);
  if (!hashMatches(fields, botToken)) throw refuse(OPEN_FROM_BOT_MESSAGE);
  let user;
  try {
    // The signature is known good: this checks auth_date and its age.
    validate(fields, botToken, { expiresIn: INIT_DATA_MAX_AGE_SECONDS });
    user = parse(raw).user;
  } catch (error) {
    throw refuse(isExpiredError(error) ? SESSION_EXPIRED_MESSAGE : OPEN_FROM_BOT_MESSAGE);
  }
  if (!user || !Number.isSafeInteger(user.id) || user.id <= 0 || user.is_bot) throw refuse(OPEN_FROM_BOT_MESSAGE);
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  return {
    telegramUserId: String(user.id),
    username: text(user.username),
    firstName: text(user.first_name) ?? "",
    languageCode: text(user.language_code),
  };
}

/**
 * The access hook's check of a "storefront" route (security.ts): the address's failed sign-ins
 * (429 once it has spent their budget, storefront-limits.ts), the caller's init data (a failure
 * counted), then the owner's block (403 with the bot's own refusal, in their language), then the
 * customer is put on record as the bot would and their language chosen.
 */
export function storefrontAccess(deps: AppDeps, signInFailures: SignInFailures) {
  const reads = cachedReads(deps);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const settings = await reads.settings();
    // Who calls is not known yet: a refusal of their address speaks the shop's default language.
    const shopLanguage = defaultLanguageOf(settings);
    await signInFailures.refuseWhenSpent(request, shopLanguage);
    let customer: StorefrontCustomer;
    try {
      customer = readInitData(request.headers.authorization, settings?.botToken || null);
      // Bot Preview's test customer (docs/decisions/0023) is no Telegram user: its id is none Telegram gives.
      if (isTestCustomer(customer.telegramUserId)) throw refuse(OPEN_FROM_BOT_MESSAGE);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401) await signInFailures.count(request, shopLanguage);
      throw error;
    }
    reply.header("Cache-Control", "private, no-store");
    if (await isBlocked(deps, customer.telegramUserId)) {
      throw new HttpError(403, translatorFor(resolveLanguage(null, customer.languageCode, settings)).t("blocked"));
    }
    request.storefrontCustomer = customer;
    request.storefrontLanguage = await meetStorefrontCustomer(deps.db, customer, settings, deps.now());
  };
}
