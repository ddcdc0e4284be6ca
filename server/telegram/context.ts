import type { FastifyBaseLogger } from "fastify";
import type { Context } from "grammy";
import type { BotSettings, Language } from "../../contract";
import type { Config } from "../config";
import type { SecretBox } from "../crypto";
import type { Db } from "../db/client";
import type { PaymentGateway } from "../shop/payments";
import type { ConversationState } from "../shop/customers";
import type { StartRecord } from "./inbox";
import type { CustomerNotifier } from "../shop/common";
import type { CachedReads, ReadCache } from "../shop/catalogue";
import type { ObjectStorage } from "../storage";
import type { StoredLanguage, TextVariables, Translator } from "../shop/languages";

export type BotLogger = Pick<FastifyBaseLogger, "info" | "warn" | "error">;

/**
 * What the bot needs of the server's services (server/services.ts builds them once); the bot
 * declares it here rather than importing the server's wiring, so telegram/ depends on no adapter.
 */
export type BotDeps = {
  db: Db;
  config: Pick<Config, "publicUrl" | "telegramApiRoot" | "timeZone">;
  secrets: SecretBox;
  storage: ObjectStorage;
  gateway: PaymentGateway;
  notifier: CustomerNotifier;
  /** What the bot reads on every update, kept in memory until the database says it changed. */
  cache: ReadCache;
  /** The clock; tests fix it. */
  now: () => Date;
};

/** grammY's context plus the shop: who the customer is, where they are in a conversation. */
export type BotContext = Context & {
  deps: BotDeps;
  /** The settings as saved now (read per update, so a second server instance sees a save too). */
  settings: BotSettings;
  /** The settings, categories and active products through the cache (shop/catalogue/read-cache.ts). */
  reads: CachedReads;
  log: BotLogger;
  /** The customer's Telegram user id as text, as the shop stores it. */
  customerId: string;
  conversation: ConversationState;
  /** The customer's broadcast record when the inbox read it with the update (null: none); undefined when not read. */
  startRecord?: StartRecord | null;
  /** The language the bot speaks to this customer (shop/languages), and its texts and formats. */
  language: Language;
  tr: Translator;
  /** A text of the locale files (server/telegram/locales) in the customer's language. */
  t(key: string, variables?: TextVariables): string;
  /** What is stored of the customer's language (null: nothing yet). */
  storedLanguage: StoredLanguage | null;
  /** Speak another language from now on in this update (after /language). */
  useLanguage(language: Language): void;
  /** Stores the customer's next step in the database before anything is shown. */
  setConversation(state: ConversationState): Promise<void>;
};
