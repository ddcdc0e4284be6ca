import { lt } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { telegramUpdates } from "../db/schema";

// Telegram delivers an update again when it thinks the first delivery failed (a slow answer, a
// restart). Each update_id is recorded before the update is handled (DESIGN decision 11); one
// already recorded is acknowledged and skipped, so a tap or a message acts once.

/** Long enough to cover Telegram's redeliveries (it gives up on an update within a day). */
export const UPDATE_IDS_KEPT_MS = 24 * 60 * 60 * 1000;

/** Pruning runs on one update in this many: the table stays small without a delete per update. */
const PRUNE_EVERY = 100;

/** The bot's own id: the number before ":" in its token (0 for a token not shaped like one). */
export function botIdOf(botToken: string): number {
  const id = Number(/^(\d+):/.exec(botToken)?.[1] ?? 0);
  return Number.isSafeInteger(id) ? id : 0;
}

/** Records the bot's update as received; answers false when it was received before (a redelivery). */
export async function recordUpdate(db: DbOrTx, botId: number, updateId: number, now: Date): Promise<boolean> {
  const inserted = await db
    .insert(telegramUpdates)
    .values({ botId, updateId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ updateId: telegramUpdates.updateId });
  if (inserted.length === 1 && updateId % PRUNE_EVERY === 0) await pruneUpdates(db, now);
  return inserted.length === 1;
}

export async function pruneUpdates(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(telegramUpdates).where(lt(telegramUpdates.receivedAt, new Date(now.getTime() - UPDATE_IDS_KEPT_MS)));
}
