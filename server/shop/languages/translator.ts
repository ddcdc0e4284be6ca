import { I18n } from "@grammyjs/i18n";
import path from "node:path";
import { DEFAULT_LANGUAGE, type Language, LANGUAGES } from "../../../contract";
import { projectRoot } from "../../project-root";
import { formatPence } from "../catalogue";
import type { CustomerText, ShopError } from "../common";

// Every word the bot sends a customer comes from one Fluent file per language in
// server/telegram/locales/ (docs/decisions/0038-bot-languages.md). One grammY i18n instance holds
// them: the bot's handlers reach it as ctx.t, and senders outside a handler (payment updates,
// dispatch notices, broadcasts) through translatorFor(the recipient's language).

/** From the project folder, so the server bundle (dist/server) finds them too; the Dockerfile copies them. */
export const LOCALES_DIRECTORY = path.join(projectRoot(import.meta.dirname), "server", "telegram", "locales");

/** Unicode isolation marks around each placeable would change every English text the shop already sends. */
export const i18n = new I18n({ defaultLocale: DEFAULT_LANGUAGE, fluentBundleOptions: { useIsolating: false } });
for (const language of LANGUAGES) {
  i18n.loadLocaleSync(language, { filePath: path.join(LOCALES_DIRECTORY, `${language}.ftl`), isDefault: language === DEFAULT_LANGUAGE });
}

/** The Intl locale a language's prices and dates are written in; English keeps the shop's British forms. */
export const INTL_LOCALES: Record<Language, string> = { en: "en-GB", de: "de-DE", es: "es-ES", fr: "fr-FR", ru: "ru-RU", uk: "uk-UA" };

export type TextVariables = Record<string, string | number>;

export type Translator = {
  language: Language;
  /** The text of a key of the locale files, with its variables. */
  t(key: string, variables?: TextVariables): string;
  /** A price in pence, in the customer's way of writing money (GBP always). */
  price(pence: number): string;
  /** A plain amount ("4.5") as a price. */
  amount(amount: string | number): string;
  date(date: Date, timeZone: string): string;
  dateTime(date: Date, timeZone: string): string;
  /** A sentence of the shop's rules (a refusal, a status) in this language, its prices and days written the language's way. */
  say(text: CustomerText): string;
  /** What the bot tells a customer of a refusal: its sentence in this language, else the shop's own message. */
  refusal(error: ShopError): string;
};

const translators = new Map<Language, Translator>();

/** The texts and formats of one language (the default's for anything not shipped). */
export function translatorFor(language: Language | null | undefined): Translator {
  const chosen: Language = language && (LANGUAGES as readonly string[]).includes(language) ? language : DEFAULT_LANGUAGE;
  let found = translators.get(chosen);
  if (!found) {
    found = makeTranslator(chosen);
    translators.set(chosen, found);
  }
  return found;
}

function makeTranslator(language: Language): Translator {
  const locale = INTL_LOCALES[language];
  const money = new Intl.NumberFormat(locale, { style: "currency", currency: "GBP" });
  const day = new Map<string, Intl.DateTimeFormat>();
  const moment = new Map<string, Intl.DateTimeFormat>();
  const english = language === "en";
  // A day in a sentence of the shop's rules ("1 December 2026"), as the English rules have always written it.
  const longDay = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const translator: Translator = {
    language,
    t: (key, variables) => i18n.t(language, key, variables),
    // English stays exactly as the shop has always written it ("£1234.50").
    price: (pence) => (english ? `£${formatPence(pence)}` : money.format(pence / 100)),
    amount: (amount) => (english ? `£${Number(amount).toFixed(2)}` : money.format(Number(amount))),
    date(date, timeZone) {
      let format = day.get(timeZone);
      if (!format) day.set(timeZone, (format = new Intl.DateTimeFormat(locale, { timeZone, day: "numeric", month: "short", year: "numeric" })));
      return format.format(date);
    },
    dateTime(date, timeZone) {
      let format = moment.get(timeZone);
      if (!format) {
        format = new Intl.DateTimeFormat(locale, { timeZone, day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
        moment.set(timeZone, format);
      }
      return format.format(date);
    },
    say(text) {
      const values: TextVariables = {};
      for (const [name, value] of Object.entries(text.values ?? {})) {
        if (typeof value !== "object") values[name] = value;
        else if ("pence" in value) values[name] = translator.price(value.pence);
        else values[name] = longDay.format(value.day);
      }
      return i18n.t(language, text.key, values);
    },
    // English is the shop's own sentence, as the dashboard and the API read it (en.ftl holds the same
    // words for translators); a refusal without a key stays the shop's sentence in every language.
    refusal: (error) => (!english && error.customerText ? translator.say(error.customerText) : error.message),
  };
  return translator;
}
