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

/**
 * Translations of an entity's texts, by language: { "de": { "name": "…", "description": "…" } }.
 * A language left out, or a field left out or blank, falls back to the shop's default language (the
 * entity's own fields). Blank fields are dropped on input, and a language left with none is dropped.
 */
export function translationsSchema<const Field extends string>(fields: Record<Field, number>) {
  const entry = z.strictObject(
    Object.fromEntries(
      Object.entries<number>(fields).map(([field, max]) => [field, z.string().trim().max(max).optional()]),
    ) as Record<Field, z.ZodOptional<z.ZodString>>,
  );
  // No .default({}) here: an input's `translations: …optional()` must stay undefined when left out
  // (zod 4 applies an inner default under .optional()), so an edit without it keeps the stored ones.
  return z
    .partialRecord(LanguageSchema, entry)
    .transform((byLanguage) => {
      const kept: Partial<Record<Language, Partial<Record<Field, string>>>> = {};
      for (const language of LANGUAGES) {
        const texts = byLanguage[language] as Partial<Record<Field, string | undefined>> | undefined;
        if (!texts) continue;
        const filled = Object.fromEntries(Object.entries(texts).filter(([, text]) => typeof text === "string" && text !== "")) as Partial<
          Record<Field, string>
        >;
        if (Object.keys(filled).length > 0) kept[language] = filled;
      }
      return kept;
    });
}

/** A name and a description per language: categories, products and postage options. */
export const NameTranslationsSchema = translationsSchema({ name: 200, description: 5000 }).meta({
  id: "NameTranslations",
  description: 'By language code: { "de": { "name": "…", "description": "…" } }. Missing or blank falls back to the default language.',
});
export type NameTranslations = z.output<typeof NameTranslationsSchema>;

/** One text per language (the welcome message, the FAQ, a broadcast's text); blank ones are dropped. */
export const TextTranslationsSchema = z
  .partialRecord(LanguageSchema, z.string().trim().max(4096).optional())
  .transform((byLanguage) => {
    const kept: Partial<Record<Language, string>> = {};
    for (const language of LANGUAGES) {
      const text = byLanguage[language];
      if (text) kept[language] = text;
    }
    return kept;
  })
  .meta({ id: "TextTranslations", description: 'By language code: { "de": "…" }. Missing or blank falls back to the default language.' });
export type TextTranslations = z.output<typeof TextTranslationsSchema>;

// The same, as the API answers them. An answer is encoded by its schema (fastify-type-provider-zod's
// serializer), which refuses a one-way transform: so the answers' shapes are plain, as stored.

/** A name and a description per language, as saved (blank ones were dropped on input). */
export const SavedNameTranslationsSchema = z
  .partialRecord(LanguageSchema, z.object({ name: z.string().optional(), description: z.string().optional() }))
  .meta({ id: "SavedNameTranslations", description: 'By language code: { "de": { "name": "…", "description": "…" } }. What is left out falls back to the default language.' });

/** One text per language, as saved. */
export const SavedTextTranslationsSchema = z
  .partialRecord(LanguageSchema, z.string())
  .meta({ id: "SavedTextTranslations", description: 'By language code: { "de": "…" }. A language left out falls back to the default language.' });
