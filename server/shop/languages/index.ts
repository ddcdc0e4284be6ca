// The public face of shop/languages/ (issue 26): the bot's languages, the customer's language, and
// the owner's texts in it. Other folders import only this file (eslint.config.js).

export {
  chooseLanguage,
  defaultLanguageOf,
  type LanguageSettings,
  languageOfCustomer,
  languagesOfCustomers,
  messageLanguageOf,
  offeredLanguages,
  readStoredLanguage,
  rememberLanguage,
  resolveLanguage,
  type StoredLanguage,
} from "./customer-language";
export { inLanguage, localizedDescription, localizedName, localizedText, translatedProductNames } from "./localized";
export { i18n, INTL_LOCALES, LOCALES_DIRECTORY, type TextVariables, type Translator, translatorFor } from "./translator";
