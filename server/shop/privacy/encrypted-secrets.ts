import { and, eq, getTableColumns, getTableName, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { accounts, botSettings, paymentGatewaySettings } from "../../db/schema";
import { endSessionsOf, removeTwoFactor } from "../team";

// Every column the secret box (server/crypto.ts) writes, in one list: what the master key encrypts
// besides the data keys (docs/SECURITY.md "The secret key"). The key check judges a shop from before
// it by them (key-check.ts), `secrets:forget` forgets those the key in use cannot open
// (forget-secrets.ts), `keys:rotate --new-secret-key` encrypts them again (key-rotation.ts). A new
// encrypted column is added here, and key-check.test.ts fails until it is.

/** The tables with a secret: each names its rows by an `id` column. */
type SecretTable = typeof botSettings | typeof paymentGatewaySettings | typeof accounts;

export type EncryptedSecret = {
  /** "table.column", as in the database. */
  name: string;
  table: SecretTable;
  column: PgColumn;
  /** What it is, as secrets:forget names it. */
  what: string;
  /** What the shop does without it, and what to do: secrets:forget says it after `what`. */
  whenForgotten: string;
  /** Forgets it in these rows: the column emptied, and whatever cannot stand without it. */
  forget(tx: DbOrTx, rowIds: string[]): Promise<void>;
  /** Of these rows, the accounts that lose something they must set up again in person (usernames). */
  accountsAffected?(db: DbOrTx, rowIds: string[]): Promise<string[]>;
};

function secretColumn<T extends SecretTable>(
  table: T,
  field: keyof T["_"]["columns"] & string,
  about: Pick<EncryptedSecret, "what" | "whenForgotten" | "accountsAffected">,
  forget: (tx: DbOrTx, rowIds: string[]) => Promise<void>,
): EncryptedSecret {
  const column = getTableColumns(table)[field] as PgColumn;
  return {
    name: `${getTableName(table)}.${column.name}`,
    table,
    column,
    ...about,
    forget: async (tx, rowIds) => {
      if (rowIds.length > 0) await forget(tx, rowIds);
    },
  };
}

/** Empties the columns of these Bot Settings rows. The bot token cannot be null: it is empty (not set). */
const emptyBotSettings = (changes: Partial<typeof botSettings.$inferInsert>) => async (tx: DbOrTx, rowIds: string[]) => {
  await tx
    .update(botSettings)
    .set({ ...changes, updatedAt: new Date() })
    .where(inArray(botSettings.id, rowIds));
};

const emptyGatewaySettings = (changes: Partial<typeof paymentGatewaySettings.$inferInsert>) => async (tx: DbOrTx, rowIds: string[]) => {
  await tx
    .update(paymentGatewaySettings)
    .set({ ...changes, updatedAt: new Date() })
    .where(inArray(paymentGatewaySettings.id, rowIds));
};

/** The accounts of these rows with two-factor on, by username. */
async function withTwoFactorOn(db: DbOrTx, rowIds: string[]): Promise<{ id: string; username: string }[]> {
  if (rowIds.length === 0) return [];
  return db
    .select({ id: accounts.id, username: accounts.username })
    .from(accounts)
    .where(and(inArray(accounts.id, rowIds), eq(accounts.totpEnabled, true)))
    .orderBy(accounts.username);
}

/**
 * A two-factor secret nobody can decrypt would lock its account out: two-factor is turned off (as
 * turning it off with a code does, shop/team), and the account's sessions end, so each signs in again
 * with the password and is no longer taken for one that proved a second factor. Setups begun and
 * not finished are dropped.
 */
async function turnOffTwoFactorOf(tx: DbOrTx, rowIds: string[]): Promise<void> {
  const enabled = await withTwoFactorOn(tx, rowIds);
  await removeTwoFactor(tx, rowIds);
  await endSessionsOf(tx, enabled.map((account) => account.id));
}

/** Every encrypted secret. The order is the order secrets:forget reports them in. */
export const ENCRYPTED_SECRETS: readonly EncryptedSecret[] = [
  secretColumn(
    botSettings,
    "botToken",
    { what: "the bot token", whenForgotten: "type it again in Bot Settings; the bot stays off until then." },
    emptyBotSettings({ botToken: "" }),
  ),
  secretColumn(
    botSettings,
    "nowpaymentsApiKey",
    { what: "the NOWPayments API key", whenForgotten: "type it again in Bot Settings (Payment gateways); NOWPayments takes no payments until then." },
    emptyBotSettings({ nowpaymentsApiKey: null }),
  ),
  secretColumn(
    botSettings,
    "nowpaymentsIpnSecret",
    {
      what: "the NOWPayments IPN secret",
      whenForgotten: "type it again in Bot Settings (Payment gateways); NOWPayments' payment notifications are refused until then.",
    },
    emptyBotSettings({ nowpaymentsIpnSecret: null }),
  ),
  secretColumn(
    paymentGatewaySettings,
    "btcpayApiKey",
    {
      what: "the BTCPay Server API key",
      whenForgotten:
        "type it again in Bot Settings (Payment gateways); until then the coins BTCPay Server takes are not offered and its open invoices are not checked.",
    },
    emptyGatewaySettings({ btcpayApiKey: null }),
  ),
  secretColumn(
    paymentGatewaySettings,
    "btcpayWebhookSecret",
    {
      what: "the BTCPay Server webhook secret",
      whenForgotten: "register the webhook again in Bot Settings (Payment gateways); BTCPay Server's notifications are refused until then.",
    },
    // Without its secret the registered webhook cannot be checked: it is registered again.
    emptyGatewaySettings({ btcpayWebhookSecret: null, btcpayWebhookId: null, btcpayWebhookUrl: null }),
  ),
  secretColumn(
    accounts,
    "totpSecret",
    {
      what: "the accounts' two-factor secrets",
      whenForgotten:
        "two-factor sign-in is turned off and the accounts that had it are signed out: they sign in with their password and set up two-factor again under Your account.",
      accountsAffected: async (db, rowIds) => (await withTwoFactorOn(db, rowIds)).map((account) => account.username),
    },
    turnOffTwoFactorOf,
  ),
];

/**
 * The stored values of one secret, with the id of their row: those set (an empty bot token is not),
 * encrypted or, from before encryption existed, in clear.
 */
export async function storedValuesOf(db: DbOrTx, secret: EncryptedSecret): Promise<{ rowId: string; stored: string }[]> {
  const rows = await db
    .select({ rowId: secret.table.id, stored: secret.column })
    .from(secret.table)
    .where(and(isNotNull(secret.column), ne(secret.column, "")));
  return rows.map((row) => ({ rowId: String(row.rowId), stored: String(row.stored) }));
}

/** Replaces one stored value (keys:rotate). Nothing else of the row changes: the value means the same. */
export async function replaceStoredValue(db: DbOrTx, secret: EncryptedSecret, rowId: string, value: string): Promise<void> {
  await db.execute(sql`update ${secret.table} set ${sql.identifier(secret.column.name)} = ${value} where ${secret.table.id} = ${rowId}`);
}

/** Holds the rows with a secret until the transaction ends: a server on PostgreSQL cannot save one meanwhile. */
export async function lockSecretRows(tx: DbOrTx): Promise<void> {
  for (const table of new Set(ENCRYPTED_SECRETS.map((secret) => secret.table))) {
    await tx.select({ id: table.id }).from(table).for("update");
  }
}
