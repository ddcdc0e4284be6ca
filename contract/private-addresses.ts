import { z } from "zod";
import { OWNER_KEY_MAX_ITERATIONS, OWNER_KEY_MIN_ITERATIONS } from "./owner-seal";

// Private addresses, the owner-only mode (issue 15, item 2; docs/decisions/0025): the owner's key as
// the server keeps it. The cryptography is contract/owner-seal.ts; contract/index.ts re-exports this
// file, which takes nothing from index.ts.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Base64 of between min and max bytes. */
const base64Bytes = (min: number, max: number) =>
  z
    .string({ error: "must be base64 text" })
    .max(Math.ceil(max / 3) * 4, "is too long")
    .regex(BASE64, "must be base64 text")
    .refine((text) => {
      const bytes = (text.length / 4) * 3 - (text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0);
      return bytes >= min && bytes <= max;
    }, `must be between ${min} and ${max} bytes`);

const KeyIdSchema = z.string().regex(/^[0-9a-f]{32}$/, "must be a key fingerprint (32 hexadecimal digits)");

// A P-256 private key in PKCS#8 is 67 bytes without its public point and 138 with it; wrapped, a
// 12-byte nonce and a 16-byte tag are added. Whether it opens, only the passphrase can tell.
const WrappedPrivateKeySchema = base64Bytes(12 + 67 + 16, 512).meta({
  description: "The PKCS#8 private key encrypted with AES-256-GCM under the passphrase's PBKDF2 key: base64 of the 12-byte nonce and the ciphertext",
});
const SaltSchema = base64Bytes(16, 64).meta({ description: "The PBKDF2 salt, base64 (16 to 64 bytes)" });
const IterationsSchema = z
  .int({ error: "must be a whole number" })
  .min(OWNER_KEY_MIN_ITERATIONS, `must be at least ${OWNER_KEY_MIN_ITERATIONS}`)
  .max(OWNER_KEY_MAX_ITERATIONS, `must be at most ${OWNER_KEY_MAX_ITERATIONS}`)
  .meta({ description: "PBKDF2-SHA256 rounds" });

/** One of the owner's keys: everything a browser needs to unlock it with the passphrase, nothing that opens it without. */
export const OwnerSealKeySchema = z
  .object({
    keyId: KeyIdSchema.meta({ description: "Fingerprint of the public key: the first 16 bytes of its SHA-256, hex" }),
    publicKey: z.string().meta({ description: "SubjectPublicKeyInfo of the P-256 public key, base64" }),
    wrappedPrivateKey: z.string(),
    salt: z.string(),
    iterations: z.int(),
    createdAt: z.iso.datetime(),
    passphraseChangedAt: z.iso.datetime(),
    /** When private addresses were turned off while this key was in use; null for the key in use. */
    retiredAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "OwnerSealKey" });
export type OwnerSealKey = z.infer<typeof OwnerSealKeySchema>;

/** GET /api/private-addresses, and the answer of every change. */
export const PrivateAddressesSchema = z
  .object({
    /** Whether new addresses are sealed to the owner's key (otherwise the server encrypts them with its own key). */
    enabled: z.boolean(),
    /** The key new addresses are sealed to; null when off. */
    activeKeyId: z.string().nullable(),
    /** Every key ever used, newest first: addresses sealed to a retired key still open with its passphrase. */
    keys: z.array(OwnerSealKeySchema),
  })
  .meta({ id: "PrivateAddresses" });
export type PrivateAddresses = z.infer<typeof PrivateAddressesSchema>;

/** POST /api/private-addresses: turn the mode on with a key pair made in the browser. */
export const PrivateAddressesEnableSchema = z
  .object({
    publicKey: base64Bytes(26, 150).meta({ description: "SubjectPublicKeyInfo of a P-256 public key, base64" }),
    wrappedPrivateKey: WrappedPrivateKeySchema,
    salt: SaltSchema,
    iterations: IterationsSchema,
  })
  .meta({ id: "PrivateAddressesEnable" });
export type PrivateAddressesEnable = z.infer<typeof PrivateAddressesEnableSchema>;

/** PUT /api/private-addresses/passphrase: the same key pair, wrapped by a new passphrase. */
export const OwnerPassphraseChangeSchema = z
  .object({
    keyId: KeyIdSchema,
    /** The salt the browser unwrapped with: if the passphrase was changed elsewhere meanwhile, nothing is overwritten. */
    currentSalt: z.string({ error: "must be text" }).max(100),
    wrappedPrivateKey: WrappedPrivateKeySchema,
    salt: SaltSchema,
    iterations: IterationsSchema,
  })
  .meta({ id: "OwnerPassphraseChange" });
export type OwnerPassphraseChange = z.infer<typeof OwnerPassphraseChangeSchema>;
