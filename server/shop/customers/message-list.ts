import { and, asc, count, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import type { Conversation, ConversationListQuery, CustomerMessage, Language, MessageListQuery } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { botCustomers, customerMessages } from "../../db/schema";
import { messagesOf } from "./messages";
import { messageSearchCondition, revealMessages } from "../vaults";
import { afterKey, decodeCursor, escapeLike, type KeyPart, keyText, type Page, pageFromRows } from "../common";

// The Messages screen's lists on the server (issue 12): messages filtered and paged, and one row
// per customer (the conversation list) so the screen no longer downloads every message.

export type MessageFilters = Omit<MessageListQuery, "limit" | "cursor">;

const KEY: KeyPart[] = [
  { column: customerMessages.createdAt, kind: "moment" },
  { column: customerMessages.id, kind: "uuid" },
];

/** The expression the username search index is built on (schema.ts). */
export const messageUsernameSearchKey = sql`lower(${customerMessages.telegramUsername})`;

const isUnread = and(eq(customerMessages.isFromCustomer, true), eq(customerMessages.isRead, false))!;

export async function filterConditions(db: DbOrTx, filters: MessageFilters): Promise<SQL[]> {
  const conditions: SQL[] = [];
  if (filters.q) {
    // Every word of it in the text (through the blind index: whole words, since the text is encrypted),
    // or the start of the @username.
    const username = filters.q.replace(/^@/, "");
    const matches: SQL[] = [];
    const words = filters.q.startsWith("@") ? null : await messageSearchCondition(db, filters.q);
    if (words) matches.push(words);
    if (username !== "") matches.push(sql`${messageUsernameSearchKey} like lower(${escapeLike(username)}) || '%' escape '\\'`);
    conditions.push(matches.length > 0 ? or(...matches)! : sql`false`);
  }
  if (filters.telegramUserId) conditions.push(eq(customerMessages.telegramUserId, filters.telegramUserId));
  if (filters.sender) conditions.push(eq(customerMessages.isFromCustomer, filters.sender === "customer"));
  if (filters.unread === true) conditions.push(isUnread);
  if (filters.unread === false) conditions.push(sql`not (${isUnread})`);
  if (filters.from) conditions.push(gte(customerMessages.createdAt, filters.from));
  if (filters.to) conditions.push(lt(customerMessages.createdAt, filters.to));
  return conditions;
}

/** The rows of one page; `filters` are the query's filterConditions. */
export function messagePageQuery(db: DbOrTx, query: MessageListQuery, filters: SQL[]) {
  const direction = query.sort === "oldest" ? "asc" : "desc";
  const conditions = [...filters];
  if (query.cursor) conditions.push(afterKey(KEY, decodeCursor(query.cursor, query.sort, KEY), direction));
  const order = direction === "desc" ? desc : asc;
  const select = db
    .select({ message: customerMessages, key0: keyText(KEY[0]!) })
    .from(customerMessages)
    .where(and(...conditions))
    .orderBy(order(customerMessages.createdAt), order(customerMessages.id));
  return query.limit === undefined ? select : select.limit(query.limit + 1);
}

export async function listMessagesMatching(db: DbOrTx, filters: MessageFilters): Promise<CustomerMessage[]> {
  const query = { ...filters, limit: undefined, cursor: undefined };
  const rows = await messagePageQuery(db, query, await filterConditions(db, query));
  return messagesOf(
    db,
    rows.map((row) => row.message),
  );
}

export async function listMessagePage(db: DbOrTx, query: MessageListQuery & { limit: number }): Promise<Page<CustomerMessage>> {
  const conditions = await filterConditions(db, query);
  const [rows, [counted]] = await Promise.all([
    messagePageQuery(db, query, conditions),
    db.select({ total: count() }).from(customerMessages).where(and(...conditions)),
  ]);
  const page = pageFromRows(
    rows,
    query.limit,
    counted?.total ?? 0,
    { sort: query.sort, key: (row) => [row.key0, row.message.id] },
    (row) => row.message,
  );
  return { ...page, rows: await messagesOf(db, page.rows) };
}

type ConversationRow = {
  telegram_user_id: string;
  /** The cursor's text of the moment (see paging.ts); last_at_time is the same moment as the driver reads it. */
  last_at: string;
  last_at_time: Date | string;
  total: number | string;
  unread: number | string;
  message_id: string;
  message: string;
  is_from_customer: boolean;
  telegram_username: string | null;
  language: Language | null;
};

const CONVERSATION_SORT = "conversations";
/** A conversation's place in the list: its last message's moment, then the customer's id. */
const CONVERSATION_KEY: KeyPart[] = [
  { column: sql`c.last_at`, kind: "moment" },
  { column: sql`c.telegram_user_id`, kind: "text" },
];

/**
 * One row per customer, the latest conversation first (ties by user id): the aggregate reads the
 * (telegram_user_id, created_at) index; each row's last message and latest username come from the
 * same index, one customer at a time, for the page's rows only.
 *
 * A conversation that gets a new message while someone pages moves to the top: if it was still
 * below the cursor, this walk does not show it again (the next walk from the top does).
 */
function conversationRows(db: DbOrTx, query: ConversationListQuery, cursor: string[] | null, limit: number | null) {
  const m = customerMessages;
  const unreadOnly = query.unread === true ? sql`having count(*) filter (where ${isUnread}) > 0` : sql``;
  const after = cursor ? sql`where ${afterKey(CONVERSATION_KEY, cursor, "desc")}` : sql``;
  return db.execute<ConversationRow>(sql`
    with c as (
      select ${m.telegramUserId} as telegram_user_id, max(${m.createdAt}) as last_at, count(*) as total,
             count(*) filter (where ${isUnread}) as unread
      from ${m}
      group by ${m.telegramUserId}
      ${unreadOnly}
    )
    select c.telegram_user_id, ${keyText(CONVERSATION_KEY[0]!)} as last_at, c.last_at as last_at_time, c.total, c.unread,
           last.message_id, last.message, last.is_from_customer, named.telegram_username, spoken.language
    from c
    cross join lateral (
      select ${m.id} as message_id, ${m.message} as message, ${m.isFromCustomer} as is_from_customer
      from ${m} where ${m.telegramUserId} = c.telegram_user_id
      order by ${m.createdAt} desc, ${m.id} desc limit 1
    ) last
    left join lateral (
      select ${m.telegramUsername} as telegram_username
      from ${m} where ${m.telegramUserId} = c.telegram_user_id and ${m.telegramUsername} is not null
      order by ${m.createdAt} desc, ${m.id} desc limit 1
    ) named on true
    left join ${botCustomers} spoken on spoken.telegram_user_id = c.telegram_user_id
    ${after}
    order by c.last_at desc, c.telegram_user_id desc
    ${limit === null ? sql`` : sql`limit ${limit}`}
  `);
}


function toConversation(row: ConversationRow, lastMessage: string): Conversation {
  return {
    telegramUserId: row.telegram_user_id,
    telegramUsername: row.telegram_username,
    lastMessage,
    lastMessageAt: new Date(row.last_at_time).toISOString(),
    lastIsFromCustomer: row.is_from_customer,
    unreadCount: Number(row.unread),
    totalMessages: Number(row.total),
    language: row.language ?? null,
  };
}

/** Conversations from their rows, each last message decrypted. */
async function toConversations(db: DbOrTx, rows: ConversationRow[]): Promise<Conversation[]> {
  const texts = await revealMessages(
    db,
    rows.map((row) => ({ id: row.message_id, message: row.message })),
  );
  return rows.map((row, index) => toConversation(row, texts[index]!));
}

/** Rows of db.execute: node-postgres answers a result object, PGlite too; both carry `rows`. */
const rowsOf = <T>(result: { rows: T[] } | T[]) => (Array.isArray(result) ? result : result.rows);

export async function listConversationPage(
  db: DbOrTx,
  query: ConversationListQuery & { limit: number },
): Promise<Page<Conversation>> {
  const cursor = query.cursor ? decodeCursor(query.cursor, CONVERSATION_SORT, CONVERSATION_KEY) : null;
  const unreadOnly = query.unread === true ? sql`where ${isUnread}` : sql``;
  const [result, totalResult] = await Promise.all([
    conversationRows(db, query, cursor, query.limit + 1),
    db.execute<{ total: number | string }>(
      sql`select count(distinct ${customerMessages.telegramUserId}) as total from ${customerMessages} ${unreadOnly}`,
    ),
  ]);
  const page = pageFromRows(
    rowsOf(result as { rows: ConversationRow[] }),
    query.limit,
    Number(rowsOf(totalResult as { rows: { total: number | string }[] })[0]?.total ?? 0),
    { sort: CONVERSATION_SORT, key: (row) => [row.last_at, row.telegram_user_id] },
    (row) => row,
  );
  return { ...page, rows: await toConversations(db, page.rows) };
}

/** Every conversation, latest first (the list without `limit`). */
export async function listConversations(db: DbOrTx, query: ConversationListQuery): Promise<Conversation[]> {
  const result = await conversationRows(db, query, null, null);
  return toConversations(db, rowsOf(result as { rows: ConversationRow[] }));
}
