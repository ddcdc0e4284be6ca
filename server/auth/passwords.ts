import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// scrypt with N=2^15, r=8, p=1: ~50 ms a check, memory-hard, in node's standard library.
export const PASSWORD_HASH_COST = { N: 32768, r: 8, p: 1 };
const MAX_MEMORY = 64 * 1024 * 1024;

export function hashPassword(password: string): Promise<string> {
  return hashPasswordAtCost(password, PASSWORD_HASH_COST);
}

/**
 * The stored form: "scrypt$N$r$p$salt$hash". The cost travels with the hash, so verifyPassword checks
 * each hash at the cost it was made with. Only the tests choose another cost (test-support/app.ts).
 */
export async function hashPasswordAtCost(password: string, cost: { N: number; r: number; p: number }): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, { ...cost, maxmem: MAX_MEMORY });
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return crypto.timingSafeEqual(actual, expected);
}

export function generatePassword(): string {
  return crypto.randomBytes(15).toString("base64url");
}
