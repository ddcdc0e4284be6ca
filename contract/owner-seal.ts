// Owner-only addresses (issue 15, item 2; docs/decisions/0025-owner-only-addresses.md).
//
// The owner's browser makes an ECDH P-256 key pair and keeps the private half wrapped (AES-GCM) by a
// key stretched from a passphrase (PBKDF2-SHA256). The server keeps the public half and seals each
// new address to it at checkout (ECIES: an ephemeral ECDH key pair, HKDF-SHA256, AES-256-GCM); only
// a browser that knows the passphrase opens it again.
//
// WebCrypto only (globalThis.crypto.subtle), so the same code runs in Node 20 and in the browser.
// contract/ is shared by server and web: this file imports neither, nor anything but the platform.

const subtle = () => globalThis.crypto.subtle;

/** PBKDF2 rounds for new passphrases: OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
export const OWNER_KEY_ITERATIONS = 600_000;
/** Fewer rounds are refused; more (up to the maximum) are accepted, for a future increase. */
export const OWNER_KEY_MIN_ITERATIONS = 600_000;
export const OWNER_KEY_MAX_ITERATIONS = 10_000_000;
export const OWNER_PASSPHRASE_MIN_LENGTH = 12;

/** A sealed value: `owner-seal:v1:<keyId>:<ephemeral public key>:<nonce>:<ciphertext>` (base64url parts). */
export const SEALED_PREFIX = "owner-seal:v1:";
const KEY_WRAP_CONTEXT = "owner-key-wrap:v1:";
const HKDF_INFO = "owner-seal:v1";

const CURVE = { name: "ECDH", namedCurve: "P-256" } as const;
const SALT_BYTES = 16;
const NONCE_BYTES = 12;
/** An uncompressed P-256 point: 0x04, x, y. */
const RAW_POINT_BYTES = 65;
const KEY_ID_BYTES = 16;

/** What the server keeps of the owner's key: everything a browser needs to unlock it, and nothing that opens it. */
export type OwnerKeySetup = {
  /** The public key, SubjectPublicKeyInfo DER, base64. */
  publicKey: string;
  /** The private key (PKCS#8 DER) encrypted with AES-256-GCM under the passphrase's key: base64 of nonce and ciphertext. */
  wrappedPrivateKey: string;
  /** The PBKDF2 salt, base64. */
  salt: string;
  iterations: number;
  /** The public key's fingerprint (see ownerKeyId): which key a sealed value was sealed to. */
  keyId: string;
};

/** An unlocked owner key, held in memory only: the private key cannot be exported from it. */
export type OwnerKey = {
  keyId: string;
  privateKey: CryptoKey;
  /** The raw public point, an input of the key derivation. */
  publicPoint: Uint8Array;
};

export type OwnerSealProblem = "wrong-passphrase" | "mismatched-key" | "invalid-public-key" | "damaged" | "other-key" | "weak-passphrase" | "unavailable";

/** Every failure of this module, with a sentence the owner can act on. */
export class OwnerSealError extends Error {
  constructor(
    readonly problem: OwnerSealProblem,
    message: string,
  ) {
    super(message);
    this.name = "OwnerSealError";
  }
}

export const WRONG_PASSPHRASE_MESSAGE = "That passphrase does not unlock the private addresses. Check it and try again.";
export const INVALID_PUBLIC_KEY_MESSAGE = "The public key must be a P-256 public key (SubjectPublicKeyInfo, base64).";

// ---------------------------------------------------------------------------------------------
// Bytes and text

const utf8 = (text: string) => new TextEncoder().encode(text);

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Strict base64 (padded); null for anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return fromBase64(padded);
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** WebCrypto wants a BufferSource backed by an ArrayBuffer; a copy is one. */
const buffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => concat(bytes);

const randomBytes = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));

// ---------------------------------------------------------------------------------------------
// Keys

/** The key's fingerprint: the first 16 bytes of SHA-256 over its SubjectPublicKeyInfo, hex. */
export async function ownerKeyId(publicKeySpki: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await subtle().digest("SHA-256", buffer(publicKeySpki)));
  return toHex(digest.slice(0, KEY_ID_BYTES));
}

/** The fingerprint as the owner reads it: groups of four. */
export function formatKeyId(keyId: string): string {
  return keyId.match(/.{1,4}/g)?.join(" ") ?? keyId;
}

/**
 * Checks a public key as the browser sent it: base64 SubjectPublicKeyInfo of a point on P-256.
 * Answers the raw point and the fingerprint, or throws OwnerSealError("invalid-public-key").
 */
export async function readOwnerPublicKey(publicKey: string): Promise<{ key: CryptoKey; point: Uint8Array; keyId: string }> {
  const spki = fromBase64(publicKey);
  if (!spki || spki.length === 0 || spki.length > 200) throw new OwnerSealError("invalid-public-key", INVALID_PUBLIC_KEY_MESSAGE);
  let key: CryptoKey;
  try {
    // Importing checks the algorithm, the curve and that the point lies on it.
    key = await subtle().importKey("spki", buffer(spki), CURVE, true, []);
  } catch {
    throw new OwnerSealError("invalid-public-key", INVALID_PUBLIC_KEY_MESSAGE);
  }
  const point = new Uint8Array(await subtle().exportKey("raw", key));
  if (point.length !== RAW_POINT_BYTES || point[0] !== 4) throw new OwnerSealError("invalid-public-key", INVALID_PUBLIC_KEY_MESSAGE);
  // The fingerprint is taken over the key's own encoding, so other spellings of the same key agree.
  const canonical = new Uint8Array(await subtle().exportKey("spki", key));
  return { key, point, keyId: await ownerKeyId(canonical) };
}

async function passphraseKey(passphrase: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey("raw", utf8(passphrase.normalize("NFC")), "PBKDF2", false, ["deriveKey"]);
  return subtle().deriveKey({ name: "PBKDF2", hash: "SHA-256", salt: buffer(salt), iterations }, material, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

async function wrapPrivateKey(pkcs8: Uint8Array, passphrase: string, keyId: string, iterations: number) {
  const salt = randomBytes(SALT_BYTES);
  const nonce = randomBytes(NONCE_BYTES);
  const key = await passphraseKey(passphrase, salt, iterations);
  const sealed = new Uint8Array(
    await subtle().encrypt({ name: "AES-GCM", iv: nonce, additionalData: utf8(KEY_WRAP_CONTEXT + keyId) }, key, buffer(pkcs8)),
  );
  return { wrappedPrivateKey: toBase64(concat(nonce, sealed)), salt: toBase64(salt), iterations };
}

async function unwrapPrivateKey(setup: OwnerKeySetup, passphrase: string): Promise<Uint8Array> {
  const wrapped = fromBase64(setup.wrappedPrivateKey);
  const salt = fromBase64(setup.salt);
  if (!wrapped || !salt || wrapped.length <= NONCE_BYTES + 16) throw new OwnerSealError("damaged", "The stored private key is damaged.");
  const key = await passphraseKey(passphrase, salt, setup.iterations);
  try {
    return new Uint8Array(
      await subtle().decrypt(
        { name: "AES-GCM", iv: buffer(wrapped.subarray(0, NONCE_BYTES)), additionalData: utf8(KEY_WRAP_CONTEXT + setup.keyId) },
        key,
        buffer(wrapped.subarray(NONCE_BYTES)),
      ),
    );
  } catch {
    throw new OwnerSealError("wrong-passphrase", WRONG_PASSPHRASE_MESSAGE);
  }
}

export function checkPassphraseStrength(passphrase: string): string | null {
  if ([...passphrase.normalize("NFC")].length < OWNER_PASSPHRASE_MIN_LENGTH) {
    return `The passphrase must be at least ${OWNER_PASSPHRASE_MIN_LENGTH} characters long. A few unrelated words work well.`;
  }
  return null;
}

/**
 * The browser's set-up: a new key pair, its private half wrapped by the passphrase. The answer is
 * what the server keeps; the private key exists in clear only inside this function.
 */
export async function createOwnerKey(passphrase: string, options: { iterations?: number } = {}): Promise<OwnerKeySetup> {
  const weak = checkPassphraseStrength(passphrase);
  if (weak) throw new OwnerSealError("weak-passphrase", weak);
  const iterations = options.iterations ?? OWNER_KEY_ITERATIONS;
  const pair = await subtle().generateKey(CURVE, true, ["deriveBits"]);
  const spki = new Uint8Array(await subtle().exportKey("spki", pair.publicKey));
  const pkcs8 = new Uint8Array(await subtle().exportKey("pkcs8", pair.privateKey));
  const keyId = await ownerKeyId(spki);
  const setup = { publicKey: toBase64(spki), keyId, ...(await wrapPrivateKey(pkcs8, passphrase, keyId, iterations)) };
  pkcs8.fill(0);
  // Before the server is told anything: the passphrase opens what was just made.
  await unlockOwnerKey(setup, passphrase);
  return setup;
}

/** A new passphrase for the same key pair: what was sealed stays readable. Needs the current passphrase. */
export async function rewrapOwnerKey(setup: OwnerKeySetup, currentPassphrase: string, newPassphrase: string): Promise<OwnerKeySetup> {
  const weak = checkPassphraseStrength(newPassphrase);
  if (weak) throw new OwnerSealError("weak-passphrase", weak);
  const pkcs8 = await unwrapPrivateKey(setup, currentPassphrase);
  const rewrapped = { ...setup, ...(await wrapPrivateKey(pkcs8, newPassphrase, setup.keyId, Math.max(setup.iterations, OWNER_KEY_ITERATIONS))) };
  pkcs8.fill(0);
  await unlockOwnerKey(rewrapped, newPassphrase);
  return rewrapped;
}

/**
 * Opens the private key with the passphrase, as a key that can never be exported again (it lives in
 * the page's memory only). Checks that the stored public key is this private key's: if someone
 * swapped it, new addresses would be sealed to them, and the owner must know.
 */
export async function unlockOwnerKey(setup: OwnerKeySetup, passphrase: string): Promise<OwnerKey> {
  return importCheckedKey(await unwrapPrivateKey(setup, passphrase), setup);
}

const MISMATCHED_KEY_MESSAGE =
  "The shop's stored public key does not belong to this private key, so new addresses may be sealed to someone else. Turn private addresses off and set them up again.";

/**
 * Imports a PKCS#8 private key as one that can never be exported again, and checks that `expected`
 * (the public key and fingerprint the server keeps for it) is its own. Zeroes `pkcs8` either way.
 */
async function importCheckedKey(pkcs8: Uint8Array, expected: Pick<OwnerKeySetup, "publicKey" | "keyId">): Promise<OwnerKey> {
  let privateKey: CryptoKey;
  try {
    privateKey = await subtle().importKey("pkcs8", buffer(pkcs8), CURVE, false, ["deriveBits"]);
  } catch {
    throw new OwnerSealError("damaged", "The stored private key is damaged.");
  } finally {
    pkcs8.fill(0);
  }
  const { point, keyId } = await readOwnerPublicKey(expected.publicKey);
  const key: OwnerKey = { keyId, privateKey, publicPoint: point };
  const probe = "owner-seal probe";
  const matches =
    keyId === expected.keyId && (await openSealed(key, await sealForOwner(expected, probe, "probe"), "probe").catch(() => null)) === probe;
  if (!matches) throw new OwnerSealError("mismatched-key", MISMATCHED_KEY_MESSAGE);
  return key;
}

// ---------------------------------------------------------------------------------------------
// Sealing and opening

async function sealingKey(sharedSecret: ArrayBuffer, ephemeralPoint: Uint8Array, ownerPoint: Uint8Array, usage: "encrypt" | "decrypt") {
  const material = await subtle().importKey("raw", sharedSecret, "HKDF", false, ["deriveKey"]);
  return subtle().deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: concat(ephemeralPoint, ownerPoint), info: utf8(HKDF_INFO) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    [usage],
  );
}

/** What a sealed value's authentication covers besides its ciphertext: its header and what it belongs to. */
const additionalData = (keyId: string, ephemeral: string, binding: string) => utf8(`${SEALED_PREFIX}${keyId}:${ephemeral}|${binding}`);

/**
 * Seals text to the owner's public key. `binding` names what it belongs to (for an address,
 * sealedAddressBinding(orderId)); opening it with any other binding fails, so a sealed value cannot
 * be moved to another order unnoticed.
 */
export async function sealForOwner(owner: Pick<OwnerKeySetup, "publicKey">, plaintext: string, binding: string): Promise<string> {
  return sealBytes(owner, utf8(plaintext), binding);
}

async function sealBytes(owner: Pick<OwnerKeySetup, "publicKey">, plaintext: Uint8Array, binding: string): Promise<string> {
  const { key: ownerKey, point: ownerPoint, keyId } = await readOwnerPublicKey(owner.publicKey);
  const ephemeral = await subtle().generateKey(CURVE, true, ["deriveBits"]);
  const ephemeralPoint = new Uint8Array(await subtle().exportKey("raw", ephemeral.publicKey));
  const shared = await subtle().deriveBits({ name: "ECDH", public: ownerKey }, ephemeral.privateKey, 256);
  const key = await sealingKey(shared, ephemeralPoint, ownerPoint, "encrypt");
  const nonce = randomBytes(NONCE_BYTES);
  const ephemeralText = toBase64Url(ephemeralPoint);
  const ciphertext = new Uint8Array(
    await subtle().encrypt({ name: "AES-GCM", iv: nonce, additionalData: additionalData(keyId, ephemeralText, binding) }, key, buffer(plaintext)),
  );
  return `${SEALED_PREFIX}${keyId}:${ephemeralText}:${toBase64Url(nonce)}:${toBase64Url(ciphertext)}`;
}

export type SealedParts = { keyId: string; ephemeral: string; nonce: string; ciphertext: string };

const KEY_ID_PATTERN = /^[0-9a-f]{32}$/;

/** Splits a sealed value into its parts; null when it is not one. */
export function parseSealed(sealed: string): SealedParts | null {
  if (typeof sealed !== "string" || !sealed.startsWith(SEALED_PREFIX)) return null;
  const parts = sealed.slice(SEALED_PREFIX.length).split(":");
  if (parts.length !== 4) return null;
  const [keyId, ephemeral, nonce, ciphertext] = parts as [string, string, string, string];
  if (!KEY_ID_PATTERN.test(keyId) || !BASE64URL.test(ephemeral) || !BASE64URL.test(nonce) || !BASE64URL.test(ciphertext)) return null;
  return { keyId, ephemeral, nonce, ciphertext };
}

/** Whether a value looks like a sealed value (its form only: nothing is opened). */
export const isSealed = (value: unknown): value is string => typeof value === "string" && parseSealed(value) !== null;

/** The fingerprint of the key a sealed value was sealed to (null when it is not a sealed value). */
export const sealedKeyId = (sealed: string): string | null => parseSealed(sealed)?.keyId ?? null;

const DAMAGED_MESSAGE = "This sealed value could not be opened: it is damaged, or it belongs to something else.";

/** Opens a sealed value with an unlocked owner key; the binding must be the one it was sealed with. */
export async function openSealed(owner: OwnerKey, sealed: string, binding: string): Promise<string> {
  const plain = await openSealedBytes(owner, sealed, binding);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    throw new OwnerSealError("damaged", DAMAGED_MESSAGE);
  }
}

async function openSealedBytes(owner: OwnerKey, sealed: string, binding: string): Promise<Uint8Array<ArrayBuffer>> {
  const parts = parseSealed(sealed);
  if (!parts) throw new OwnerSealError("damaged", DAMAGED_MESSAGE);
  if (parts.keyId !== owner.keyId) {
    throw new OwnerSealError("other-key", `This was sealed to another key (${formatKeyId(parts.keyId)}); unlock with that key's passphrase.`);
  }
  const ephemeralPoint = fromBase64Url(parts.ephemeral);
  const nonce = fromBase64Url(parts.nonce);
  const ciphertext = fromBase64Url(parts.ciphertext);
  if (!ephemeralPoint || ephemeralPoint.length !== RAW_POINT_BYTES || !nonce || nonce.length !== NONCE_BYTES || !ciphertext) {
    throw new OwnerSealError("damaged", DAMAGED_MESSAGE);
  }
  try {
    const ephemeral = await subtle().importKey("raw", buffer(ephemeralPoint), CURVE, false, []);
    const shared = await subtle().deriveBits({ name: "ECDH", public: ephemeral }, owner.privateKey, 256);
    const key = await sealingKey(shared, ephemeralPoint, owner.publicPoint, "decrypt");
    return new Uint8Array(
      await subtle().decrypt(
        { name: "AES-GCM", iv: buffer(nonce), additionalData: additionalData(parts.keyId, parts.ephemeral, binding) },
        key,
        buffer(ciphertext),
      ),
    );
  } catch {
    throw new OwnerSealError("damaged", DAMAGED_MESSAGE);
  }
}

// ---------------------------------------------------------------------------------------------
// Addresses

export type SealableAddress = { name: string; streetAddress: string; postcode: string; contact: string | null };

/** What a sealed address is bound to: its order. */
export const sealedAddressBinding = (orderId: string) => `order:${orderId}:shipping-address`;

export const sealAddress = (owner: Pick<OwnerKeySetup, "publicKey">, address: SealableAddress, orderId: string) =>
  sealForOwner(owner, JSON.stringify(address), sealedAddressBinding(orderId));

/** Opens an order's sealed address; throws OwnerSealError when it cannot (another key, damage, another order). */
export async function openSealedAddress(owner: OwnerKey, sealed: string, orderId: string): Promise<SealableAddress> {
  const text = await openSealed(owner, sealed, sealedAddressBinding(orderId));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OwnerSealError("damaged", DAMAGED_MESSAGE);
  }
  const field = (name: string) => (value as Record<string, unknown>)[name];
  const isText = (v: unknown) => typeof v === "string";
  if (
    typeof value !== "object" ||
    value === null ||
    !isText(field("name")) ||
    !isText(field("streetAddress")) ||
    !isText(field("postcode")) ||
    !(field("contact") === null || isText(field("contact")))
  ) {
    throw new OwnerSealError("damaged", DAMAGED_MESSAGE);
  }
  return {
    name: field("name") as string,
    streetAddress: field("streetAddress") as string,
    postcode: field("postcode") as string,
    contact: (field("contact") as string | null) ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Grants: a staff account reads sealed addresses too (docs/decisions/0037-sealed-address-grants.md)
//
// A staff account makes its own key pair exactly as the owner does (createOwnerKey, its own
// passphrase). The owner's browser seals each of the owner's private keys to that public key; the
// staff account's browser opens them with its own unlocked key. The server keeps only sealed text.

/** What a grant is bound to: the account it was given to and the owner's key it holds. */
export const grantBinding = (accountId: string, ownerKeyId: string) => `grant:${accountId}:owner-key:${ownerKeyId}`;

/** A staff account's key as the owner's browser seals to it; keyId is the fingerprint the owner checked. */
export type GrantRecipient = { accountId: string; publicKey: string; keyId: string };
/** One of the owner's private keys, sealed to a staff account's public key. */
export type SealedGrant = { ownerKeyId: string; sealedPrivateKey: string };

/**
 * The owner's browser gives a staff account the owner's keys: each key that `passphrase` opens is
 * unwrapped (as bytes, inside this function only), checked against its public key, and sealed to the
 * recipient. Keys this passphrase does not open (an older key kept under an earlier passphrase) are
 * answered in `notOpened`; none opened is a wrong passphrase. The normal unlock stays non-extractable:
 * this unwraps again from the passphrase instead of exporting an unlocked key.
 */
export async function grantOwnerKeys(
  ownerKeys: readonly OwnerKeySetup[],
  passphrase: string,
  recipient: GrantRecipient,
): Promise<{ grants: SealedGrant[]; notOpened: string[] }> {
  const { keyId } = await readOwnerPublicKey(recipient.publicKey);
  if (keyId !== recipient.keyId) {
    throw new OwnerSealError("mismatched-key", "This staff key is not the one whose fingerprint was shown. Reload the page and check the fingerprint again.");
  }
  const grants: SealedGrant[] = [];
  const notOpened: string[] = [];
  for (const setup of ownerKeys) {
    let pkcs8: Uint8Array;
    try {
      pkcs8 = await unwrapPrivateKey(setup, passphrase);
    } catch (error) {
      if (!(error instanceof OwnerSealError)) throw error;
      notOpened.push(setup.keyId);
      continue;
    }
    try {
      // Only a key that belongs to its public key is handed on (importCheckedKey zeroes its copy).
      await importCheckedKey(pkcs8.slice(), setup);
      grants.push({ ownerKeyId: setup.keyId, sealedPrivateKey: await sealBytes(recipient, pkcs8, grantBinding(recipient.accountId, setup.keyId)) });
    } finally {
      pkcs8.fill(0);
    }
  }
  if (grants.length === 0) throw new OwnerSealError("wrong-passphrase", WRONG_PASSPHRASE_MESSAGE);
  return { grants, notOpened };
}

/** A grant as the staff account's browser reads it back (GET /api/private-addresses/my-grants). */
export type ReceivedGrant = { ownerKeyId: string; ownerPublicKey: string; sealedPrivateKey: string };

/**
 * The staff account's browser opens a grant with its own unlocked key: the owner's private key,
 * imported so that it can never be exported again, after checking that the owner's public key is its own.
 */
export async function openGrantedKey(recipient: OwnerKey, grant: ReceivedGrant, accountId: string): Promise<OwnerKey> {
  const pkcs8 = await openSealedBytes(recipient, grant.sealedPrivateKey, grantBinding(accountId, grant.ownerKeyId));
  try {
    return await importCheckedKey(pkcs8, { publicKey: grant.ownerPublicKey, keyId: grant.ownerKeyId });
  } catch (error) {
    if (error instanceof OwnerSealError && error.problem === "mismatched-key") {
      throw new OwnerSealError("mismatched-key", "The access the owner gave does not match the shop's key. Ask the owner to check Private addresses and grant access again.");
    }
    throw error;
  }
}
