import { TEST_CUSTOMER_SQL } from "../simulator";
import { and, desc, eq, sql } from "drizzle-orm";
import type { BroadcastAudience, Language, TextTranslations, BroadcastInput, BroadcastProgress, BroadcastReach, BroadcastStatus, BroadcastSummary } from "../../../contract";
import { BROADCASTS_LISTED, DEFAULT_LANGUAGE, itemDisplayName, LANGUAGES, type NameTranslations } from "../../../contract";
import { localizedName, translatorFor } from "../languages";
import type { Db, DbOrTx } from "../../db/client";
import { queryRows } from "../../db/rows";
import {
  blockedCustomers,
  botCustomers,
  broadcastRecipients,
  broadcasts,
  orderItems,
  orders,
  products,
  productVariants,
  restockWaits,
  type BroadcastAudienceRow,
} from "../../db/schema";
import { conflict, notFound } from "../common";
import { isRevenue } from "../insights";
import { getOwnerAlertSettings } from "./owner-alerts";

// Broadcasts (issue 14, item 3): who a broadcast goes to, and the durable queue its messages go
// through. The rules of the queue (docs/decisions/0019-broadcast-queue.md):
// - one row per recipient; a sender claims a row (pending -> sending) in one statement before it
//   calls Telegram, and marks it sent, failed or skipped after;
// - at most once: a row found in "sending" whose sender is gone (a crash) is marked failed, never
//   sent again, because the message may have reached the customer before the crash;
// - the rate limits are counted from the claims in the database, under one transaction lock, so
//   they hold for every sender on every server instance together.

/** Telegram allows about 30 messages a second to different chats; we stay well under it. */
export const BROADCAST_RATE_PER_SECOND = 25;
/** Telegram allows about one message a second to one chat; the margin absorbs network jitter. */
export const PER_CHAT_INTERVAL_MS = 1_100;
/** The window the overall rate is counted over: a second plus a margin for jitter on the way to Telegram. */
export const RATE_WINDOW_MS = 1_050;
/** Key of the transaction lock that makes claims one at a time across instances (db/leader.ts's class, an id of our own). */
const CLAIM_LOCK = sql`pg_advisory_xact_lock(${0x73686f70}, ${19})`;

export const SKIPPED_OPTED_OUT = "The customer opted out of broadcasts (/stop).";
export const SKIPPED_UNREACHABLE = "The customer blocked the bot.";
export const SKIPPED_BLOCKED = "The owner blocked this customer.";
export const FAILED_UNKNOWN_OUTCOME = "The server stopped while this message was being sent; it is not sent again, so nobody gets it twice.";

// --- Customers who started the bot, and their choice about broadcasts ---

/**
 * /start: the customer is one of "all customers" from now on, and gets broadcasts again (opting
 * back in after /stop, and reachable again after unblocking the bot). Answers whether they had
 * opted out, so the bot can say they are back in.
 */
export async function recordBotStart(db: DbOrTx, telegramUserId: string, telegramUsername: string | null, now: Date): Promise<{ wasOptedOut: boolean }> {
  // One statement (every /start runs it: docs/decisions/0016), and no write when nothing changed.
  const result = await queryRows<{ was_opted_out: boolean }>(db, sql`
    with before as (select opted_out_at from ${botCustomers} where telegram_user_id = ${telegramUserId})
    insert into ${botCustomers} (telegram_user_id, telegram_username, started_at)
    values (${telegramUserId}, ${telegramUsername}, ${now.toISOString()}::timestamptz)
    on conflict (telegram_user_id) do update
      set telegram_username = excluded.telegram_username, opted_out_at = null, unreachable_at = null
      where ${botCustomers}.opted_out_at is not null or ${botCustomers}.unreachable_at is not null
        or ${botCustomers}.telegram_username is distinct from excluded.telegram_username
    returning (select opted_out_at from before) is not null as was_opted_out`);
  return { wasOptedOut: result[0]?.was_opted_out === true };
}

/**
 * A customer seen outside the chat (the storefront, issue 27): recorded as /start records them, so
 * they are on record with their username and their language can be kept, but never opted back in
 * after /stop nor taken as reachable again: only /start, in the chat, says that. No write when the
 * record is already as it is.
 */
export async function recordCustomerSeen(db: DbOrTx, telegramUserId: string, telegramUsername: string | null, now: Date): Promise<void> {
  await db
    .insert(botCustomers)
    .values({ telegramUserId, telegramUsername, startedAt: now })
    .onConflictDoUpdate({
      target: botCustomers.telegramUserId,
      set: { telegramUsername },
      setWhere: sql`${botCustomers.telegramUsername} is distinct from ${telegramUsername}`,
    });
}

/**
 * Whether /start would change nothing in this customer's record (read with their update): they are
 * recorded, opted in, not marked unreachable, under the same username. A 403 marking them
 * unreachable meanwhile is undone by their next /start.
 */
export function isStartRecorded(record: { username: string | null; reachable: boolean } | null | undefined, username: string | null): boolean {
  return record != null && record.reachable && record.username === username;
}

/** /stop: no more broadcasts for this customer until they send /start. Restock alerts they asked for still come. */
export async function optOutOfBroadcasts(db: DbOrTx, telegramUserId: string, telegramUsername: string | null, now: Date): Promise<void> {
  await db
    .insert(botCustomers)
    .values({ telegramUserId, telegramUsername, startedAt: now, optedOutAt: now })
    .onConflictDoUpdate({ target: botCustomers.telegramUserId, set: { optedOutAt: now } });
}

/** Telegram answered 403 (the customer blocked the bot): later broadcasts skip them. */
export async function markUnreachable(db: DbOrTx, telegramUserId: string): Promise<void> {
  await db
    .insert(botCustomers)
    .values({ telegramUserId, unreachableAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({ target: botCustomers.telegramUserId, set: { unreachableAt: sql`clock_timestamp()` } });
}

// --- Creating a broadcast ---

/**
 * The Telegram user ids an audience names, as a subquery with one column, telegram_user_id. Never
 * Bot Preview's test customer: it is no one to send to (docs/decisions/0023).
 */
function audienceIds(audience: BroadcastAudienceRow, now: Date) {
  return sql`select telegram_user_id from (${anyAudienceIds(audience, now)}) as named where telegram_user_id <> ${TEST_CUSTOMER_SQL}`;
}

function anyAudienceIds(audience: BroadcastAudienceRow, now: Date) {
  switch (audience.kind) {
    case "all":
      return sql`select ${botCustomers.telegramUserId} as telegram_user_id from ${botCustomers}`;
    case "product":
      // "Bought" means paid for: an order whose money arrived and was not refunded (the revenue rule).
      return sql`select distinct ${orders.telegramUserId} as telegram_user_id
        from ${orders} join ${orderItems} on ${orderItems.orderId} = ${orders.id}
        where ${orderItems.productId} = ${audience.productId} and ${isRevenue}`;
    case "recent": {
      const since = new Date(now.getTime() - audience.days * 24 * 60 * 60 * 1000);
      return sql`select distinct ${orders.telegramUserId} as telegram_user_id from ${orders}
        where ${orders.createdAt} >= ${since.toISOString()}::timestamptz`;
    }
    case "never-ordered":
      return sql`select ${botCustomers.telegramUserId} as telegram_user_id from ${botCustomers}
        where not exists (select 1 from ${orders} where ${orders.telegramUserId} = ${botCustomers.telegramUserId})`;
    case "restock":
      // Per variant (issue 23); an alert queued before variants waited on the product.
      return audience.variantId
        ? sql`select ${restockWaits.telegramUserId} as telegram_user_id from ${restockWaits} where ${restockWaits.variantId} = ${audience.variantId}`
        : sql`select ${restockWaits.telegramUserId} as telegram_user_id from ${restockWaits} where ${restockWaits.productId} = ${audience.productId}`;
  }
}

function audienceRow(audience: BroadcastAudience): BroadcastAudienceRow {
  switch (audience.kind) {
    case "product":
      return { kind: "product", productId: audience.productId! };
    case "recent":
      return { kind: "recent", days: audience.days! };
    default:
      return { kind: audience.kind };
  }
}

/**
 * Everyone an audience names, with the state their row starts in: `pending` (to be sent) or
 * `skipped` with the reason (blocked by the owner, opted out with /stop, blocked the bot). One rule
 * for the queue and for the reach the owner is shown before sending (countBroadcastReach), so the
 * number asked about is the number sent to. Columns: telegram_user_id, state, error.
 */
function recipientStates(kind: QueuedMessage["kind"], audience: BroadcastAudienceRow, now: Date) {
  // A restock alert is something the customer asked for: /stop (broadcasts) does not hold it back.
  const optedOut = kind === "restock" ? sql`false` : sql`bc.opted_out_at is not null`;
  return sql`
    select a.telegram_user_id,
      case when bl.telegram_user_id is not null or ${optedOut} or bc.unreachable_at is not null then 'skipped' else 'pending' end as state,
      case when bl.telegram_user_id is not null then ${SKIPPED_BLOCKED}
           when ${optedOut} then ${SKIPPED_OPTED_OUT}
           when bc.unreachable_at is not null then ${SKIPPED_UNREACHABLE} end as error
    from (${audienceIds(audience, now)}) a
    left join ${botCustomers} bc on bc.telegram_user_id = a.telegram_user_id
    left join ${blockedCustomers} bl on bl.telegram_user_id = a.telegram_user_id`;
}

/**
 * Queues a message to everyone in an audience and answers at once; the sender (telegram/broadcast-sender.ts)
 * delivers it. Customers who opted out, blocked the bot or were blocked by the owner are counted as skipped.
 */
export async function queueMessage(
  db: Db,
  message: QueuedMessage,
  now: Date,
  options: { refuseEmpty?: string } = {},
): Promise<{ id: string; total: number }> {
  return db.transaction((tx) => insertMessage(tx, message, now, options));
}

type QueuedMessage = {
  kind: "broadcast" | "restock";
  text: string;
  /** The text in other languages (issue 26): each recipient gets theirs, else `text`. */
  textTranslations?: TextTranslations;
  imageUrl: string | null;
  productId?: string | null;
  audience: BroadcastAudienceRow;
};

/** queueMessage's statements, inside the caller's transaction. */
async function insertMessage(tx: DbOrTx, message: QueuedMessage, now: Date, options: { refuseEmpty?: string }): Promise<{ id: string; total: number }> {
  const [created] = await tx
    .insert(broadcasts)
    .values({
      kind: message.kind,
      text: message.text,
      textTranslations: message.textTranslations ?? {},
      imageUrl: message.imageUrl,
      productId: message.productId ?? null,
      audience: message.audience,
      total: 0,
      createdAt: now,
    })
    .returning({ id: broadcasts.id });
  const id = created!.id;
  await tx.execute(sql`
    insert into ${broadcastRecipients} (broadcast_id, telegram_user_id, state, error, done_at)
    select ${id}::uuid, telegram_user_id, state, error, case when state = 'skipped' then clock_timestamp() end
    from (${recipientStates(message.kind, message.audience, now)}) as resolved`);
  const [counted] = await tx
    .select({ total: sql<number>`count(*)::int` })
    .from(broadcastRecipients)
    .where(eq(broadcastRecipients.broadcastId, id));
  const total = Number(counted?.total ?? 0);
  // Rolled back rather than stored: nothing was queued.
  if (total === 0 && options.refuseEmpty) throw conflict(options.refuseEmpty);
  await tx.update(broadcasts).set({ total }).where(eq(broadcasts.id, id));
  return { id, total };
}

/** POST /api/broadcasts. An audience with nobody in it is refused: the owner would otherwise see an empty "done". */
export async function createBroadcast(
  db: Db,
  input: Pick<BroadcastInput, "text"> & { textTranslations?: TextTranslations; imageUrl: string | null; audience: BroadcastAudience },
  now: Date,
) {
  const queued = await queueMessage(
    db,
    { kind: "broadcast", text: input.text, textTranslations: input.textTranslations, imageUrl: input.imageUrl, audience: audienceRow(input.audience) },
    now,
    { refuseEmpty: "No customers match this audience." },
  );
  return { id: queued.id };
}

/**
 * POST /api/broadcasts/reach (issue 22, item 2): how many customers a broadcast to this audience
 * would reach now, asked before "Send now" goes ahead. Counted by the queue's own rule
 * (recipientStates): the audience, less those who opted out, blocked the bot or were blocked.
 */
export async function countBroadcastReach(db: DbOrTx, audience: BroadcastAudience, now: Date): Promise<BroadcastReach> {
  const rows = await queryRows<{ audience: number; reach: number; opted_out: number; unreachable: number; blocked: number }>(db, sql`
    select count(*)::int as audience,
      count(*) filter (where state = 'pending')::int as reach,
      count(*) filter (where error = ${SKIPPED_OPTED_OUT})::int as opted_out,
      count(*) filter (where error = ${SKIPPED_UNREACHABLE})::int as unreachable,
      count(*) filter (where error = ${SKIPPED_BLOCKED})::int as blocked
    from (${recipientStates("broadcast", audienceRow(audience), now)}) as resolved`);
  const row = rows[0]!;
  return {
    audience: Number(row.audience),
    reach: Number(row.reach),
    skipped: { optedOut: Number(row.opted_out), unreachable: Number(row.unreachable), blocked: Number(row.blocked) },
  };
}

export const NO_OWNER_CHAT = "No owner chat is linked, so there is nowhere to send a test. Link your Telegram under Owner alerts in Bot Settings first.";

/**
 * POST /api/broadcasts/test (issue 22, item 2): the chat a test broadcast goes to, the owner's own
 * (linked for owner alerts, docs/decisions/0020), never a customer's. Refused when none is linked.
 */
export async function ownerChatForTest(db: DbOrTx): Promise<{ chatId: string; chatTitle: string }> {
  const settings = await getOwnerAlertSettings(db);
  if (!settings?.chatId) throw conflict(NO_OWNER_CHAT);
  return { chatId: settings.chatId, chatTitle: settings.chatTitle ?? "your Telegram" };
}

// --- Restock alerts (issue 14, item 4) ---

/** The restock alert in a language (the bot's texts, server/telegram/locales: restock-back). */
export const restockText = (productName: string, language: Language = DEFAULT_LANGUAGE) => translatorFor(language).t("restock-back", { name: productName });

/** The alert in every shipped language, each with the product's name as that language shows it. */
function restockTranslations(product: { name: string; translations: NameTranslations | null }, variantLabel: string): TextTranslations {
  return Object.fromEntries(LANGUAGES.map((language) => [language, restockText(itemDisplayName(localizedName(product, language), variantLabel), language)]));
}

/**
 * "Notify me when back" on an out-of-stock variant (issue 23: a product's id means its default
 * variant). Answers "in-stock" (nothing stored) when it is in stock again already, so the customer is
 * shown the product rather than told to wait.
 */
export async function waitForRestock(db: DbOrTx, variantId: string, telegramUserId: string): Promise<"waiting" | "in-stock" | "unavailable"> {
  const [variant] = await db
    .select({ productId: productVariants.productId, stock: productVariants.stock, isActive: sql<boolean>`${products.isActive} and ${productVariants.isActive}` })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId));
  if (!variant || !variant.isActive) return "unavailable";
  if (variant.stock > 0) return "in-stock";
  await db.insert(restockWaits).values({ productId: variant.productId, variantId, telegramUserId }).onConflictDoNothing();
  return "waiting";
}

/**
 * Every variant that is in stock (and on sale) with customers waiting: one message to each of them,
 * through the broadcast queue, and their waits are removed in the same transaction, so each waiting
 * customer is told once. A customer can only start waiting while the variant is out of stock, so a
 * wait on a variant in stock means its stock went from 0 to more, whichever way (an edit, a failed
 * order's stock released). Run by the sender every second or so, on every instance: the row locks
 * make a second instance find the waits gone.
 */
export async function queueRestockAlerts(db: Db, now: Date): Promise<number> {
  const ready = await db
    .selectDistinct({ id: productVariants.id, productId: products.id, name: products.name, translations: products.translations, label: productVariants.label })
    .from(restockWaits)
    .innerJoin(productVariants, eq(productVariants.id, restockWaits.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(sql`${productVariants.stock} > 0`, eq(productVariants.isActive, true), eq(products.isActive, true)));
  let queued = 0;
  for (const variant of ready) {
    await db.transaction(async (tx) => {
      const waiting = await tx.select({ id: restockWaits.telegramUserId }).from(restockWaits).where(eq(restockWaits.variantId, variant.id)).for("update");
      if (waiting.length === 0) return;
      await insertMessage(
        tx,
        {
          kind: "restock",
          text: restockText(itemDisplayName(variant.name, variant.label)),
          textTranslations: restockTranslations(variant, variant.label),
          imageUrl: null,
          productId: variant.productId,
          audience: { kind: "restock", productId: variant.productId, variantId: variant.id },
        },
        now,
        {},
      );
      await tx.delete(restockWaits).where(eq(restockWaits.variantId, variant.id));
      queued += waiting.length;
    });
  }
  return queued;
}

// --- Progress ---

type CountsRow = {
  id: string;
  total: number | string;
  sent: number | string;
  failed: number | string;
  skipped: number | string;
  open: number | string;
  claimed: number | string;
};

const counts = sql`
  count(*) filter (where r.state = 'sent')::int as sent,
  count(*) filter (where r.state = 'failed')::int as failed,
  count(*) filter (where r.state = 'skipped')::int as skipped,
  count(*) filter (where r.state in ('pending', 'sending'))::int as open,
  count(r.claimed_at)::int as claimed`;

function statusOf(row: CountsRow): BroadcastStatus {
  if (Number(row.open) === 0) return "done";
  return Number(row.claimed) === 0 ? "queued" : "sending";
}

function toProgress(row: CountsRow): BroadcastProgress {
  return {
    id: row.id,
    status: statusOf(row),
    total: Number(row.total),
    sent: Number(row.sent),
    failed: Number(row.failed),
    skipped: Number(row.skipped),
  };
}

export async function getBroadcastProgress(db: DbOrTx, id: string): Promise<BroadcastProgress> {
  const result = await queryRows<CountsRow>(db, sql`
    select b.id, b.total, ${counts}
    from ${broadcasts} b left join ${broadcastRecipients} r on r.broadcast_id = b.id
    where b.id = ${id} and b.kind = 'broadcast'
    group by b.id`);
  const row = result[0];
  if (!row) throw notFound("Broadcast not found");
  return toProgress(row);
}

/** The newest broadcasts (restock alerts are not listed: the owner did not write them). */
export async function listBroadcasts(db: DbOrTx): Promise<BroadcastSummary[]> {
  const latest = await db
    .select({
      id: broadcasts.id,
      text: broadcasts.text,
      textTranslations: broadcasts.textTranslations,
      imageUrl: broadcasts.imageUrl,
      audience: broadcasts.audience,
      createdAt: broadcasts.createdAt,
    })
    .from(broadcasts)
    .where(eq(broadcasts.kind, "broadcast"))
    .orderBy(desc(broadcasts.createdAt), desc(broadcasts.id))
    .limit(BROADCASTS_LISTED);
  if (latest.length === 0) return [];
  const result = await queryRows<CountsRow>(db, sql`
    select b.id, b.total, ${counts}
    from ${broadcasts} b left join ${broadcastRecipients} r on r.broadcast_id = b.id
    where b.id in (${sql.join(latest.map((b) => sql`${b.id}::uuid`), sql`, `)})
    group by b.id`);
  const byId = new Map(result.map((row) => [row.id, toProgress(row)]));
  return latest.map((b) => {
    const audience = b.audience.kind === "restock" ? { kind: "all" as const } : b.audience;
    return { ...byId.get(b.id)!, text: b.text, textTranslations: b.textTranslations, imageUrl: b.imageUrl, audience, createdAt: b.createdAt.toISOString() };
  });
}

// --- The queue ---

/** A recipient claimed for sending, with what to send them. */
export type ClaimedRecipient = {
  broadcastId: string;
  telegramUserId: string;
  text: string;
  imageUrl: string | null;
  /** A restock alert's product (a button opens it in the bot). */
  productId: string | null;
  /** The text in other languages (issue 26), and the language stored for the recipient (null: not known). */
  textTranslations: TextTranslations;
  language: Language | null;
};

export type Claim =
  | { kind: "claimed"; recipient: ClaimedRecipient }
  /** Something is waiting, but a limit (or a 429's retry_after) holds it back for about this long. */
  | { kind: "wait"; ms: number }
  /** Nothing to send. */
  | { kind: "idle" };

/**
 * Claims the next recipient to send to, within the limits: at most `ratePerSecond` claims in any
 * second overall, and none for a chat that had a claim, or an answer from Telegram, less than
 * PER_CHAT_INTERVAL_MS ago (or one still in flight). Counting from the answer too keeps the gap
 * Telegram sees at least the interval even when one call travels slower than the next. Claims are made one at a time across all instances (a transaction lock), so
 * the limits are counted from the database rather than trusted to each process.
 */
export async function claimNextRecipient(db: Db, options: { ratePerSecond?: number; perChatIntervalMs?: number } = {}): Promise<Claim> {
  const rate = options.ratePerSecond ?? BROADCAST_RATE_PER_SECOND;
  const perChat = options.perChatIntervalMs ?? PER_CHAT_INTERVAL_MS;
  const window = sql`${`${RATE_WINDOW_MS} milliseconds`}::interval`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select ${CLAIM_LOCK}`);
    // One statement claims the next row, if the overall rate allows one more and its chat may have one.
    const claimed = await queryRows<{
      broadcast_id: string;
      telegram_user_id: string;
      text: string;
      image_url: string | null;
      product_id: string | null;
      text_translations: unknown;
      language: Language | null;
    }>(tx, sql`
      with next as (
        select p.broadcast_id, p.telegram_user_id from ${broadcastRecipients} p
        where (select count(*) from ${broadcastRecipients} w where w.claimed_at > clock_timestamp() - ${window}) < ${rate}
          and p.state = 'pending' and p.not_before <= clock_timestamp()
          and not exists (
            select 1 from ${broadcastRecipients} q
            where q.telegram_user_id = p.telegram_user_id
              and (q.state = 'sending' or greatest(q.claimed_at, q.done_at) > clock_timestamp() - ${`${perChat} milliseconds`}::interval))
        order by p.not_before, p.broadcast_id, p.telegram_user_id
        limit 1
        for update of p skip locked
      )
      update ${broadcastRecipients} r set state = 'sending', claimed_at = clock_timestamp()
      from next, ${broadcasts} b
      where r.broadcast_id = next.broadcast_id and r.telegram_user_id = next.telegram_user_id and b.id = r.broadcast_id
      returning r.broadcast_id, r.telegram_user_id, b.text, b.image_url, b.product_id, b.text_translations,
        (select c.language from ${botCustomers} c where c.telegram_user_id = r.telegram_user_id) as language`);
    const row = claimed[0];
    if (row) {
      return {
        kind: "claimed",
        recipient: {
          broadcastId: row.broadcast_id,
          telegramUserId: row.telegram_user_id,
          text: row.text,
          imageUrl: row.image_url,
          productId: row.product_id,
          textTranslations: (typeof row.text_translations === "string" ? JSON.parse(row.text_translations) : (row.text_translations ?? {})) as TextTranslations,
          language: row.language,
        },
      };
    }
    // Nothing claimed: the rate is used up (wait until the oldest claim leaves the window), the waiting
    // rows are held back by their chat's interval or a retry_after (look again soon), or none wait.
    const state = await queryRows<{ recent: number; rate_wait_ms: number | null; pending_wait_ms: number | null }>(tx, sql`
      select
        (select count(*)::int from ${broadcastRecipients} where claimed_at > clock_timestamp() - ${window}) as recent,
        (select extract(epoch from (min(claimed_at) + ${window} - clock_timestamp())) * 1000
          from ${broadcastRecipients} where claimed_at > clock_timestamp() - ${window})::float8 as rate_wait_ms,
        (select extract(epoch from (min(not_before) - clock_timestamp())) * 1000
          from ${broadcastRecipients} where state = 'pending')::float8 as pending_wait_ms`);
    const { recent, rate_wait_ms: rateWait, pending_wait_ms: pendingWait } = state[0]!;
    if (pendingWait === null) return { kind: "idle" };
    if (Number(recent) >= rate) return { kind: "wait", ms: Math.max(1, Math.ceil(Number(rateWait ?? 1))) };
    return { kind: "wait", ms: Math.min(Math.max(50, Math.ceil(Number(pendingWait))), 1_000) };
  });
}

type RecipientKey = Pick<ClaimedRecipient, "broadcastId" | "telegramUserId">;
const isClaimed = (key: RecipientKey) =>
  and(eq(broadcastRecipients.broadcastId, key.broadcastId), eq(broadcastRecipients.telegramUserId, key.telegramUserId), eq(broadcastRecipients.state, "sending"));

/** Telegram accepted the message. */
export async function markSent(db: DbOrTx, key: RecipientKey): Promise<void> {
  await db.update(broadcastRecipients).set({ state: "sent", doneAt: sql`clock_timestamp()`, error: null }).where(isClaimed(key));
}

/** Telegram refused it (or may have got it: never tried again). */
export async function markFailed(db: DbOrTx, key: RecipientKey, error: string): Promise<void> {
  await db.update(broadcastRecipients).set({ state: "failed", doneAt: sql`clock_timestamp()`, error: error.slice(0, 500) }).where(isClaimed(key));
}

/** 403: the customer blocked the bot. Skipped now, and in later broadcasts until they /start again. */
export async function markBlockedBot(db: Db, key: RecipientKey): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(broadcastRecipients).set({ state: "skipped", doneAt: sql`clock_timestamp()`, error: SKIPPED_UNREACHABLE }).where(isClaimed(key));
    await markUnreachable(tx, key.telegramUserId);
  });
}

/** Telegram said 429, or could surely not be reached: the message was not delivered, so it goes back in the queue. */
export async function retryLater(db: DbOrTx, key: RecipientKey, afterMs: number): Promise<void> {
  await db
    .update(broadcastRecipients)
    .set({ state: "pending", notBefore: sql`clock_timestamp() + ${`${Math.ceil(afterMs)} milliseconds`}::interval` })
    .where(isClaimed(key));
}

/**
 * At most once: a claim whose sender died (a crash, a kill) may or may not have reached the
 * customer, so it is marked failed, never sent again. `olderThanMs` null: every claim (the one
 * process that can use a PGlite database is starting, so no claim can be alive); otherwise claims
 * older than the longest a live sender holds one (its call to Telegram times out before that).
 */
export async function abandonDeadClaims(db: DbOrTx, olderThanMs: number | null): Promise<number> {
  const old =
    olderThanMs === null ? sql`true` : sql`${broadcastRecipients.claimedAt} < clock_timestamp() - ${`${olderThanMs} milliseconds`}::interval`;
  const abandoned = await db
    .update(broadcastRecipients)
    .set({ state: "failed", doneAt: sql`clock_timestamp()`, error: FAILED_UNKNOWN_OUTCOME })
    .where(and(eq(broadcastRecipients.state, "sending"), old))
    .returning({ id: broadcastRecipients.telegramUserId });
  return abandoned.length;
}
