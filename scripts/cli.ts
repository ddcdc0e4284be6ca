import { ConfigError, loadConfig, loadEnvFile, type Config } from "../server/config";
import { loadSecretKey } from "../server/crypto";
import { DatabaseLockedError, openDatabase, type Database } from "../server/db/client";
import { encryptExistingData } from "../server/shop/privacy";
import { useMasterKey } from "../server/shop/vaults";

// What the maintenance scripts share: the server's own configuration and database, and one-line
// errors instead of stack traces for the mistakes a person can fix.

/** A mistake the person running the script can fix; printed as it is, without a stack trace. */
export class CliError extends Error {}

/**
 * The database the server uses: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR.
 * `encryptExisting: false` leaves what an earlier version stored in clear for the caller to encrypt
 * (secrets:forget: not before the data keys of a lost master key are forgotten).
 */
export async function openConfiguredDatabase(options: { encryptExisting?: boolean } = {}): Promise<{ config: Config; database: Database }> {
  loadEnvFile();
  const config = loadConfig();
  // What customers typed is encrypted under data keys this master key wraps (shop/vaults/vault.ts).
  // Loaded when first needed: a restore into a new DATA_DIR must not create a key of its own there.
  useMasterKey(() => loadSecretKey(config.secretKey, config.dataDir));
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // As the server does at start: nothing an earlier version stored in clear is left so.
  if (options.encryptExisting !== false) await encryptExistingData(database.db);
  return { config, database };
}

/** Runs a script's main function and exits: 0 when it succeeded, 1 with a clear message when not. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof CliError || error instanceof ConfigError || error instanceof DatabaseLockedError) {
        console.error(error.message);
      } else {
        console.error("The script failed:", error);
      }
      process.exit(1);
    },
  );
}
