import { setOwnerPassword } from "../server/shop/team";
import { CliError, openConfiguredDatabase, runScript } from "./cli";

// npm run admin:password [-- <new password>]
// Sets a new admin password in the database the server uses and ends every open session.

const MIN_LENGTH = 8;
const USAGE = "Usage: npm run admin:password -- '<new password>'   (or run it in a terminal to be asked)";

function checkPassword(password: string): void {
  if (password.length < MIN_LENGTH) {
    throw new CliError(`The password must be at least ${MIN_LENGTH} characters long; nothing was changed.`);
  }
}

/** Typed ahead of a prompt (or pasted with both answers at once): kept for the next prompt. */
let typedAhead = "";

/** Reads a line from the terminal without showing what is typed. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write("\n");
    };
    const onData = (chunk: string) => {
      const chars = [...typedAhead + chunk];
      typedAhead = "";
      for (const [index, char] of chars.entries()) {
        if (char === "\r" || char === "\n") {
          typedAhead = chars.slice(index + 1).join("").replace(/^\n/, "");
          finish();
          resolve(value);
          return;
        }
        if (char === "\u0003" || char === "\u0004") {
          // Ctrl-C, Ctrl-D
          finish();
          reject(new CliError("Cancelled; nothing was changed."));
          return;
        }
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else if (char >= " ") value += char;
      }
    };
    process.stdout.write(question);
    stdin.setEncoding("utf8");
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
    if (typedAhead) onData("");
  });
}

async function askPassword(): Promise<string> {
  const first = await promptHidden("New admin password: ");
  checkPassword(first);
  const second = await promptHidden("Type it again: ");
  if (first !== second) throw new CliError("The two passwords are different; nothing was changed.");
  return first;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "-h" || args[0] === "--help") {
    console.log(USAGE);
    return;
  }
  if (args.length > 1) throw new CliError(`Give the password as one argument (quote it if it has spaces).\n${USAGE}`);
  const given = args[0];
  if (given !== undefined) checkPassword(given);
  else if (!process.stdin.isTTY) throw new CliError(`No password given and no terminal to ask one from.\n${USAGE}`);

  // Opened before asking, so a running server (which holds the PGlite folder) is reported at once.
  const { config, database } = await openConfiguredDatabase();
  try {
    const password = given ?? (await askPassword());
    await setOwnerPassword(database.db, password);
  } finally {
    await database.close();
  }
  console.log("The admin password was changed. Every open session was ended: log in again with the new password.");
  if (config.adminPassword) {
    console.log(
      "Note: ADMIN_PASSWORD is set in the environment, and the server puts that password back when it starts. " +
        "Remove it (or change it too) to keep this one.",
    );
  }
}

runScript(main);
