import type { Config } from "./config";
import { createSecretBox, loadSecretKey } from "./crypto";
import type { Db } from "./db/client";
import type { AppDeps } from "./http/deps";
import { getBotSettings } from "./shop/settings";
import { storageFor } from "./storage/configured";
import { createTelegramNotifier } from "./telegram/notifier";

/** The real services for a configuration and an open database: what main.ts (and the e2e server) run on. */
export function createAppDeps(config: Config, db: Db): AppDeps {
  const secrets = createSecretBox(loadSecretKey(config.secretKey, config.dataDir));
  return {
    db,
    config,
    secrets,
    storage: storageFor(config),
    notifier: createTelegramNotifier({
      apiRoot: config.telegramApiRoot,
      getToken: async () => (await getBotSettings(db, secrets))?.botToken,
    }),
    now: () => new Date(),
    hooks: {},
  };
}
