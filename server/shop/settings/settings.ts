import { eq } from "drizzle-orm";
import type { BotSettings, Language } from "../../../contract";
import { BotSettingsInputSchema, DEFAULT_LANGUAGE, DEFAULT_LANGUAGE_NOT_OFFERED } from "../../../contract";
import type { z } from "zod";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { botSettings } from "../../db/schema";
import { invalid, notFound } from "../common";

/**
 * What a save writes. The HTTP schema always supplies the tolerance (default 1); code inside the
 * server may leave it out: a create then gets the database default (1) and an update keeps the stored one.
 */
type SettingsValues = Omit<z.output<typeof BotSettingsInputSchema>, "underpaymentTolerancePercent"> & {
  underpaymentTolerancePercent?: number;
};
type Row = typeof botSettings.$inferSelect;

const SECRET_FIELDS = ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const;

/** The Bot Preview's text when no welcome message is set (docs/product.md §2). */
export const DEFAULT_WELCOME_MESSAGE =
  "Welcome to our shop! Browse our products, place orders and pay securely with cryptocurrency.";

/**
 * A stored secret in clear, or null when it does not decrypt: the secret then counts as not set, so
 * the owner can type it again in Bot Settings instead of the whole shop failing on every read. The
 * start refuses a wrong master key (shop/privacy/key-check.ts), so this is a damaged or changed value: the
 * box logs which field and why, never the value (docs/SECURITY.md "The secret key").
 */
function readSecret(stored: string | null, box: SecretBox, field: (typeof SECRET_FIELDS)[number]): string | null {
  if (!stored) return null;
  return box.decryptOrNull(stored, field);
}

function decryptRow(row: Row, box: SecretBox): BotSettings {
  return {
    ...row,
    acceptedCurrencies: row.acceptedCurrencies as BotSettings["acceptedCurrencies"],
    // An unreadable token is empty: the bot stays off until it is saved again (telegram/runner.ts).
    botToken: readSecret(row.botToken, box, "botToken") ?? "",
    nowpaymentsApiKey: readSecret(row.nowpaymentsApiKey, box, "nowpaymentsApiKey"),
    nowpaymentsIpnSecret: readSecret(row.nowpaymentsIpnSecret, box, "nowpaymentsIpnSecret"),
    // numeric(4,2) comes back as text ("1.00"); the payment code compares it as a number.
    underpaymentTolerancePercent: Number(row.underpaymentTolerancePercent),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The row's columns: secrets encrypted, the tolerance as numeric text (left out when not given). */
function toColumns(values: SettingsValues, box: SecretBox) {
  const { underpaymentTolerancePercent, ...rest } = values;
  const out = { ...rest };
  for (const field of SECRET_FIELDS) {
    const value = out[field];
    if (value) (out as Record<string, unknown>)[field] = box.encrypt(value);
  }
  return underpaymentTolerancePercent === undefined
    ? out
    : { ...out, underpaymentTolerancePercent: underpaymentTolerancePercent.toFixed(2) };
}

/**
 * Issue 26: the default language must be one the shop offers. A save may leave either out (it keeps
 * the stored one, English alone on a new shop), so the pair is checked as it will be stored.
 */
function checkLanguages(values: SettingsValues, stored: Pick<Row, "languages" | "defaultLanguage"> | undefined): void {
  const languages: readonly Language[] = values.languages ?? stored?.languages ?? [DEFAULT_LANGUAGE];
  const defaultLanguage = values.defaultLanguage ?? stored?.defaultLanguage ?? DEFAULT_LANGUAGE;
  if (!languages.includes(defaultLanguage)) throw invalid(DEFAULT_LANGUAGE_NOT_OFFERED);
}

/** The single settings record, secrets decrypted; null when none was saved yet. */
export async function getBotSettings(db: DbOrTx, box: SecretBox): Promise<BotSettings | null> {
  const [row] = await db.select().from(botSettings).orderBy(botSettings.createdAt).limit(1);
  return row ? decryptRow(row, box) : null;
}

export async function createBotSettings(db: DbOrTx, box: SecretBox, values: SettingsValues): Promise<BotSettings> {
  // There is one settings record: a second create updates the first instead of adding another.
  const existing = await getBotSettings(db, box);
  if (existing) return updateBotSettings(db, box, existing.id, values);
  checkLanguages(values, undefined);
  const [row] = await db.insert(botSettings).values(toColumns(values, box)).returning();
  return decryptRow(row!, box);
}

export async function updateBotSettings(
  db: DbOrTx,
  box: SecretBox,
  id: string,
  values: SettingsValues,
): Promise<BotSettings> {
  const row = await db.transaction(async (tx) => {
    const [stored] = await tx
      .select({ languages: botSettings.languages, defaultLanguage: botSettings.defaultLanguage })
      .from(botSettings)
      .where(eq(botSettings.id, id))
      .for("update");
    if (!stored) throw notFound("Bot settings not found");
    checkLanguages(values, stored);
    const [updated] = await tx
      .update(botSettings)
      .set({ ...toColumns(values, box), updatedAt: new Date() })
      .where(eq(botSettings.id, id))
      .returning();
    return updated!;
  });
  return decryptRow(row, box);
}

/**
 * Saves NOWPayments' two keys where Bot Settings keeps them (issue 24: the Payment gateways card writes
 * them too); encrypted as every secret of the row. There must be settings already: the bot comes first.
 */
export async function saveNowpaymentsKeys(
  db: DbOrTx,
  box: SecretBox,
  id: string,
  keys: { nowpaymentsApiKey: string | null; nowpaymentsIpnSecret: string | null },
): Promise<void> {
  await db
    .update(botSettings)
    .set({
      nowpaymentsApiKey: keys.nowpaymentsApiKey ? box.encrypt(keys.nowpaymentsApiKey) : null,
      nowpaymentsIpnSecret: keys.nowpaymentsIpnSecret ? box.encrypt(keys.nowpaymentsIpnSecret) : null,
      updatedAt: new Date(),
    })
    .where(eq(botSettings.id, id));
}
