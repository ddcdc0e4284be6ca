import { eq } from "drizzle-orm";
import type { Language } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { botCustomers } from "../../db/schema";
import { recordCustomerSeen } from "../customers";
import { type LanguageSettings, rememberLanguage, resolveLanguage } from "../languages";

// Who calls the storefront (issue 27): the Telegram user the signed init data names. They are put on
// record as the bot puts whoever sends /start (bot_customers), and spoken to in the language the bot
// would choose for them: their /language choice, else their Telegram app's, else the shop's default.

/** The customer as Telegram's init data names them (server/http/storefront-auth.ts checks it). */
export type StorefrontCustomer = {
  telegramUserId: string;
  username: string | null;
  firstName: string;
  /** Their Telegram app's language ("de", "pt-br"), if it said. */
  languageCode: string | null;
};

/**
 * Records the customer (when new, or their username changed) and answers the language the storefront
 * speaks to them, kept with them as the bot keeps it. One read when nothing changed.
 */
export async function meetStorefrontCustomer(
  db: DbOrTx,
  customer: StorefrontCustomer,
  settings: LanguageSettings | null,
  now: Date,
): Promise<Language> {
  const [record] = await db
    .select({ username: botCustomers.telegramUsername, language: botCustomers.language, chosen: botCustomers.languageChosen })
    .from(botCustomers)
    .where(eq(botCustomers.telegramUserId, customer.telegramUserId));
  if (!record || record.username !== customer.username) await recordCustomerSeen(db, customer.telegramUserId, customer.username, now);
  const stored = record ? { language: record.language ?? null, chosen: record.chosen === true } : { language: null, chosen: false };
  const language = resolveLanguage(stored, customer.languageCode, settings);
  await rememberLanguage(db, customer.telegramUserId, stored, language);
  return language;
}
