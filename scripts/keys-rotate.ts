import { createSecretBox, loadSecretKey } from "../server/crypto";
import { keyMatches, WRONG_KEY_MESSAGE, rewrapUnderNewMasterKey, rotateDataKey } from "../server/shop/privacy";
import { CliError, openConfiguredDatabase, runScript } from "./cli";

// npm run keys:rotate                      a new data key; everything encrypted again under it; the old one retired
// npm run keys:rotate -- --new-secret-key  also wraps the data keys and re-encrypts every secret under NEW_SECRET_KEY
// docs/decisions/0024-encryption-at-rest.md; README "Backup".

const USAGE = "Usage: npm run keys:rotate [-- --new-secret-key]   (the new master key is read from NEW_SECRET_KEY)";

async function main() {
  const args = process.argv.slice(2);
  const newSecret = args.includes("--new-secret-key");
  if (args.some((arg) => arg !== "--new-secret-key")) throw new CliError(USAGE);
  const newSecretKey = process.env.NEW_SECRET_KEY;
  if (newSecret && (!newSecretKey || newSecretKey.length < 16)) {
    throw new CliError("--new-secret-key reads the new master key from NEW_SECRET_KEY (at least 16 characters); nothing was changed.");
  }
  const { config, database } = await openConfiguredDatabase();
  try {
    // With another key, a new data key would be wrapped under it and the old ones would not unwrap.
    if (!(await keyMatches(database.db, loadSecretKey(config.secretKey, config.dataDir)))) throw new CliError(WRONG_KEY_MESSAGE);
    // The grace after the switch waits for servers' writes in flight. On PGlite this script holds the
    // data folder's lock (server/db/client.ts), so no server has the database open: nothing to wait for.
    const graceMs = database.kind === "pglite" ? 0 : undefined;
    const report = await rotateDataKey(database.db, { graceMs, log: (line) => console.log(line) });
    console.log(
      report.retiredKeyIds.length > 0
        ? `Done: data key ${report.newKeyId} is current; ${report.retiredKeyIds.join(", ")} retired (deleted).`
        : `Done: data key ${report.newKeyId} is current.`,
    );
    if (newSecret) {
      const oldMaster = loadSecretKey(config.secretKey, config.dataDir);
      const newMaster = loadSecretKey(newSecretKey, config.dataDir);
      const rewrapped = await rewrapUnderNewMasterKey(database.db, {
        oldMaster,
        newMaster,
        oldSecrets: createSecretBox(oldMaster),
        newSecrets: createSecretBox(newMaster),
      });
      console.log(
        `Wrapped ${rewrapped.dataKeys} data key(s) and ${rewrapped.secrets} secret(s) of the bot, the payment gateways and two-factor sign-in under the new master key. ` +
          "Start every server with SECRET_KEY set to the value of NEW_SECRET_KEY now: the old key no longer opens them. " +
          "Backups made before need the old key.",
      );
    }
  } finally {
    await database.close();
  }
}

runScript(main);
