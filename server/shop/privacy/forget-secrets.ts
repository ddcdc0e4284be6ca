import { eq, inArray, isNotNull, like, or, sql } from "drizzle-orm";
import { createSecretBox, isEncryptedSecret, SecretUnreadableError } from "../../crypto";
import type { Db, DbOrTx } from "../../db/client";
import { botConversations, botSettings, customerMessages, customerNotes, dataKeys, orders, paymentGatewaySettings } from "../../db/schema";
import { sealKeyCheck } from "./key-check";
import { SERVER_KEY_PREFIX, unwrapDataKey } from "../vaults";

// `npm run secrets:forget` (scripts/secrets-forget.ts; README "Backup"; docs/SECURITY.md "The secret
// key"): the way out when the master key of a shop's data is lost. What the current key cannot open is
// forgotten, so the shop starts with it: the bot token, the NOWPayments keys and BTCPay's API key and
// webhook secret (typed again, or the webhook registered again, in Bot Settings) and the data keys it cannot unwrap. What customers typed under those data keys cannot be
// decrypted by anyone any more; it stays in the rows and reads as unreadable (address-vault.ts,
// message-vault.ts; a checkout draft reads as no checkout), until the privacy rules erase it.

const SECRET_COLUMNS = ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const;
/** BTCPay Server's secrets (issue 24): its API key and the webhook's signing secret. */
const GATEWAY_SECRET_COLUMNS = ["btcpayApiKey", "btcpayWebhookSecret"] as const;

export type ForgetReport = {
  /** Stored secrets (bot token, NOWPayments API key, IPN secret) this key cannot open. */
  secrets: number;
  /** Data keys this key cannot unwrap. */
  dataKeys: number;
  /** What customers typed under those data keys: it cannot be decrypted any more. */
  addresses: number;
  messages: number;
  drafts: number;
  /** The owner's notes about customers under those keys (docs/decisions/0029-customer-notes.md). */
  notes: number;
};

type Lost = {
  settings: { id: string; columns: (typeof SECRET_COLUMNS)[number][] }[];
  gateways: { id: string; columns: (typeof GATEWAY_SECRET_COLUMNS)[number][] }[];
  keyIds: string[];
};

async function findLost(db: DbOrTx, master: Buffer): Promise<Lost> {
  const box = createSecretBox(master);
  const opens = (stored: string) => {
    try {
      box.decrypt(stored);
      return true;
    } catch (error) {
      if (error instanceof SecretUnreadableError) return false;
      throw error;
    }
  };
  const settings: Lost["settings"] = [];
  for (const row of await db.select().from(botSettings)) {
    const columns = SECRET_COLUMNS.filter((column) => {
      const stored = row[column];
      return stored !== null && isEncryptedSecret(stored) && !opens(stored);
    });
    if (columns.length > 0) settings.push({ id: row.id, columns });
  }
  const gateways: Lost["gateways"] = [];
  for (const row of await db.select().from(paymentGatewaySettings)) {
    const columns = GATEWAY_SECRET_COLUMNS.filter((column) => {
      const stored = row[column];
      return stored !== null && isEncryptedSecret(stored) && !opens(stored);
    });
    if (columns.length > 0) gateways.push({ id: row.id, columns });
  }
  const keyIds: string[] = [];
  for (const row of await db.select({ id: dataKeys.id, wrapped: dataKeys.wrapped }).from(dataKeys).where(isNotNull(dataKeys.wrapped))) {
    try {
      unwrapDataKey(master, row.id, row.wrapped!);
    } catch {
      keyIds.push(row.id);
    }
  }
  return { settings, gateways, keyIds };
}

async function countUnder(db: DbOrTx, keyIds: string[]): Promise<Pick<ForgetReport, "addresses" | "messages" | "drafts" | "notes">> {
  if (keyIds.length === 0) return { addresses: 0, messages: 0, drafts: 0, notes: 0 };
  const prefixes = keyIds.map((id) => `${SERVER_KEY_PREFIX}${id}:%`);
  const count = sql<number>`count(*)::int`;
  const [addresses] = await db.select({ n: count }).from(orders).where(or(...prefixes.map((prefix) => like(orders.address, prefix))));
  const [messages] = await db
    .select({ n: count })
    .from(customerMessages)
    .where(or(...prefixes.map((prefix) => like(customerMessages.message, prefix))));
  const [drafts] = await db
    .select({ n: count })
    .from(botConversations)
    .where(or(...prefixes.map((prefix) => sql`${botConversations.state} ->> 'sealedDraft' like ${prefix}`)));
  const [notes] = await db
    .select({ n: count })
    .from(customerNotes)
    .where(or(...prefixes.map((prefix) => like(customerNotes.note, prefix))));
  return { addresses: Number(addresses!.n), messages: Number(messages!.n), drafts: Number(drafts!.n), notes: Number(notes!.n) };
}

function reportOf(lost: Lost, under: Pick<ForgetReport, "addresses" | "messages" | "drafts" | "notes">): ForgetReport {
  const secrets = [...lost.settings, ...lost.gateways].reduce((n, row) => n + row.columns.length, 0);
  return { secrets, dataKeys: lost.keyIds.length, ...under };
}

/** What forgetting would lose with this key, without changing anything. */
export async function whatForgettingLoses(db: DbOrTx, master: Buffer): Promise<ForgetReport> {
  const lost = await findLost(db, master);
  return reportOf(lost, await countUnder(db, lost.keyIds));
}

/**
 * Forgets, in one transaction, what `master` cannot open: the secrets are emptied (not set), the data
 * keys retired with their wrapped key deleted (as keys:rotate retires one), and the key check is
 * sealed with `master`, so the next start with it goes ahead. A new data key is made at the first write.
 */
export async function forgetSecretsOfAnotherKey(db: Db, master: Buffer): Promise<ForgetReport> {
  return db.transaction(async (tx) => {
    // Locked first: a server on PostgreSQL cannot save Bot Settings in between.
    await tx.select({ id: botSettings.id }).from(botSettings).for("update");
    await tx.select({ id: paymentGatewaySettings.id }).from(paymentGatewaySettings).for("update");
    await tx.select({ id: dataKeys.id }).from(dataKeys).for("update");
    const lost = await findLost(tx, master);
    const report = reportOf(lost, await countUnder(tx, lost.keyIds));
    for (const row of lost.settings) {
      const forgotten = Object.fromEntries(row.columns.map((column) => [column, column === "botToken" ? "" : null]));
      await tx.update(botSettings).set({ ...forgotten, updatedAt: new Date() }).where(eq(botSettings.id, row.id));
    }
    for (const row of lost.gateways) {
      const forgotten: Partial<typeof paymentGatewaySettings.$inferInsert> = Object.fromEntries(row.columns.map((column) => [column, null]));
      // Without its secret the registered webhook cannot be checked: registered again from Bot Settings.
      if (row.columns.includes("btcpayWebhookSecret")) Object.assign(forgotten, { btcpayWebhookId: null, btcpayWebhookUrl: null });
      await tx.update(paymentGatewaySettings).set({ ...forgotten, updatedAt: new Date() }).where(eq(paymentGatewaySettings.id, row.id));
    }
    if (lost.keyIds.length > 0) {
      await tx.update(dataKeys).set({ state: "retired", wrapped: null, retiredAt: new Date() }).where(inArray(dataKeys.id, lost.keyIds));
    }
    await sealKeyCheck(tx, master);
    return report;
  });
}
