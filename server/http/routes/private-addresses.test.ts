import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PrivateAddresses } from "../../../contract";
import { createOwnerKey, formatKeyId, INVALID_PUBLIC_KEY_MESSAGE, rewrapOwnerKey, unlockOwnerKey, type OwnerKeySetup } from "../../../contract/owner-seal";
import { auditLog, ownerSealKeys } from "../../db/schema";
import { useAdminServer } from "../../../test-support/app";

// Private addresses (issue 15, item 2): the server keeps the owner's public key and the private key
// as the browser wrapped it. The keys here are made as the browser makes them (contract/owner-seal.ts).

const PASSPHRASE = "plum orchard lantern river";

describe("the private address routes", () => {
  const admin = useAdminServer();
  const { db } = admin;
  const call = (method: string, url: string, body?: unknown) => admin.server.request(method, url, { cookie: admin.cookie, body });
  const state = async () => (await (await call("GET", "/api/private-addresses")).json()) as PrivateAddresses;
  const enableBody = (setup: OwnerKeySetup) => ({
    publicKey: setup.publicKey,
    wrappedPrivateKey: setup.wrappedPrivateKey,
    salt: setup.salt,
    iterations: setup.iterations,
  });

  let setup: OwnerKeySetup;
  let other: OwnerKeySetup;
  beforeAll(async () => {
    [setup, other] = await Promise.all([createOwnerKey(PASSPHRASE), createOwnerKey("another passphrase entirely")]);
  });
  beforeEach(async () => {
    for (const table of [ownerSealKeys, auditLog]) await db().delete(table);
  });

  it("need the admin's session", async () => {
    for (const [method, url] of [
      ["GET", "/api/private-addresses"],
      ["POST", "/api/private-addresses"],
      ["PUT", "/api/private-addresses/passphrase"],
      ["DELETE", "/api/private-addresses"],
    ] as const) {
      const response = await admin.server.request(method, url, method === "GET" || method === "DELETE" ? {} : { body: enableBody(setup) });
      expect(response.status, `${method} ${url}`).toBe(401);
    }
    expect(await db().select().from(ownerSealKeys)).toEqual([]);
  });

  it("are off at first, then keep exactly what the browser made, and let any browser of the owner unlock it", async () => {
    expect(await state()).toEqual({ enabled: false, activeKeyId: null, keys: [] });
    const response = await call("POST", "/api/private-addresses", enableBody(setup));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as PrivateAddresses;
    expect(answer).toMatchObject({ enabled: true, activeKeyId: setup.keyId });
    expect(answer.keys).toEqual([
      expect.objectContaining({ ...setup, retiredAt: null, createdAt: expect.any(String), passphraseChangedAt: expect.any(String) }),
    ]);
    expect(await state()).toEqual(answer);
    // What the GET gives is enough to unlock, with the passphrase.
    const [key] = answer.keys;
    expect((await unlockOwnerKey(key!, PASSPHRASE)).keyId).toBe(setup.keyId);

    const [entry] = await db().select().from(auditLog);
    expect(entry).toMatchObject({ action: "private-addresses.turned-on", targetType: "private-addresses", targetId: setup.keyId });
    expect(entry!.summary).toContain(formatKeyId(setup.keyId));
    expect(JSON.stringify(entry)).not.toContain(setup.wrappedPrivateKey.slice(0, 20));
  });

  it("refuse turning on twice, even at the same moment", async () => {
    const [a, b] = await Promise.all([call("POST", "/api/private-addresses", enableBody(setup)), call("POST", "/api/private-addresses", enableBody(other))]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    expect(await refused.json()).toEqual({ error: "Private addresses are already on. Change the passphrase, or turn them off first." });
    expect((await state()).keys).toHaveLength(1);
  });

  it("refuse a public key that is not a P-256 point, and every other malformed part, saying what is wrong", async () => {
    const spki = Uint8Array.from(atob(setup.publicKey), (c) => c.charCodeAt(0));
    const offCurve = spki.slice();
    offCurve[offCurve.length - 1]! ^= 1;
    const p384 = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, true, ["deriveBits"]);
    const p384Spki = new Uint8Array(await crypto.subtle.exportKey("spki", p384.publicKey));
    const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
    const valid = enableBody(setup);
    for (const [change, error] of [
      [{ publicKey: b64(offCurve) }, INVALID_PUBLIC_KEY_MESSAGE],
      [{ publicKey: b64(p384Spki.slice(0, 120)) }, INVALID_PUBLIC_KEY_MESSAGE],
      [{ publicKey: b64(new Uint8Array(91)) }, INVALID_PUBLIC_KEY_MESSAGE],
      [{ publicKey: "not base64" }, "Public key must be base64 text"],
      [{ publicKey: b64(p384Spki) }, INVALID_PUBLIC_KEY_MESSAGE],
      [{ publicKey: b64(new Uint8Array(200)) }, "Public key is too long"],
      [{ publicKey: 42 }, "Public key must be base64 text"],
      [{ iterations: 599_999 }, "Iterations must be at least 600000"],
      [{ iterations: 1e9 }, "Iterations must be at most 10000000"],
      [{ iterations: 600_000.5 }, "Iterations must be a whole number"],
      [{ salt: b64(new Uint8Array(8)) }, "Salt must be between 16 and 64 bytes"],
      [{ wrappedPrivateKey: b64(new Uint8Array(40)) }, "Wrapped private key must be between 95 and 512 bytes"],
      [{ wrappedPrivateKey: undefined }, "Wrapped private key must be base64 text"],
    ] as const) {
      const response = await call("POST", "/api/private-addresses", { ...valid, ...change });
      expect(response.status, JSON.stringify(change).slice(0, 60)).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
    expect(await db().select().from(ownerSealKeys)).toEqual([]);
  });

  it("change the passphrase for the same key pair; a stale page or an unknown key changes nothing", async () => {
    await call("POST", "/api/private-addresses", enableBody(setup));
    const rewrapped = await rewrapOwnerKey(setup, PASSPHRASE, "a new and longer passphrase");
    const change = { keyId: setup.keyId, currentSalt: setup.salt, wrappedPrivateKey: rewrapped.wrappedPrivateKey, salt: rewrapped.salt, iterations: rewrapped.iterations };

    const response = await call("PUT", "/api/private-addresses/passphrase", change);
    expect(response.status).toBe(200);
    const [key] = ((await response.json()) as PrivateAddresses).keys;
    expect(key).toMatchObject({ keyId: setup.keyId, publicKey: setup.publicKey, salt: rewrapped.salt });
    await expect(unlockOwnerKey(key!, PASSPHRASE)).rejects.toThrow("does not unlock");
    expect((await unlockOwnerKey(key!, "a new and longer passphrase")).keyId).toBe(setup.keyId);

    const again = await call("PUT", "/api/private-addresses/passphrase", change);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/changed elsewhere/);
    const unknown = await call("PUT", "/api/private-addresses/passphrase", { ...change, keyId: "0".repeat(32) });
    expect(unknown.status).toBe(404);
    const [stored] = await db().select().from(ownerSealKeys);
    expect(stored!.salt).toBe(rewrapped.salt);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "private-addresses.passphrase-changed"));
    expect(audit!.summary).toContain(formatKeyId(setup.keyId));
  });

  it("turn off keeping the key (what was sealed to it still opens), and on again with a new key", async () => {
    await call("POST", "/api/private-addresses", enableBody(setup));
    const off = await call("DELETE", "/api/private-addresses");
    expect(off.status).toBe(200);
    const answer = (await off.json()) as PrivateAddresses;
    expect(answer).toMatchObject({ enabled: false, activeKeyId: null });
    expect(answer.keys).toEqual([expect.objectContaining({ keyId: setup.keyId, retiredAt: expect.any(String) })]);
    expect((await call("DELETE", "/api/private-addresses")).status).toBe(200);

    const reused = await call("POST", "/api/private-addresses", enableBody(setup));
    expect(reused.status).toBe(409);
    const on = await call("POST", "/api/private-addresses", enableBody(other));
    expect(on.status).toBe(200);
    const both = (await on.json()) as PrivateAddresses;
    expect(both.activeKeyId).toBe(other.keyId);
    expect(both.keys.map((key) => [key.keyId, key.retiredAt === null])).toEqual(
      expect.arrayContaining([
        [setup.keyId, false],
        [other.keyId, true],
      ]),
    );
    const actions = (await db().select({ action: auditLog.action }).from(auditLog)).map((row) => row.action).sort();
    expect(actions).toEqual(["private-addresses.turned-off", "private-addresses.turned-off", "private-addresses.turned-on", "private-addresses.turned-on"]);
  });
});
