import { ensureAdminPassword } from "../../server/auth/admin";
import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db/client";
import { buildApp } from "../../server/http/app";
import { webRoutes } from "../../server/http/web";
import { createServices } from "../../server/services";
import { seedRoutes } from "./seed-routes";

// The server the browser tests drive, one per Playwright worker (e2e/support/fixtures.ts starts it
// as a child process): the real app and API as server/main.ts wires them, on the DATA_DIR,
// ADMIN_PASSWORD and TELEGRAM_API_ROOT it is given (PGlite in that folder), plus the test-only
// seed routes. Not wired: the long-polling bot runner and the payment jobs (their own tests cover
// them), so nothing here calls out except the notifier, to the fake Telegram.
// Prints one line "E2E_SERVER_READY <url>" once it listens.

const config = loadConfig();
const database = await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir });
const { db } = database;
await ensureAdminPassword(db, config.adminPassword);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
// The bot is built but never started: saving Bot Settings here rebuilds nothing (runner.ts settingsSaved).
const services = createServices(config, database, { log: quiet });
const app = await buildApp(services, { logger: false, extraRoutes: [webRoutes, seedRoutes] });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await app.close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());

await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
if (!address || typeof address === "string") throw new Error("the e2e server did not get a port");
console.log(`E2E_SERVER_READY http://127.0.0.1:${address.port}`);
