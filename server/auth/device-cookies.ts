import crypto from "node:crypto";

// Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"; docs/SECURITY.md,
// "Login throttling"). A browser that signed in once carries a signed cookie naming the login it
// signed in as; its attempts are counted against that cookie alone, so failures from elsewhere (an
// attacker on the same address, or everywhere) never lock the owner out. The cookie grants nothing
// else: the password is still checked, and a cookie that fails too often is treated as absent.
//
// The value is one text, every part of it signed (HMAC-SHA256 under a key derived from the master
// key, so every instance started with the same SECRET_KEY accepts the others' cookies):
//
//   d1.<login, base64url>.<expires, unix seconds>.<nonce, 128 random bits, base64url>.<signature>
//
// The signature covers the exact text before it, so no other spelling of a part (base64url's
// unused bits, leading zeros) passes.

export const DEVICE_COOKIE = "device";
/** How long a browser stays known without signing in again; each sign-in renews it. */
export const DEVICE_COOKIE_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
/** The label the signing key is derived under (crypto.ts deriveKey). */
export const DEVICE_COOKIE_KEY_PURPOSE = "login device cookies v1";

const VERSION = "d1";
const SHAPE = /^d1\.([A-Za-z0-9_-]{1,200})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export type DeviceCookie = { login: string; nonce: string; expiresAt: Date };

export function createDeviceCookies(key: Buffer) {
  if (key.length !== 32) throw new Error("The device cookie key must be 32 bytes");
  const sign = (text: string) => crypto.createHmac("sha256", key).update(text).digest("base64url");
  return {
    /** A new cookie value for `login`, valid for a year from `now`. */
    issue(login: string, now: Date): string {
      const expires = Math.floor((now.getTime() + DEVICE_COOKIE_LIFETIME_MS) / 1000);
      const nonce = crypto.randomBytes(16).toString("base64url");
      const signed = `${VERSION}.${Buffer.from(login, "utf8").toString("base64url")}.${expires}.${nonce}`;
      return `${signed}.${sign(signed)}`;
    },
    /**
     * The cookie when `value` is one this server signed, for `login`, not yet expired; else null
     * (absent, malformed, altered, another login's, expired, or signed under another key).
     */
    verify(value: string | undefined, login: string, now: Date): DeviceCookie | null {
      if (!value) return null;
      const match = SHAPE.exec(value);
      if (!match) return null;
      const [, encodedLogin, expires, nonce, signature] = match;
      const expected = sign(value.slice(0, value.length - signature!.length - 1));
      if (!crypto.timingSafeEqual(Buffer.from(signature!), Buffer.from(expected))) return null;
      if (Buffer.from(encodedLogin!, "base64url").toString("utf8") !== login) return null;
      const expiresAt = new Date(Number(expires) * 1000);
      if (expiresAt.getTime() <= now.getTime()) return null;
      return { login, nonce: nonce!, expiresAt };
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
