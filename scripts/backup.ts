import path from "node:path";
import { BackupError, configuredKeyId, configuredStorage, writeBackup } from "../server/backup";
import { CliError, openConfiguredDatabase, runScript } from "./cli";

// npm run backup -- --out FILE
// Writes the database and the images of the shop the server uses into one archive (gzip'd JSON lines).
// The encryption key is not in it: keep SECRET_KEY or DATA_DIR/secret.key somewhere else.

const USAGE = "Usage: npm run backup -- --out FILE";

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "-h" || args[0] === "--help") {
    console.log(USAGE);
    return;
  }
  const outIndex = args.indexOf("--out");
  const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
  if (!out || out.startsWith("--") || args.length !== 2) throw new CliError(`Say where to write the backup.\n${USAGE}`);

  const { config, database } = await openConfiguredDatabase();
  try {
    const file = path.resolve(out);
    const summary = await writeBackup({ database, storage: configuredStorage(config), out: file, keyId: configuredKeyId(config) });
    const megabytes = (summary.bytes / 1024 / 1024).toFixed(1);
    console.log(`Backed up ${summary.rows} rows in ${summary.tables} tables and ${plural(summary.images, "image")} (${megabytes} MB) to ${file}.`);
    console.log("The encryption key is not in the backup: keep SECRET_KEY (or DATA_DIR/secret.key) safe, apart from it.");
  } catch (error) {
    throw error instanceof BackupError ? new CliError(error.message) : error;
  } finally {
    await database.close();
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

runScript(main);
