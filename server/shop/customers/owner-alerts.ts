import crypto from "node:crypto";
import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";
import { itemDisplayName, OWNER_LINK_CODE_MINUTES, type OwnerAlertKinds, type OwnerAlerts, type OwnerAlertsInput } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { customerMessages, orderItems, orders, ownerAlertSettings } from "../../db/schema";
import { readableAddress, revealMessages } from "../vaults";
import { shortOrderId } from "../common";

// Owner alerts (issue 14, item 5; docs/decisions/0020-owner-alerts-outbox.md): the owner links a
// Telegram chat by sending the bot a one-time code from Bot Settings, then gets a message there when
// an order is paid, a customer writes, a payment falls short or a product runs low. Database triggers
// (drizzle/0011_owner_alerts.sql) put each event in the owner_alerts outbox; the sender
// (telegram/owner-alert-sender.ts) claims them through the functions here and sends the texts made here.

/** Wrong codes tried against one code before it is dropped: guessing 1 in a million gets 10 tries. */
export const MAX_LINK_CODE_FAILURES = 10;

type SettingsRow = typeof ownerAlertSettings.$inferSelect;

const DEFAULT_KINDS: OwnerAlertKinds = { paidOrder: true, customerMessage: true, underpaid: true, lowStock: true };

/** The one settings row, or null before the owner first did anything with alerts. */
export async function getOwnerAlertSettings(db: DbOrTx): Promise<SettingsRow | null> {
  const [row] = await db.select().from(ownerAlertSettings).where(eq(ownerAlertSettings.id, true));
  return row ?? null;
}

function toOwnerAlerts(row: SettingsRow | null): OwnerAlerts {
  if (!row) return { linked: false, chatTitle: null, kinds: { ...DEFAULT_KINDS } };
  return {
    linked: row.chatId !== null,
    chatTitle: row.chatId !== null ? row.chatTitle : null,
    kinds: { paidOrder: row.paidOrder, customerMessage: row.customerMessage, underpaid: row.underpaid, lowStock: row.lowStock },
  };
}

/** Creates the row with its defaults when missing, so every change below is a plain UPDATE. */
async function ensureRow(db: DbOrTx): Promise<void> {
  await db.insert(ownerAlertSettings).values({ id: true }).onConflictDoNothing();
}

export async function getOwnerAlerts(db: DbOrTx): Promise<OwnerAlerts> {
  return toOwnerAlerts(await getOwnerAlertSettings(db));
}

/** Switches kinds on or off; kinds not given stay as they are. */
export async function setOwnerAlertKinds(db: DbOrTx, kinds: OwnerAlertsInput["kinds"], now: Date): Promise<OwnerAlerts> {
  await ensureRow(db);
  const changes: Partial<SettingsRow> = { updatedAt: now };
  if (kinds.paidOrder !== undefined) changes.paidOrder = kinds.paidOrder;
  if (kinds.customerMessage !== undefined) changes.customerMessage = kinds.customerMessage;
  if (kinds.underpaid !== undefined) changes.underpaid = kinds.underpaid;
  if (kinds.lowStock !== undefined) changes.lowStock = kinds.lowStock;
  const [row] = await db.update(ownerAlertSettings).set(changes).where(eq(ownerAlertSettings.id, true)).returning();
  return toOwnerAlerts(row ?? null);
}

/** Stops every alert: no chat is linked any more (the kinds are kept for the next link). */
export async function unlinkOwnerChat(db: DbOrTx, now: Date): Promise<OwnerAlerts> {
  await ensureRow(db);
  const [row] = await db
    .update(ownerAlertSettings)
    .set({ chatId: null, chatTitle: null, linkedAt: null, updatedAt: now })
    .where(eq(ownerAlertSettings.id, true))
    .returning();
  return toOwnerAlerts(row ?? null);
}

/** Only a hash is stored: a copy of the database holds no code that could still be sent to the bot. */
function hashLinkCode(code: string): string {
  return crypto.createHash("sha256").update(`owner-link:${code}`).digest("hex");
}

/**
 * A new one-time link code (6 digits), valid OWNER_LINK_CODE_MINUTES; any earlier code stops working.
 * The code itself is answered once, here, and never stored.
 */
export async function issueLinkCode(db: DbOrTx, now: Date): Promise<{ code: string; expiresAt: Date }> {
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  const expiresAt = new Date(now.getTime() + OWNER_LINK_CODE_MINUTES * 60_000);
  await ensureRow(db);
  await db
    .update(ownerAlertSettings)
    .set({ linkCodeHash: hashLinkCode(code), linkCodeExpiresAt: expiresAt, linkCodeFailures: 0, updatedAt: now })
    .where(eq(ownerAlertSettings.id, true));
  return { code, expiresAt };
}

/**
 * Links the chat the code was sent from, when the code is the current one and has not expired. One
 * conditional UPDATE clears the code as it links: two senders of the same code cannot both link.
 * A wrong code counts against the current one, which is dropped after MAX_LINK_CODE_FAILURES.
 */
export async function redeemLinkCode(
  db: DbOrTx,
  code: string,
  chat: { id: string; title: string },
  now: Date,
): Promise<boolean> {
  const candidate = code.trim();
  if (/^\d{6}$/.test(candidate)) {
    const [linked] = await db
      .update(ownerAlertSettings)
      .set({
        chatId: chat.id,
        chatTitle: chat.title,
        linkedAt: now,
        linkCodeHash: null,
        linkCodeExpiresAt: null,
        linkCodeFailures: 0,
        updatedAt: now,
      })
      .where(
        and(
          eq(ownerAlertSettings.id, true),
          eq(ownerAlertSettings.linkCodeHash, hashLinkCode(candidate)),
          gt(ownerAlertSettings.linkCodeExpiresAt, now),
        ),
      )
      .returning({ chatId: ownerAlertSettings.chatId });
    if (linked) return true;
  }
  await db
    .update(ownerAlertSettings)
    .set({
      linkCodeFailures: sql`${ownerAlertSettings.linkCodeFailures} + 1`,
      linkCodeHash: sql`case when ${ownerAlertSettings.linkCodeFailures} + 1 >= ${MAX_LINK_CODE_FAILURES} then null else ${ownerAlertSettings.linkCodeHash} end`,
    })
    .where(and(eq(ownerAlertSettings.id, true), isNotNull(ownerAlertSettings.linkCodeHash)));
  return false;
}

// --- The outbox (owner_alerts, created by hand in drizzle/0011_owner_alerts.sql: not backed up) ---

export type OwnerAlertKindRow = "paid_order" | "customer_message" | "underpaid" | "low_stock";

export type ClaimedAlert = {
  id: number;
  kind: OwnerAlertKindRow;
  ref: string;
  payload: Record<string, unknown>;
  attempts: number;
  createdAt: Date;
};

/** Which switch (contract's kinds) holds back an outbox kind. */
export const KIND_SWITCH: Record<OwnerAlertKindRow, keyof OwnerAlertKinds> = {
  paid_order: "paidOrder",
  customer_message: "customerMessage",
  underpaid: "underpaid",
  low_stock: "lowStock",
};

type AlertRow = { id: number | string; kind: OwnerAlertKindRow; ref: string; payload: unknown; attempts: number; created_at: Date | string };

function rowsOf(result: unknown): AlertRow[] {
  return (result as { rows: AlertRow[] }).rows;
}

/**
 * Takes the oldest pending alert that is due and held by no live claim, for `claimMs`. Two senders
 * racing take different rows: the inner SELECT skips rows another transaction has locked, and the
 * UPDATE re-checks the claim on the row it locked. The database's clock decides, the same for all.
 */
export async function claimNextAlert(db: DbOrTx, claimMs: number): Promise<ClaimedAlert | null> {
  const rows = rowsOf(
    // A scalar subquery runs once: a LIMIT 1 subquery joined in may be scanned again per row and claim several.
    await db.execute(sql`
      update owner_alerts as a
         set claimed_until = now() + ${claimMs} * interval '1 millisecond', attempts = a.attempts + 1
       where a.id = (
               select id from owner_alerts
                where state = 'pending' and not_before <= now() and (claimed_until is null or claimed_until < now())
                order by not_before, id
                limit 1
                for update skip locked
             )
         and a.state = 'pending' and (a.claimed_until is null or a.claimed_until < now())
      returning a.id, a.kind, a.ref, a.payload, a.attempts, a.created_at`),
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    kind: row.kind,
    ref: row.ref,
    // node-postgres parses jsonb; a driver that hands back text gets parsed here.
    payload: (typeof row.payload === "string" ? JSON.parse(row.payload) : (row.payload ?? {})) as Record<string, unknown>,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
  };
}

/** Done with an alert: sent, skipped (switched off, nothing linked, what it is about is gone) or failed. */
export async function finishAlert(db: DbOrTx, id: number, state: "sent" | "skipped" | "failed", error: string | null = null): Promise<void> {
  await db.execute(sql`
    update owner_alerts set state = ${state}, error = ${error}, done_at = now(), claimed_until = null where id = ${id}`);
}

/** Back in the queue, not to be tried for `delayMs` (a retry's backoff, Telegram's retry_after). */
export async function retryAlertLater(db: DbOrTx, id: number, delayMs: number, error: string): Promise<void> {
  await db.execute(sql`
    update owner_alerts
       set not_before = now() + ${delayMs} * interval '1 millisecond', claimed_until = null, error = ${error}
     where id = ${id}`);
}

/** Frees every claim: only for a database no other process uses (PGlite), at start after a crash. */
export async function releaseAlertClaims(db: DbOrTx): Promise<void> {
  await db.execute(sql`update owner_alerts set claimed_until = null where state = 'pending' and claimed_until is not null`);
}

/** Forgets alerts finished longer ago than `keepMs`: the outbox only needs its recent past. */
export async function pruneAlerts(db: DbOrTx, keepMs: number): Promise<void> {
  await db.execute(sql`delete from owner_alerts where done_at is not null and done_at < now() - ${keepMs} * interval '1 millisecond'`);
}

/** Why an alert is not to be sent to the owner, or null when it is. */
export function skipReason(settings: SettingsRow | null, alert: Pick<ClaimedAlert, "kind" | "createdAt">): string | null {
  if (!settings?.chatId) return "no chat is linked";
  if (!settings[KIND_SWITCH[alert.kind]]) return "this kind of alert is switched off";
  // Events from before the chat was linked (while alerts went nowhere) are not sent in a burst afterwards.
  if (settings.linkedAt && alert.createdAt < settings.linkedAt) return "it happened before the chat was linked";
  return null;
}

// --- What the alerts say (plain text: nothing a customer wrote can be taken as markup) ---

/** Telegram refuses a message over 4096 characters; a customer's text is cut well before that. */
const QUOTE_MAX = 3000;

const gbp = (amount: string | number) => `£${Number(amount).toFixed(2)}`;
const text = (value: unknown) => (value === null || value === undefined || value === "" ? "?" : String(value));

/** The text of an alert, read from the database as it is now; null when what it is about is gone (skipped). */
export async function ownerAlertText(db: DbOrTx, alert: Pick<ClaimedAlert, "kind" | "ref" | "payload">, publicUrl: string | undefined): Promise<string | null> {
  switch (alert.kind) {
    case "paid_order": {
      const [order] = await db.select().from(orders).where(eq(orders.id, alert.ref));
      if (!order) return null;
      const items = await db
        .select({ name: orderItems.productName, variantLabel: orderItems.variantLabel, quantity: orderItems.quantity })
        .from(orderItems)
        .where(eq(orderItems.orderId, order.id))
        .orderBy(asc(orderItems.productName), asc(orderItems.variantLabel), asc(orderItems.id));
      const name = order.telegramUsername ? null : ((await readableAddress(db, order))?.address.name ?? null);
      const customer = order.telegramUsername ? `@${order.telegramUsername}` : (name ?? `customer ${order.telegramUserId}`);
      return [
        `💰 Order #${shortOrderId(order.id)} paid: ${gbp(order.totalAmount)}`,
        // A variant is named as the customer bought it (issue 23): "2 × Acceptance Tee (M / Black)".
        ...items.map((item) => `${item.quantity} × ${itemDisplayName(item.name ?? "(deleted product)", item.variantLabel)}`),
        `Customer: ${customer}`,
      ].join("\n");
    }
    case "customer_message": {
      const [message] = await db.select().from(customerMessages).where(eq(customerMessages.id, alert.ref));
      if (!message) return null;
      let who = message.telegramUsername ? `@${message.telegramUsername}` : null;
      if (!who && message.orderId) {
        const [order] = await db.select({ id: orders.id, address: orders.address }).from(orders).where(eq(orders.id, message.orderId));
        who = order ? ((await readableAddress(db, order))?.address.name ?? null) : null;
      }
      const [said] = await revealMessages(db, [message]);
      const quote = said!.length > QUOTE_MAX ? `${said!.slice(0, QUOTE_MAX)}…` : said!;
      const lines = [`✉️ New message from ${who ?? `customer ${message.telegramUserId}`}:`, quote];
      if (publicUrl) lines.push("", `Reply: ${publicUrl.replace(/\/+$/, "")}/messages`);
      return lines.join("\n");
    }
    case "underpaid": {
      const currency = alert.payload.currency ? ` ${String(alert.payload.currency).toUpperCase()}` : "";
      return `⚠️ Order #${shortOrderId(alert.ref)} underpaid: ${text(alert.payload.paid)}${currency} paid of ${text(alert.payload.due)}${currency} due.`;
    }
    case "low_stock":
      // A variant's alert (issue 23) names it and its SKU: "Acceptance Tee (M / Black), SKU TEE-M-BLK".
      return `📦 Low stock: ${text(alert.payload.name)}${alert.payload.sku ? `, SKU ${text(alert.payload.sku)},` : ""} has ${text(alert.payload.stock)} left (alert at ${text(alert.payload.threshold)} or fewer).`;
  }
}
