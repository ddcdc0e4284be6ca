import { asc, eq, inArray, notInArray, or, sql } from "drizzle-orm";
import type { GrantInput, MyGrants, MySealKey, MySealKeyChange, StaffAddressAccess, StaffAddressAccessList, StaffKeySetup } from "../../../contract";
import { formatKeyId, OwnerSealError, parseSealed, readOwnerPublicKey } from "../../../contract/owner-seal";
import { ROLE_LABELS, ROLES, roleCan, type Role } from "../../../contract/team";
import type { DbOrTx } from "../../db/client";
import { accounts, accountSealKeys, ownerSealKeys, privateAddressGrants } from "../../db/schema";
import { conflict, invalid, notFound, pgErrorCode, UNIQUE_VIOLATION } from "../common";

// Staff access to sealed addresses (issue 25; docs/decisions/0037-sealed-address-grants.md). A staff
// account keeps its own key pair, made and wrapped in its browser like the owner's; the owner's
// browser seals the owner's private keys to it. The server keeps public keys, wrapped keys and
// sealed text: nothing here, or anywhere on the server, can open any of them.

/** The roles that read addresses, and so may hold a key and be given access (not the owner: their key is the shop's). */
const READING_ROLES = ROLES.filter((role) => role !== "owner" && roleCan(role, "orders.addresses"));

const mayReadAddresses = (role: string) => (READING_ROLES as readonly string[]).includes(role);

type AccountRef = { id: string; role: string };

// ---------------------------------------------------------------------------------------------
// A staff account's own key

type SealKeyRow = typeof accountSealKeys.$inferSelect;

const toSealKey = (row: SealKeyRow) => ({
  keyId: row.keyId,
  publicKey: row.publicKey,
  wrappedPrivateKey: row.wrappedPrivateKey,
  salt: row.salt,
  iterations: row.iterations,
  createdAt: row.createdAt.toISOString(),
});

export async function getMySealKey(db: DbOrTx, accountId: string): Promise<MySealKey> {
  const [row] = await db.select().from(accountSealKeys).where(eq(accountSealKeys.accountId, accountId));
  return { key: row ? toSealKey(row) : null };
}

/**
 * Keeps the key pair the staff member's browser made. The same key pair under a new passphrase keeps
 * its grants; a new key pair (a forgotten passphrase) removes them, since nothing sealed to the old
 * key opens with the new one: the owner grants again.
 */
export async function setMySealKey(db: DbOrTx, account: AccountRef, input: StaffKeySetup, now: Date): Promise<MySealKeyChange> {
  if (account.role === "owner") {
    throw conflict("The owner unlocks sealed addresses with the shop's own key (Bot Settings, Private addresses): a key of your own is for staff accounts.");
  }
  let keyId: string;
  try {
    ({ keyId } = await readOwnerPublicKey(input.publicKey));
  } catch (error) {
    if (error instanceof OwnerSealError) throw invalid(error.message);
    throw error;
  }
  const wrap = { wrappedPrivateKey: input.wrappedPrivateKey, salt: input.salt, iterations: input.iterations };
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select().from(accountSealKeys).where(eq(accountSealKeys.accountId, account.id)).for("update");
      let grantsRemoved = 0;
      if (!existing) {
        await tx.insert(accountSealKeys).values({ accountId: account.id, publicKey: input.publicKey, keyId, ...wrap, createdAt: now });
      } else if (existing.keyId === keyId) {
        await tx.update(accountSealKeys).set(wrap).where(eq(accountSealKeys.accountId, account.id));
      } else {
        grantsRemoved = (await tx.delete(privateAddressGrants).where(eq(privateAddressGrants.accountId, account.id)).returning()).length;
        await tx
          .update(accountSealKeys)
          .set({ publicKey: input.publicKey, keyId, ...wrap, createdAt: now })
          .where(eq(accountSealKeys.accountId, account.id));
      }
      const [row] = await tx.select().from(accountSealKeys).where(eq(accountSealKeys.accountId, account.id));
      return { key: toSealKey(row!), grantsRemoved };
    });
  } catch (error) {
    // The same key sent for two accounts, or two browsers of one account setting up at once.
    if (pgErrorCode(error) === UNIQUE_VIOLATION) {
      throw conflict("This key was set up elsewhere at the same moment, or belongs to another account. Reload the page and try again.");
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The owner's grants

async function grantsOf(db: DbOrTx, accountIds: string[]) {
  if (accountIds.length === 0) return [];
  return db
    .select({ accountId: privateAddressGrants.accountId, ownerKeyId: privateAddressGrants.ownerKeyId, grantedAt: privateAddressGrants.grantedAt })
    .from(privateAddressGrants)
    .where(inArray(privateAddressGrants.accountId, accountIds))
    .orderBy(asc(privateAddressGrants.grantedAt), asc(privateAddressGrants.ownerKeyId));
}

async function accessList(db: DbOrTx, only?: string): Promise<StaffAddressAccess[]> {
  const rows = await db
    .select({ account: accounts, key: accountSealKeys })
    .from(accounts)
    .leftJoin(accountSealKeys, eq(accountSealKeys.accountId, accounts.id))
    .where(
      only !== undefined
        ? eq(accounts.id, only)
        : or(
            inArray(accounts.role, READING_ROLES),
            // Listed while it holds access, so the owner can revoke it. No other role should: a role
            // change revokes (shop/team updateStaff), and older grants went with migration 0029.
            sql`exists (select 1 from ${privateAddressGrants} where ${privateAddressGrants.accountId} = ${accounts.id})`,
          ),
    )
    .orderBy(asc(accounts.name), asc(accounts.username));
  const grants = await grantsOf(
    db,
    rows.map((row) => row.account.id),
  );
  return rows.map(({ account, key }) => ({
    accountId: account.id,
    username: account.username,
    name: account.name,
    role: account.role,
    disabled: account.disabled,
    eligible: mayReadAddresses(account.role),
    key: key ? { keyId: key.keyId, publicKey: key.publicKey, createdAt: key.createdAt.toISOString() } : null,
    grants: grants
      .filter((grant) => grant.accountId === account.id)
      .map((grant) => ({ ownerKeyId: grant.ownerKeyId, grantedAt: grant.grantedAt.toISOString() })),
  }));
}

/** The owner's Staff access list: every account whose role reads addresses, and any other still holding access. */
export async function listStaffAddressAccess(db: DbOrTx): Promise<StaffAddressAccessList> {
  return { accounts: await accessList(db) };
}

const NO_SUCH_ACCOUNT = "There is no such staff account. Reload the page and try again.";

/**
 * Adds (or replaces) an account's grants: each is one of the owner's private keys, sealed by the
 * owner's browser to the account's current key. The server checks what it can without opening
 * anything: the account may read addresses, the owner's keys exist, and each grant is sealed to the
 * account's key as it is now (not to a key the staff member has replaced since the page loaded).
 */
export async function grantAddressAccess(db: DbOrTx, accountId: string, input: GrantInput, now: Date): Promise<StaffAddressAccess> {
  const ownerKeyIds = input.grants.map((grant) => grant.ownerKeyId);
  if (new Set(ownerKeyIds).size !== ownerKeyIds.length) throw invalid("Each of the owner's keys may be granted once per request.");
  return db.transaction(async (tx) => {
    // Locked (shared) until the grant is stored: a role change at this moment (shop/team updateStaff
    // locks the row too) either comes first, and the role read here refuses the grant, or waits and
    // then deletes it with the role's change.
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for("share");
    if (!account) throw notFound(NO_SUCH_ACCOUNT);
    if (account.role === "owner") throw invalid("The owner reads sealed addresses with the shop's own key: there is nothing to grant.");
    if (!mayReadAddresses(account.role)) {
      throw conflict(`${account.name}'s role (${ROLE_LABELS[account.role as Role] ?? account.role}) cannot see addresses. Give them a role that can first.`);
    }
    if (account.disabled) throw conflict(`${account.name}'s account is disabled. Enable it before giving access.`);
    // Locked: a key replaced at this moment either comes before (and this grant is refused) or after (and removes it).
    const [key] = await tx.select().from(accountSealKeys).where(eq(accountSealKeys.accountId, accountId)).for("update");
    if (!key) throw conflict(`${account.name} has not set up a key yet. Ask them to open Orders, choose "Unlock addresses" and set one up.`);
    const known = await tx.select({ keyId: ownerSealKeys.keyId }).from(ownerSealKeys).where(inArray(ownerSealKeys.keyId, ownerKeyIds));
    const missing = ownerKeyIds.find((keyId) => !known.some((row) => row.keyId === keyId));
    if (missing) throw notFound(`The shop has no key ${formatKeyId(missing)}. Reload the page and try again.`);
    for (const grant of input.grants) {
      const parts = parseSealed(grant.sealedPrivateKey);
      if (!parts) throw invalid("Sealed private key must be a sealed value (owner-seal:v1) made by the owner's browser.");
      if (parts.keyId !== key.keyId) {
        throw conflict(`This access was sealed to another key of ${account.name}'s: they have made a new one since. Reload the page and grant access again.`);
      }
    }
    for (const grant of input.grants) {
      await tx
        .insert(privateAddressGrants)
        .values({ accountId, ownerKeyId: grant.ownerKeyId, sealedPrivateKey: grant.sealedPrivateKey, grantedAt: now })
        .onConflictDoUpdate({
          target: [privateAddressGrants.accountId, privateAddressGrants.ownerKeyId],
          set: { sealedPrivateKey: grant.sealedPrivateKey, grantedAt: now },
        });
    }
    return (await accessList(tx, accountId))[0]!;
  });
}

/**
 * Takes an account's access away: its grants are deleted, so its browser cannot open the owner's keys
 * again. What its browser already opened, it may have kept (docs/decisions/0037). Safe to repeat.
 */
export async function revokeAddressAccess(db: DbOrTx, accountId: string): Promise<StaffAddressAccess> {
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ id: accounts.id, role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
    if (!account || account.role === "owner") throw notFound(NO_SUCH_ACCOUNT);
    await tx.delete(privateAddressGrants).where(eq(privateAddressGrants.accountId, accountId));
    return (await accessList(tx, accountId))[0]!;
  });
}

/**
 * Deletes an account's grants when its role is changing to one that does not read addresses; answers
 * how many went. Called in the role change's own transaction (shop/team updateStaff), so no moment
 * exists where the account has the new role and still holds the owner's keys sealed to a key it
 * keeps. A role that reads addresses (packer to manager) keeps them.
 */
export async function revokeAddressAccessUnlessReading(db: DbOrTx, accountId: string, newRole: string): Promise<number> {
  if (mayReadAddresses(newRole)) return 0;
  const revoked = await db.delete(privateAddressGrants).where(eq(privateAddressGrants.accountId, accountId)).returning({ ownerKeyId: privateAddressGrants.ownerKeyId });
  return revoked.length;
}

/**
 * Deletes the grants held by accounts whose role does not read addresses; answers how many went. None
 * exist since a role change revokes them (revokeAddressAccessUnlessReading), but a shop's older
 * grants did outlive one: migration 0029 deleted those, and a restore of a backup made before it
 * calls this (server/backup/restore.ts), so they do not come back with the backup.
 */
export async function deleteStaleAddressGrants(db: DbOrTx): Promise<number> {
  const stale = await db
    .delete(privateAddressGrants)
    .where(inArray(privateAddressGrants.accountId, db.select({ id: accounts.id }).from(accounts).where(notInArray(accounts.role, READING_ROLES))))
    .returning({ accountId: privateAddressGrants.accountId });
  return stale.length;
}

/** The signed-in account's grants, with the owner's public keys its browser checks them against. */
export async function getMyGrants(db: DbOrTx, accountId: string): Promise<MyGrants> {
  const rows = await db
    .select({
      ownerKeyId: privateAddressGrants.ownerKeyId,
      ownerPublicKey: ownerSealKeys.publicKey,
      sealedPrivateKey: privateAddressGrants.sealedPrivateKey,
      grantedAt: privateAddressGrants.grantedAt,
    })
    .from(privateAddressGrants)
    .innerJoin(ownerSealKeys, eq(ownerSealKeys.keyId, privateAddressGrants.ownerKeyId))
    .where(eq(privateAddressGrants.accountId, accountId))
    .orderBy(asc(privateAddressGrants.grantedAt), asc(privateAddressGrants.ownerKeyId));
  return { accountId, grants: rows.map((row) => ({ ...row, grantedAt: row.grantedAt.toISOString() })) };
}
