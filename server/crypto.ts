import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Secrets at rest (bot token, gateway keys): AES-256-GCM with a key from SECRET_KEY,
// or one generated into DATA_DIR on first start.
const PREFIX = "enc:v1:";

export type SecretBox = {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  /**
   * A 32-byte key for one purpose, derived from the master key (HKDF-SHA256, the purpose as its info):
   * every instance started with the same key derives the same one, and no purpose learns another's.
   */
  deriveKey(purpose: string): Buffer;
};

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("The secret key must be 32 bytes");
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return PREFIX + [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(":");
    },
    decrypt(stored) {
      // Values written before encryption existed are returned as they are.
      if (!stored.startsWith(PREFIX)) return stored;
      const [iv, tag, data] = stored.slice(PREFIX.length).split(":").map((p) => Buffer.from(p, "base64url"));
      const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(data!), decipher.final()]).toString("utf8");
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
