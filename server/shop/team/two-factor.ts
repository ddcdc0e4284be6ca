import crypto from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { createSecondFactorThrottle } from "../../auth/login-throttle";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { accountRecoveryCodes, accounts, sessions, teamSettings } from "../../db/schema";
import { conflict, invalid, notFound } from "../common";
import type { AccountRow } from "./accounts";
import { endOtherSessions } from "./sessions";

// Two-factor sign-in (issue 25): TOTP (RFC 6238) with the otpauth library, and ten one-time recovery
// codes. The secret is stored encrypted with the server's key (server/crypto.ts; `keys:rotate
// --new-secret-key` re-encrypts it, shop/privacy/key-rotation.ts); recovery codes only as SHA-256
// hashes: they are 60 random bits each, so a hash that leaks cannot be reversed.

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = "Shop Admin";
const TOTP_DIGITS = 6;
const TOTP_PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too: a phone's clock a little off, a code typed as it turned. */
const TOTP_WINDOW = 1;
/** 160 bits, as RFC 4226 §4 recommends for HMAC-SHA1. */
const TOTP_SECRET_BYTES = 20;

export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be misread for each other (no 0/o, 1/l/i): 31 signs, 12 of them ≈ 59 bits. */
const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
const RECOVERY_LENGTH = 12;

/** The answer to a wrong code, at sign-in and everywhere else a code is asked. */
export const INVALID_CODE_MESSAGE = "Invalid two-factor code. Enter the code your authenticator app shows now, or an unused recovery code.";

/** Field name for SecretBox's log of a secret that does not decrypt (never the value). */
const SECRET_FIELD = "accounts.totp_secret";

function totpFor(secret: Secret, label = ""): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: "SHA1", digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret });
}

/**
 * What a typed code is, once the spaces and dashes people type or paste are taken out: six ASCII
 * digits are an authenticator's code; twelve signs of the recovery alphabet (any case) a recovery
 * code; anything else (other scripts' digits, other lengths) neither.
 */
export function readSecondFactorCode(typed: string): { kind: "totp"; code: string } | { kind: "recovery"; code: string } | null {
  const compact = typed.replace(/[\s-]/g, "");
  if (/^[0-9]{6}$/.test(compact)) return { kind: "totp", code: compact };
  const lower = compact.toLowerCase();
  if (lower.length === RECOVERY_LENGTH && [...lower].every((sign) => RECOVERY_ALPHABET.includes(sign))) return { kind: "recovery", code: lower };
  return null;
}

const hashRecoveryCode = (code: string) => crypto.createHash("sha256").update(code).digest("hex");

/** A recovery code as the owner reads it: "k7dx-9m2p-q4hz". */
function newRecoveryCode(): string {
  const signs = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]!);
  return [signs.slice(0, 4), signs.slice(4, 8), signs.slice(8)].map((group) => group.join("")).join("-");
}

/** The time step a 6-digit code belongs to (now's, the one before or after), or null when it is none of them. */
function matchingStep(secretBase32: string, code: string, now: Date): number | null {
  const totp = totpFor(Secret.fromBase32(secretBase32));
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

export type SecondFactorCheck =
  | { ok: true; method: "totp" | "recovery-code" }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/**
 * Checks a second factor of an account with two-factor on: a TOTP code of the current step (±1) that
 * is newer than the last one accepted, or an unused recovery code. Each is taken in one conditional
 * UPDATE, so two requests with the same code (parallel or replayed) cannot both pass: the database
 * lets exactly one of them move `totp_last_step` past the code's step, or mark the recovery code used.
 * Counted per account before it is checked (server/auth/login-throttle.ts, SECOND_FACTOR_WINDOW).
 */
export async function checkSecondFactor(db: DbOrTx, secrets: SecretBox, account: AccountRow, typed: string, now: Date): Promise<SecondFactorCheck> {
  if (!account.totpEnabled || !account.totpSecret) return { ok: false, reason: "invalid" };
  const throttle = createSecondFactorThrottle(db, () => now);
  const verdict = await throttle.begin(account.id);
  if (!verdict.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: verdict.retryAfterSeconds };
  const code = readSecondFactorCode(typed);
  let method: "totp" | "recovery-code" | null = null;
  if (code?.kind === "totp") {
    const secret = secrets.decryptOrNull(account.totpSecret, SECRET_FIELD);
    const step = secret === null ? null : matchingStep(secret, code.code, now);
    if (step !== null) {
      const [taken] = await db
        .update(accounts)
        .set({ totpLastStep: step })
        .where(
          and(
            eq(accounts.id, account.id),
            eq(accounts.totpEnabled, true),
            // The secret the code was checked against is still the account's (not turned off and set up again meanwhile).
            eq(accounts.totpSecret, account.totpSecret),
            sql`(${accounts.totpLastStep} is null or ${accounts.totpLastStep} < ${step})`,
          ),
        )
        .returning({ id: accounts.id });
      if (taken) method = "totp";
    }
  } else if (code?.kind === "recovery") {
    const [used] = await db
      .update(accountRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountRecoveryCodes.accountId, account.id),
          eq(accountRecoveryCodes.codeHash, hashRecoveryCode(code.code)),
          isNull(accountRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: accountRecoveryCodes.id });
    if (used) method = "recovery-code";
  }
  if (!method) return { ok: false, reason: "invalid" };
  await throttle.succeeded(account.id);
  return { ok: true, method };
}

export type TotpSetup = { secret: string; otpauthUrl: string };

/**
 * Starts setting two-factor up: a new secret, stored encrypted and not yet in use (a setup begun
 * before and not finished is replaced). Refused while two-factor is on: turning it off first needs a
 * code, so a borrowed session cannot swap the secret for its own.
 */
export async function beginTwoFactorSetup(db: DbOrTx, secrets: SecretBox, accountId: string): Promise<TotpSetup> {
  const secret = new Secret({ size: TOTP_SECRET_BYTES });
  const [row] = await db
    .update(accounts)
    .set({ totpSecret: secrets.encrypt(secret.base32), totpLastStep: null, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, accountId), eq(accounts.totpEnabled, false)))
    .returning({ username: accounts.username });
  if (!row) {
    const [exists] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    if (!exists) throw notFound("Account not found");
    throw conflict("Two-factor sign-in is already on for your account. Turn it off first to set it up with another app.");
  }
  return { secret: secret.base32, otpauthUrl: totpFor(secret, row.username).toString() };
}

/** The session turning two-factor on: its account, and the session itself (the one kept). */
export type EnablingSession = { accountId: string; sessionId: string };

/**
 * Finishes the setup with a code from the app, which proves the app holds the secret: two-factor is
 * on from then, and the ten recovery codes are answered, this once (only their hashes are kept).
 * Two parallel confirmations of one setup: one turns it on, the other is refused.
 *
 * In the same transaction every other session of the account ends, as a new password ends them
 * (accounts.ts storeOwnerPasswordHash): a session opened with the password alone, perhaps by whoever
 * made the owner want a second factor, must not outlive it. The session confirming stays, marked as
 * having proved a code now (the code just checked), so a sensitive action does not ask again.
 */
export async function finishTwoFactorSetup(db: DbOrTx, secrets: SecretBox, enabling: EnablingSession, typed: string, now: Date): Promise<string[]> {
  const { accountId, sessionId } = enabling;
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound("Account not found");
  if (account.totpEnabled) throw conflict("Two-factor sign-in is already on for your account.");
  if (!account.totpSecret) throw conflict("Start the two-factor setup first: it shows the QR code to scan.");
  const code = readSecondFactorCode(typed);
  const secret = secrets.decryptOrNull(account.totpSecret, SECRET_FIELD);
  const step = code?.kind === "totp" && secret !== null ? matchingStep(secret, code.code, now) : null;
  if (step === null) throw invalid("Invalid two-factor code. Enter the 6-digit code your authenticator app shows for this shop.");
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const storedSecret = account.totpSecret;
  await db.transaction(async (tx) => {
    const [enabled] = await tx
      .update(accounts)
      .set({ totpEnabled: true, totpLastStep: step, updatedAt: sql`now()` })
      .where(and(eq(accounts.id, accountId), eq(accounts.totpEnabled, false), eq(accounts.totpSecret, storedSecret)))
      .returning({ id: accounts.id });
    if (!enabled) throw conflict("Two-factor setup changed meanwhile (set up again in another tab?): start it again.");
    await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
    await tx.insert(accountRecoveryCodes).values(codes.map((code) => ({ accountId, codeHash: hashRecoveryCode(readSecondFactorCode(code)!.code) })));
    await endOtherSessions(tx, { accountId, sessionId });
    await tx.update(sessions).set({ totpAt: now }).where(and(eq(sessions.id, sessionId), eq(sessions.accountId, accountId)));
  });
  return codes;
}

/**
 * Turns two-factor off with a valid code or recovery code (checked, and so used up, as at sign-in):
 * the secret and the recovery codes are removed.
 */
export async function turnOffTwoFactor(db: DbOrTx, secrets: SecretBox, account: AccountRow, typed: string, now: Date): Promise<SecondFactorCheck> {
  if (!account.totpEnabled) throw conflict("Two-factor sign-in is not on for your account.");
  const check = await checkSecondFactor(db, secrets, account, typed, now);
  if (!check.ok) return check;
  await db.transaction((tx) => removeTwoFactor(tx, [account.id]));
  return check;
}

/**
 * Two-factor off for these accounts without asking a code: the secret (or a setup begun), the last
 * step and the recovery codes go. turnOffTwoFactor, once the code is checked; `secrets:forget`, for
 * secrets the key in use cannot decrypt (shop/privacy/encrypted-secrets.ts). Pass a transaction.
 */
export async function removeTwoFactor(tx: DbOrTx, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await tx
    .update(accounts)
    .set({ totpEnabled: false, totpSecret: null, totpLastStep: null, updatedAt: sql`now()` })
    .where(inArray(accounts.id, accountIds));
  await tx.delete(accountRecoveryCodes).where(inArray(accountRecoveryCodes.accountId, accountIds));
}

/** How many of the account's recovery codes are still unused (the Your account page says so). */
export async function unusedRecoveryCodes(db: DbOrTx, accountId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(accountRecoveryCodes)
    .where(and(eq(accountRecoveryCodes.accountId, accountId), isNull(accountRecoveryCodes.usedAt)));
  return Number(row?.count ?? 0);
}

/** The session proved a fresh code (step-up): sensitive actions pass for the next few minutes (server/http/security.ts). */
export async function markSessionVerified(db: DbOrTx, sessionTokenHash: string, now: Date): Promise<void> {
  await db.update(sessions).set({ totpAt: now }).where(eq(sessions.tokenHash, sessionTokenHash));
}

export type TeamSettings = { requireTwoFactor: boolean };

/** The team's rules; a shop that never saved them (no row) has two-factor optional. */
export async function getTeamSettings(db: DbOrTx): Promise<TeamSettings> {
  const [row] = await db.select({ requireTwoFactor: teamSettings.requireTwoFactor }).from(teamSettings).where(eq(teamSettings.id, 1));
  return { requireTwoFactor: row?.requireTwoFactor ?? false };
}

export async function saveTeamSettings(db: DbOrTx, settings: TeamSettings): Promise<TeamSettings> {
  await db
    .insert(teamSettings)
    .values({ id: 1, requireTwoFactor: settings.requireTwoFactor })
    .onConflictDoUpdate({ target: teamSettings.id, set: { requireTwoFactor: settings.requireTwoFactor, updatedAt: sql`now()` } });
  return getTeamSettings(db);
}
