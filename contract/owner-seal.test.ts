import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createOwnerKey,
  fromBase64,
  grantOwnerKeys,
  isSealed,
  openGrantedKey,
  openSealed,
  openSealedAddress,
  OWNER_KEY_ITERATIONS,
  OwnerSealError,
  parseSealed,
  readOwnerPublicKey,
  rewrapOwnerKey,
  sealAddress,
  sealedKeyId,
  sealForOwner,
  unlockOwnerKey,
  WRONG_PASSPHRASE_MESSAGE,
  type OwnerKey,
  type OwnerKeySetup,
  type SealableAddress,
} from "./owner-seal";
import { encodingsOfPrivateKey, unwrapPrivateKeyForTest } from "../test-support/owner-seal";

const PASSPHRASE = "correct horse battery staple";
const ORDER = "6f1c2a54-0d7e-4d39-9a57-2b8f0c1d9e33";
const OTHER_ORDER = "0b7d7f0e-7a41-4e0b-8c0e-51d5f3b6c2aa";
const ADDRESS: SealableAddress = { name: "Jane Smith", streetAddress: "12 High Street, London", postcode: "SW1A 1AA", contact: null };

let setup: OwnerKeySetup;
let owner: OwnerKey;

beforeAll(async () => {
  setup = await createOwnerKey(PASSPHRASE);
  owner = await unlockOwnerKey(setup, PASSPHRASE);
});

const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const toB64Url = (bytes: Uint8Array) => toB64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromB64Url = (text: string) => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4))!;

async function problemOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OwnerSealError);
  return (error as OwnerSealError).problem;
}

describe("the owner's key", () => {
  it("keeps what the server needs, with the agreed stretching, and a fingerprint of the public key", async () => {
    expect(setup.iterations).toBe(OWNER_KEY_ITERATIONS);
    expect(OWNER_KEY_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(fromBase64(setup.salt)!.length).toBe(16);
    expect(setup.keyId).toMatch(/^[0-9a-f]{32}$/);
    expect((await readOwnerPublicKey(setup.publicKey)).keyId).toBe(setup.keyId);
    // The wrapped private key is not the key: it does not parse as PKCS#8.
    const wrapped = fromBase64(setup.wrappedPrivateKey)!;
    await expect(crypto.subtle.importKey("pkcs8", wrapped, { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"])).rejects.toThrow();
  });

  it("unlocks into a key that can never be exported", async () => {
    expect(owner.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("pkcs8", owner.privateKey)).rejects.toThrow();
    await expect(crypto.subtle.exportKey("jwk", owner.privateKey)).rejects.toThrow();
  });

  it("refuses a wrong passphrase with a clear message", async () => {
    const error = await unlockOwnerKey(setup, "correct horse battery stapl").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OwnerSealError);
    expect((error as OwnerSealError).problem).toBe("wrong-passphrase");
    expect((error as Error).message).toBe(WRONG_PASSPHRASE_MESSAGE);
  });

  it("refuses a short passphrase before making anything", async () => {
    expect(await problemOf(createOwnerKey("too short"))).toBe("weak-passphrase");
  });

  it("notices a public key that is not the private key's (a swapped key would seal to someone else)", async () => {
    const stranger = await createOwnerKey("another long passphrase");
    const swapped = { ...setup, publicKey: stranger.publicKey };
    expect(await problemOf(unlockOwnerKey(swapped, PASSPHRASE))).toBe("mismatched-key");
    // A wrapped key moved from another key's record does not open under this one's id.
    expect(await problemOf(unlockOwnerKey({ ...stranger, keyId: setup.keyId }, "another long passphrase"))).toBe("wrong-passphrase");
  });

  it("changes the passphrase for the same key pair: what was sealed before still opens", async () => {
    const sealed = await sealAddress(setup, ADDRESS, ORDER);
    const rewrapped = await rewrapOwnerKey(setup, PASSPHRASE, "a brand new passphrase");
    expect(rewrapped.publicKey).toBe(setup.publicKey);
    expect(rewrapped.keyId).toBe(setup.keyId);
    expect(rewrapped.salt).not.toBe(setup.salt);
    expect(await problemOf(unlockOwnerKey(rewrapped, PASSPHRASE))).toBe("wrong-passphrase");
    const reopened = await unlockOwnerKey(rewrapped, "a brand new passphrase");
    expect(await openSealedAddress(reopened, sealed, ORDER)).toEqual(ADDRESS);
    expect(await problemOf(rewrapOwnerKey(setup, "not the passphrase at all", "a brand new passphrase"))).toBe("wrong-passphrase");
  });
});

describe("public keys from the browser", () => {
  it("accepts P-256 and refuses everything else with a clear error", async () => {
    const p384 = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, true, ["deriveBits"]);
    const rsa = await crypto.subtle.generateKey(
      { name: "RSA-OAEP", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["encrypt", "decrypt"],
    );
    const spki = fromBase64(setup.publicKey)!;
    const offCurve = spki.slice();
    offCurve[offCurve.length - 1]! ^= 1;
    const notAPoint = [
      "",
      "not base64!",
      "AAAA",
      toB64(new Uint8Array(await crypto.subtle.exportKey("spki", p384.publicKey))),
      toB64(new Uint8Array(await crypto.subtle.exportKey("spki", rsa.publicKey))),
      toB64(offCurve),
      toB64(spki.slice(0, spki.length - 1)),
      "A".repeat(10_000),
    ];
    for (const publicKey of notAPoint) {
      expect(await problemOf(readOwnerPublicKey(publicKey)), publicKey.slice(0, 40)).toBe("invalid-public-key");
    }
  });
});

describe("sealed addresses", () => {
  it("round-trip, each sealing different, naming the key they were sealed to", async () => {
    const a = await sealAddress(setup, ADDRESS, ORDER);
    const b = await sealAddress(setup, ADDRESS, ORDER);
    expect(a).not.toBe(b);
    expect(isSealed(a)).toBe(true);
    expect(sealedKeyId(a)).toBe(setup.keyId);
    for (const clear of [ADDRESS.name, ADDRESS.streetAddress, ADDRESS.postcode]) expect(a).not.toContain(clear);
    expect(await openSealedAddress(owner, a, ORDER)).toEqual(ADDRESS);
  });

  it("do not open for another order (a sealed address moved between orders is noticed)", async () => {
    const sealed = await sealAddress(setup, ADDRESS, ORDER);
    expect(await problemOf(openSealedAddress(owner, sealed, OTHER_ORDER))).toBe("damaged");
  });

  it("do not open under another key, and say which key they need", async () => {
    const stranger = await createOwnerKey("another long passphrase");
    const sealed = await sealAddress(stranger, ADDRESS, ORDER);
    const error = await openSealedAddress(owner, sealed, ORDER).catch((e: unknown) => e);
    expect((error as OwnerSealError).problem).toBe("other-key");
    expect((error as Error).message).toContain(stranger.keyId.slice(0, 4));
    // Claiming this owner's key id does not help: the ciphertext is bound to its header.
    const relabelled = sealed.replace(stranger.keyId, setup.keyId);
    expect(await problemOf(openSealedAddress(owner, relabelled, ORDER))).toBe("damaged");
  });

  it("refuse any tampering: each part, each byte flipped, truncated, or extended", async () => {
    const sealed = await sealAddress(setup, ADDRESS, ORDER);
    const parts = parseSealed(sealed)!;
    const rebuilt = (p: typeof parts) => `owner-seal:v1:${p.keyId}:${p.ephemeral}:${p.nonce}:${p.ciphertext}`;
    expect(rebuilt(parts)).toBe(sealed);
    const other = parseSealed(await sealAddress(setup, ADDRESS, ORDER))!;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("ephemeral", "nonce", "ciphertext") as fc.Arbitrary<"ephemeral" | "nonce" | "ciphertext">, fc.nat(), fc.integer({ min: 1, max: 255 }), async (part, at, mask) => {
        const bytes = fromB64Url(parts[part]);
        bytes[at % bytes.length]! ^= mask;
        expect(await problemOf(openSealedAddress(owner, rebuilt({ ...parts, [part]: toB64Url(bytes) }), ORDER))).toBe("damaged");
      }),
      { numRuns: 60 },
    );
    const tampered = [
      rebuilt({ ...parts, ephemeral: other.ephemeral }),
      rebuilt({ ...parts, nonce: other.nonce }),
      rebuilt({ ...parts, ciphertext: other.ciphertext }),
      rebuilt({ ...parts, ciphertext: parts.ciphertext.slice(0, -4) }),
      rebuilt({ ...parts, ciphertext: parts.ciphertext + "AAAA" }),
      rebuilt({ ...parts, ciphertext: "" }),
      sealed.replace("owner-seal:v1:", "owner-seal:v2:"),
      sealed + ":extra",
      sealed.toUpperCase(),
      "owner-seal:v1:",
      "",
    ];
    for (const value of tampered) expect(await problemOf(openSealedAddress(owner, value, ORDER)), value.slice(0, 60)).toMatch(/damaged|other-key/);
  });

  it("carry any text a customer might type, exactly", async () => {
    const hostile = fc.oneof(
      fc.string({ unit: "binary", maxLength: 120 }),
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.constantFrom('"},"name":"x', "</script><script>alert(1)</script>", "\u0000\u202e\ufeff", "Zoë Ørsted 😀 东京", "\\u0000", "a:b:c"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ name: hostile, streetAddress: hostile, postcode: hostile, contact: fc.option(hostile, { nil: null }) }),
        fc.uuid(),
        async (address, orderId) => {
          const sealed = await sealAddress(setup, address, orderId);
          expect(isSealed(sealed)).toBe(true);
          expect(await openSealedAddress(owner, sealed, orderId)).toEqual(address);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("open only what sealForOwner sealed as an address", async () => {
    const notAnAddress = await sealForOwner(setup, JSON.stringify({ name: 1 }), `order:${ORDER}:shipping-address`);
    expect(await problemOf(openSealedAddress(owner, notAnAddress, ORDER))).toBe("damaged");
    const text = await sealForOwner(setup, "plain words", "somewhere");
    expect(await openSealed(owner, text, "somewhere")).toBe("plain words");
  });
});

describe("grants: the owner's key sealed to a staff member's key (docs/decisions/0037)", () => {
  const STAFF = "a3a1f0de-5b0e-4e5c-9d55-7c1d3f0b9e21";
  const OTHER_STAFF = "c2b9d1a4-2f61-4d8c-8f0a-9e7b6c5d4e3f";
  const STAFF_PASSPHRASE = "packer passphrase of their own";
  let staffSetup: OwnerKeySetup;
  let staff: OwnerKey;
  let older: OwnerKeySetup;
  beforeAll(async () => {
    [staffSetup, older] = await Promise.all([createOwnerKey(STAFF_PASSPHRASE), createOwnerKey("the owner's older passphrase")]);
    staff = await unlockOwnerKey(staffSetup, STAFF_PASSPHRASE);
  });
  const recipient = (accountId = STAFF) => ({ accountId, publicKey: staffSetup.publicKey, keyId: staffSetup.keyId });
  const received = (sealedPrivateKey: string, key: OwnerKeySetup = setup) => ({ ownerKeyId: key.keyId, ownerPublicKey: key.publicKey, sealedPrivateKey });

  it("opens, in the staff member's browser, into the owner's key: non-extractable, and it reads the owner's addresses", async () => {
    const sealedAddress = await sealAddress(setup, ADDRESS, ORDER);
    const { grants, notOpened } = await grantOwnerKeys([setup], PASSPHRASE, recipient());
    expect(notOpened).toEqual([]);
    expect(grants).toEqual([{ ownerKeyId: setup.keyId, sealedPrivateKey: expect.stringMatching(new RegExp(`^owner-seal:v1:${staffSetup.keyId}:`)) }]);
    const opened = await openGrantedKey(staff, received(grants[0]!.sealedPrivateKey), STAFF);
    expect(opened.keyId).toBe(setup.keyId);
    expect(opened.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("pkcs8", opened.privateKey)).rejects.toThrow();
    expect(await openSealedAddress(opened, sealedAddress, ORDER)).toEqual(ADDRESS);
  });

  it("gives every key the passphrase opens, and names the keys kept under another passphrase", async () => {
    const { grants, notOpened } = await grantOwnerKeys([setup, older], PASSPHRASE, recipient());
    expect(grants.map((grant) => grant.ownerKeyId)).toEqual([setup.keyId]);
    expect(notOpened).toEqual([older.keyId]);
    const second = await grantOwnerKeys([setup, older], "the owner's older passphrase", recipient());
    expect(second.grants.map((grant) => grant.ownerKeyId)).toEqual([older.keyId]);
    const opened = await openGrantedKey(staff, received(second.grants[0]!.sealedPrivateKey, older), STAFF);
    expect(opened.keyId).toBe(older.keyId);
    expect(await problemOf(grantOwnerKeys([setup, older], "not any of the passphrases", recipient()))).toBe("wrong-passphrase");
  });

  it("refuses to seal to a key other than the one whose fingerprint the owner was shown", async () => {
    // The server (or someone with its database) swapped the staff key after the owner compared fingerprints.
    expect(await problemOf(grantOwnerKeys([setup], PASSPHRASE, { ...recipient(), publicKey: older.publicKey }))).toBe("mismatched-key");
  });

  it("does not open for another account, under another owner key, with a swapped public key, or with another staff key", async () => {
    const [grant] = (await grantOwnerKeys([setup], PASSPHRASE, recipient())).grants;
    // Moved to another account's row: the binding names the account.
    expect(await problemOf(openGrantedKey(staff, received(grant!.sealedPrivateKey), OTHER_STAFF))).toBe("damaged");
    // Relabelled as another owner key: the binding names the owner key too.
    expect(await problemOf(openGrantedKey(staff, received(grant!.sealedPrivateKey, older), STAFF))).toBe("damaged");
    // The right label, another public key beside it: the opened key is checked against it.
    const swapped = { ownerKeyId: setup.keyId, ownerPublicKey: older.publicKey, sealedPrivateKey: grant!.sealedPrivateKey };
    const error = await openGrantedKey(staff, swapped, STAFF).catch((e: unknown) => e);
    expect((error as OwnerSealError).problem).toBe("mismatched-key");
    expect((error as Error).message).toMatch(/Ask the owner/);
    // Another staff member's key: sealed to someone else.
    expect(await problemOf(openGrantedKey(owner, received(grant!.sealedPrivateKey), STAFF))).toBe("other-key");
  });

  it("refuses a grant with any byte changed", async () => {
    const [grant] = (await grantOwnerKeys([setup], PASSPHRASE, recipient())).grants;
    const parts = parseSealed(grant!.sealedPrivateKey)!;
    const rebuilt = (p: typeof parts) => `owner-seal:v1:${p.keyId}:${p.ephemeral}:${p.nonce}:${p.ciphertext}`;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("ephemeral", "nonce", "ciphertext") as fc.Arbitrary<"ephemeral" | "nonce" | "ciphertext">, fc.nat(), fc.integer({ min: 1, max: 255 }), async (part, at, mask) => {
        const bytes = fromB64Url(parts[part]);
        bytes[at % bytes.length]! ^= mask;
        expect(await problemOf(openGrantedKey(staff, received(rebuilt({ ...parts, [part]: toB64Url(bytes) })), STAFF))).toBe("damaged");
      }),
      { numRuns: 40 },
    );
  });

  it("holds nothing that opens without the staff member's passphrase: not the owner's private key in any encoding", async () => {
    const [grant] = (await grantOwnerKeys([setup], PASSPHRASE, recipient())).grants;
    const pkcs8 = await unwrapPrivateKeyForTest(setup, PASSPHRASE);
    for (const encoded of encodingsOfPrivateKey(pkcs8)) expect(grant!.sealedPrivateKey).not.toContain(encoded);
    expect(await problemOf(unlockOwnerKey(staffSetup, PASSPHRASE))).toBe("wrong-passphrase");
  });
});
