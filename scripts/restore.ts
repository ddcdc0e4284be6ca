import fs from "node:fs";
import path from "node:path";
import { BackupError, configuredKeyId, configuredStorage, restoreBackup } from "../server/backup";
import { CliError, openConfiguredDatabase, runScript } from "./cli";

// npm run restore -- FILE [--force]
// Loads a backup into the database and image store the server uses (DATA_DIR or DATABASE_URL).
// Only into an empty shop, unless --force, which replaces everything in the database.

const USAGE = "Usage: npm run restore -- FILE [--force]";

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "-h" || args[0] === "--help") {
    console.log(USAGE);
    return;
  }
  const force = args.includes("--force");
  const files = args.filter((arg) => arg !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("--")) throw new CliError(`Name one backup file.\n${USAGE}`);
  const file = path.resolve(files[0]!);
  // Before opening the database, so a mistyped name does not leave a new empty DATA_DIR behind.
  if (!fs.existsSync(file)) throw new CliError(`${file} does not exist.`);

  const { config, database } = await openConfiguredDatabase();
  try {
    const summary = await restoreBackup({ database, storage: configuredStorage(config), file, force });
    console.log(`Restored ${summary.rows} rows in ${summary.tables} tables and ${plural(summary.images, "image")} from ${file}.`);
    const keyId = configuredKeyId(config);
    if (summary.keyId && summary.keyId !== keyId) {
      console.log(
        "Note: the encryption key here is not the one the backup was made with: the server will refuse to start " +
          "with it. Before starting the server, set SECRET_KEY as it was, or copy secret.key from the old " +
          `DATA_DIR into ${config.dataDir} (if that key is lost, see npm run secrets:forget).`,
      );
    }
  } catch (error) {
    throw error instanceof BackupError ? new CliError(error.message) : error;
  } finally {
    await database.close();
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

runScript(main);
