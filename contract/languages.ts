import { z } from "zod";

// The bot's languages (issue 26; docs/decisions/0038-bot-languages.md). The texts themselves are
// Fluent files in server/telegram/locales/<code>.ftl; this is the list the API and the dashboard share.

/** The languages the bot ships texts for: ISO 639-1 codes as Telegram's `language_code` starts. */
export const LANGUAGES = ["en", "de", "es", "fr", "ru", "uk"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language in its own words (the bot's language menu and the dashboard's tabs and filters). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  ru: "Русский",
  uk: "Українська",
};

export const LanguageSchema = z.enum(LANGUAGES, { error: `Language must be one of ${LANGUAGES.join(", ")}` });

/**
 * The shipped language a Telegram `language_code` ("de", "de-AT", "pt-br") stands for, or null: the
 * part before the first "-", lower case.
 */
export function languageOfCode(code: string | null | undefined): Language | null {
  const base = (code ?? "").toLowerCase().split("-")[0];
  return (LANGUAGES as readonly string[]).includes(base ?? "") ? (base as Language) : null;
}

/** A name and a description per language, as the API answers them (categories, products, postage options). */
export const NameTranslationsSchema = z
  .partialRecord(LanguageSchema, z.object({ name: z.string().optional(), description: z.string().optional() }))
  .meta({
    id: "NameTranslations",
    description: 'By language code: { "de": { "name": "…", "description": "…" } }. Missing or blank falls back to the default language.',
  });
export type NameTranslations = z.infer<typeof NameTranslationsSchema>;

/**
 * Translations as a save sends them. A language left out, or a field left out or blank, falls back
 * to the shop's default language (the entity's own fields): blank fields are dropped, and a language
 * left with none is dropped. (Two schemas: an answer's schema cannot hold a transform.)
 */
export const NameTranslationsInputSchema = z
  .partialRecord(LanguageSchema, z.object({ name: z.string().trim().max(200).optional(), description: z.string().trim().max(5000).optional() }))
  .transform((byLanguage) => {
    const kept: NameTranslations = {};
    for (const language of LANGUAGES) {
      const texts = byLanguage[language];
      if (!texts) continue;
      const filled: { name?: string; description?: string } = {};
      if (texts.name) filled.name = texts.name;
      if (texts.description) filled.description = texts.description;
      if (filled.name !== undefined || filled.description !== undefined) kept[language] = filled;
    }
    return kept;
  });

/** One text per language, as the API answers it (the welcome message, the FAQ, a broadcast's text). */
export const TextTranslationsSchema = z
  .partialRecord(LanguageSchema, z.string())
  .meta({ id: "TextTranslations", description: 'By language code: { "de": "…" }. Missing or blank falls back to the default language.' });
export type TextTranslations = z.infer<typeof TextTranslationsSchema>;

/** One text per language as a save sends it: blank ones are dropped. */
export const TextTranslationsInputSchema = z.partialRecord(LanguageSchema, z.string().trim().max(4096)).transform((byLanguage) => {
  const kept: TextTranslations = {};
  for (const language of LANGUAGES) {
    const text = byLanguage[language];
    if (text) kept[language] = text;
  }
  return kept;
});
