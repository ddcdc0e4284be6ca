import crypto from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { accounts, sessions } from "../db/schema";

export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000; // a day without use ends the session
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000; // a week at most, however busy
const TOUCH_EVERY_MS = 60 * 1000;
/** Longest stored User-Agent: enough to name a browser, not a place to store a megabyte. */
const USER_AGENT_MAX = 300;

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export type NewSession = {
  accountId: string;
  userAgent?: string | undefined;
  ip?: string | undefined;
  /** Set when the sign-in proved a two-factor code: the session counts as freshly verified from then. */
  totpAt?: Date | null;
};

export type SessionRow = typeof sessions.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;
/** A live session and the account it acts as. */
export type ValidSession = { session: SessionRow; account: AccountRow };

export async function createSession(db: DbOrTx, owner: NewSession, now: Date): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    accountId: owner.accountId,
    userAgent: owner.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    ip: owner.ip ?? null,
    totpAt: owner.totpAt ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  // Housekeeping: expired sessions go when a new one is made.
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  return token;
}

/**
 * The session the token names and its account, when both are live (not expired, not idle too long,
 * the account not disabled); refreshes the idle clock now and then. A session from before accounts
 * (no account) opens nothing.
 */
export async function validateSession(db: DbOrTx, token: string, now: Date): Promise<ValidSession | null> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ session: sessions, account: accounts })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
  if (!row || row.account.disabled) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > SESSION_IDLE_MS) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return row;
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}
