import { and, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Update } from "grammy/types";
import type { Language } from "../../contract";
import type { DbOrTx } from "../db/client";
import { groupCommit } from "../db/group-commit";
import { queryRows } from "../db/rows";
import { telegramUpdates } from "../db/schema";

// The inbox (docs/product.md rule 11, docs/decisions/0012-telegram-inbox.md): an update from Telegram is
// stored (unique per bot and update_id) and acknowledged at once; a worker in every server instance
// takes stored updates and handles them, one at a time per customer and in the order Telegram
// numbered them, many customers at once. An update Telegram delivers twice is stored once; one left
// unhandled by a crash or a restart is taken again once its worker's claim runs out.

/** Long enough to cover Telegram's redeliveries (it gives up on an update within a day). */
export const UPDATE_IDS_KEPT_MS = 24 * 60 * 60 * 1000;

/** How long a worker holds an update it took; renewed while it works, so only a dead worker's run out. */
export const CLAIM_MS = 30_000;

/** An update that was taken this many times without finishing (it crashes the worker) is given up on. */
export const MAX_ATTEMPTS = 3;

/** Pruning runs on one update in this many: the table stays small without a delete per update. */
const PRUNE_EVERY = 100;

/** The bot's own id: the number before ":" in its token (0 for a token not shaped like one). */
export function botIdOf(botToken: string): number {
  const id = Number(/^(\d+):/.exec(botToken)?.[1] ?? 0);
  return Number.isSafeInteger(id) ? id : 0;
}

/** Whose update it is: one customer's updates are handled in the order they came. */
export function chatKeyOf(update: Update): string | null {
  const from = update.message?.from ?? update.callback_query?.from;
  return from ? String(from.id) : null;
}

/** Stores an update as received; false when it was stored before (a redelivery, acknowledged without effect). */
export async function storeUpdate(db: DbOrTx, botId: number, update: Update, now: Date): Promise<boolean> {
  return (await storeUpdates(db, botId, [update], now))[0]!;
}

/**
 * Stores several updates in one statement (the webhook's group commit, runner.ts); for each, whether
 * it is new. The same update twice in one batch (Telegram retrying while the first is in flight) is
 * stored once: the first one counts as new.
 */
export async function storeUpdates(db: DbOrTx, botId: number, updates: Update[], now: Date): Promise<boolean[]> {
  return (await storeAndClaimUpdates(db, botId, updates, now, 0)).map((stored) => stored.isNew);
}

/** How an update fared in storeAndClaimUpdates. */
export type StoredUpdate = {
  /** False for an update stored before (a redelivery), or earlier in the same batch. */
  isNew: boolean;
  /** Taken by the caller as it was stored (ClaimedUpdate, as claimUpdates gives it); null when it waits in the inbox. */
  claimed: ClaimedUpdate | null;
};

/**
 * Stores updates as storeUpdates does, and takes at once, in the same statement, up to `claimUpTo` of
 * them whose customer has nothing else in the inbox (nothing waiting, nothing in a worker's hands):
 * the usual case, a customer's update handled before their next one comes. That saves the claim, a
 * second statement and a second wait for the disk, for most updates (decision 22). Every other new
 * update waits for claimUpdates, as before.
 *
 * Two instances storing updates of one customer at the same moment cannot both take one: each
 * statement sees only what was committed before it began, so both could find the customer's inbox
 * empty, but the unique index telegram_updates_held_idx admits one update per customer in a
 * worker's hands. The second insert waits for the first to commit, then conflicts and stores
 * nothing ("do nothing"); those updates are stored again here without a claim, in a second statement.
 * Of one customer's updates in one batch only the lowest update_id may be taken; the rest wait for it.
 */
export async function storeAndClaimUpdates(
  db: DbOrTx,
  botId: number,
  updates: Update[],
  now: Date,
  claimUpTo: number,
  claimMs = CLAIM_MS,
  /**
   * Updates the caller finished handling whose mark may not be committed yet: marked handled first,
   * in the same statement, so a customer's next update is taken as it is stored even when it came
   * before the previous one's mark (a customer answering the bot's reply at once).
   */
  finished: number[] = [],
): Promise<StoredUpdate[]> {
  const distinct = updates.filter((update, index) => updates.findIndex((other) => other.update_id === update.update_id) === index);
  const mayClaim = new Set<number>();
  const chatsTaken = new Set<string>();
  for (const update of [...distinct].sort((a, b) => a.update_id - b.update_id)) {
    const chatKey = chatKeyOf(update);
    if (mayClaim.size >= claimUpTo || chatKey === null || chatsTaken.has(chatKey)) continue;
    chatsTaken.add(chatKey);
    mayClaim.add(update.update_id);
  }
  const inserted = await insertUpdates(db, botId, distinct, now, mayClaim, claimMs, mayClaim.size > 0 ? finished : []);
  // Lost a race for a customer to another instance's update (see above): stored again, waiting.
  const lostRace = distinct.filter((update) => mayClaim.has(update.update_id) && !inserted.has(update.update_id));
  if (lostRace.length > 0) {
    for (const [updateId, row] of await insertUpdates(db, botId, lostRace, now, new Set(), claimMs, [])) inserted.set(updateId, row);
  }
  if ([...inserted.keys()].some((updateId) => updateId % PRUNE_EVERY === 0)) await pruneUpdates(db, botId, now);
  return updates.map((update) => {
    const row = inserted.get(update.update_id);
    // Counted once: a second copy in the batch is not new.
    inserted.delete(update.update_id);
    if (!row) return { isNew: false, claimed: null };
    return {
      isNew: true,
      claimed: row.claimed
        ? { updateId: update.update_id, update, attempts: 1, conversation: row.conversation, startRecord: row.startRecord }
        : null,
    };
  });
}

type InsertedRow = { claimed: boolean; conversation: unknown; startRecord: StartRecord | null };

/**
 * One insert of the inbox: the `finished` updates marked handled first; then each update new to it
 * is stored, taken (claimed_until set) when it is in `claim` and its customer has nothing unhandled
 * but those; the ids stored, and for those taken the customer's conversation state and broadcast
 * record, read with them (claimUpdates' RETURNING).
 */
async function insertUpdates(
  db: DbOrTx,
  botId: number,
  updates: Update[],
  now: Date,
  claim: Set<number>,
  claimMs: number,
  finished: number[],
): Promise<Map<number, InsertedRow>> {
  const inserted = new Map<number, InsertedRow>();
  if (updates.length === 0) return inserted;
  const receivedAt = now.toISOString();
  const finishedIds = sql.join(
    finished.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  // The marks first (the insert reads their count), so the unique index sees those updates as let go.
  const marks =
    finished.length > 0
      ? sql`marked as (
          update telegram_updates set handled_at = ${receivedAt}::timestamptz, payload = null, claimed_until = null
           where bot_id = ${botId} and update_id in (${finishedIds}) and handled_at is null
          returning 1),`
      : sql``;
  const afterMarks = finished.length > 0 ? sql`cross join (select count(*) from marked) as marked_first` : sql``;
  const notFinished = finished.length > 0 ? sql`and w.update_id not in (${finishedIds})` : sql``;
  const rows = updates.map(
    (update) =>
      sql`(${botId}::bigint, ${update.update_id}::bigint, ${receivedAt}::timestamptz, ${chatKeyOf(update)}::text, ${JSON.stringify(update)}::jsonb, ${claim.has(update.update_id)}::boolean)`,
  );
  const result = await queryRows<{ update_id: number | string; claimed: boolean; conversation: unknown; start_record: unknown }>(db, sql`
    with ${marks}
    incoming (bot_id, update_id, received_at, chat_key, payload, may_claim) as (values ${sql.join(rows, sql`, `)}),
    decided as (
      select i.*, i.may_claim
             and not exists (select 1 from telegram_updates d where d.bot_id = i.bot_id and d.update_id = i.update_id)
             and not exists (select 1 from telegram_updates w where w.bot_id = i.bot_id and w.chat_key = i.chat_key and w.handled_at is null ${notFinished})
             as take
        from incoming i ${afterMarks}
    )
    insert into telegram_updates as t (bot_id, update_id, received_at, chat_key, payload, claimed_until, attempts)
    select bot_id, update_id, received_at, chat_key, payload,
           case when take then now() + ${claimMs} * interval '1 millisecond' end,
           case when take then 1 else 0 end
      from decided
    on conflict do nothing
    returning t.update_id, t.claimed_until is not null as claimed,
      case when t.claimed_until is not null then (select c.state from bot_conversations c where c.telegram_user_id = t.chat_key) end as conversation,
      case when t.claimed_until is not null then
        (select json_build_object('username', b.telegram_username, 'reachable', b.opted_out_at is null and b.unreachable_at is null,
                                  'language', b.language, 'languageChosen', b.language_chosen)
           from bot_customers b where b.telegram_user_id = t.chat_key) end as start_record`);
  for (const row of result) {
    inserted.set(Number(row.update_id), {
      claimed: row.claimed,
      conversation: parseJson(row.conversation),
      startRecord: parseJson(row.start_record) as StartRecord | null,
    });
  }
  return inserted;
}

/** node-postgres parses json and jsonb; a driver that hands back text gets parsed here. */
function parseJson(value: unknown): unknown {
  return typeof value === "string" ? (JSON.parse(value) as unknown) : value;
}

/**
 * Forgets handled updates older than a day (their ids no longer need to catch redeliveries); never
 * one of this bot's waiting updates. Updates still waiting for another bot (the token was changed
 * before they were handled) are forgotten after that day too: no worker takes them any more, and
 * what the customers wrote should not stay behind in the database.
 */
export async function pruneUpdates(db: DbOrTx, botId: number, now: Date): Promise<void> {
  await db
    .delete(telegramUpdates)
    .where(
      and(
        lt(telegramUpdates.receivedAt, new Date(now.getTime() - UPDATE_IDS_KEPT_MS)),
        or(isNotNull(telegramUpdates.handledAt), ne(telegramUpdates.botId, botId)),
      ),
    );
}

export type ClaimedUpdate = {
  updateId: number;
  update: Update | null;
  attempts: number;
  /**
   * The customer's conversation state as stored when the update was taken (bot_conversations.state,
   * null when none): read in the same statement, as the bot needs it for every update. Current,
   * because the customer's previous update was marked handled (after its state was saved) before
   * this one could be taken.
   */
  conversation: unknown;
  /**
   * The customer's broadcast record as stored when the update was taken (bot_customers, issue 14):
   * null when they never started the bot. Read here so a /start from a known customer needs no
   * statement of its own.
   */
  startRecord: StartRecord | null;
};

/** What /start needs to know of a customer's broadcast record (shop/customers/broadcasts.ts isStartRecorded). */
export type StartRecord = { username: string | null; reachable: boolean; language?: Language | null; languageChosen?: boolean };

/**
 * Takes up to `limit` updates that are next in line for their customer, when no worker holds one of
 * that customer's updates: the one in a worker's hands whose claim ran out (its worker died), else
 * the oldest waiting one (DISTINCT ON, one pass over the waiting ones). An update behind one in
 * another worker's hands waits, so a customer's updates run one at a time, in order, across
 * instances; one that arrived late, after a newer one of the same customer was taken, waits for it too.
 * Two workers picking the same update race on its row: the UPDATE re-checks the claim on the row it
 * locked, so only the first takes it. A claim racing an update taken as it was stored
 * (storeAndClaimUpdates) for the same customer fails on telegram_updates_held_idx and is tried again:
 * the second try sees that update in hand. The database's clock decides claims, the same for every machine.
 */
export async function claimUpdates(db: DbOrTx, botId: number, limit: number, claimMs = CLAIM_MS): Promise<ClaimedUpdate[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await claimOnce(db, botId, limit, claimMs);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

async function claimOnce(db: DbOrTx, botId: number, limit: number, claimMs: number): Promise<ClaimedUpdate[]> {
  const result = await queryRows<{ update_id: number | string; payload: Update | string | null; attempts: number; conversation: unknown; start_record: unknown }>(db, sql`
    update telegram_updates as t
       set claimed_until = now() + ${claimMs} * interval '1 millisecond', attempts = t.attempts + 1
      from (
        select head.bot_id, head.update_id
          from (
            select distinct on (u.chat_key) u.bot_id, u.update_id, u.claimed_until
              from telegram_updates u
             where u.bot_id = ${botId} and u.handled_at is null
             order by u.chat_key, u.claimed_until is null, u.update_id
          ) as head
         where head.claimed_until is null or head.claimed_until < now()
         order by head.update_id
         limit ${limit}
      ) as next
     where t.bot_id = next.bot_id and t.update_id = next.update_id
       and t.handled_at is null and (t.claimed_until is null or t.claimed_until < now())
    returning t.update_id, t.payload, t.attempts,
      (select c.state from bot_conversations c where c.telegram_user_id = t.chat_key) as conversation,
      (select json_build_object('username', b.telegram_username, 'reachable', b.opted_out_at is null and b.unreachable_at is null,
                                'language', b.language, 'languageChosen', b.language_chosen)
         from bot_customers b where b.telegram_user_id = t.chat_key) as start_record`);
  return result
    .map((row) => ({
      updateId: Number(row.update_id),
      update: parseJson(row.payload) as Update | null,
      attempts: Number(row.attempts),
      conversation: parseJson(row.conversation),
      startRecord: parseJson(row.start_record) as StartRecord | null,
    }))
    .sort((a, b) => a.updateId - b.updateId);
}

/** PostgreSQL's unique_violation, however the driver wraps it (drizzle puts the driver's error in `cause`). */
function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Keeps the updates a worker is still handling in its hands for another claim period. */
export async function renewClaims(db: DbOrTx, botId: number, updateIds: number[], claimMs = CLAIM_MS): Promise<void> {
  if (updateIds.length === 0) return;
  await db
    .update(telegramUpdates)
    .set({ claimedUntil: sql`now() + ${claimMs} * interval '1 millisecond'` })
    .where(and(eq(telegramUpdates.botId, botId), inArray(telegramUpdates.updateId, updateIds)));
}

/** Frees every claim on this bot's waiting updates: only for a database no other process uses. */
async function releaseClaims(db: DbOrTx, botId: number): Promise<void> {
  await db
    .update(telegramUpdates)
    .set({ claimedUntil: null })
    .where(and(eq(telegramUpdates.botId, botId), isNull(telegramUpdates.handledAt), isNotNull(telegramUpdates.claimedUntil)));
}

/**
 * Done: only the ids stay (to catch a redelivery); what the customers sent is not kept. Committed
 * without waiting for the disk (synchronous_commit off for this statement only, decision 22): the
 * update was handled and its effects committed as usual before; a mark lost in a crash of the
 * database server (not of this process) means the update is handled again, as one in hand at a
 * crash already is (decision 12), and every later commit is lost with it, so nothing built on the
 * mark survives without it. Only in a statement of its own: inside a transaction it would apply to all of it.
 */
export async function markHandled(db: DbOrTx, botId: number, updateIds: number[], now: Date): Promise<void> {
  if (updateIds.length === 0) return;
  await db.execute(sql`
    update telegram_updates
       set handled_at = ${now.toISOString()}::timestamptz, payload = null, claimed_until = null
      from (select set_config('synchronous_commit', 'off', true) as setting) as without_waiting_for_the_disk
     where without_waiting_for_the_disk.setting = 'off' and bot_id = ${botId}
       and update_id in (${sql.join(updateIds.map((id) => sql`${id}::bigint`), sql`, `)}) and handled_at is null`);
}

/** Gives back updates taken as they were stored by a worker that stopped meanwhile: taken again in their turn. */
async function releaseUpdates(db: DbOrTx, botId: number, updateIds: number[]): Promise<void> {
  await db
    .update(telegramUpdates)
    .set({ claimedUntil: null, attempts: sql`greatest(${telegramUpdates.attempts} - 1, 0)` })
    .where(and(eq(telegramUpdates.botId, botId), inArray(telegramUpdates.updateId, updateIds), isNull(telegramUpdates.handledAt)));
}

export type InboxLogger = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type InboxWorkerOptions = {
  db: DbOrTx;
  botId: number;
  /**
   * Handles one update, given the customer's conversation state as stored (ClaimedUpdate). Rejects
   * only when the update should be tried again (the runner logs and swallows the bot's own errors).
   */
  handle(update: Update, stored: Pick<ClaimedUpdate, "conversation" | "startRecord">): Promise<void>;
  now: () => Date;
  log: InboxLogger;
  /** Customers handled at once. */
  concurrency?: number;
  /** How often the worker looks for updates stored by another instance, or left by a crashed worker. */
  pollMs?: number;
  claimMs?: number;
  /**
   * True when no other process can use this database (PGlite: its folder is locked to one server):
   * claims left by a crashed run are released at start instead of running out, so its updates
   * are answered at once after a restart.
   */
  soleInstance?: boolean;
  /** How many handled updates between two vacuums of the inbox (VACUUM_EVERY by default). */
  vacuumEvery?: number;
};

export type InboxWorker = {
  /**
   * Stores an update from Telegram (group commit: one statement for the updates arriving together)
   * and, when its customer has nothing else in the inbox and this worker has room, takes it in the same
   * statement (storeAndClaimUpdates); resolves once it is stored, with whether it is new.
   */
  store(update: Update): Promise<boolean>;
  /** An update was stored here: look now rather than at the next poll. */
  kick(): void;
  /** Resolves once nothing is waiting or in hand (the tests' way to wait for the bot's answers). */
  drained(): Promise<void>;
  /** Stops taking updates and waits for those in hand. */
  stop(): Promise<void>;
};

export const INBOX_POLL_MS = 1_000;

/**
 * Every handled update leaves two dead row versions (the claim, the mark), and the index of waiting
 * updates fills with entries to skip, so claims slow down as a busy day goes on. PGlite runs no
 * autovacuum (in `npm run bench` the bot on PGlite lost a third of its throughput from the first
 * round to the fourth, ~25,000 updates later); PostgreSQL's comes at most once a minute and, by its
 * default scale factor, later the bigger the table (its reply time grew by half from the first round
 * to the third). So each worker vacuums the inbox itself after this many: a plain VACUUM of a small
 * table, which blocks no reads or writes; SKIP_LOCKED leaves it to another instance already at it.
 */
const VACUUM_EVERY = 5_000;

async function vacuumInbox(db: DbOrTx): Promise<void> {
  await db.execute(sql`vacuum (skip_locked) telegram_updates`);
}
/**
 * Customers handled at once per instance. Handling mostly waits on Telegram (and sometimes the
 * payment gateway), not on this machine: with Telegram answering in 300 ms, 64 at once still
 * handle ~200 updates a second.
 */
const INBOX_CONCURRENCY = 64;

export function startInboxWorker(options: InboxWorkerOptions): InboxWorker {
  const { db, botId, log } = options;
  const concurrency = options.concurrency ?? INBOX_CONCURRENCY;
  const claimMs = options.claimMs ?? CLAIM_MS;
  const inHand = new Map<number, Promise<void>>();
  // Room promised to a store statement in flight, for the updates it may take.
  let reserved = 0;
  // Handled, their mark not yet committed: a store statement marks them too (storeAndClaimUpdates).
  const finishing = new Set<number>();
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let again = false;
  let markedSinceVacuum = 0;
  let vacuuming: Promise<void> | null = null;
  // Many updates finished at about the same time are marked in one statement.
  const markDone = groupCommit(async (updateIds: number[]) => {
    await markHandled(db, botId, updateIds, options.now());
    markedSinceVacuum += updateIds.length;
    // One vacuum at a time: a second one started meanwhile would only be skipped (SKIP_LOCKED), so
    // the count is kept and the next mark starts it once the first has finished.
    if (markedSinceVacuum >= (options.vacuumEvery ?? VACUUM_EVERY) && !vacuuming) {
      markedSinceVacuum = 0;
      vacuuming = vacuumInbox(db)
        .catch((error: unknown) =>
          log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not vacuum"),
        )
        .finally(() => {
          vacuuming = null;
        });
    }
    return updateIds.map(() => undefined);
  });

  async function finish(claimed: ClaimedUpdate) {
    try {
      if (!claimed.update) {
        log.error({ updateId: claimed.updateId }, "Telegram inbox: a stored update has no content; skipped");
      } else if (claimed.attempts > MAX_ATTEMPTS) {
        log.error({ updateId: claimed.updateId, attempts: claimed.attempts }, "Telegram inbox: an update never finished; given up on");
      } else {
        await options.handle(claimed.update, claimed);
      }
      finishing.add(claimed.updateId);
      await markDone(claimed.updateId).finally(() => finishing.delete(claimed.updateId));
    } catch (error) {
      // The bot could not start (Telegram unreachable) or the database refused the mark: the update
      // stays in the inbox, its claim runs out (no longer renewed) and it is taken again.
      log.warn(
        { err: error instanceof Error ? error.message : String(error), updateId: claimed.updateId },
        "Telegram inbox: an update was not finished; it will be tried again",
      );
    }
  }

  function take(claimed: ClaimedUpdate) {
    const work = finish(claimed).finally(() => {
      inHand.delete(claimed.updateId);
      // A customer's next update may be waiting behind this one.
      kick();
    });
    inHand.set(claimed.updateId, work);
  }

  const store = groupCommit(async (updates: Update[]) => {
    // At most one update per customer can be taken: no more room is held from the claims meanwhile.
    const customers = new Set(updates.map(chatKeyOf).filter((chatKey) => chatKey !== null)).size;
    const room = stopped ? 0 : Math.min(customers, Math.max(0, concurrency - inHand.size - reserved));
    reserved += room;
    let stored: StoredUpdate[];
    try {
      stored = await storeAndClaimUpdates(db, botId, updates, options.now(), room, claimMs, [...finishing]);
    } finally {
      reserved -= room;
    }
    const taken = stored.flatMap((entry) => (entry.claimed ? [entry.claimed] : []));
    if (stopped && taken.length > 0) {
      // Stopped while the statement ran: given back, for the next worker to take.
      await releaseUpdates(db, botId, taken.map((claimed) => claimed.updateId)).catch((error: unknown) =>
        log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not give back updates; they are taken again once their claim runs out"),
      );
    } else {
      for (const claimed of taken) take(claimed);
    }
    if (stored.some((entry) => entry.isNew && !entry.claimed)) kick();
    // The customers' replies first, Telegram's acknowledgements right after: the handlers just started
    // run up to their first call to Telegram before the webhook answers are written (decision 22).
    if (taken.length > 0) await new Promise((resolve) => setImmediate(resolve));
    return stored.map((entry) => entry.isNew);
  });

  async function pumpOnce() {
    do {
      again = false;
      const free = concurrency - inHand.size - reserved;
      if (stopped || free <= 0) return;
      let claimed: ClaimedUpdate[];
      try {
        claimed = await claimUpdates(db, botId, free, claimMs);
      } catch (error) {
        log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not take updates");
        return;
      }
      for (const update of claimed) take(update);
      // Took a full batch: there may be more.
      if (claimed.length === free) again = true;
    } while (again);
  }

  let kickScheduled = false;
  function kick() {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    // Kicks in one turn of the event loop (updates stored together, updates finished together) make
    // one look at the inbox, which takes what they left all at once.
    if (kickScheduled) return;
    kickScheduled = true;
    setImmediate(() => {
      kickScheduled = false;
      if (stopped) return;
      if (pumping) again = true;
      else void pump();
    });
  }

  function pump(): Promise<void> {
    pumping = pumpOnce().finally(() => {
      pumping = null;
      if (again) kick();
    });
    return pumping;
  }

  const poll = setInterval(kick, options.pollMs ?? INBOX_POLL_MS);
  poll.unref();
  const renew = setInterval(() => {
    renewClaims(db, botId, [...inHand.keys()], claimMs).catch((error: unknown) =>
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not renew claims"),
    );
  }, claimMs / 3);
  renew.unref();
  if (options.soleInstance) {
    pumping = releaseClaims(db, botId)
      .catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not release old claims"))
      .finally(() => {
        pumping = null;
        kick();
      });
  } else {
    kick();
  }

  return {
    store,
    kick,
    async drained() {
      for (;;) {
        if (kickScheduled) {
          await new Promise((resolve) => setImmediate(resolve));
        } else if (pumping) {
          await pumping;
        } else if (inHand.size > 0) {
          await Promise.all([...inHand.values()]);
        } else {
          // Nothing in hand: look once more, in case an update was stored since the last look.
          if (stopped) return;
          await pump();
          if (inHand.size === 0 && !again && !kickScheduled) return;
        }
      }
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearInterval(renew);
      if (pumping) await pumping;
      await Promise.all([...inHand.values()]);
    },
  };
}
