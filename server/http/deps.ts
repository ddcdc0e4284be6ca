import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Services } from "../services";

/**
 * What the HTTP layer needs of the server's services (server/services.ts); tests pass fakes.
 * Without a bot (tests, a server that runs none), webhook updates are refused and saving Bot
 * Settings rebuilds nothing.
 */
export type AppDeps = Omit<Services, "bot"> & { bot?: Pick<Services["bot"], "webhookSecret" | "handleUpdate" | "botInfo" | "settingsSaved"> };

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A group of routes: registers itself on the app with the deps it needs. */
export type Routes = (app: ZodApp, deps: AppDeps) => void | Promise<void>;
