import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  StorefrontCatalogueSchema,
  StorefrontCheckoutSchema,
  StorefrontMessageInputSchema,
  StorefrontMessageListSchema,
  StorefrontMessageSchema,
  StorefrontOrderInputSchema,
  StorefrontOrderListSchema,
  StorefrontOrderSchema,
  StorefrontQuoteInputSchema,
  StorefrontQuoteSchema,
} from "../../../contract";
import { cachedReads } from "../../shop/catalogue";
import {
  getStorefrontOrder,
  listStorefrontOrders,
  placeStorefrontOrder,
  quoteStorefrontOrder,
  sendStorefrontMessage,
  storefrontCatalogue,
  storefrontThread,
} from "../../shop/storefront";
import type { Routes } from "../deps";
import { STOREFRONT_ERROR_ANSWERS } from "../openapi";
import { storefront } from "../security";

// The storefront's API (issue 27; docs/decisions/0039-mini-app-storefront.md): what the Telegram Mini
// App (web/storefront/) calls, as the customer its init data names (security.ts, storefront-auth.ts).
// Thin: the rules are the bot's own, in server/shop/storefront/ and the folders under it.

const IdParams = z.object({ id: z.string() });

/** The customer and their language, as the access hook set them on every "storefront" route. */
function caller(request: FastifyRequest) {
  if (!request.storefrontCustomer || !request.storefrontLanguage) throw new Error(`${request.method} ${request.url} has no storefront customer: is the route "storefront"?`);
  return { customer: request.storefrontCustomer, language: request.storefrontLanguage };
}

export const storefrontRoutes: Routes = (app, deps) => {
  const reads = cachedReads(deps);

  app.get("/api/storefront/catalogue", { ...storefront("reads"), schema: { response: { 200: StorefrontCatalogueSchema, ...STOREFRONT_ERROR_ANSWERS } } }, async (request) =>
    storefrontCatalogue(deps, await reads.settings(), caller(request).language),
  );

  app.post(
    "/api/storefront/quote",
    { ...storefront("quote"), schema: { body: StorefrontQuoteInputSchema, response: { 200: StorefrontQuoteSchema, ...STOREFRONT_ERROR_ANSWERS } } },
    async (request) => {
      const { customer, language } = caller(request);
      return quoteStorefrontOrder(deps, customer, request.body, language);
    },
  );

  app.post(
    "/api/storefront/orders",
    { ...storefront("orders"), schema: { body: StorefrontOrderInputSchema, response: { 201: StorefrontCheckoutSchema, ...STOREFRONT_ERROR_ANSWERS } } },
    async (request, reply) => {
      const { customer, language } = caller(request);
      return reply.code(201).send(await placeStorefrontOrder({ ...deps, logger: request.log }, customer, request.body, language));
    },
  );

  app.get("/api/storefront/orders", { ...storefront("reads"), schema: { response: { 200: StorefrontOrderListSchema, ...STOREFRONT_ERROR_ANSWERS } } }, async (request) => {
    const { customer, language } = caller(request);
    return { orders: await listStorefrontOrders(deps.db, customer.telegramUserId, language) };
  });

  app.get(
    "/api/storefront/orders/:id",
    { ...storefront("reads"), schema: { params: IdParams, response: { 200: StorefrontOrderSchema, ...STOREFRONT_ERROR_ANSWERS } } },
    async (request) => {
      const { customer, language } = caller(request);
      return getStorefrontOrder(deps.db, customer.telegramUserId, request.params.id, language);
    },
  );

  app.get("/api/storefront/messages", { ...storefront("reads"), schema: { response: { 200: StorefrontMessageListSchema, ...STOREFRONT_ERROR_ANSWERS } } }, async (request) => ({
    messages: await storefrontThread(deps.db, caller(request).customer.telegramUserId),
  }));

  app.post(
    "/api/storefront/messages",
    { ...storefront("messages"), schema: { body: StorefrontMessageInputSchema, response: { 201: StorefrontMessageSchema, ...STOREFRONT_ERROR_ANSWERS } } },
    async (request, reply) => reply.code(201).send(await sendStorefrontMessage(deps.db, caller(request).customer, request.body, deps.now())),
  );
};
