import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { loadSecretKey } from "../crypto";
import type { ObjectStorage } from "../storage";
import { storageFor } from "../storage/configured";
import { keyFingerprint } from "./backup";

export { BackupError } from "./archive";
export { writeBackup, keyFingerprint, type BackupSummary } from "./backup";
export { restoreBackup, type RestoreSummary } from "./restore";

/** The image store the server uses for this configuration (DATA_DIR/objects or the S3 bucket). */
export function configuredStorage(config: Config): ObjectStorage {
  return storageFor(config);
}

/**
 * The fingerprint of the encryption key this configuration uses, or null when there is none yet.
 * Never creates the key file (loadSecretKey would): a backup or restore must not invent a key.
 */
export function configuredKeyId(config: Config): string | null {
  if (!config.secretKey && !fs.existsSync(path.join(config.dataDir, "secret.key"))) return null;
  return keyFingerprint(loadSecretKey(config.secretKey, config.dataDir));
}
