import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test-support/postgres";
import { openPostgres } from "./client";
import { createLocks, type Lease, type Locks } from "./leader";

// Several server instances on one PostgreSQL: one payment-jobs run at a time, one long-polling bot
// (a leader that another instance replaces when it dies), migrations applied once. Each "instance"
// here is a Locks of its own, with its own connections, as in separate processes.

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function expectExclusive(first: Locks, second: Locks) {
  const inside = deferred();
  const finish = deferred();
  const running = first.runExclusive("paymentJobs", async () => {
    inside.resolve();
    await finish.promise;
  });
  await inside.promise;
  let secondRan = false;
  expect(await second.runExclusive("paymentJobs", async () => void (secondRan = true))).toBe(false);
  expect(secondRan).toBe(false);
  finish.resolve();
  expect(await running).toBe(true);
  expect(await second.runExclusive("paymentJobs", async () => void (secondRan = true))).toBe(true);
  expect(secondRan).toBe(true);
}

describe("locks on PostgreSQL (two instances)", () => {
  let database: ThrowawayDatabase;
  let a: Locks;
  let b: Locks;
  beforeAll(async () => {
    database = await createThrowawayDatabase();
    a = createLocks({ databaseUrl: database.url, retryMs: 100 });
    b = createLocks({ databaseUrl: database.url, retryMs: 100 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("runs the payment jobs on one instance at a time", async () => {
    await expectExclusive(a, b);
  });

  it("frees a run's lock even when the run fails", async () => {
    await expect(a.runExclusive("paymentJobs", () => Promise.reject(new Error("gateway down")))).rejects.toThrow(/gateway down/);
    expect(await b.runExclusive("paymentJobs", async () => {})).toBe(true);
  });

  it("elects one poller; another takes over when the leader's connection dies", async () => {
    const stop = new AbortController();
    const leader = (await a.acquire("telegramPolling", { signal: stop.signal }))!;
    expect(leader).not.toBeNull();

    const onWaiting = vi.fn();
    let follower: Lease | null = null;
    const following = b.acquire("telegramPolling", { signal: stop.signal, onWaiting }).then((lease) => (follower = lease));
    await vi.waitFor(() => expect(onWaiting).toHaveBeenCalledTimes(1));
    expect(follower).toBeNull();

    // The leader's process dies: PostgreSQL ends its session (here: an administrator does).
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = 2 and granted and database = (select oid from pg_database where datname = current_database())",
    );
    await admin.end();

    await leader.lost; // the old leader learns it is deposed (it stops polling)
    await following;
    expect(follower).not.toBeNull();
    await follower!.release();
    stop.abort();
  });

  it("stops waiting for leadership when asked", async () => {
    const held = (await a.acquire("telegramPolling", { signal: new AbortController().signal }))!;
    const stop = new AbortController();
    const waiting = b.acquire("telegramPolling", { signal: stop.signal });
    stop.abort();
    expect(await waiting).toBeNull();
    await held.release();
  });

  it("applies the migrations once when two instances start together on an empty database", async () => {
    const empty = await createThrowawayDatabase();
    try {
      const [first, second] = await Promise.all([openPostgres(empty.url), openPostgres(empty.url)]);
      await first.close();
      await second.close();
    } finally {
      await empty.drop();
    }
  });
});

describe("locks on PGlite (one process)", () => {
  it("keep the same promises in memory", async () => {
    const locks = createLocks({ databaseUrl: undefined });
    await expectExclusive(locks, locks);
    const first = (await locks.acquire("telegramPolling", { signal: new AbortController().signal }))!;
    const onWaiting = vi.fn();
    const second = locks.acquire("telegramPolling", { signal: new AbortController().signal, onWaiting });
    expect(onWaiting).toHaveBeenCalledTimes(1);
    await first.release();
    expect(await second).not.toBeNull();
  });
});
