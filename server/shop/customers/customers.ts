import { TEST_CUSTOMER_SQL } from "../simulator";
import { desc, eq, type SQL, sql } from "drizzle-orm";
import {
  CUSTOMER_MESSAGES_SHOWN,
  CUSTOMER_ORDERS_SHOWN,
  type Customer,
  type CustomerBlockState,
  type CustomerDetail,
  type CustomerListQuery,
  type CustomerSort,
  type Language,
} from "../../../contract";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { blockedCustomers, botCustomers, customerMessages, orders } from "../../db/schema";
import { notFound, afterKey, decodeCursor, escapeLike, type KeyPart, keyText, type Page, pageFromRows } from "../common";
import { messageUsernameSearchKey } from "./message-list";
import { messagesOf } from "./messages";
import { usernameSearchKey, ordersOf, type SearchScope } from "../orders";
import { addressSearchCondition, revealAddresses } from "../vaults";
import type { ReadCache } from "../catalogue";
import { isRevenue } from "../insights";

// The Customers screen (issue 13). There is no customers table: a customer is a Telegram user id
// that has an order, a message, or a block, and their numbers are counted from those rows. The
// whole list counts each table in one pass grouped by customer (about 20 ms for 20,000 orders and
// 20,000 messages on PostgreSQL); a search or one customer's page reads only their rows, through the
// search and per-customer indexes the Orders and Messages lists already have (schema.ts).

const o = orders;
const m = customerMessages;
const b = blockedCustomers;
const bc = botCustomers;

const isUnread = sql`${m.isFromCustomer} and not ${m.isRead}`;

const SEARCH_ALL: SearchScope = { byAddress: true };

/** Each sort's key: the sorted value, then the user id, both descending. */
const SORT_KEYS: Record<CustomerSort, KeyPart[]> = {
  recent: [
    { column: sql`c.last_active_at`, kind: "moment" },
    { column: sql`c.telegram_user_id`, kind: "text" },
  ],
  "last-order": [
    { column: sql`c.last_order_key`, kind: "moment" },
    { column: sql`c.telegram_user_id`, kind: "text" },
  ],
  "total-spent": [
    { column: sql`c.total_spent`, kind: "decimal" },
    { column: sql`c.telegram_user_id`, kind: "text" },
  ],
};

/**
 * The user ids of every customer, or of those `q` finds (anyCustomerIds), or only those the bot speaks
 * `language` to (issue 26); never Bot Preview's test customer.
 */
async function customerIds(db: DbOrTx, q: string | undefined, scope: SearchScope, language?: Language): Promise<SQL> {
  const speaking = language ? sql`and telegram_user_id in (select ${bc.telegramUserId} from ${bc} where ${bc.language} = ${language})` : sql``;
  // Bot Preview's test customer is nobody's customer (docs/decisions/0023).
  return sql`select telegram_user_id from (${await anyCustomerIds(db, q, scope)}) as every_id where telegram_user_id <> ${TEST_CUSTOMER_SQL} ${speaking}`;
}

/** Whether a list names every customer (the cheaper whole-table counting), or only some ids. */
const listsEveryone = (query: { q?: string; language?: Language }) => !query.q && !query.language;

/**
 * The user ids of every customer, or of those whose user id is `q`, whose @username starts with it, or
 * whose shipping name (or a word of it) or postcode is `q` (the blind index, as the Orders search has
 * it; only with `scope.byAddress`, as there).
 */
async function anyCustomerIds(db: DbOrTx, q: string | undefined, scope: SearchScope): Promise<SQL> {
  if (!q) {
    return sql`select ${o.telegramUserId} as telegram_user_id from ${o}
      union select ${m.telegramUserId} from ${m}
      union select ${b.telegramUserId} from ${b}`;
  }
  // "@ann" looks for usernames only; "ann" for usernames and names, as the Orders search does.
  const username = escapeLike(q.replace(/^@/, ""));
  const usernameStarts = (key: SQL) => (username === "" ? sql`false` : sql`${key} like lower(${username}) || '%' escape '\\'`);
  const name = (q.startsWith("@") || !scope.byAddress ? null : await addressSearchCondition(db, q)) ?? sql`false`;
  return sql`select ${o.telegramUserId} as telegram_user_id from ${o}
      where ${o.telegramUserId} = ${q} or ${usernameStarts(usernameSearchKey)} or ${name}
    union select ${m.telegramUserId} from ${m}
      where ${m.telegramUserId} = ${q} or ${usernameStarts(messageUsernameSearchKey)}
    union select ${b.telegramUserId} from ${b} where ${b.telegramUserId} = ${q}`;
}

type CustomerRow = {
  telegram_user_id: string;
  orders_count: number | string;
  total_spent: string;
  last_order_at: Date | string | null;
  messages_count: number | string;
  unread_count: number | string;
  last_message_at: Date | string | null;
  last_active_at: Date | string;
  blocked_at: Date | string | null;
  key0: string;
  key1: string;
  order_username: string | null;
  order_id: string | null;
  order_address: string | null;
  message_username: string | null;
  message_username_at: Date | string | null;
  language: Language | null;
};

/**
 * The customers among `ids`, with their counts, sorted by `sort`; after the cursor's key when given,
 * at most `limit` of them when given.
 */
function customerRows(
  db: DbOrTx,
  options: { ids: SQL; everyone: boolean; sort: CustomerSort; after: string[] | null; limit: number | null },
) {
  const parts = SORT_KEYS[options.sort];
  const after = options.after ? sql`where ${afterKey(parts, options.after, "desc")}` : sql``;
  const orderBy = sql.join(
    parts.map((part) => sql`${part.column} desc`),
    sql`, `,
  );
  // Each table is counted in one pass grouped by customer (cheaper than a lookup per customer when
  // all are listed); a search or one customer's page counts only the ids it found. The ids query runs
  // only then (PostgreSQL skips a WITH query nothing refers to).
  // Bot Preview's test customer is nobody's customer (docs/decisions/0023), listed with everyone or not.
  const only = (column: AnyPgColumn) =>
    options.everyone ? sql`where ${column} <> ${TEST_CUSTOMER_SQL}` : sql`where ${column} in (select telegram_user_id from ids)`;
  return db.execute<CustomerRow>(sql`
    with ids as (${options.ids}),
    bought as (
      select ${o.telegramUserId} as telegram_user_id, count(*) as orders_count,
             sum(${o.totalAmount}) filter (where ${isRevenue}) as total_spent, max(${o.createdAt}) as last_order_at
      from ${o} ${only(o.telegramUserId)}
      group by ${o.telegramUserId}
    ),
    talked as (
      select ${m.telegramUserId} as telegram_user_id, count(*) as messages_count,
             count(*) filter (where ${isUnread}) as unread_count, max(${m.createdAt}) as last_message_at
      from ${m} ${only(m.telegramUserId)}
      group by ${m.telegramUserId}
    ),
    held as (
      select ${b.telegramUserId} as telegram_user_id, ${b.blockedAt} as blocked_at
      from ${b} ${only(b.telegramUserId)}
    ),
    -- Full joins (never a loop over every customer): anyone with an order, a message or a block.
    c as (
      select telegram_user_id, coalesce(bought.orders_count, 0) as orders_count,
             coalesce(bought.total_spent, 0)::numeric(14, 2) as total_spent, bought.last_order_at,
             coalesce(talked.messages_count, 0) as messages_count, coalesce(talked.unread_count, 0) as unread_count,
             talked.last_message_at, held.blocked_at,
             coalesce(greatest(bought.last_order_at, talked.last_message_at), held.blocked_at) as last_active_at,
             -- Customers without an order sort after every real order date.
             coalesce(bought.last_order_at, timestamptz 'epoch') as last_order_key
      from bought
      full join talked using (telegram_user_id)
      full join held using (telegram_user_id)
    )
    select c.telegram_user_id, c.orders_count, c.total_spent::text as total_spent, c.last_order_at, c.messages_count,
           c.unread_count, c.last_message_at, c.last_active_at, c.blocked_at, c.key0, c.key1,
           latest_order.telegram_username as order_username, latest_order.id as order_id, latest_order.address as order_address,
           latest_message.telegram_username as message_username, latest_message.created_at as message_username_at,
           spoken.language
    -- The page first; then the names, looked up for its rows only.
    from (
      select c.*, ${keyText(parts[0]!)} as key0, ${keyText(parts[1]!)} as key1
      from c ${after}
      order by ${orderBy}
      ${options.limit === null ? sql`` : sql`limit ${options.limit}`}
    ) as c
    left join lateral (
      select ${o.telegramUsername} as telegram_username, ${o.id} as id, ${o.address} as address
      from ${o} where ${o.telegramUserId} = c.telegram_user_id
      order by ${o.createdAt} desc, ${o.id} desc limit 1
    ) latest_order on true
    left join lateral (
      select ${m.telegramUsername} as telegram_username, ${m.createdAt} as created_at
      from ${m} where ${m.telegramUserId} = c.telegram_user_id and ${m.telegramUsername} is not null
      order by ${m.createdAt} desc, ${m.id} desc limit 1
    ) latest_message on true
    left join ${bc} spoken on spoken.telegram_user_id = c.telegram_user_id
    order by ${orderBy}
  `);
}

/** Rows of db.execute: node-postgres answers a result object, PGlite too; both carry `rows`. */
const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function toCustomer(row: CustomerRow, name: string | null): Customer {
  // The username on their latest order, unless a later message carries one (they may have renamed their account).
  const messageIsNewer =
    row.message_username_at !== null &&
    (row.last_order_at === null || new Date(row.message_username_at) > new Date(row.last_order_at));
  return {
    telegramUserId: row.telegram_user_id,
    telegramUsername: (messageIsNewer ? row.message_username : row.order_username) ?? row.order_username ?? row.message_username,
    name,
    ordersCount: Number(row.orders_count),
    totalSpent: row.total_spent,
    lastOrderAt: isoOrNull(row.last_order_at),
    messagesCount: Number(row.messages_count),
    unreadCount: Number(row.unread_count),
    lastActiveAt: iso(row.last_active_at),
    isBlocked: row.blocked_at !== null,
    blockedAt: isoOrNull(row.blocked_at),
    language: row.language ?? null,
  };
}

/** Customers from their rows: the name on each one's latest order, decrypted (only for the rows shown). */
async function toCustomers(db: DbOrTx, rows: CustomerRow[]): Promise<Customer[]> {
  const addresses = await revealAddresses(
    db,
    rows.map((row) => ({ id: row.order_id ?? "", address: row.order_address })),
  );
  return rows.map((row, index) => {
    const address = addresses[index]!;
    return toCustomer(row, address.kind === "clear" ? address.address.name : null);
  });
}

/** Every customer matching `q`, in the chosen order (the list without `limit`). */
export async function listCustomers(db: DbOrTx, query: Omit<CustomerListQuery, "limit" | "cursor">, scope: SearchScope = SEARCH_ALL): Promise<Customer[]> {
  const ids = await customerIds(db, query.q, scope, query.language);
  const result = await customerRows(db, { ids, everyone: listsEveryone(query), sort: query.sort, after: null, limit: null });
  return toCustomers(db, rowsOf<CustomerRow>(result));
}

/** One page of the customers matching `q`, and how many match in all. */
export async function listCustomerPage(db: DbOrTx, query: CustomerListQuery & { limit: number }, scope: SearchScope = SEARCH_ALL): Promise<Page<Customer>> {
  const after = query.cursor ? decodeCursor(query.cursor, query.sort, SORT_KEYS[query.sort]) : null;
  const ids = await customerIds(db, query.q, scope, query.language);
  const [result, counted] = await Promise.all([
    customerRows(db, { ids, everyone: listsEveryone(query), sort: query.sort, after, limit: query.limit + 1 }),
    db.execute<{ total: number | string }>(sql`select count(*) as total from (${ids}) as ids`),
  ]);
  const page = pageFromRows(
    rowsOf<CustomerRow>(result),
    query.limit,
    Number(rowsOf<{ total: number | string }>(counted)[0]?.total ?? 0),
    { sort: query.sort, key: (row) => [row.key0, row.key1] },
    (row) => row,
  );
  return { ...page, rows: await toCustomers(db, page.rows) };
}

/** One customer's numbers; null when the shop has no order, message or block of theirs. */
export async function getCustomer(db: DbOrTx, telegramUserId: string): Promise<Customer | null> {
  const result = await customerRows(db, {
    ids: sql`select cast(${telegramUserId} as text) as telegram_user_id`,
    everyone: false,
    sort: "recent",
    after: null,
    limit: null,
  });
  const row = rowsOf<CustomerRow>(result)[0];
  const known = row && (Number(row.orders_count) > 0 || Number(row.messages_count) > 0 || row.blocked_at !== null);
  return known ? (await toCustomers(db, [row]))[0]! : null;
}

/** A customer's page: their numbers, their newest orders, and the latest of their conversation. */
export async function getCustomerDetail(db: DbOrTx, telegramUserId: string): Promise<CustomerDetail> {
  const [customer, orderRows, messageRows] = await Promise.all([
    getCustomer(db, telegramUserId),
    db.select().from(o).where(eq(o.telegramUserId, telegramUserId)).orderBy(desc(o.createdAt), desc(o.id)).limit(CUSTOMER_ORDERS_SHOWN),
    db
      .select()
      .from(m)
      .where(eq(m.telegramUserId, telegramUserId))
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(CUSTOMER_MESSAGES_SHOWN),
  ]);
  if (!customer) throw notFound("Customer not found");
  return { customer, orders: await ordersOf(db, orderRows), messages: await messagesOf(db, messageRows.reverse()) };
}

async function blockState(db: DbOrTx, telegramUserId: string): Promise<CustomerBlockState> {
  const [row] = await db.select().from(b).where(eq(b.telegramUserId, telegramUserId));
  return { telegramUserId, isBlocked: row !== undefined, blockedAt: row ? row.blockedAt.toISOString() : null };
}

/**
 * Blocks a customer: the bot then answers them only with a refusal. Blocking again keeps the first
 * block's time. Any Telegram user id may be blocked, also one the shop has not heard from yet.
 */
export async function blockCustomer(db: DbOrTx, telegramUserId: string, now: Date): Promise<CustomerBlockState> {
  await db.insert(b).values({ telegramUserId, blockedAt: now }).onConflictDoNothing();
  return blockState(db, telegramUserId);
}

/** Unblocks a customer; unblocking someone not blocked changes nothing. */
export async function unblockCustomer(db: DbOrTx, telegramUserId: string): Promise<CustomerBlockState> {
  await db.delete(b).where(eq(b.telegramUserId, telegramUserId));
  return blockState(db, telegramUserId);
}

/**
 * Whether the bot must refuse this customer. Asked on every update, so it reads the blocked ids
 * through the read cache: one small query after each change to blocked_customers (its change notice,
 * or this instance's own admin write), none in between. The blocked are few, so all their ids are
 * kept together.
 */
export async function isBlocked(deps: { db: DbOrTx; cache: ReadCache }, telegramUserId: string): Promise<boolean> {
  const blocked = await deps.cache.read("blocked-customers", ["blocked_customers"], async () => {
    const rows = await deps.db.select({ telegramUserId: b.telegramUserId }).from(b);
    return new Set(rows.map((row) => row.telegramUserId));
  });
  return blocked.has(telegramUserId);
}
