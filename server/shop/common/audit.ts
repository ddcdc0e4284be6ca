import { and, count, desc, eq, notLike, type SQL } from "drizzle-orm";
import type { AuditEntry, AuditLogQuery } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { auditLog } from "../../db/schema";
import { afterKey, decodeCursor, type KeyPart, keyText, type Page, pageFromRows } from "./paging";

// The audit log (issue 13, item 6): who changed what, and when. The HTTP layer records each admin
// write (server/http/audit.ts); this module decides what an entry may hold, stores it and lists it.

export type NewAuditEntry = {
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  summary?: string;
  ip?: string | null;
  /** The account that acted (issue 25); its username is kept too, so the entry outlives the account. */
  account?: { id: string | null; username: string } | null;
};

/**
 * Field names whose values are secrets: the admin password, the bot token, the gateway's API key and
 * IPN secret, session and upload tokens, a staff invite's one-time link. Matched anywhere in a body,
 * at any depth, whatever the case.
 */
const SECRET_FIELD = /password|token|secret|api_?key|sig(nature)?$|cookie|authorization|invite_?url/i;

/** A Telegram bot token (<bot id>:<secret>) wherever it appears, even in a field of another name. */
const BOT_TOKEN = /\d{5,}:[A-Za-z0-9_-]{10,}/g;

export const HIDDEN = "[hidden]";
/** One value's longest shown form, and the whole summary's: enough to recognise, never a whole text. */
export const SUMMARY_VALUE_MAX = 80;
export const SUMMARY_MAX = 500;

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A value with every secret field replaced, at any depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, SECRET_FIELD.test(key) ? (child == null ? child : HIDDEN) : withoutSecrets(child)]),
    );
  }
  return value;
}

/**
 * What a write's body changed, in short: `name: "Sencha", price: "4.99"`. Secret fields are shown
 * as [hidden] (the entry says a new one was saved, never what it is), a bot token is removed from
 * any other text, and each value and the whole are cut short. Fields left empty are left out. Anything
 * but a JSON object (an image's bytes, nothing) summarises as "".
 */
export function summariseChange(body: unknown): string {
  if (!body || typeof body !== "object" || Array.isArray(body) || Buffer.isBuffer(body)) return "";
  const fields = Object.entries(withoutSecrets(body) as Record<string, unknown>)
    // What the form left empty (null, absent) says nothing about the change.
    .filter(([, value]) => value != null)
    .map(([key, value]) => `${key}: ${value === HIDDEN ? HIDDEN : truncate(JSON.stringify(value) ?? String(value), SUMMARY_VALUE_MAX)}`);
  return truncate(scrubBotTokens(fields.join(", ")), SUMMARY_MAX);
}

function scrubBotTokens(text: string): string {
  return text.replace(BOT_TOKEN, HIDDEN);
}

/** Text to keep as it is (an id, an action name), with secrets scrubbed and its length bounded. */
const bounded = (text: string | null | undefined, max: number) => (text == null ? null : truncate(scrubBotTokens(text), max));

/** Stores one entry. The caller decides whether a failure matters (the HTTP hook only warns). */
export async function recordAudit(db: DbOrTx, entry: NewAuditEntry, now?: Date): Promise<void> {
  await db.insert(auditLog).values({
    action: truncate(entry.action, 100),
    targetType: bounded(entry.targetType, 50),
    targetId: bounded(entry.targetId, 200),
    summary: bounded(entry.summary ?? "", SUMMARY_MAX) ?? "",
    ip: bounded(entry.ip, 100),
    accountId: entry.account?.id ?? null,
    accountUsername: bounded(entry.account?.username, 64),
    ...(now ? { createdAt: now } : {}),
  });
}

// Newest first, ties by id: the (created_at, id) index answers a page, and the (target_type,
// target_id, created_at) one answers an order's history.
const NEWEST_FIRST: KeyPart[] = [
  { column: auditLog.createdAt, kind: "moment" },
  { column: auditLog.id, kind: "uuid" },
];
const CURSOR_SORT = "audit-newest";

function toEntry(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    summary: row.summary,
    ip: row.ip,
    accountId: row.accountId,
    accountUsername: row.accountUsername,
  };
}

/** One page of the log, newest first, optionally about one kind of target or one target. */
export async function listAuditLog(db: DbOrTx, query: AuditLogQuery): Promise<Page<AuditEntry>> {
  const filters: SQL[] = [];
  if (query.targetType) filters.push(eq(auditLog.targetType, query.targetType));
  if (query.targetId) filters.push(eq(auditLog.targetId, query.targetId));
  // The (account_id, created_at, id) index answers one account's page (issue 25).
  if (query.accountId) filters.push(eq(auditLog.accountId, query.accountId));
  if (query.signIns === false) filters.push(notLike(auditLog.action, "auth.%"));
  const conditions = [...filters];
  if (query.cursor) conditions.push(afterKey(NEWEST_FIRST, decodeCursor(query.cursor, CURSOR_SORT, NEWEST_FIRST), "desc"));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ entry: auditLog, key0: keyText(NEWEST_FIRST[0]!), key1: keyText(NEWEST_FIRST[1]!) })
      .from(auditLog)
      .where(and(...conditions))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(query.limit + 1),
    db.select({ total: count() }).from(auditLog).where(and(...filters)),
  ]);
  return pageFromRows(rows, query.limit, counted?.total ?? 0, { sort: CURSOR_SORT, key: (row) => [row.key0, row.key1] }, (row) =>
    toEntry(row.entry),
  );
}
