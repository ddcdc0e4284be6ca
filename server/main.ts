import { ensureAdminPassword } from "./auth/admin";
import { ConfigError, loadConfig, loadEnvFile } from "./config";
import { DatabaseLockedError, openDatabase } from "./db/client";
import { buildApp } from "./http/app";
import { createLogger } from "./logging";
import { webRoutes } from "./http/web";
import { createAppDeps } from "./services";
import { startPaymentJobs } from "./payments/jobs";
import { createBotRunner } from "./telegram/runner";

// Wiring only: config -> database -> services -> HTTP (+ bot, payment jobs) -> graceful shutdown.
async function main() {
  loadEnvFile();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { db } = database;

  const { generatedPassword } = await ensureAdminPassword(db, config.adminPassword);
  if (generatedPassword) {
    console.log(
      [
        "",
        "  ==============================================================",
        "  No ADMIN_PASSWORD was set, so one was generated for you.",
        `  Admin password: ${generatedPassword}`,
        "  It is shown only this once; change it with `npm run admin:password`.",
        "  ==============================================================",
        "",
      ].join("\n"),
    );
  }

  const deps = createAppDeps(config, db);

  const app = await buildApp(deps, {
    // Secrets never reach the log: redacted fields, and any bot token scrubbed from every line (logging.ts).
    loggerInstance: createLogger({ level: config.logLevel }),
    extraRoutes: [webRoutes],
  });

  const stopHooks: (() => Promise<void> | void)[] = [];
  // Rescue sweep + expired-order cleanup, every few minutes and once now.
  const paymentJobs = startPaymentJobs({ ...deps, logger: app.log });
  stopHooks.push(() => paymentJobs.stop());
  // The Telegram bot: by webhook when PUBLIC_URL is https, else long polling; off without a token.
  // Saving Bot Settings rebuilds it with the new token and texts.
  const bot = createBotRunner(deps, { log: app.log });
  deps.bot = bot;
  (deps.hooks ??= {}).onSettingsSaved = () => bot.reload();
  stopHooks.push(() => bot.stop());

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    for (const stop of stopHooks) await stop();
    await app.close(); // finishes requests in flight
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ host: config.host, port: config.port });
  await bot.start(); // after listen: Telegram may call the webhook as soon as it is set
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error("The server could not start:", error);
  }
  process.exit(1);
});
