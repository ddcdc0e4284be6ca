import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db/client";
import { buildApp } from "../../server/http/app";
import { webRoutes } from "../../server/http/web";
import { createJobRunner, senderJobs } from "../../server/jobs";
import { createServices } from "../../server/services";
import { setTestAdminPassword } from "../../test-support/admin-password";
import { seedRoutes } from "./seed-routes";

// The server the browser tests drive, one per Playwright worker (e2e/support/fixtures.ts starts it
// as a child process): the real app and API as server/main.ts wires them, on the DATA_DIR,
// ADMIN_PASSWORD and TELEGRAM_API_ROOT it is given (PGlite in that folder), plus the test-only
// seed routes. Of the background jobs (server/jobs.ts), only the broadcast and owner-alert senders
// run; not the bot runner, the payment jobs or the database upkeep (their own tests cover them), so
// nothing here calls out except the notifier and the senders, to the fake Telegram.
// Prints one line "E2E_SERVER_READY <url>" once it listens.

const config = loadConfig();
const database = await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir });
const { db } = database;
// Hashed at the tests' lower cost (test-support/admin-password.ts): every test logs in once or twice.
if (!config.adminPassword) throw new Error("the e2e server needs ADMIN_PASSWORD");
await setTestAdminPassword(db, config.adminPassword);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
// The bot is built but never started: saving Bot Settings here rebuilds nothing (runner.ts settingsSaved).
const services = createServices(config, database, { log: quiet });
const app = await buildApp(services, { logger: false, extraRoutes: [webRoutes, seedRoutes] });
const jobs = createJobRunner(senderJobs(services));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await jobs.stop();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());

await jobs.start("beforeListen");
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
if (!address || typeof address === "string") throw new Error("the e2e server did not get a port");
console.log(`E2E_SERVER_READY http://127.0.0.1:${address.port}`);
