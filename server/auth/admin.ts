import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { adminCredentials, sessions } from "../db/schema";
import { generatePassword, hashPassword, verifyPassword } from "./passwords";

const ADMIN_ID = 1;
/** The one account's login name. Device cookies carry it, so they stay meaningful once there are several. */
export const ADMIN_LOGIN = "admin";

export async function setAdminPassword(db: DbOrTx, password: string): Promise<void> {
  await storeAdminPasswordHash(db, await hashPassword(password));
}

/** Replaces the admin password by one already hashed (server/auth/passwords.ts); ends every session. */
export async function storeAdminPasswordHash(db: DbOrTx, passwordHash: string): Promise<void> {
  await db
    .insert(adminCredentials)
    .values({ id: ADMIN_ID, passwordHash })
    .onConflictDoUpdate({ target: adminCredentials.id, set: { passwordHash, updatedAt: new Date() } });
  // A new password ends every open session.
  await db.delete(sessions);
}

export async function checkAdminPassword(db: DbOrTx, password: string): Promise<boolean> {
  const [row] = await db.select().from(adminCredentials).where(eq(adminCredentials.id, ADMIN_ID));
  return row ? verifyPassword(password, row.passwordHash) : false;
}

/**
 * At start-up: ADMIN_PASSWORD wins when set; otherwise keep the stored password, or on the very
 * first start generate one and hand it back so it can be printed once. Only its hash is stored.
 */
export async function ensureAdminPassword(
  db: DbOrTx,
  adminPassword: string | undefined,
): Promise<{ generatedPassword: string | null }> {
  const [row] = await db.select().from(adminCredentials).where(eq(adminCredentials.id, ADMIN_ID));
  if (adminPassword) {
    if (!row || !(await verifyPassword(adminPassword, row.passwordHash))) await setAdminPassword(db, adminPassword);
    return { generatedPassword: null };
  }
  if (row) return { generatedPassword: null };
  const generatedPassword = generatePassword();
  await setAdminPassword(db, generatedPassword);
  return { generatedPassword };
}
