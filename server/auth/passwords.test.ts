import { describe, expect, it } from "vitest";
import { hashPassword, hashPasswordAtCost, PASSWORD_HASH_COST, verifyPassword } from "./passwords";

// The server's own cost, here since the test servers store their admin password at a lower one
// (test-support/admin-password.ts).
describe("password hashes", () => {
  it("are scrypt at N=2^15, r=8, p=1, salted, and check only the right password", async () => {
    expect(PASSWORD_HASH_COST).toEqual({ N: 32768, r: 8, p: 1 });
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hashPassword("correct horse battery staple")).not.toBe(stored);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
  });

  it("are checked at the cost stored with them", async () => {
    const cheap = await hashPasswordAtCost("pw at another cost", { N: 1024, r: 8, p: 1 });
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("pw at another cost", cheap)).toBe(true);
    expect(await verifyPassword("pw at another cos", cheap)).toBe(false);
    expect(await verifyPassword("anything", "bcrypt$10$whatever")).toBe(false);
  });
});
