import { and, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Update } from "grammy/types";
import type { DbOrTx } from "../db/client";
import { groupCommit } from "../db/group-commit";
import { telegramUpdates } from "../db/schema";

// The inbox (DESIGN decision 11, docs/decisions/0012-telegram-inbox.md): an update from Telegram is
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
  const distinct = updates.filter((update, index) => updates.findIndex((other) => other.update_id === update.update_id) === index);
  const inserted = await db
    .insert(telegramUpdates)
    .values(
      distinct.map((update) => ({
        botId,
        updateId: update.update_id,
        receivedAt: now,
        chatKey: chatKeyOf(update),
        payload: update as unknown as Record<string, unknown>,
      })),
    )
    .onConflictDoNothing()
    .returning({ updateId: telegramUpdates.updateId });
  const isNew = new Set(inserted.map((row) => Number(row.updateId)));
  if (inserted.some((row) => Number(row.updateId) % PRUNE_EVERY === 0)) await pruneUpdates(db, botId, now);
  return updates.map((update) => isNew.delete(update.update_id));
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

/** What /start needs to know of a customer's broadcast record (shop/broadcasts.ts isStartRecorded). */
export type StartRecord = { username: string | null; reachable: boolean };

/**
 * Takes up to `limit` updates that are next in line for their customer: the oldest unhandled update
 * of each customer (DISTINCT ON, one pass over the waiting ones in the inbox's index), when no
 * worker holds it. An update behind one in another worker's hands waits, so a customer's updates run
 * one at a time, in order, across instances. Two workers picking the same update race on its row:
 * the UPDATE re-checks the claim on the row it locked, so only the first takes it. The database's
 * clock decides claims, the same for every machine.
 */
export async function claimUpdates(db: DbOrTx, botId: number, limit: number, claimMs = CLAIM_MS): Promise<ClaimedUpdate[]> {
  const result = (await db.execute(sql`
    update telegram_updates as t
       set claimed_until = now() + ${claimMs} * interval '1 millisecond', attempts = t.attempts + 1
      from (
        select head.bot_id, head.update_id
          from (
            select distinct on (u.chat_key) u.bot_id, u.update_id, u.claimed_until
              from telegram_updates u
             where u.bot_id = ${botId} and u.handled_at is null
             order by u.chat_key, u.update_id
          ) as head
         where head.claimed_until is null or head.claimed_until < now()
         order by head.update_id
         limit ${limit}
      ) as next
     where t.bot_id = next.bot_id and t.update_id = next.update_id
       and t.handled_at is null and (t.claimed_until is null or t.claimed_until < now())
    returning t.update_id, t.payload, t.attempts,
      (select c.state from bot_conversations c where c.telegram_user_id = t.chat_key) as conversation,
      (select json_build_object('username', b.telegram_username, 'reachable', b.opted_out_at is null and b.unreachable_at is null)
         from bot_customers b where b.telegram_user_id = t.chat_key) as start_record`)) as unknown as {
    rows: { update_id: number | string; payload: Update | string | null; attempts: number; conversation: unknown; start_record: unknown }[];
  };
  return result.rows
    .map((row) => ({
      updateId: Number(row.update_id),
      // node-postgres parses jsonb; a driver that hands back text gets parsed here.
      update: typeof row.payload === "string" ? (JSON.parse(row.payload) as Update) : row.payload,
      attempts: Number(row.attempts),
      conversation: typeof row.conversation === "string" ? (JSON.parse(row.conversation) as unknown) : row.conversation,
      startRecord: (typeof row.start_record === "string" ? JSON.parse(row.start_record) : row.start_record) as StartRecord | null,
    }))
    .sort((a, b) => a.updateId - b.updateId);
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

/** Done: only the ids stay (to catch a redelivery); what the customers sent is not kept. */
export async function markHandled(db: DbOrTx, botId: number, updateIds: number[], now: Date): Promise<void> {
  if (updateIds.length === 0) return;
  await db
    .update(telegramUpdates)
    .set({ handledAt: now, payload: null, claimedUntil: null })
    .where(and(eq(telegramUpdates.botId, botId), inArray(telegramUpdates.updateId, updateIds)));
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
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let again = false;
  let markedSinceVacuum = 0;
  // Many updates finished at about the same time are marked in one statement.
  const markDone = groupCommit(async (updateIds: number[]) => {
    await markHandled(db, botId, updateIds, options.now());
    markedSinceVacuum += updateIds.length;
    if (markedSinceVacuum >= (options.vacuumEvery ?? VACUUM_EVERY)) {
      markedSinceVacuum = 0;
      vacuumInbox(db).catch((error: unknown) =>
        log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not vacuum"),
      );
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
      await markDone(claimed.updateId);
    } catch (error) {
      // The bot could not start (Telegram unreachable) or the database refused the mark: the update
      // stays in the inbox, its claim runs out (no longer renewed) and it is taken again.
      log.warn(
        { err: error instanceof Error ? error.message : String(error), updateId: claimed.updateId },
        "Telegram inbox: an update was not finished; it will be tried again",
      );
    }
  }

  async function pumpOnce() {
    do {
      again = false;
      const free = concurrency - inHand.size;
      if (stopped || free <= 0) return;
      let claimed: ClaimedUpdate[];
      try {
        claimed = await claimUpdates(db, botId, free, claimMs);
      } catch (error) {
        log.warn({ err: error instanceof Error ? error.message : String(error) }, "Telegram inbox: could not take updates");
        return;
      }
      for (const update of claimed) {
        const work = finish(update).finally(() => {
          inHand.delete(update.updateId);
          // A customer's next update may be waiting behind this one.
          kick();
        });
        inHand.set(update.updateId, work);
      }
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
