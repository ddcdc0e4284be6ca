import cookie from "@fastify/cookie";
import etag from "@fastify/etag";
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { RequestLineLogController } from "../logging";
import type { AppDeps, Routes } from "./deps";
import { registerAddressWithholding } from "./address-withholding";
import { registerAuditLog } from "./audit";
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from "./errors";
import { registerSecurityHeaders } from "./headers";
import { registerInputGuard } from "./input-guard";
import { openApiRoutes, registerOpenApi } from "./openapi";
import { auditLogRoutes } from "./routes/audit-log";
import { authRoutes } from "./routes/auth";
import { botSettingsRoutes } from "./routes/bot-settings";
import { botStatusRoutes } from "./routes/bot-status";
import { broadcastRoutes } from "./routes/broadcasts";
import { categoryRoutes } from "./routes/categories";
import { couponRoutes } from "./routes/coupons";
import { customerRoutes } from "./routes/customers";
import { eventRoutes } from "./routes/events";
import { healthRoutes } from "./routes/health";
import { messageRoutes } from "./routes/messages";
import { orderExportRoutes } from "./routes/orders-export";
import { orderRoutes } from "./routes/orders";
import { ownerAlertRoutes } from "./routes/owner-alerts";
import { privacyRoutes } from "./routes/privacy";
import { privateAddressRoutes } from "./routes/private-addresses";
import { paymentWebhookRoutes } from "./routes/payments-webhook";
import { paymentGatewayRoutes } from "./routes/payment-gateways";
import { postageRoutes } from "./routes/postage";
import { productRoutes } from "./routes/products";
import { sessionRoutes } from "./routes/sessions";
import { simulatorRoutes } from "./routes/simulator";
import { staffRoutes } from "./routes/staff";
import { statsRoutes } from "./routes/stats";
import { storefrontRoutes } from "./routes/storefront";
import { telegramWebhookRoutes } from "./routes/telegram-webhook";
import { twoFactorRoutes } from "./routes/two-factor";
import { uploadRoutes } from "./routes/uploads";
import { registerSecurity, SAFE_METHODS } from "./security";
import { registerStorefrontLimits, type StorefrontBudgets } from "./storefront-limits";

export type BuildAppOptions = {
  logger?: FastifyServerOptions["logger"];
  /** A ready pino logger (server/logging.ts); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Extra route groups (payments webhook, Telegram webhook, the web app). */
  extraRoutes?: Routes[];
  /** The storefront's budgets of calls (storefront-limits.ts); tests give small ones, or large where they flood on purpose. */
  storefrontBudgets?: StorefrontBudgets;
};

const API_ROUTES: Routes[] = [
  healthRoutes,
  authRoutes,
  twoFactorRoutes,
  staffRoutes,
  sessionRoutes,
  botSettingsRoutes,
  paymentGatewayRoutes,
  botStatusRoutes,
  simulatorRoutes,
  categoryRoutes,
  productRoutes,
  postageRoutes,
  couponRoutes,
  orderRoutes,
  orderExportRoutes,
  messageRoutes,
  customerRoutes,
  broadcastRoutes,
  ownerAlertRoutes,
  privacyRoutes,
  privateAddressRoutes,
  auditLogRoutes,
  statsRoutes,
  eventRoutes,
  uploadRoutes,
  storefrontRoutes,
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
    // Proxy headers are believed only from the proxies TRUST_PROXY names (docs/product.md rule 9).
    trustProxy: trustProxyOption(deps.config.trustProxy),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before any route: it documents the routes registered after it (GET /api/openapi.json).
  await registerOpenApi(app);
  await app.register(cookie);
  // An ETag on every answer, and 304 Not Modified when the client already has it (the catalogue lists
  // the dashboard reloads and re-reads, issue 12). Before compression: the tag is of the JSON itself.
  await app.register(etag);
  // JSON answers compressed when the client accepts it (issue 12); bodies under 1 kB and images stay
  // as they are. Request bodies are never inflated: nothing sends them compressed, and inflating would
  // let a small upload grow past the body limit.
  await app.register(import("@fastify/compress"), { globalDecompression: false });
  registerSecurityHeaders(app, deps.config.publicUrl);
  registerErrorHandling(app);
  // Before the routes (it puts each storefront route's budget on it) and the access hook (which
  // counts the failed sign-ins with it).
  const signInFailures = await registerStorefrontLimits(app, options.storefrontBudgets);
  registerSecurity(app, deps, signInFailures);
  // After the access hook has named the account: a role without "orders.addresses" gets orders without them.
  registerAddressWithholding(app);
  registerInputGuard(app);
  // Before the routes: the admin's writes and the logins are recorded (issue 13, item 6).
  registerAuditLog(app, deps);
  // What the admin saves, their next read shows: an admin's write drops this instance's read cache
  // before its answer goes out, without waiting for the database's change notice (shop/catalogue/read-cache.ts).
  app.addHook("onSend", async (request, _reply, payload) => {
    if (!SAFE_METHODS.has(request.method) && (request.routeOptions.config.access ?? "admin") === "admin") deps.cache.forget();
    return payload;
  });
  for (const routes of [...API_ROUTES, ...(options.extraRoutes ?? [])]) {
    await routes(app, deps);
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
