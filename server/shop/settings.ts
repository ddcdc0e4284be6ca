import { eq } from "drizzle-orm";
import type { BotSettings } from "../../contract";
import { BotSettingsInputSchema } from "../../contract";
import type { z } from "zod";
import type { SecretBox } from "../crypto";
import type { DbOrTx } from "../db/client";
import { botSettings } from "../db/schema";
import { notFound } from "./errors";

type SettingsValues = z.output<typeof BotSettingsInputSchema>;
type Row = typeof botSettings.$inferSelect;

const SECRET_FIELDS = ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const;

/** SPEC's Bot Preview text when no welcome message is set. */
export const DEFAULT_WELCOME_MESSAGE =
  "Welcome to our shop! Browse our products, place orders and pay securely with cryptocurrency.";

function decryptRow(row: Row, box: SecretBox): BotSettings {
  return {
    ...row,
    acceptedCurrencies: row.acceptedCurrencies as BotSettings["acceptedCurrencies"],
    botToken: box.decrypt(row.botToken),
    nowpaymentsApiKey: row.nowpaymentsApiKey ? box.decrypt(row.nowpaymentsApiKey) : null,
    nowpaymentsIpnSecret: row.nowpaymentsIpnSecret ? box.decrypt(row.nowpaymentsIpnSecret) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function encryptValues(values: SettingsValues, box: SecretBox) {
  const out = { ...values };
  for (const field of SECRET_FIELDS) {
    const value = out[field];
    if (value) (out as Record<string, unknown>)[field] = box.encrypt(value);
  }
  return out;
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
  const [row] = await db.insert(botSettings).values(encryptValues(values, box)).returning();
  return decryptRow(row!, box);
}

export async function updateBotSettings(
  db: DbOrTx,
  box: SecretBox,
  id: string,
  values: SettingsValues,
): Promise<BotSettings> {
  const [row] = await db
    .update(botSettings)
    .set({ ...encryptValues(values, box), updatedAt: new Date() })
    .where(eq(botSettings.id, id))
    .returning();
  if (!row) throw notFound("Bot settings not found");
  return decryptRow(row, box);
}
