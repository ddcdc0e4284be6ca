import { storeOwnerPasswordHash } from "../server/shop/team";
import { hashPasswordAtCost } from "../server/auth/passwords";
import type { DbOrTx } from "../server/db/client";
import { accounts } from "../server/db/schema";
import type { StaffRole } from "../contract/team";

/**
 * The test servers' admin password is hashed with scrypt as the server stores it, at N=2^10 instead
 * of the server's 2^15 (PASSWORD_HASH_COST): each login of a test checks the hash at the cost stored
 * with it, ~1/32 of the CPU, and the suites log in some thousand times (~1 s a check on a busy 2-core
 * host at the full cost; docs/PERFORMANCE.md "Test suite time"). Everything else about the login is
 * the server's own. The full cost keeps its tests: server/auth/passwords.test.ts, and the real server
 * processes (server/main.test.ts) hash ADMIN_PASSWORD as in production.
 */
export const TEST_PASSWORD_HASH_COST = { N: 1024, r: 8, p: 1 };

/** Sets the admin password, hashed at the tests' cost; ends the owner's sessions (as setOwnerPassword does). */
export async function setTestAdminPassword(db: DbOrTx, password: string): Promise<void> {
  await storeOwnerPasswordHash(db, await hashPasswordAtCost(password, TEST_PASSWORD_HASH_COST));
}

/** The password of the staff accounts tests make (addTestAccount). */
export const TEST_STAFF_PASSWORD = "staff-password-for-tests";

/** A staff account with a password already set (as an accepted invite leaves it), hashed at the tests' cost; answers its id. */
export async function addTestAccount(db: DbOrTx, account: { username: string; role: StaffRole; password: string; name?: string }): Promise<string> {
  const [row] = await db
    .insert(accounts)
    .values({
      username: account.username,
      name: account.name ?? `Test ${account.role}`,
      role: account.role,
      passwordHash: await hashPasswordAtCost(account.password, TEST_PASSWORD_HASH_COST),
    })
    .returning({ id: accounts.id });
  return row!.id;
}
