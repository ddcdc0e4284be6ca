import crypto from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { sessions } from "../db/schema";

export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000; // a day without use ends the session
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000; // a week at most, however busy
const TOUCH_EVERY_MS = 60 * 1000;

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export async function createSession(db: DbOrTx, now: Date): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  // Housekeeping: expired sessions go when a new one is made.
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  return token;
}

/** True when the token names a live session; refreshes its idle clock now and then. */
export async function validateSession(db: DbOrTx, token: string, now: Date): Promise<boolean> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
  if (!row) return false;
  if (now.getTime() - row.lastSeenAt.getTime() > SESSION_IDLE_MS) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return false;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return true;
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}
