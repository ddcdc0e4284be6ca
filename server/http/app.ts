import cookie from "@fastify/cookie";
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { RequestLineLogController } from "../logging";
import type { AppDeps, Routes } from "./deps";
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from "./errors";
import { registerSecurityHeaders } from "./headers";
import { registerInputGuard } from "./input-guard";
import { openApiRoutes, registerOpenApi } from "./openapi";
import { authRoutes } from "./routes/auth";
import { botSettingsRoutes } from "./routes/bot-settings";
import { categoryRoutes } from "./routes/categories";
import { healthRoutes } from "./routes/health";
import { messageRoutes } from "./routes/messages";
import { orderRoutes } from "./routes/orders";
import { paymentWebhookRoutes } from "./routes/payments-webhook";
import { postageRoutes } from "./routes/postage";
import { productRoutes } from "./routes/products";
import { statsRoutes } from "./routes/stats";
import { telegramWebhookRoutes } from "./routes/telegram-webhook";
import { uploadRoutes } from "./routes/uploads";
import { registerSecurity } from "./security";

export type BuildAppOptions = {
  logger?: FastifyServerOptions["logger"];
  /** A ready pino logger (server/logging.ts); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Extra route groups (payments webhook, Telegram webhook, the web app). */
  extraRoutes?: Routes[];
};

const API_ROUTES: Routes[] = [
  healthRoutes,
  authRoutes,
  botSettingsRoutes,
  categoryRoutes,
  productRoutes,
  postageRoutes,
  orderRoutes,
  messageRoutes,
  statsRoutes,
  uploadRoutes,
  paymentWebhookRoutes,
  telegramWebhookRoutes,
  openApiRoutes,
];

/** A hop count becomes "believe the nearest N proxies"; Fastify's types only take the function form of it. */
function trustProxyOption(setting: AppDeps["config"]["trustProxy"]) {
  return typeof setting === "number" ? (_address: string, hop: number) => hop < setting : setting;
}

/** The HTTP app, without listening. No side effects beyond what deps do. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? false }),
    // One line per request ("GET /api/orders 200 4.2ms") instead of Fastify's two (server/logging.ts).
    logController: new RequestLineLogController(),
    // Proxy headers are believed only from the proxies TRUST_PROXY names (DESIGN decision 9).
    trustProxy: trustProxyOption(deps.config.trustProxy),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before any route: it documents the routes registered after it (GET /api/openapi.json).
  await registerOpenApi(app);
  await app.register(cookie);
  await registerSecurityHeaders(app, deps.config.publicUrl);
  registerErrorHandling(app);
  registerSecurity(app, deps);
  registerInputGuard(app);
  for (const routes of [...API_ROUTES, ...(options.extraRoutes ?? [])]) {
    await routes(app, deps);
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
