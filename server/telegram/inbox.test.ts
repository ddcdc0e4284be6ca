import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres, type Database } from "../db/client";
import { telegramUpdates } from "../db/schema";
import { createTestDatabase } from "../../test-support/database";
import { silentLog } from "../../test-support/bot-harness";
import { groupCommit } from "../db/group-commit";
import { openConversation, saveConversation, recordBotStart } from "../shop/customers";
import { queryRows } from "../db/rows";
import {
  botIdOf,
  claimUpdates,
  markHandled,
  pruneUpdates,
  startInboxWorker,
  storeAndClaimUpdates,
  storeUpdate,
  storeUpdates,
  UPDATE_IDS_KEPT_MS,
} from "./inbox";

const BOT = botIdOf("7000000001:first-bot-token");
const OTHER_BOT = botIdOf("7000000002:second-bot-token");

/** A text message update from customer `from`. */
function message(updateId: number, from: number, text = "/start"): Update {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 1_700_000_000,
      chat: { id: from, type: "private", first_name: "C" },
      from: { id: from, is_bot: false, first_name: "C" },
      text,
    },
  } as Update;
}

describe("the inbox of Telegram updates", () => {
  let database: Database & { url?: string };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(telegramUpdates);
  });

  it("knows a bot by the number its token starts with", () => {
    expect(BOT).toBe(7000000001);
    expect(botIdOf("not a token")).toBe(0);
  });

  it("stores an update once per bot and id, and forgets handled ones older than a day, and another bot's, never this bot's waiting ones", async () => {
    const { db } = database;
    const start = new Date("2025-03-01T12:00:00Z");
    expect(await storeUpdate(db, BOT, message(501, 1), start)).toBe(true);
    expect(await storeUpdate(db, BOT, message(501, 1, "a redelivery"), start)).toBe(false);
    // Another bot's update 501 is another update.
    expect(await storeUpdate(db, OTHER_BOT, message(501, 1), start)).toBe(true);
    expect(await storeUpdate(db, BOT, message(502, 1), new Date(start.getTime() + 60_000))).toBe(true);
    await markHandled(db, BOT, [501], start);
    // The other bot's 601 and 602 were never handled (its token was replaced): 601 goes after a day.
    expect(await storeUpdate(db, OTHER_BOT, message(601, 1), start)).toBe(true);
    expect(await storeUpdate(db, OTHER_BOT, message(602, 1), new Date(start.getTime() + UPDATE_IDS_KEPT_MS + 60_000))).toBe(true);
    await markHandled(db, OTHER_BOT, [501], start);

    await pruneUpdates(db, BOT, new Date(start.getTime() + UPDATE_IDS_KEPT_MS + 120_000));
    // This bot's 502 was never handled: it stays, however old.
    const left = await db.select().from(telegramUpdates);
    expect(left.map((row) => `${row.botId}/${row.updateId}`).sort()).toEqual([`${BOT}/502`, `${OTHER_BOT}/602`]);
  });

  it("stores a batch in one statement: each update once, also when it is in the batch twice or was stored before", async () => {
    const { db } = database;
    const now = new Date();
    expect(await storeUpdate(db, BOT, message(3, 1), now)).toBe(true);
    const batch = [message(1, 1), message(2, 2), message(1, 1, "a retry in flight"), message(3, 1), message(4, 3)];
    expect(await storeUpdates(db, BOT, batch, now)).toEqual([true, true, false, false, true]);
    const rows = await db.select().from(telegramUpdates);
    expect(rows.map((row) => row.updateId).sort()).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(rows.find((row) => row.updateId === 1)!.payload)).not.toContain("a retry in flight");
  });

  it("stores every update once when webhooks race, redeliveries included (generated arrivals, group commit)", async () => {
    const { db } = database;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 40 }), async (arrivals) => {
        await db.delete(telegramUpdates);
        const store = groupCommit((updates: Update[]) => storeUpdates(db, BOT, updates, new Date()));
        // All at once, as parallel webhook calls: Telegram may deliver an update again before the first answer.
        const stored = await Promise.all(arrivals.map((id) => store(message(id, id % 3))));
        for (const id of new Set(arrivals)) {
          expect(stored.filter((isNew, index) => isNew && arrivals[index] === id)).toHaveLength(1);
        }
        expect((await db.select().from(telegramUpdates)).length).toBe(new Set(arrivals).size);
      }),
      { numRuns: 20 },
    );
  });

  it("hands out each update with its customer's conversation state as stored then", async () => {
    const { db } = database;
    const checkout = { step: "checkout", stage: "postcode", draft: { name: "Ann", streetAddress: "1 High St" } } as const;
    await saveConversation(db, "1", checkout);
    await storeUpdates(db, BOT, [message(20, 1, "SW1A 1AA"), message(21, 2)], new Date());
    const claimed = await claimUpdates(db, BOT, 10);
    expect(claimed.map((claim) => claim.updateId)).toEqual([20, 21]);
    // As stored: the draft encrypted (issue 15); the bot opens it.
    expect(JSON.stringify(claimed[0]!.conversation)).not.toContain("High St");
    expect(await openConversation(db, "1", claimed[0]!.conversation)).toEqual(checkout);
    expect(claimed[1]!.conversation).toBeNull();
  });

  it("takes an update as it is stored when its customer has nothing else in the inbox, with the customer's state read then", async () => {
    const { db } = database;
    const now = new Date();
    const checkout = { step: "checkout", stage: "name", draft: {} } as const;
    await saveConversation(db, "1", checkout);
    await recordBotStart(db, "1", "ann", now);
    // Customer 2 has an update waiting already; customer 3 one in a worker's hands.
    await storeUpdate(db, BOT, message(6, 3), now);
    await claimUpdates(db, BOT, 10);
    await storeUpdates(db, BOT, [message(5, 2), message(7, 2)], now);

    const stored = await storeAndClaimUpdates(db, BOT, [message(12, 1), message(11, 1), message(13, 2), message(14, 3), message(15, 4), message(6, 3)], now, 10);
    expect(stored.map((entry) => [entry.isNew, entry.claimed?.updateId ?? null])).toEqual([
      [true, null], // waits behind 11, the lower id of the same customer in the batch
      [true, 11],
      [true, null], // customer 2 has 5 and 7 waiting
      [true, null], // customer 3's 6 is in a worker's hands
      [true, 15],
      [false, null], // a redelivery
    ]);
    expect(stored[1]!.claimed).toMatchObject({ attempts: 1, startRecord: { username: "ann", reachable: true }, update: message(11, 1) });
    // The state as stored (the draft encrypted, issue 15); the bot opens it.
    expect(await openConversation(db, "1", stored[1]!.claimed!.conversation)).toEqual(checkout);
    expect(stored[4]!.claimed).toMatchObject({ conversation: null, startRecord: null });
    // Taken means held: the claim gives out the next of each customer not in hand, never 12 before 11 is done.
    expect((await claimUpdates(db, BOT, 10)).map((claim) => claim.updateId)).toEqual([5]);
    await markHandled(db, BOT, [11], now);
    expect((await claimUpdates(db, BOT, 10)).map((claim) => claim.updateId)).toEqual([12]);
  });

  it("takes a customer's next update as it is stored also before the previous one's mark came: marked in the same statement", async () => {
    const { db } = database;
    const now = new Date();
    expect((await storeAndClaimUpdates(db, BOT, [message(1, 1)], now, 1))[0]!.claimed?.updateId).toBe(1);
    // Handled, its mark still on the way, and the customer's answer to the reply arrives.
    const next = await storeAndClaimUpdates(db, BOT, [message(2, 1)], now, 1, undefined, [1]);
    expect(next[0]!.claimed?.updateId).toBe(2);
    const rows = await db.select().from(telegramUpdates);
    expect(rows.map((row) => [row.updateId, row.handledAt !== null, row.claimedUntil !== null, row.payload === null]).sort()).toEqual([
      [1, true, false, true],
      [2, false, true, false],
    ]);
    // The mark coming after finds it done and changes nothing.
    await markHandled(db, BOT, [1], new Date(now.getTime() + 1000));
    const [first] = await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 1));
    expect(first!.handledAt).toEqual(now);
  });

  it("takes no more updates as they are stored than it was given room for", async () => {
    const { db } = database;
    const stored = await storeAndClaimUpdates(db, BOT, [message(1, 1), message(2, 2), message(3, 3)], new Date(), 2);
    expect(stored.map((entry) => entry.claimed?.updateId ?? null)).toEqual([1, 2, null]);
    expect((await claimUpdates(db, BOT, 10)).map((claim) => claim.updateId)).toEqual([3]);
  });

  it("never lets a customer have two updates in workers' hands: the database refuses the second", async () => {
    const { db } = database;
    await storeUpdates(db, BOT, [message(1, 1), message(2, 1)], new Date());
    await claimUpdates(db, BOT, 10);
    await expect(
      db.update(telegramUpdates).set({ claimedUntil: new Date(Date.now() + 60_000) }).where(eq(telegramUpdates.updateId, 2)),
    ).rejects.toThrow();
  });

  it("keeps an older update that arrived late waiting until the customer's newer one in hand is done", async () => {
    const { db } = database;
    const now = new Date();
    // 9 was taken as it was stored; Telegram then delivers 8 (say, a retry of a failed delivery).
    expect((await storeAndClaimUpdates(db, BOT, [message(9, 1)], now, 1))[0]!.claimed?.updateId).toBe(9);
    await storeUpdate(db, BOT, message(8, 1), now);
    expect(await claimUpdates(db, BOT, 10)).toEqual([]);
    await markHandled(db, BOT, [9], now);
    expect((await claimUpdates(db, BOT, 10)).map((claim) => claim.updateId)).toEqual([8]);
  });

  it("takes back an update taken as it was stored once its worker's claim ran out (the worker died)", async () => {
    const { db } = database;
    await storeAndClaimUpdates(db, BOT, [message(9, 1)], new Date(), 1);
    await storeUpdate(db, BOT, message(8, 1), new Date());
    await db.update(telegramUpdates).set({ claimedUntil: new Date(Date.now() - 1000) }).where(eq(telegramUpdates.updateId, 9));
    // 9 was in hand when its worker died: it is taken again before 8, which came after it was taken.
    expect((await claimUpdates(db, BOT, 10)).map((claim) => [claim.updateId, claim.attempts])).toEqual([[9, 2]]);
  });

  it("lets one of two instances storing a customer's updates at once take one; the other's waits (two connections)", async () => {
    const { db } = database;
    // On PostgreSQL a second pool, as a second server would have; the first store stays uncommitted
    // while the second runs, which must wait for it and then leave its update waiting.
    const second = database.url ? await openPostgres(database.url) : null;
    try {
      let secondStore: Promise<Awaited<ReturnType<typeof storeAndClaimUpdates>>> | null = null;
      await db.transaction(async (tx) => {
        const first = await storeAndClaimUpdates(tx, BOT, [message(1, 1)], new Date(), 1);
        expect(first[0]!.claimed?.updateId).toBe(1);
        if (second) {
          secondStore = storeAndClaimUpdates(second.db, BOT, [message(2, 1)], new Date(), 1);
          // It waits on the first one's row in the unique index until this transaction commits.
          await expect
            .poll(async () => {
              const waiting = await queryRows<{ n: number }>(
                second.db,
                sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
              );
              return waiting[0]!.n;
            })
            .toBeGreaterThan(0);
        }
      });
      const later = await (secondStore ?? storeAndClaimUpdates(db, BOT, [message(2, 1)], new Date(), 1));
      expect(later.map((entry) => [entry.isNew, entry.claimed])).toEqual([[true, null]]);
      const rows = await db.select().from(telegramUpdates);
      expect(rows.filter((row) => row.claimedUntil !== null).map((row) => row.updateId)).toEqual([1]);
    } finally {
      await second?.close();
    }
  });

  it("commits the mark of a handled update without waiting for the disk, for that statement only", async () => {
    const { db } = database;
    await storeUpdate(db, BOT, message(1, 1), new Date());
    const setting = async (on: typeof db | Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
      (await queryRows<{ synchronous_commit: string }>(on, sql`show synchronous_commit`))[0]!.synchronous_commit;
    await db.transaction(async (tx) => {
      await markHandled(tx, BOT, [1], new Date());
      expect(await setting(tx)).toBe("off");
    });
    expect(await setting(db)).toBe("on");
  });

  it("keeps what the customer sent only until the update is handled", async () => {
    const { db } = database;
    await storeUpdate(db, BOT, message(700, 1, "12 Secret Street"), new Date());
    const [waiting] = await db.select().from(telegramUpdates);
    expect(JSON.stringify(waiting!.payload)).toContain("12 Secret Street");
    await markHandled(db, BOT, [700], new Date());
    const [handled] = await db.select().from(telegramUpdates);
    expect(handled).toMatchObject({ updateId: 700, payload: null, chatKey: "1" });
    expect(handled!.handledAt).not.toBeNull();
  });

  it("gives out only the next update of each customer, and one in a worker's hands to nobody else until its claim runs out", async () => {
    const { db } = database;
    const now = new Date();
    for (const [id, from] of [
      [10, 1],
      [11, 1],
      [12, 2],
      [13, 1],
      [14, 3],
    ] as const) {
      await storeUpdate(db, BOT, message(id, from), now);
    }
    const first = await claimUpdates(db, BOT, 10);
    expect(first.map((claim) => claim.updateId)).toEqual([10, 12, 14]);
    expect(first[0]!.update).toEqual(message(10, 1));
    // 11 waits for 10, which is in a worker's hands.
    expect(await claimUpdates(db, BOT, 10)).toEqual([]);
    await markHandled(db, BOT, [10], now);
    expect((await claimUpdates(db, BOT, 10)).map((claim) => claim.updateId)).toEqual([11]);

    // A worker that died holding 12: once its claim ran out, 12 is taken again, counted as a second attempt.
    await db.update(telegramUpdates).set({ claimedUntil: new Date(Date.now() - 60_000) }).where(eq(telegramUpdates.updateId, 12));
    const retaken = await claimUpdates(db, BOT, 10);
    expect(retaken.map((claim) => [claim.updateId, claim.attempts])).toEqual([[12, 2]]);
  });

  it("handles every update once, each customer's in order, customers side by side (generated interleavings)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ from: fc.integer({ min: 1, max: 4 }), delayMs: fc.integer({ min: 0, max: 4 }) }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 4 }),
        async (arrivals, concurrency) => {
          const { db } = database;
          await db.delete(telegramUpdates);
          const handled: { updateId: number; from: number }[] = [];
          let inHand = 0;
          let mostAtOnce = 0;
          const worker = startInboxWorker({
            db,
            botId: BOT,
            now: () => new Date(),
            log: silentLog,
            concurrency,
            async handle(update) {
              inHand += 1;
              mostAtOnce = Math.max(mostAtOnce, inHand);
              await new Promise((resolve) => setTimeout(resolve, arrivals[update.update_id - 1]!.delayMs));
              handled.push({ updateId: update.update_id, from: update.message!.from.id });
              inHand -= 1;
            },
          });
          try {
            // Updates arrive while the worker works; a redelivery of each one is stored as nothing.
            for (const [index, arrival] of arrivals.entries()) {
              const update = message(index + 1, arrival.from);
              expect(await storeUpdate(db, BOT, update, new Date())).toBe(true);
              worker.kick();
              expect(await storeUpdate(db, BOT, update, new Date())).toBe(false);
            }
            await worker.drained();
          } finally {
            await worker.stop();
          }
          expect(handled.map((h) => h.updateId).sort((a, b) => a - b)).toEqual(arrivals.map((_, index) => index + 1));
          for (const from of new Set(arrivals.map((a) => a.from))) {
            const ids = handled.filter((h) => h.from === from).map((h) => h.updateId);
            expect(ids).toEqual([...ids].sort((a, b) => a - b));
          }
          expect(mostAtOnce).toBeLessThanOrEqual(concurrency);
          const rows = await db.select().from(telegramUpdates);
          expect(rows.every((row) => row.handledAt !== null && row.payload === null)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("shares the work between two instances' workers: each update once, each customer's in order", async () => {
    const { db } = database;
    // On PostgreSQL the second worker has connections of its own, as a second server would.
    const second = database.url ? await openPostgres(database.url) : null;
    const handled: { updateId: number; from: number; worker: string }[] = [];
    const inHand = new Map<number, string>();
    const overlaps: number[] = [];
    const workerFor = (name: string, on: typeof db) =>
      startInboxWorker({
        db: on,
        botId: BOT,
        now: () => new Date(),
        log: silentLog,
        concurrency: 3,
        async handle(update) {
          const from = update.message!.from.id;
          // Never two of one customer's updates at once, on either instance.
          if (inHand.has(from)) overlaps.push(update.update_id);
          inHand.set(from, name);
          await new Promise((resolve) => setTimeout(resolve, update.update_id % 3));
          inHand.delete(from);
          handled.push({ updateId: update.update_id, from, worker: name });
        },
      });
    const workers = [workerFor("first", db), workerFor("second", second?.db ?? db)];
    try {
      for (let id = 1; id <= 60; id++) {
        await storeUpdate(db, BOT, message(id, (id % 5) + 1), new Date());
        workers[id % 2]!.kick();
      }
      await expect.poll(() => handled.length, { timeout: 20_000 }).toBe(60);
      await Promise.all(workers.map((worker) => worker.drained()));
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await second?.close();
    }
    expect(handled.map((h) => h.updateId).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (let from = 1; from <= 5; from++) {
      const ids = handled.filter((h) => h.from === from).map((h) => h.updateId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    expect(overlaps).toEqual([]);
    expect(new Set(handled.map((h) => h.worker))).toEqual(new Set(["first", "second"]));
  });

  it("two instances storing and handling at once: each update once, never two of a customer's at once, each customer's in the order stored (generated)", async () => {
    const { db } = database;
    const second = database.url ? await openPostgres(database.url) : null;
    try {
      await fc.assert(
        fc.asyncProperty(
          // Waves of webhook calls arriving together, spread over two instances; a customer may have
          // updates in one wave on both instances (Telegram delivering in parallel).
          fc.array(fc.array(fc.record({ from: fc.integer({ min: 1, max: 4 }), instance: fc.integer({ min: 0, max: 1 }) }), { minLength: 1, maxLength: 8 }), {
            minLength: 1,
            maxLength: 6,
          }),
          fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 }),
          async (waves, delays) => {
            await db.delete(telegramUpdates);
            const handled: { updateId: number; from: number }[] = [];
            const inHand = new Set<number>();
            const overlaps: number[] = [];
            const workerOn = (on: typeof db) =>
              startInboxWorker({
                db: on,
                botId: BOT,
                now: () => new Date(),
                log: silentLog,
                concurrency: 3,
                async handle(update) {
                  const from = update.message!.from.id;
                  if (inHand.has(from)) overlaps.push(update.update_id);
                  inHand.add(from);
                  await new Promise((resolve) => setTimeout(resolve, delays[update.update_id % delays.length]));
                  inHand.delete(from);
                  handled.push({ updateId: update.update_id, from });
                },
              });
            const workers = [workerOn(db), workerOn(second?.db ?? db)];
            // Which updates of a customer were stored before another was sent: those must be handled before it.
            const storedBefore = new Map<number, number[]>();
            const storedSoFar = new Map<number, number[]>();
            let nextId = 1;
            try {
              for (const wave of waves) {
                const sent = wave.map((arrival) => ({ ...arrival, updateId: nextId++ }));
                for (const { from, updateId } of sent) storedBefore.set(updateId, [...(storedSoFar.get(from) ?? [])]);
                const results = await Promise.all(sent.map(({ from, instance, updateId }) => workers[instance]!.store(message(updateId, from))));
                expect(results.every(Boolean)).toBe(true);
                for (const { from, updateId } of sent) storedSoFar.set(from, [...(storedSoFar.get(from) ?? []), updateId]);
              }
              await expect.poll(() => handled.length, { timeout: 20_000 }).toBe(nextId - 1);
              await Promise.all(workers.map((worker) => worker.drained()));
            } finally {
              await Promise.all(workers.map((worker) => worker.stop()));
            }
            expect(overlaps).toEqual([]);
            expect(handled.map((h) => h.updateId).sort((a, b) => a - b)).toEqual(Array.from({ length: nextId - 1 }, (_, i) => i + 1));
            const position = new Map(handled.map((h, index) => [h.updateId, index]));
            for (const [updateId, before] of storedBefore) {
              for (const earlier of before) expect(position.get(earlier)!).toBeLessThan(position.get(updateId)!);
            }
            const rows = await db.select().from(telegramUpdates);
            expect(rows.every((row) => row.handledAt !== null && row.claimedUntil === null)).toBe(true);
          },
        ),
        { numRuns: 15 },
      );
    } finally {
      await second?.close();
    }
  });

  it("takes up at start what a stopped server left, and gives up on an update that never finishes", async () => {
    const { db } = database;
    await storeUpdate(db, BOT, message(1, 1), new Date());
    await storeUpdate(db, BOT, message(2, 2), new Date());
    // The previous server took update 2 and died with it; its claim runs out (here: made to have run out).
    await claimUpdates(db, BOT, 10, 60_000);
    await db.update(telegramUpdates).set({ claimedUntil: new Date(Date.now() - 1000) });
    // Update 1 has crashed a worker three times already.
    await db.update(telegramUpdates).set({ attempts: 3 }).where(eq(telegramUpdates.updateId, 1));

    const handled: number[] = [];
    const errors: string[] = [];
    const worker = startInboxWorker({
      db,
      botId: BOT,
      now: () => new Date(),
      log: { ...silentLog, error: (_obj: object, msg: string) => void errors.push(msg) },
      handle: async (update) => void handled.push(update.update_id),
    });
    await worker.drained();
    await worker.stop();
    expect(handled).toEqual([2]);
    expect(errors).toEqual(["Telegram inbox: an update never finished; given up on"]);
    const rows = await db.select().from(telegramUpdates);
    expect(rows.every((row) => row.handledAt !== null)).toBe(true);
  });

  it("vacuums the inbox as updates are handled (PGlite has no autovacuum; PostgreSQL's comes too seldom)", async () => {
    const { db } = database;
    const vacuums = async () =>
      Number(
        (await queryRows<{ vacuum_count: number | string }>(db, sql`select vacuum_count from pg_stat_user_tables where relname = 'telegram_updates'`))[0]!
          .vacuum_count,
      );
    // PostgreSQL's own autovacuum (or autoanalyze) holding the table would make ours skip it (SKIP_LOCKED).
    await db.execute(sql`alter table telegram_updates set (autovacuum_enabled = false)`);
    const before = await vacuums();
    const worker = startInboxWorker({ db, botId: BOT, now: () => new Date(), log: silentLog, vacuumEvery: 5, handle: async () => {} });
    try {
      for (let id = 1; id <= 10; id++) {
        await storeUpdate(db, BOT, message(id, id), new Date());
        worker.kick();
        await worker.drained();
        // The vacuum runs beside the worker; each one is awaited before the next five updates.
        if (id % 5 === 0) await expect.poll(vacuums, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + id / 5);
      }
    } finally {
      await worker.stop();
      await db.execute(sql`alter table telegram_updates reset (autovacuum_enabled)`);
    }
  });

  it("leaves an update it could not handle in the inbox for the next try", async () => {
    const { db } = database;
    await storeUpdate(db, BOT, message(5, 1), new Date());
    let tries = 0;
    const worker = startInboxWorker({
      db,
      botId: BOT,
      now: () => new Date(),
      log: silentLog,
      claimMs: 50,
      pollMs: 20,
      async handle() {
        tries += 1;
        if (tries === 1) throw new Error("Telegram could not be reached");
      },
    });
    try {
      await expect.poll(() => tries, { timeout: 5_000 }).toBe(2);
      await worker.drained();
    } finally {
      await worker.stop();
    }
    const [row] = await db.select().from(telegramUpdates);
    expect(row).toMatchObject({ attempts: 2, payload: null });
    expect(row!.handledAt).not.toBeNull();
  });
});
