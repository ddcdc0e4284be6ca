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

// ---------------------------------------------------------------------------------------------
// Staff access to sealed addresses (issue 25; docs/decisions/0037-sealed-address-grants.md): a staff
// account with "orders.addresses" keeps its own key, made like the owner's; the owner's browser
// seals the owner's keys to it.

/** PUT /api/private-addresses/my-key: the signed-in staff account's own key pair, made in its browser. */
export const StaffKeySetupSchema = z
  .object({
    publicKey: base64Bytes(26, 150).meta({ description: "SubjectPublicKeyInfo of a P-256 public key, base64" }),
    wrappedPrivateKey: WrappedPrivateKeySchema,
    salt: SaltSchema,
    iterations: IterationsSchema,
  })
  .meta({ id: "StaffKeySetup" });
export type StaffKeySetup = z.infer<typeof StaffKeySetupSchema>;

/** A staff account's key: everything its browser needs to unlock it with the passphrase, nothing that opens it without. */
export const StaffSealKeySchema = z
  .object({
    keyId: KeyIdSchema.meta({ description: "Fingerprint of the public key: the first 16 bytes of its SHA-256, hex" }),
    publicKey: z.string(),
    wrappedPrivateKey: z.string(),
    salt: z.string(),
    iterations: z.int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "StaffSealKey" });
export type StaffSealKey = z.infer<typeof StaffSealKeySchema>;

/** GET /api/private-addresses/my-key: the signed-in account's own key, or null before it set one up. */
export const MySealKeySchema = z.object({ key: StaffSealKeySchema.nullable() }).meta({ id: "MySealKey" });
export type MySealKey = z.infer<typeof MySealKeySchema>;

/** PUT /api/private-addresses/my-key's answer. */
export const MySealKeyChangeSchema = z
  .object({
    key: StaffSealKeySchema,
    /** Grants removed by this change: a new key pair cannot open what was sealed to the old one (the owner grants again). */
    grantsRemoved: z.int(),
  })
  .meta({ id: "MySealKeyChange" });
export type MySealKeyChange = z.infer<typeof MySealKeyChangeSchema>;

/** The account a grant route names. */
export const GrantAccountParamsSchema = z.object({ accountId: z.uuid({ message: "must be a valid id" }) });

/** One of the owner's keys, sealed to a staff account's key, as that account reads it back. */
export const ReceivedGrantSchema = z
  .object({
    ownerKeyId: KeyIdSchema,
    /** The owner's public key: the browser checks that the private key it opens belongs to it. */
    ownerPublicKey: z.string(),
    /** owner-seal:v1 text sealed to the account's key; only its passphrase opens it. */
    sealedPrivateKey: z.string(),
    grantedAt: z.iso.datetime(),
  })
  .meta({ id: "ReceivedGrant" });

/** GET /api/private-addresses/my-grants: the grants of the signed-in account (none: it sees addresses sealed). */
export const MyGrantsSchema = z
  .object({
    accountId: z.string(),
    grants: z.array(ReceivedGrantSchema),
  })
  .meta({ id: "MyGrants" });
export type MyGrants = z.infer<typeof MyGrantsSchema>;

/** A staff account as the owner's Staff access list shows it. */
export const StaffAddressAccessSchema = z
  .object({
    accountId: z.string(),
    username: z.string(),
    name: z.string(),
    role: z.string(),
    disabled: z.boolean(),
    /** Whether its role may read addresses ("orders.addresses"); false for an account whose role changed since it was granted access. */
    eligible: z.boolean(),
    /** Its key, once it set one up: the owner compares this fingerprint with the one the staff member sees. */
    key: z.object({ keyId: z.string(), publicKey: z.string(), createdAt: z.iso.datetime() }).nullable(),
    /** The owner's keys it was given, by fingerprint. */
    grants: z.array(z.object({ ownerKeyId: z.string(), grantedAt: z.iso.datetime() })),
  })
  .meta({ id: "StaffAddressAccess" });
export type StaffAddressAccess = z.infer<typeof StaffAddressAccessSchema>;

/** GET /api/private-addresses/grants: every staff account that may read addresses, or holds access. */
export const StaffAddressAccessListSchema = z
  .object({ accounts: z.array(StaffAddressAccessSchema) })
  .meta({ id: "StaffAddressAccessList" });
export type StaffAddressAccessList = z.infer<typeof StaffAddressAccessListSchema>;

/** An owner-seal:v1 value: its parts are checked by the server (contract/owner-seal.ts parseSealed). */
const SealedPrivateKeySchema = z
  .string({ error: "must be text" })
  .max(2000, "is too long")
  .meta({ description: "owner-seal:v1 text: the owner's PKCS#8 private key sealed (in the owner's browser) to the staff account's public key" });

/** PUT /api/private-addresses/grants/{accountId}: adds or replaces the account's grants for these keys. */
export const GrantInputSchema = z
  .object({
    grants: z
      .array(z.object({ ownerKeyId: KeyIdSchema, sealedPrivateKey: SealedPrivateKeySchema }), { error: "must be a list" })
      .min(1, "must hold at least one key")
      .max(100, "must hold at most 100 keys"),
  })
  .meta({ id: "GrantInput" });
export type GrantInput = z.infer<typeof GrantInputSchema>;
