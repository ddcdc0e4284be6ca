import { eq, sql } from "drizzle-orm";
import type { Account, Role } from "../../../contract/team";
import { generatePassword, hashPassword, verifyPassword } from "../../auth/passwords";
import type { DbOrTx } from "../../db/client";
import { accounts, sessions } from "../../db/schema";

// Dashboard accounts (issue 25; docs/decisions/0036-staff-accounts-and-roles.md). The owner's account
// is made at the first start from ADMIN_PASSWORD (or a generated password), and by migration 0026
// from the password of a shop that existed before accounts; its username is "owner".

export const OWNER_USERNAME = "owner";

export type AccountRow = typeof accounts.$inferSelect;

export function toAccount(row: AccountRow): Account {
  return { id: row.id, username: row.username, name: row.name, role: row.role as Role, totpEnabled: row.totpEnabled };
}

export async function findOwner(db: DbOrTx): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.role, "owner"));
  return row;
}

/**
 * The account a sign-in names: the owner when no username is given (the password-only login the
 * owner has always had), else the account with that username, compared without case.
 */
export async function findAccountForLogin(db: DbOrTx, username: string | undefined): Promise<AccountRow | undefined> {
  const name = username?.trim().toLowerCase();
  if (!name) return findOwner(db);
  const [row] = await db.select().from(accounts).where(eq(accounts.username, name));
  return row;
}

/** True when `password` is the account's; false for an account that has none yet (an open invite) or is disabled. */
export async function checkAccountPassword(row: AccountRow | undefined, password: string): Promise<boolean> {
  if (!row?.passwordHash || row.disabled) return false;
  return verifyPassword(password, row.passwordHash);
}

export async function setOwnerPassword(db: DbOrTx, password: string): Promise<void> {
  await storeOwnerPasswordHash(db, await hashPassword(password));
}

/** Sets the owner's password (already hashed), making the owner's account if there is none; ends the owner's sessions. */
export async function storeOwnerPasswordHash(db: DbOrTx, passwordHash: string): Promise<void> {
  const owner = await findOwner(db);
  if (owner) {
    await db.update(accounts).set({ passwordHash, updatedAt: sql`now()` }).where(eq(accounts.id, owner.id));
    // A new password ends every open session of the owner.
    await db.delete(sessions).where(eq(sessions.accountId, owner.id));
  } else {
    await db.insert(accounts).values({ username: OWNER_USERNAME, name: "Owner", role: "owner", passwordHash });
  }
}

/**
 * At start-up: ADMIN_PASSWORD wins when set; otherwise keep the stored password, or on the very
 * first start generate one and hand it back so it can be printed once. Only its hash is stored.
 */
export async function ensureOwnerAccount(db: DbOrTx, adminPassword: string | undefined): Promise<{ generatedPassword: string | null }> {
  const owner = await findOwner(db);
  if (adminPassword) {
    if (!(await checkAccountPassword(owner && { ...owner, disabled: false }, adminPassword))) await setOwnerPassword(db, adminPassword);
    return { generatedPassword: null };
  }
  if (owner?.passwordHash) return { generatedPassword: null };
  const generatedPassword = generatePassword();
  await setOwnerPassword(db, generatedPassword);
  return { generatedPassword };
}

/** An account by id, or undefined. */
export async function findAccount(db: DbOrTx, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}
