import cookie from "@fastify/cookie";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppDeps, Routes } from "./deps";
import { registerErrorHandling } from "./errors";
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
];

/** The HTTP app, without listening. No side effects beyond what deps do. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? false,
    // Behind a proxy (PUBLIC_URL set) the client address and protocol come from its headers.
    trustProxy: Boolean(deps.config.publicUrl),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(cookie);
  registerErrorHandling(app);
  registerSecurity(app, deps);
  for (const routes of [...API_ROUTES, ...(options.extraRoutes ?? [])]) {
    await routes(app, deps);
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
