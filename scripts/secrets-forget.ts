import { loadSecretKey } from "../server/crypto";
import { encryptExistingData, forgetSecretsOfAnotherKey, whatForgettingLoses, type ForgetReport, keyMatches } from "../server/shop/privacy";
import { CliError, openConfiguredDatabase, runScript } from "./cli";

// npm run secrets:forget [-- --yes]
// When the master key of this shop's data is lost (the server refuses to start: server/shop/privacy/key-check.ts),
// forgets what the key in use (SECRET_KEY, or DATA_DIR/secret.key) cannot open, so the shop starts with it.
// Without --yes it only says what would be lost. README "Backup"; docs/SECURITY.md "The secret key".

const USAGE = "Usage: npm run secrets:forget [-- --yes]";

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

function whatIsLost(report: ForgetReport): string[] {
  const lines: string[] = [];
  if (report.secrets > 0) lines.push(`  - ${plural(report.secrets, "stored secret")} it cannot decrypt:`);
  for (const secret of report.lost) {
    // The accounts are named: each of them has something to do in person.
    const accounts = secret.accounts.length > 0 ? ` ${plural(secret.accounts.length, "account")}: ${secret.accounts.join(", ")}.` : "";
    lines.push(`    - ${secret.what}${secret.count > 1 ? ` (${secret.count})` : ""}: ${secret.whenForgotten}${accounts}`);
  }
  if (report.dataKeys > 0) {
    lines.push(
      `  - ${plural(report.dataKeys, "data key")}, and with them what customers typed: ${plural(report.addresses, "address", "addresses")}, ` +
        `${plural(report.messages, "support message")}, ${plural(report.drafts, "checkout draft")} and ${plural(report.notes, "note")} about customers. ` +
        "Nobody can decrypt these any more, with any key: they show as unreadable.",
    );
  }
  return lines;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "-h" || args[0] === "--help") {
    console.log(USAGE);
    return;
  }
  if (args.some((arg) => arg !== "--yes")) throw new CliError(USAGE);
  const confirmed = args.includes("--yes");

  // What is still in clear from an earlier version is encrypted after the forgetting, under a data key
  // this key wraps: before it, the encryption would need a data key of the lost key.
  const { config, database } = await openConfiguredDatabase({ encryptExisting: false });
  try {
    const master = loadSecretKey(config.secretKey, config.dataDir);
    if (await keyMatches(database.db, master)) {
      throw new CliError("The secret key in use opens this shop's data: there is nothing to forget, nothing was changed. Start the server.");
    }
    if (!confirmed) {
      const report = await whatForgettingLoses(database.db, master);
      throw new CliError(
        [
          "The secret key in use (SECRET_KEY, or DATA_DIR/secret.key when it is not set) is not the key this shop's data was",
          "encrypted with. If you still have that key, start the server with it instead: then nothing is lost.",
          "If it is lost for good, `npm run secrets:forget -- --yes` forgets what the key in use cannot open:",
          ...whatIsLost(report),
          "Nothing was changed.",
        ].join("\n"),
      );
    }
    const report = await forgetSecretsOfAnotherKey(database.db, master);
    await encryptExistingData(database.db);
    console.log(
      ["Forgotten:", ...whatIsLost(report), "The server now starts with the key in use. Keep a copy of it apart from the backups."].join("\n"),
    );
  } finally {
    await database.close();
  }
}

runScript(main);
