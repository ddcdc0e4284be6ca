/**
 * Group commit: every item added while the previous statement is running goes into the next one,
 * so under load many callers share one round trip to the database, and alone a caller waits for
 * nothing but its own statement. `run` gets the items in the order they were added and answers one
 * result per item, in the same order. A batch that fails fails every caller in it, and only them.
 */
export function groupCommit<T, R>(run: (items: T[]) => Promise<R[]>, maxBatch = 500): (item: T) => Promise<R> {
  type Waiting = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let running = false;

  async function drain() {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        const results = await run(batch.map((entry) => entry.item));
        if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
        batch.forEach((entry, index) => entry.resolve(results[index]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running) return;
      running = true;
      // The first statement waits for the rest of this turn of the event loop, so callers whose
      // requests arrived together (a burst of webhooks read in one go) share it too. This matters most
      // on PGlite: it runs a statement inside this thread, so nothing else arrives while it runs.
      setImmediate(() => void drain());
    });
}
