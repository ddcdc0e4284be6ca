import { eq, inArray } from "drizzle-orm";
import { DEFAULT_LANGUAGE, type Language, LANGUAGES, languageOfCode } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { botCustomers, botSettings } from "../../db/schema";

// Which language the bot speaks to a customer (docs/decisions/0038-bot-languages.md):
// - one they chose with /language, while the shop still offers it;
// - else their Telegram app's language (language_code), when the shop offers it;
// - else the one stored for them before, when still offered; else the shop's default.
// It is stored with the customer (bot_customers.language), so every server instance, and the
// senders outside a conversation (payment updates, dispatch notices, broadcasts), use the same.

/** The languages part of Bot Settings; missing fields (settings saved before issue 26) read as English only. */
export type LanguageSettings = { languages?: readonly Language[] | null; defaultLanguage?: Language | null };

export function offeredLanguages(settings: LanguageSettings | null | undefined): Language[] {
  const listed = LANGUAGES.filter((language) => settings?.languages?.includes(language));
  return listed.length > 0 ? listed : [DEFAULT_LANGUAGE];
}

export function defaultLanguageOf(settings: LanguageSettings | null | undefined): Language {
  const offered = offeredLanguages(settings);
  const wanted = settings?.defaultLanguage;
  return wanted && offered.includes(wanted) ? wanted : offered[0]!;
}

/** What is stored of a customer's language (null: never seen with one). */
export type StoredLanguage = { language: Language | null; chosen: boolean };

export function resolveLanguage(stored: StoredLanguage | null | undefined, telegramCode: string | null | undefined, settings: LanguageSettings | null | undefined): Language {
  const offered = offeredLanguages(settings);
  const isOffered = (language: Language | null | undefined): language is Language => !!language && offered.includes(language);
  if (stored?.chosen && isOffered(stored.language)) return stored.language;
  const fromTelegram = languageOfCode(telegramCode);
  if (isOffered(fromTelegram)) return fromTelegram;
  if (isOffered(stored?.language)) return stored.language;
  return defaultLanguageOf(settings);
}

export async function readStoredLanguage(db: DbOrTx, telegramUserId: string): Promise<StoredLanguage | null> {
  const [row] = await db
    .select({ language: botCustomers.language, chosen: botCustomers.languageChosen })
    .from(botCustomers)
    .where(eq(botCustomers.telegramUserId, telegramUserId));
  return row ?? null;
}

/**
 * Stores the language the bot now speaks to a customer already on record (a customer is recorded by
 * /start; storing a language alone must not add anyone to a broadcast's audience). No write when unchanged.
 */
export async function rememberLanguage(db: DbOrTx, telegramUserId: string, stored: StoredLanguage | null | undefined, language: Language): Promise<void> {
  if (stored?.language === language) return;
  await db.update(botCustomers).set({ language }).where(eq(botCustomers.telegramUserId, telegramUserId));
}

/** /language: the customer's own choice, kept over their Telegram app's language from now on. */
export async function chooseLanguage(db: DbOrTx, telegramUserId: string, telegramUsername: string | null, language: Language, now: Date): Promise<void> {
  await db
    .insert(botCustomers)
    .values({ telegramUserId, telegramUsername, startedAt: now, language, languageChosen: true })
    .onConflictDoUpdate({ target: botCustomers.telegramUserId, set: { language, languageChosen: true } });
}

/** The languages stored for these customers (the senders outside a conversation); the default for anyone unknown. */
export async function languagesOfCustomers(db: DbOrTx, telegramUserIds: readonly string[], settings: LanguageSettings | null | undefined): Promise<Map<string, Language>> {
  const offered = offeredLanguages(settings);
  const fallback = defaultLanguageOf(settings);
  const found = new Map<string, Language>(telegramUserIds.map((id) => [id, fallback]));
  if (telegramUserIds.length === 0) return found;
  const rows = await db
    .select({ id: botCustomers.telegramUserId, language: botCustomers.language })
    .from(botCustomers)
    .where(inArray(botCustomers.telegramUserId, [...telegramUserIds]));
  for (const row of rows) if (row.language && offered.includes(row.language)) found.set(row.id, row.language);
  return found;
}

/** The one customer's language for a message sent outside a conversation. */
export async function languageOfCustomer(db: DbOrTx, telegramUserId: string, settings: LanguageSettings | null | undefined): Promise<Language> {
  return (await languagesOfCustomers(db, [telegramUserId], settings)).get(telegramUserId)!;
}

/**
 * The language of a message sent to a customer outside a conversation (a payment update, a dispatch
 * notice): the one stored for them, else the shop's default, else English.
 */
export async function messageLanguageOf(db: DbOrTx, telegramUserId: string): Promise<Language> {
  const [customer] = await db.select({ language: botCustomers.language }).from(botCustomers).where(eq(botCustomers.telegramUserId, telegramUserId));
  if (customer?.language) return customer.language;
  const [settings] = await db.select({ defaultLanguage: botSettings.defaultLanguage }).from(botSettings).orderBy(botSettings.createdAt).limit(1);
  return settings?.defaultLanguage ?? DEFAULT_LANGUAGE;
}
