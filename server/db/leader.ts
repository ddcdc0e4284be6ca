import pg from "pg";

// Work that must happen on one server instance at a time when several share one PostgreSQL
// (docs/decisions/0010): the payment jobs (one run at a time) and Telegram long polling (one
// poller: Telegram answers a second getUpdates with 409 Conflict, and the two would fight).
//
// Both use PostgreSQL session-level advisory locks, each on a connection of its own rather than
// one borrowed from the query pool: the lock lives exactly as long as that connection, so a
// process that dies (or loses the network) frees it without anyone cleaning up, and no
// transaction is held open while the work calls a gateway over HTTP.
//
// PGlite is one process by construction (its folder is locked, db/client.ts): the same promises
// are kept in memory.

/** The first half of every lock key: "shop" in ASCII, so our locks are told apart from others' in pg_locks. */
const LOCK_CLASS = 0x73686f70;
export const LOCK_IDS = { migrations: 0, paymentJobs: 1, telegramPolling: 2, upkeep: 3 } as const;
export type LockName = keyof typeof LOCK_IDS;

/** How often a follower tries to become leader, and a leader checks its connection is alive. */
export const LEADER_RETRY_MS = 5_000;

/** Holding a lock as leader. `lost` settles if the lock goes (the connection broke); release() gives it up. */
export type Lease = {
  lost: Promise<void>;
  release(): Promise<void>;
};

export type Locks = {
  /** Runs `task` holding the lock; answers false, without running it, when another instance holds it. */
  runExclusive(name: LockName, task: () => Promise<void>): Promise<boolean>;
  /**
   * Waits until this instance holds the lock, trying again every retryMs; null if `signal` aborts
   * first. `onWaiting` is called once, when the first try finds another instance holding it.
   */
  acquire(name: LockName, options: { signal: AbortSignal; onWaiting?: () => void }): Promise<Lease | null>;
};

export type LockLogger = { warn(object: object, message: string): void };

export function createLocks(options: { databaseUrl: string | undefined; retryMs?: number; log?: LockLogger }): Locks {
  return options.databaseUrl ? postgresLocks(options.databaseUrl, options.retryMs ?? LEADER_RETRY_MS, options.log) : memoryLocks();
}

/**
 * Runs `task` holding the lock, waiting for it as long as another session holds it: for start-up
 * work such as migrations, which instances starting together must not do twice at once.
 */
export async function withAdvisoryLock<T>(pool: pg.Pool, name: LockName, task: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("select pg_advisory_lock($1, $2)", [LOCK_CLASS, LOCK_IDS[name]]);
    try {
      return await task();
    } finally {
      await client.query("select pg_advisory_unlock($1, $2)", [LOCK_CLASS, LOCK_IDS[name]]).catch(() => (broken = true));
    }
  } finally {
    // A connection that could not unlock is closed, not pooled: closing frees the lock.
    client.release(broken);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

function postgresLocks(databaseUrl: string, retryMs: number, log?: LockLogger): Locks {
  /** A connection of its own, whose session holds the lock; null when another session holds it. */
  async function tryLock(name: LockName): Promise<pg.Client | null> {
    // query_timeout: a health check on a dead network fails instead of hanging.
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true, query_timeout: retryMs });
    // A connection the server closes emits "error" on the client; the lease watches for it below.
    client.on("error", () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1, $2) as locked", [
        LOCK_CLASS,
        LOCK_IDS[name],
      ]);
      if (rows[0]?.locked) return client;
    } catch (error) {
      log?.warn({ err: error instanceof Error ? error.message : String(error), lock: name }, "could not take a database lock");
    }
    await client.end().catch(() => {});
    return null;
  }

  return {
    async runExclusive(name, task) {
      const client = await tryLock(name);
      if (!client) return false;
      try {
        await task();
      } finally {
        // Ending the session frees its advisory locks: no unlock call that could itself fail.
        await client.end().catch(() => {});
      }
      return true;
    },

    async acquire(name, { signal, onWaiting }) {
      let told = false;
      while (!signal.aborted) {
        const client = await tryLock(name);
        if (client) return leaseOn(client);
        if (!told) {
          told = true;
          onWaiting?.();
        }
        await pause(retryMs, signal);
      }
      return null;
    },
  };

  function leaseOn(client: pg.Client): Lease {
    let markLost!: () => void;
    const lost = new Promise<void>((resolve) => (markLost = resolve));
    let released = false;
    const loseIt = () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      markLost();
      void client.end().catch(() => {});
    };
    client.on("error", loseIt);
    client.on("end", loseIt);
    // A connection can die silently (a network cut): a regular query notices within retryMs, before
    // the server frees the lock for another instance (it waits for its TCP keepalive).
    const timer = setInterval(() => {
      client.query("select 1").catch(loseIt);
    }, retryMs);
    timer.unref();
    return {
      lost,
      async release() {
        if (released) return;
        released = true;
        clearInterval(timer);
        await client.end().catch(() => {});
      },
    };
  }
}

function memoryLocks(): Locks {
  const held = new Set<LockName>();
  const waiters = new Set<() => void>();
  const free = (name: LockName) => {
    held.delete(name);
    for (const wake of [...waiters]) wake();
  };
  return {
    async runExclusive(name, task) {
      if (held.has(name)) return false;
      held.add(name);
      try {
        await task();
      } finally {
        free(name);
      }
      return true;
    },
    async acquire(name, { signal, onWaiting }) {
      let told = false;
      while (held.has(name)) {
        if (signal.aborted) return null;
        if (!told) {
          told = true;
          onWaiting?.();
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            signal.removeEventListener("abort", wake);
            resolve();
          };
          waiters.add(wake);
          signal.addEventListener("abort", wake, { once: true });
        });
      }
      if (signal.aborted) return null;
      held.add(name);
      let released = false;
      return {
        // One process: nothing can take the lock away.
        lost: new Promise<void>(() => {}),
        async release() {
          if (released) return;
          released = true;
          free(name);
        },
      };
    },
  };
}
