import { z } from "zod";
import { CURRENCIES, CurrencySchema, TimestampSchema } from "./common";
import { IdSchema, optionalText } from "./fields";
import { DEFAULT_LANGUAGE, LanguageSchema, LANGUAGES, SavedTextTranslationsSchema, TextTranslationsSchema } from "./languages";

// The bot's settings (one record).

/** The 400 when the default language is not among those offered (also when one of the two is left out of a save). */
export const DEFAULT_LANGUAGE_NOT_OFFERED = "The default language must be one of the languages offered";

export const BotSettingsInputSchema = z.object({
  botName: z.string().trim().min(1, "Bot Name is required"),
  botToken: z.string().trim().min(1, "Bot Token is required"),
  acceptedCurrencies: z
    .array(CurrencySchema)
    .min(1, "Select at least one cryptocurrency")
    .transform((list) => CURRENCIES.filter((c) => list.includes(c))),
  welcomeMessage: z.string().trim().min(1, "Welcome Message is required"),
  faqContent: z.string().trim().min(1, "FAQ Content is required"),
  nowpaymentsApiKey: optionalText,
  nowpaymentsIpnSecret: optionalText,
  webhookUrl: optionalText,
  /** A paid status short of the amount due by more than this percentage is a short payment (docs/product.md rule 3). */
  underpaymentTolerancePercent: z
    .union([z.number(), z.string().trim()], { error: "Underpayment tolerance must be from 0 to 15" })
    .transform((value, ctx) => {
      const text = typeof value === "number" ? String(value) : value;
      if (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) > 15) {
        ctx.addIssue({ code: "custom", message: "Underpayment tolerance must be from 0 to 15, with at most two decimals" });
        return z.NEVER;
      }
      return Number(text);
    })
    .default(1),
  /**
   * Issue 26: the languages the shop offers (at least one; in the bot's menu order) and the default,
   * which must be one of them. Left out: as stored (English alone on a new shop).
   */
  languages: z
    .array(LanguageSchema)
    .min(1, "Offer at least one language")
    .transform((list) => LANGUAGES.filter((language) => list.includes(language)))
    .optional(),
  defaultLanguage: LanguageSchema.optional(),
  welcomeMessageTranslations: TextTranslationsSchema.optional(),
  faqContentTranslations: TextTranslationsSchema.optional(),
}).refine((input) => !input.languages || !input.defaultLanguage || input.languages.includes(input.defaultLanguage), {
  message: DEFAULT_LANGUAGE_NOT_OFFERED,
  path: ["defaultLanguage"],
});
export type BotSettingsInput = z.input<typeof BotSettingsInputSchema>;
/**
 * The single settings record. As the API answers it, the secrets are masked (contract/secret-mask.ts):
 * "••••••••" and their last 4 characters, "" or null when unset; sending a mask back keeps the secret.
 * Inside the server (shop/settings/settings.ts) the same shape holds them decrypted.
 */
const MASKED = "Masked in every answer: \"••••••••\" and the last 4 characters (no characters under 12); sent back unchanged, the stored secret is kept";
export const BotSettingsSchema = z
  .object({
    id: IdSchema,
    botName: z.string(),
    botToken: z.string().meta({ description: `${MASKED}. "" when it cannot be read`, examples: ["••••••••wxyz"] }),
    acceptedCurrencies: z.array(CurrencySchema),
    welcomeMessage: z.string(),
    faqContent: z.string(),
    nowpaymentsApiKey: z.string().nullable().meta({ description: `${MASKED}. null when unset` }),
    nowpaymentsIpnSecret: z.string().nullable().meta({ description: `${MASKED}. null when unset` }),
    webhookUrl: z.string().nullable(),
    underpaymentTolerancePercent: z.number(),
    languages: z.array(LanguageSchema).meta({ examples: [[DEFAULT_LANGUAGE, "de"]] }),
    defaultLanguage: LanguageSchema,
    welcomeMessageTranslations: SavedTextTranslationsSchema,
    faqContentTranslations: SavedTextTranslationsSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: "BotSettings" });
export type BotSettings = z.infer<typeof BotSettingsSchema>;
