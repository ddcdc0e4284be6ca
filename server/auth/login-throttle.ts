import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { loginThrottle } from "../db/schema";

// Failed-login throttling (docs/product.md rule 9, ASVS 2.2.1). The counters live in the database, so
// every server instance on one PostgreSQL shares them and memory never grows with attackers.
// Each attempt is counted *before* the password is checked, in one atomic upsert, so parallel
// guesses cannot all slip through between a check and the recording of their failure.
//
// A browser with a valid device cookie (device-cookies.ts) is counted against its cookie alone:
// failures from its address or from everywhere do not lock it out (docs/SECURITY.md, "Login
// throttling"). A cookie that has failed too often is treated as absent, as OWASP's scheme says.

export type ThrottleWindow = { maxFailures: number; windowMs: number };

/** Per client (one address, or one IPv6 /64). */
export const CLIENT_WINDOW: ThrottleWindow = { maxFailures: 5, windowMs: 15 * 60 * 1000 };
/** All clients together: there is one admin account, so a botnet of addresses is capped too. */
export const GLOBAL_WINDOW: ThrottleWindow = { maxFailures: 100, windowMs: 60 * 60 * 1000 };
/**
 * Per login name (issue 25: throttling applies per account), for attempts without that account's
 * device cookie: many addresses guessing one account's password are capped below the shop's global
 * cap. A browser that signed in as the account before (its device cookie) is never counted here, so
 * guesses from elsewhere cannot lock the account's own person out.
 */
export const ACCOUNT_WINDOW: ThrottleWindow = { maxFailures: 20, windowMs: 60 * 60 * 1000 };
/** Per device cookie: the owner's own browser may mistype as often as any client. */
export const DEVICE_WINDOW: ThrottleWindow = { maxFailures: 5, windowMs: 15 * 60 * 1000 };
const GLOBAL_KEY = "global";

/** `trusted`: the attempt was counted against its device cookie only, not the address nor the shop. */
export type ThrottleVerdict =
  | { allowed: true; trusted: boolean }
  | { allowed: false; retryAfterSeconds: number; scope: "client" | "account" | "global" };

/** The key a login name's failures are counted under (compared without case, as usernames are). */
export const accountKey = (login: string) => `login:${login.trim().toLowerCase()}`;

/** The key a device cookie's failures are counted under (its nonce is random, 128 bits). */
export const deviceKey = (nonce: string) => `device:${nonce}`;

/**
 * The key a client's failures are counted under. IPv6 clients usually own a whole /64, so they
 * are counted per /64, else one machine could rotate through 2^64 addresses.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return `ip:${mapped[1]}`;
  if (!ip.includes(":")) return `ip:${ip}`;
  const [head = "", tail = ""] = ip.split("%")[0]!.toLowerCase().split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = ip.includes("::") ? 8 - headParts.length - tailParts.length : 0;
  const groups = [...headParts, ...Array<string>(Math.max(0, missing)).fill("0"), ...tailParts];
  return `ip6:${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** Counts one attempt under `key` in its current window; answers the count and when the window began. */
async function countAttempt(db: DbOrTx, key: string, window: ThrottleWindow, now: Date) {
  const cutoff = new Date(now.getTime() - window.windowMs).toISOString();
  const at = now.toISOString();
  const expired = sql`${loginThrottle.windowStartedAt} <= ${cutoff}::timestamptz`;
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${at}::timestamptz else ${loginThrottle.windowStartedAt} end`,
      },
    })
    .returning({ failures: loginThrottle.failures, windowStartedAt: loginThrottle.windowStartedAt });
  return row!;
}

async function uncount(db: DbOrTx, key: string) {
  await db.execute(sql`update ${loginThrottle} set failures = greatest(failures - 1, 0) where key = ${key}`);
}

function retryAfter(windowStartedAt: Date, window: ThrottleWindow, now: Date): number {
  return Math.max(1, Math.ceil((windowStartedAt.getTime() + window.windowMs - now.getTime()) / 1000));
}

export function createLoginThrottle(db: DbOrTx, now: () => Date) {
  return {
    /**
     * Counts this attempt as a failure in advance and says whether it may be checked at all.
     * `device` is the nonce of the attempt's valid device cookie, if it has one; `login` the account
     * the attempt names (a sign-in; none for an invite link). Call `succeeded` when the password was
     * right, which takes the count back.
     */
    async begin(ip: string, device?: string | null, login?: string): Promise<ThrottleVerdict> {
      const at = now();
      // Rows of windows long over are of no use; login is rare, so this small delete is cheap.
      await db.delete(loginThrottle).where(lt(loginThrottle.windowStartedAt, new Date(at.getTime() - GLOBAL_WINDOW.windowMs)));
      if (device) {
        const own = await countAttempt(db, deviceKey(device), DEVICE_WINDOW, at);
        if (own.failures <= DEVICE_WINDOW.maxFailures) return { allowed: true, trusted: true };
        // Locked out: from here on the cookie counts for nothing, and the attempt is any client's.
      }
      const key = clientKey(ip);
      const client = await countAttempt(db, key, CLIENT_WINDOW, at);
      if (client.failures > CLIENT_WINDOW.maxFailures) {
        return { allowed: false, scope: "client", retryAfterSeconds: retryAfter(client.windowStartedAt, CLIENT_WINDOW, at) };
      }
      if (login !== undefined) {
        const named = await countAttempt(db, accountKey(login), ACCOUNT_WINDOW, at);
        if (named.failures > ACCOUNT_WINDOW.maxFailures) {
          await uncount(db, key);
          return { allowed: false, scope: "account", retryAfterSeconds: retryAfter(named.windowStartedAt, ACCOUNT_WINDOW, at) };
        }
      }
      const all = await countAttempt(db, GLOBAL_KEY, GLOBAL_WINDOW, at);
      if (all.failures > GLOBAL_WINDOW.maxFailures) {
        await uncount(db, key);
        if (login !== undefined) await uncount(db, accountKey(login));
        return { allowed: false, scope: "global", retryAfterSeconds: retryAfter(all.windowStartedAt, GLOBAL_WINDOW, at) };
      }
      return { allowed: true, trusted: false };
    },
    /**
     * The password was right: the device cookie's failures are cleared; an attempt that was not
     * `trusted` also clears its client's count and is not a global failure. A trusted attempt
     * leaves the address alone: it counted nothing there, and an attacker sharing the address
     * must not get fresh guesses each time the owner signs in.
     */
    async succeeded(ip: string, device: string | null | undefined, trusted: boolean, login?: string): Promise<void> {
      if (device) await db.delete(loginThrottle).where(sql`${loginThrottle.key} = ${deviceKey(device)}`);
      if (trusted) return;
      await db.delete(loginThrottle).where(sql`${loginThrottle.key} = ${clientKey(ip)}`);
      if (login !== undefined) await db.delete(loginThrottle).where(sql`${loginThrottle.key} = ${accountKey(login)}`);
      await uncount(db, GLOBAL_KEY);
    },
    /**
     * This one attempt (begun without a device cookie) was no guess: it takes back only what `begin`
     * counted, and clears nothing else. For a staff invite link that named a real invite (issue 25):
     * the invitee's address keeps its count, so holding one good link buys no extra guesses at others.
     */
    async notAGuess(ip: string): Promise<void> {
      await uncount(db, clientKey(ip));
      await uncount(db, GLOBAL_KEY);
    },
  };
}

/**
 * Two-factor codes, per account (RFC 6238 §5.2 asks the verifier to throttle them): at the sign-in once
 * the password was right, and at step-up and turning two-factor off, where a stolen session could
 * otherwise try all 10^6 codes. Counted before the code is checked, like the sign-ins above, so
 * parallel guesses cannot slip through. Only someone who has the password (or a session) reaches it,
 * so it cannot be used to lock the account's owner out from outside.
 */
export const SECOND_FACTOR_WINDOW: ThrottleWindow = { maxFailures: 5, windowMs: 15 * 60 * 1000 };

/** The key an account's two-factor failures are counted under. */
export const secondFactorKey = (accountId: string) => `totp:${accountId}`;

export type SecondFactorVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function createSecondFactorThrottle(db: DbOrTx, now: () => Date) {
  return {
    /** Counts this code as a failure in advance; `succeeded` takes the account's count back. */
    async begin(accountId: string): Promise<SecondFactorVerdict> {
      const at = now();
      const row = await countAttempt(db, secondFactorKey(accountId), SECOND_FACTOR_WINDOW, at);
      if (row.failures > SECOND_FACTOR_WINDOW.maxFailures) {
        return { allowed: false, retryAfterSeconds: retryAfter(row.windowStartedAt, SECOND_FACTOR_WINDOW, at) };
      }
      return { allowed: true };
    },
    async succeeded(accountId: string): Promise<void> {
      await db.delete(loginThrottle).where(sql`${loginThrottle.key} = ${secondFactorKey(accountId)}`);
    },
  };
}
