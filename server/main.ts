import fs from "node:fs";
import path from "node:path";
import { ensureOwnerAccount } from "./shop/team";
import { ConfigError, loadConfig, loadEnvFile } from "./config";
import { loadSecretKey } from "./crypto";
import { DatabaseLockedError, openDatabase } from "./db/client";
import { createLocks } from "./db/leader";
import { buildApp } from "./http/app";
import { backgroundJobs, createJobRunner } from "./jobs";
import { addressToOpen, createLogger } from "./logging";
import { webRoutes } from "./http/web";
import { createServices } from "./services";
import { encryptExistingData, requireMatchingKey, WrongSecretKeyError } from "./shop/privacy";

// Wiring only: config -> database -> services -> HTTP (+ the background jobs, jobs.ts) -> graceful shutdown.
async function main() {
  loadEnvFile();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { db } = database;

  // A master key that does not open this shop's data stops the start here, before anything runs or is
  // written (shop/privacy/key-check.ts; docs/SECURITY.md "The secret key"). A secret.key this start generated
  // is removed again: it cannot be the right one, and the right one is to be copied in its place.
  const keyFile = path.join(config.dataDir, "secret.key");
  const keyFileExisted = Boolean(config.secretKey) || fs.existsSync(keyFile);
  try {
    await requireMatchingKey(db, loadSecretKey(config.secretKey, config.dataDir));
  } catch (error) {
    if (error instanceof WrongSecretKeyError && !keyFileExisted) fs.rmSync(keyFile, { force: true });
    await database.close();
    throw error;
  }

  const { generatedPassword } = await ensureOwnerAccount(db, config.adminPassword);
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

  // Secrets never reach the log: redacted fields, and any bot token scrubbed from every line (logging.ts).
  const log = createLogger({ level: config.logLevel });
  // Several instances may share one PostgreSQL: advisory locks keep one payment-jobs run at a time
  // (once per interval in all) and one long-polling bot (docs/decisions/0010).
  const locks = createLocks({ databaseUrl: config.databaseUrl, log });
  const services = createServices(config, database, { log, locks });
  // What an earlier version stored in clear (addresses, messages) is encrypted before anything reads it.
  const encrypted = await encryptExistingData(db);
  if (encrypted.addresses + encrypted.messages + encrypted.drafts > 0) {
    log.info({ ...encrypted }, "encrypted what an earlier version had stored in clear");
  }
  const app = await buildApp(services, { loggerInstance: log, extraRoutes: [webRoutes] });

  // The background work (jobs.ts): payment jobs, database upkeep, the broadcast and owner-alert
  // senders, then, once the server listens, the Telegram bot.
  const jobs = createJobRunner(backgroundJobs(services, { database, locks, log }));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    await jobs.stop(); // in reverse order, each after the work in hand is recorded
    await app.close(); // finishes requests in flight
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await jobs.start("beforeListen");
  await listen(app, config);
  await jobs.start("afterListen"); // the bot: Telegram may call the webhook as soon as it is set
}

/**
 * Listens, then says once where a person opens the app ("Open http://localhost:5000"). Fastify's own
 * "Server listening at <address>" (one line per network interface, e.g. http://192.0.2.2:5000 on
 * 0.0.0.0) is kept out by raising the level for the moment of listening: Fastify always logs it at info.
 */
async function listen(app: Awaited<ReturnType<typeof buildApp>>, config: ReturnType<typeof loadConfig>) {
  const level = app.log.level;
  if (["trace", "debug", "info"].includes(level)) app.log.level = "warn";
  try {
    await app.listen({ host: config.host, port: config.port });
  } finally {
    app.log.level = level;
  }
  const address = app.server.address();
  // The real port: PORT=0 asks the system for a free one.
  const port = address && typeof address === "object" ? address.port : config.port;
  app.log.info(`Open ${addressToOpen(config.host, port, config.publicUrl)}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError || error instanceof WrongSecretKeyError) {
    console.error(error.message);
  } else {
    console.error("The server could not start:", error);
  }
  process.exit(1);
});
