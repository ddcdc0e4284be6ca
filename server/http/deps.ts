import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "../config";
import type { SecretBox } from "../crypto";
import type { Db } from "../db/client";
import type { PaymentGateway } from "../payments/gateway";
import type { ObjectStorage } from "../storage";
import type { Notifier } from "../telegram/notifier";
import type { BotRuntime } from "../telegram/runner";

/** Everything the HTTP layer needs, passed in (tests pass fakes). */
export type AppDeps = {
  db: Db;
  config: Config;
  secrets: SecretBox;
  storage: ObjectStorage;
  notifier: Notifier;
  /** The clock; tests fix it. */
  now: () => Date;
  /** The payment gateway; absent means NOWPayments at config.nowpaymentsApiUrl with the key from Bot Settings. */
  gateway?: PaymentGateway;
  /** The running Telegram bot (server/telegram/runner.ts); absent: webhook updates are refused. */
  bot?: BotRuntime;
  /** Extra wiring that later parts (payments, the bot) plug in. */
  hooks?: AppHooks;
};

export type AppHooks = {
  /** Called after bot settings are saved, so the bot can be rebuilt. */
  onSettingsSaved?: () => void | Promise<void>;
};

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A group of routes: registers itself on the app with the deps it needs. */
export type Routes = (app: ZodApp, deps: AppDeps) => void | Promise<void>;
