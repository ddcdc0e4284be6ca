import { and, desc, eq, gt, inArray, ne, type SQL } from "drizzle-orm";
import type { Session } from "../../../contract/staff";
import { SESSION_IDLE_MS } from "../../auth/sessions";
import type { DbOrTx } from "../../db/client";
import { sessions } from "../../db/schema";
import { notFound } from "../common";
import { describeDevice } from "./devices";

// Each account's open sessions (issue 25): where it is signed in, and a way to end any of them. A
// session is named by its id (a uuid); its token never leaves the cookie. Everyone sees and ends their
// own; the owner (the "staff" permission) sees and ends anyone's. A session another account cannot
// see is "not found" to it, whether it exists or not.

/** Who is asking: their account, their own session, and whether they may reach other accounts'. */
export type SessionViewer = { accountId: string; sessionId: string; mayManageStaff: boolean };

/** Live sessions only: not past their absolute expiry, not idle longer than a session may be. */
function live(now: Date): SQL {
  return and(gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)))!;
}

/** An account's live sessions, the latest used first; `current` marks the viewer's own. */
export async function listSessions(db: DbOrTx, accountId: string, viewer: Pick<SessionViewer, "sessionId">, now: Date): Promise<Session[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.accountId, accountId), live(now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    accountId,
    device: describeDevice(row.userAgent),
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === viewer.sessionId,
  }));
}

/** Ends one session the viewer may see (their own, or anyone's for the owner); 404 otherwise. */
export async function endSession(db: DbOrTx, sessionId: string, viewer: SessionViewer): Promise<void> {
  const visible = viewer.mayManageStaff ? undefined : eq(sessions.accountId, viewer.accountId);
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), visible))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound("No such session: it may have ended already.");
}

/** Ends every session of the viewer's account but the one asking; answers how many ended. */
export async function endOtherSessions(db: DbOrTx, viewer: Pick<SessionViewer, "accountId" | "sessionId">): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.accountId, viewer.accountId), ne(sessions.id, viewer.sessionId)))
    .returning({ id: sessions.id });
  return ended.length;
}

/** Ends every session of these accounts (secrets:forget turning their two-factor off); answers how many ended. */
export async function endSessionsOf(db: DbOrTx, accountIds: string[]): Promise<number> {
  if (accountIds.length === 0) return 0;
  const ended = await db.delete(sessions).where(inArray(sessions.accountId, accountIds)).returning({ id: sessions.id });
  return ended.length;
}
