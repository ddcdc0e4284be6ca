import type { Config } from "./config";
import { createSecretBox, loadSecretKey, type SecretBox } from "./crypto";
import type { Database, Db } from "./db/client";
import type { Locks } from "./db/leader";
import type { PaymentGateway } from "./shop/payments";
import { createNowPaymentsGatewayFromSettings } from "./gateways/nowpayments/client";
import { createBtcpayGatewayFromSettings } from "./gateways/btcpay/client";
import { createCoinRouterFromSettings } from "./gateways/coin-router";
import type { CustomerNotifier } from "./shop/common";
import { createReadCache, type ChangeFeed, type ReadCache } from "./shop/catalogue";
import { getBotSettings } from "./shop/settings";
import { createDispatchNoticeSender, type DispatchNoticeSender } from "./shop/orders";
import { recordMessageToTestCustomer } from "./shop/simulator";
import { useMasterKey } from "./shop/vaults";
import type { ObjectStorage } from "./storage";
import { storageFor } from "./storage/configured";
import type { BotLogger } from "./telegram/context";
import { createTelegramNotifier } from "./telegram/notifier";
import { createBotRunner, type BotRuntime } from "./telegram/runner";
import { createBroadcastSender, type BroadcastSender } from "./telegram/broadcast-sender";
import { createOwnerAlertSender, type OwnerAlertSender } from "./telegram/owner-alert-sender";

// The composition root (docs/decisions/0011-layers.md): every service the server runs on is built
// here, once, from the configuration and the open database. The adapters (http/, telegram/,
// payments/ jobs) each declare the slice they need and are handed this object; nothing is patched
// in afterwards, and nothing here starts anything (main.ts starts the background jobs, jobs.ts).

export type Services = {
  db: Db;
  config: Config;
  /** The clock; tests fix it. */
  now: () => Date;
  /** Encrypts secrets at rest (bot token, gateway keys). */
  secrets: SecretBox;
  /** Product images: local disk, or S3 when S3_BUCKET is set. */
  storage: ObjectStorage;
  /**
   * The payment gateways behind one port: each coin's payment goes to the gateway chosen for it
   * (NOWPayments, keys in Bot Settings; or the owner's BTCPay Server), gateways/coin-router.ts. One for the whole server.
   */
  gateway: PaymentGateway;
  /** Customer messages by Telegram, with the token saved in Bot Settings. */
  notifier: CustomerNotifier;
  /** The bot's hot reads (settings, categories, active products), dropped as the database changes. */
  cache: ReadCache;
  /** The database's change notices (db/client.ts watchChanges): the live dashboard's events follow them. */
  changes: ChangeFeed;
  /** The Telegram bot: built here, started after the server listens (jobs.ts). */
  bot: BotRuntime;
  /**
   * Sends the broadcast queue (issue 14). Built here, started with the background jobs (jobs.ts);
   * the broadcast routes kick it. Optional: test servers that send no broadcasts run none.
   */
  broadcasts?: BroadcastSender;
  /**
   * Sends the owner alerts' outbox (issue 14, item 5). Started with the background jobs (jobs.ts).
   * Optional: test servers that send no alerts run none.
   */
  ownerAlerts?: OwnerAlertSender;
  /**
   * Sends each customer's dispatch message once the dispatch can no longer be undone (issue 22).
   * Started with the background jobs (jobs.ts). Optional: test servers that hold none run none.
   */
  dispatchNotices?: DispatchNoticeSender;
};

export type ServicesOptions = {
  log: BotLogger;
  /** Cross-instance locks on PostgreSQL (db/leader.ts): long polling runs on one instance at a time. */
  locks?: Pick<Locks, "acquire">;
};

export function createServices(config: Config, database: Pick<Database, "db" | "watchChanges">, options: ServicesOptions): Services {
  const { db } = database;
  const masterKey = loadSecretKey(config.secretKey, config.dataDir);
  // A stored secret that does not decrypt is logged with its field and reason (never its value).
  const secrets = createSecretBox(masterKey, { log: options.log });
  // The same key wraps the data keys that encrypt what customers typed (shop/vaults/vault.ts).
  useMasterKey(masterKey);
  const core = {
    db,
    config,
    now: () => new Date(),
    secrets,
    storage: storageFor(config),
    gateway: createCoinRouterFromSettings({
      db,
      secrets,
      gateways: {
        nowpayments: createNowPaymentsGatewayFromSettings({ db, secrets, config }),
        btcpay: createBtcpayGatewayFromSettings({ db, secrets }),
      },
    }),
    notifier: createTelegramNotifier({
      apiRoot: config.telegramApiRoot,
      getToken: async () => (await getBotSettings(db, secrets))?.botToken,
      toTestCustomer: (text) => recordMessageToTestCustomer(db, text, new Date()),
    }),
    cache: createReadCache(database, options.log),
    changes: database,
  };
  const bot = createBotRunner(core, {
    log: options.log,
    pollingLeader: options.locks,
    // PGlite's folder is locked to this one process (db/client.ts); PostgreSQL may serve several.
    soleInstance: !config.databaseUrl,
  });
  const broadcasts = createBroadcastSender(core, { log: options.log, soleInstance: !config.databaseUrl });
  const ownerAlerts = createOwnerAlertSender(core, { log: options.log, soleInstance: !config.databaseUrl });
  const dispatchNotices = createDispatchNoticeSender({ ...core, logger: options.log });
  return { ...core, bot, broadcasts, ownerAlerts, dispatchNotices };
}
