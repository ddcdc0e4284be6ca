import crypto from "node:crypto";
import { and, asc, eq, gt, isNull, max, sql } from "drizzle-orm";
import { INVITE_LIFETIME_MS, type InviteGreeting, type StaffInviteInput, type StaffMember, type StaffPatch, type StaffStatus } from "../../../contract/staff";
import { ROLE_LABELS, type Role, type StaffRole } from "../../../contract/team";
import { hashPassword } from "../../auth/passwords";
import type { DbOrTx } from "../../db/client";
import { accountInvites, accounts, sessions } from "../../db/schema";
import { conflict, invalid, notFound, pgErrorCode, UNIQUE_VIOLATION } from "../common";
import { revokeAddressAccessUnlessReading } from "../vaults";
import { type AccountRow } from "./accounts";
import { checkNewPassword } from "./password-policy";

// The owner's staff (issue 25; docs/decisions/0036-staff-accounts-and-roles.md): who has an account,
// inviting someone, the invitee setting their password, changing a role, disabling, deleting.
//
// An invite is a one-time link: 32 random bytes (base64url) that only its link ever holds; the
// database keeps their SHA-256, so a leaked table opens no account. It works once, within 48 hours,
// and a new link for the same account ends the old one. Using it is one conditional UPDATE
// (`used_at is null and expires_at > now`), so two browsers sending the same link at once cannot both
// set a password: the second finds the row already used.

const OWNER_REFUSAL = "The owner's account cannot be changed or deleted on the Staff screen.";
/** The one answer for every link that cannot be used: nothing tells a guesser which tokens ever existed. */
export const INVITE_GONE_MESSAGE = "This invite link has expired or has already been used. Ask the shop's owner for a new one.";

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** The account's state as the Staff screen shows it: a disabled account is disabled, whatever else. */
function statusOf(row: Pick<AccountRow, "disabled" | "passwordHash">): StaffStatus {
  if (row.disabled) return "disabled";
  return row.passwordHash ? "active" : "invited";
}

function toStaffMember(row: AccountRow, lastSeenAt: Date | null): StaffMember {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    role: row.role as Role,
    status: statusOf(row),
    totpEnabled: row.totpEnabled,
    lastSeenAt: lastSeenAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every account, the owner first, then by name; each with the latest use of any of its sessions. */
export async function listStaff(db: DbOrTx): Promise<StaffMember[]> {
  const [rows, seen] = await Promise.all([
    db
      .select()
      .from(accounts)
      .orderBy(sql`${accounts.role} = 'owner' desc`, asc(sql`lower(${accounts.name})`), asc(accounts.username)),
    db.select({ accountId: sessions.accountId, lastSeenAt: max(sessions.lastSeenAt) }).from(sessions).groupBy(sessions.accountId),
  ]);
  const lastSeen = new Map(seen.map((row) => [row.accountId, row.lastSeenAt]));
  return rows.map((row) => toStaffMember(row, lastSeen.get(row.id) ?? null));
}

async function staffMember(db: DbOrTx, id: string): Promise<StaffMember> {
  const member = (await listStaff(db)).find((row) => row.id === id);
  if (!member) throw notFound("No staff account has this id: it may have been deleted.");
  return member;
}

/** Stores a new invite for the account (only its hash) and answers the token for its link. */
async function issueInvite(db: DbOrTx, accountId: string, now: Date): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db.insert(accountInvites).values({
    tokenHash: hashToken(token),
    accountId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
  });
  return token;
}

/**
 * A new account without a password, and the token of its invite. The username is unique whatever
 * its case (the contract lower-cases it; the unique index decides between parallel creates).
 */
export async function createStaff(db: DbOrTx, input: StaffInviteInput, now: Date): Promise<{ id: string; token: string }> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(accounts).values({ username: input.username, name: input.name, role: input.role }).returning({ id: accounts.id });
      return { id: row!.id, token: await issueInvite(tx, row!.id, now) };
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw conflict(`The username "${input.username}" is taken: choose another.`);
    throw error;
  }
}

/** The account a staff route may change: it exists and it is not the owner's. */
async function staffAccount(db: DbOrTx, id: string, lock = false): Promise<AccountRow> {
  const query = db.select().from(accounts).where(eq(accounts.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("No staff account has this id: it may have been deleted.");
  if (row.role === "owner") throw invalid(OWNER_REFUSAL);
  return row;
}

/** A new link for an account that has not set its password yet; its earlier links stop working. */
export async function renewInvite(db: DbOrTx, id: string, now: Date): Promise<{ token: string }> {
  return db.transaction(async (tx) => {
    const row = await staffAccount(tx, id, true);
    if (row.passwordHash) throw conflict(`${row.name} has already set a password: an invite link is only for an account that has not.`);
    await tx.delete(accountInvites).where(eq(accountInvites.accountId, id));
    return { token: await issueInvite(tx, id, now) };
  });
}

/** The invite's account, when the link can still be used (never used, not expired, not replaced). */
async function usableInvite(db: DbOrTx, token: string, now: Date): Promise<AccountRow | null> {
  const [row] = await db
    .select({ account: accounts })
    .from(accountInvites)
    .innerJoin(accounts, eq(accounts.id, accountInvites.accountId))
    .where(and(eq(accountInvites.tokenHash, hashToken(token)), isNull(accountInvites.usedAt), gt(accountInvites.expiresAt, now)));
  return row && !row.account.passwordHash ? row.account : null;
}

/** Who the link invites, for the invite page's greeting; null when it cannot be used. */
export async function inviteGreeting(db: DbOrTx, token: string, now: Date): Promise<InviteGreeting | null> {
  const account = await usableInvite(db, token, now);
  return account ? { username: account.username, name: account.name, role: account.role as StaffRole } : null;
}

export type AcceptedInvite = { accepted: true; account: { id: string; username: string } } | { accepted: false };

/**
 * Sets the invited account's password from its link, once. A link that cannot be used answers
 * `accepted: false` (the caller says INVITE_GONE_MESSAGE); a password the policy refuses throws 400
 * and leaves the link as it was, so the invitee can try another.
 */
export async function acceptInvite(db: DbOrTx, token: string, password: string, now: Date): Promise<AcceptedInvite> {
  const invited = await usableInvite(db, token, now);
  if (!invited) return { accepted: false };
  checkNewPassword(password, invited.username);
  // Hashed before the transaction: scrypt takes ~50 ms, and the rows need not wait for it.
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // The one step that decides who wins: of parallel acceptances, only one finds the row unused.
    const [used] = await tx
      .update(accountInvites)
      .set({ usedAt: now })
      .where(and(eq(accountInvites.tokenHash, hashToken(token)), isNull(accountInvites.usedAt), gt(accountInvites.expiresAt, now)))
      .returning({ accountId: accountInvites.accountId });
    if (!used) return { accepted: false } as const;
    const [account] = await tx
      .update(accounts)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(accounts.id, used.accountId), isNull(accounts.passwordHash)))
      .returning({ id: accounts.id, username: accounts.username });
    if (!account) return { accepted: false } as const;
    // Any other link of the account is of no use now.
    await tx.delete(accountInvites).where(and(eq(accountInvites.accountId, account.id), isNull(accountInvites.usedAt)));
    return { accepted: true, account } as const;
  });
}

/** A staff account after a change, and how many of its sealed-address grants the change revoked. */
export type StaffUpdate = { member: StaffMember; addressGrantsRevoked: number };

/**
 * Changes a staff account's role or disables (or enables) it. Disabling or a new role ends the
 * account's sessions in the same transaction: its next request is signed out, whatever it had open.
 * A new role that does not read addresses also revokes the account's access to sealed addresses
 * (docs/decisions/0037-sealed-address-grants.md): the key it keeps then opens nothing of the owner's.
 * Disabling keeps the grants: a disabled account opens nothing, and enabling it again gives them back.
 */
export async function updateStaff(db: DbOrTx, id: string, patch: StaffPatch, now: Date): Promise<StaffUpdate> {
  const addressGrantsRevoked = await db.transaction(async (tx) => {
    const before = await staffAccount(tx, id, true);
    const roleChanged = patch.role !== undefined && patch.role !== before.role;
    const disabling = patch.disabled === true && !before.disabled;
    await tx
      .update(accounts)
      .set({ ...(patch.role !== undefined ? { role: patch.role } : {}), ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}), updatedAt: now })
      .where(eq(accounts.id, id));
    if (roleChanged || disabling) await tx.delete(sessions).where(eq(sessions.accountId, id));
    return roleChanged ? revokeAddressAccessUnlessReading(tx, id, patch.role!) : 0;
  });
  return { member: await staffMember(db, id), addressGrantsRevoked };
}

/** Deletes a staff account with its sessions and invites; the audit log keeps its username. */
export async function deleteStaff(db: DbOrTx, id: string): Promise<{ username: string }> {
  return db.transaction(async (tx) => {
    const row = await staffAccount(tx, id, true);
    await tx.delete(accounts).where(eq(accounts.id, id));
    return { username: row.username };
  });
}

/** "Invited \"sam\" (Sam Smith) as Packer": the audit log's words for a new account. */
export function describeInvite(input: { username: string; name: string; role: StaffRole }): string {
  return `Invited "${input.username}" (${input.name}) as ${ROLE_LABELS[input.role]}`;
}
