import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Secrets at rest (bot token, gateway keys): AES-256-GCM with a key from SECRET_KEY,
// or one generated into DATA_DIR on first start.
const PREFIX = "enc:v1:";

/** Whether a stored secret is encrypted (one from before encryption existed is in clear). */
export const isEncryptedSecret = (stored: string) => stored.startsWith(PREFIX);

/** Why a stored secret did not decrypt; the text of the error, never the value. */
export type SecretFailure = "malformed" | "authentication failed";

/** A stored secret that does not decrypt: damaged, changed, or encrypted under another key. */
export class SecretUnreadableError extends Error {
  constructor(readonly reason: SecretFailure) {
    super(`A stored secret could not be decrypted (${reason})`);
  }
}

/** Where a secret that does not decrypt is reported: the server's logger (services.ts). */
export type SecretLog = { error(details: Record<string, unknown>, message: string): void };

export type SecretBox = {
  encrypt(plain: string): string;
  /** Throws SecretUnreadableError when the value does not decrypt. */
  decrypt(stored: string): string;
  /**
   * `decrypt`, or null when the value does not decrypt: the shop then treats it as not set. Which
   * `field` and why are logged at error, once per stored value (a read repeats on every bot update);
   * the value itself never is (docs/SECURITY.md "The secret key").
   */
  decryptOrNull(stored: string, field: string): string | null;
  /**
   * A 32-byte key for one purpose, derived from the master key (HKDF-SHA256, the purpose as its info):
   * every instance started with the same key derives the same one, and no purpose learns another's.
   */
  deriveKey(purpose: string): Buffer;
};

/** Reported unreadable values per box, so a damaged token is logged once and not on every read. */
const REPORTED_LIMIT = 100;

export function createSecretBox(key: Buffer, options: { log?: SecretLog } = {}): SecretBox {
  if (key.length !== 32) throw new Error("The secret key must be 32 bytes");
  const reported = new Set<string>();
  const decrypt = (stored: string) => {
    // Values written before encryption existed are returned as they are.
    if (!isEncryptedSecret(stored)) return stored;
    const parts = stored.slice(PREFIX.length).split(":");
    const [iv, tag, data] = parts.map((p) => Buffer.from(p, "base64url"));
    if (parts.length !== 3 || iv!.length !== 12 || tag!.length !== 16) throw new SecretUnreadableError("malformed");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv!);
    decipher.setAuthTag(tag!);
    try {
      return Buffer.concat([decipher.update(data!), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretUnreadableError("authentication failed");
    }
  };
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return PREFIX + [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(":");
    },
    decrypt,
    decryptOrNull(stored, field) {
      try {
        return decrypt(stored);
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        const seen = `${field}\n${stored}`;
        if (!reported.has(seen)) {
          if (reported.size >= REPORTED_LIMIT) reported.clear();
          reported.add(seen);
          options.log?.error(
            { field, reason: error.reason },
            `The stored ${field} could not be decrypted (${error.reason}): it counts as not set until it is saved again in Bot Settings`,
          );
        }
        return null;
      }
    },
    deriveKey(purpose) {
      return Buffer.from(crypto.hkdfSync("sha256", key, Buffer.alloc(0), purpose, 32));
    },
  };
}

/** SECRET_KEY when given (any string, stretched to 32 bytes), else DATA_DIR/secret.key, created once. */
export function loadSecretKey(secretKey: string | undefined, dataDir: string): Buffer {
  if (secretKey) return crypto.createHash("sha256").update(secretKey).digest();
  const file = path.join(dataDir, "secret.key");
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
  if (key.length !== 32) throw new Error(`${file} is damaged: expected 64 hex characters`);
  return key;
}
