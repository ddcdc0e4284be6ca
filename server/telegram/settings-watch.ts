import { desc } from "drizzle-orm";
import type { Db } from "../db/client";
import { botSettings } from "../db/schema";

// Saving Bot Settings reaches one server instance; the bot runs on all of them (webhook mode) or
// on the leader (long polling), each built from the settings it read. So every instance looks at
// the settings' version now and then, and rebuilds its bot when another instance saved new ones:
// a new token or welcome text is in use everywhere within one interval.

export const SETTINGS_CHECK_MS = 5_000;

export type SettingsWatch = {
  /** Settles once the settings in force at start-up are known: start the bot after it. */
  ready: Promise<void>;
  /** Looks now (after a save on this instance): rebuilds the bot if the settings changed. */
  checkNow(): Promise<void>;
  stop(): void;
};

export function watchBotSettings(options: {
  db: Db;
  onChange: () => Promise<void>;
  log: { warn(object: object, message: string): void };
  intervalMs?: number;
}): SettingsWatch {
  let seen: string | undefined;
  let queue: Promise<void> = Promise.resolve();

  async function look() {
    const [row] = await options.db
      .select({ id: botSettings.id, updatedAt: botSettings.updatedAt })
      .from(botSettings)
      .orderBy(desc(botSettings.updatedAt))
      .limit(1);
    const version = row ? `${row.id} ${row.updatedAt.toISOString()}` : "none";
    const changed = seen !== undefined && version !== seen;
    seen = version;
    if (changed) await options.onChange();
  }

  // One look at a time, in order: a save here and a timer tick never rebuild the bot twice.
  const checkNow = () => {
    queue = queue.then(look).catch((error: unknown) => {
      options.log.warn({ err: error instanceof Error ? error.message : String(error) }, "could not check the bot settings for changes");
    });
    return queue;
  };

  const ready = checkNow();
  const timer = setInterval(() => void checkNow(), options.intervalMs ?? SETTINGS_CHECK_MS);
  timer.unref();
  return { ready, checkNow, stop: () => clearInterval(timer) };
}
