import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { createJsonSchemaTransformObject, jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiErrorSchema } from "../../contract";
import type { Permission } from "../../contract/team";
import type { Routes } from "./deps";
import { may, mayInScope } from "./security";

// The API reference (issue 11, item 4): an OpenAPI 3.1 document generated from the zod schemas the
// routes declare (contract/), served at GET /api/openapi.json and rendered at /api/docs. Both need
// the "insights" permission (API_DOCS_PERMISSION); the rendered page runs under the app's own CSP
// (swagger-ui's page loads its scripts, its initialiser included, as files from here).

export const OPENAPI_PATH = "/api/openapi.json";
export const DOCS_PREFIX = "/api/docs";

/**
 * Who may read the API reference. No permission names it (contract/team.ts); it is for whoever runs
 * the shop and builds on it: the owner and the manager. "insights" is the permission those two have
 * and the narrow roles (packer, support) have not, and, like the reference, it only reads: the
 * document holds no data, yet it maps every call a stolen packer's session could then try.
 */
export const API_DOCS_PERMISSION = "insights" satisfies Permission;

/** The error answers every route may give (docs/product.md rule 8), declared beside each route's success answer. */
export const ERROR_ANSWERS = { "4xx": ApiErrorSchema, "5xx": ApiErrorSchema } as const;

/**
 * The error answers of a storefront call (issue 27): those of every route, and 429 when its customer
 * made too many calls of its kind, or its address failed too many sign-ins (storefront-limits.ts).
 */
export const STOREFRONT_ERROR_ANSWERS = {
  429: ApiErrorSchema.meta({
    description: "Too many calls: `error` says so in the customer's language; try again after Retry-After",
    headers: {
      "Retry-After": { type: "integer", minimum: 1, description: "How many seconds until the call is allowed again" },
    },
  }),
  ...ERROR_ANSWERS,
} as const;

/**
 * The headers a paged list answers with (issue 12, docs/decisions/0013), declared on its 200 answer.
 * @fastify/swagger lifts a response schema's `headers` into the OpenAPI response's headers; the zod
 * metadata below is how the schema carries them (it changes nothing the route checks or sends).
 */
export const PAGING_HEADERS = {
  "X-Total-Count": {
    type: "integer",
    minimum: 0,
    description: "With limit: how many rows match the filters, on every page (the page holds at most limit of them)",
  },
  Link: {
    type: "string",
    description:
      'With limit, unless this is the last page: the next page\'s URL, `</api/...&cursor=...>; rel="next"` (RFC 8288); ' +
      "the same filters, sort and limit, with the cursor after this page's last row",
  },
} as const;

/** A list answer that is one page when the call gives `limit`: the rows, plus the paging headers. */
export function pagedList<T extends z.ZodType>(item: T) {
  return z.array(item).meta({ headers: PAGING_HEADERS });
}

/**
 * A schema for the document only: it accepts anything, so the route's own checks (a webhook's
 * signature before its body, the route's own sentences) keep deciding, and shows `jsonSchema`.
 */
export function documentedOnly(jsonSchema: Record<string, unknown>) {
  return z.unknown().meta(jsonSchema);
}

const SESSION_SCHEME = "adminSession";
/** The storefront's calls (issue 27): Telegram's signed init data instead of a session. */
export const STOREFRONT_SCHEME = "telegramInitData";

/**
 * One line per operation for the rendered reference (docs/product.md §7's "answer / use"). A route added
 * without one fails server/http/openapi.test.ts, so the reference never lists a bare path.
 */
const SUMMARIES: Record<string, string> = {
  "GET /api/health": "Whether the server and its database answer",
  "POST /api/auth/login": "Sign in (the owner with the password alone, staff with their username) and the two-factor code when it is on; sets the session cookie",
  "GET /api/auth/status": "Whether this browser has an admin session (401 with authenticated: false if not)",
  "POST /api/auth/logout": "End the session",
  "GET /api/auth/totp": "Whether two-factor sign-in is on for the signed-in account, and how many recovery codes are left",
  "POST /api/auth/totp/setup": "Start setting up two-factor sign-in: a new secret and its otpauth:// link (a pending setup is replaced)",
  "POST /api/auth/totp/verify": "Turn two-factor sign-in on with a code from the app; answers the ten recovery codes, once",
  "POST /api/auth/totp/disable": "Turn two-factor sign-in off with a code or a recovery code",
  "GET /api/auth/step-up": "Whether this session may do a sensitive action now (403 with stepUpRequired if it needs a fresh code first)",
  "POST /api/auth/step-up": "Confirm a fresh two-factor code: sensitive actions pass for the next 5 minutes",
  "GET /api/team-settings": "The team's rules: whether staff must use two-factor sign-in",
  "PUT /api/team-settings": "Require two-factor sign-in of every staff account, or not",
  "GET /api/staff": "Every account (the owner first): role, status (invited, active, disabled), two-factor, last seen",
  "POST /api/staff": "Invite staff: a new account and its one-time link (inviteUrl, valid 48 hours); 409 when the username is taken in any case",
  "POST /api/staff/{id}/invite": "A new invite link for an account that has not set its password; earlier links stop working",
  "PATCH /api/staff/{id}": "Change a staff account's role or disable it (either ends its sessions at once); not the owner's",
  "DELETE /api/staff/{id}": "Delete a staff account and its sessions (the activity log keeps its username); not the owner's",
  "GET /api/staff/invites/{token}": "Who an invite link is for (open to anyone holding it, throttled); 410 once used, replaced or expired",
  "POST /api/staff/invites/{token}": "Set the invited account's password from its link, once (at least 12 characters, not a common password); 410 once used or expired",
  "GET /api/sessions": "This account's open sessions (device, address, last seen, current); ?accountId= another account's, for the owner",
  "DELETE /api/sessions/{id}": "End one session: your own, or any account's for the owner (404 for one you cannot see)",
  "DELETE /api/sessions": "End every session of this account but this one",
  "GET /api/bot-settings": "The single bot settings record, secrets masked; null before the first save",
  "POST /api/bot-settings": "Save the bot settings (a second save updates the first record; a masked secret sent back is kept)",
  "PUT /api/bot-settings/{id}": "Update the bot settings (a masked secret sent back is kept)",
  "GET /api/categories": "Every category, main and sub, by name",
  "POST /api/categories": "Create a category",
  "PUT /api/categories/{id}": "Update a category",
  "DELETE /api/categories/{id}": "Delete a category (409 while it has subcategories; its products become uncategorised)",
  "GET /api/products": "Products, newest first, filtered by q, categoryId and status; with limit one page (X-Total-Count, Link rel=next)",
  "GET /api/products/{id}": "One product with its options and variants",
  "PUT /api/products/{id}/variants": "Replace a product's options and variants in one go (409 when a changed stock is stale)",
  "POST /api/products": "Create a product",
  "PUT /api/products/{id}": "Update a product (expectedStock guards stock sold meanwhile: 409)",
  "DELETE /api/products/{id}": "Delete a product (past orders keep their item names)",
  "GET /api/postage-options": "Every postage option, in the order added",
  "POST /api/postage-options": "Create a postage option",
  "PATCH /api/postage-options/{id}": "Change some fields of a postage option, e.g. { isActive }",
  "DELETE /api/postage-options/{id}": "Delete a postage option (past orders keep theirs)",
  "GET /api/coupons": "Every coupon, newest first, with its uses counted (timesUsed), held by unpaid orders (timesHeld) and its state",
  "POST /api/coupons": "Create a coupon (409 when its code exists in any case)",
  "PATCH /api/coupons/{id}": "Change some fields of a coupon, e.g. { isActive }",
  "DELETE /api/coupons/{id}": "Delete a coupon (orders that used it keep its code and their discount)",
  "GET /api/orders": "Orders, filtered by status, q, from and to, sorted by sort; with limit one page (X-Total-Count, Link rel=next)",
  "GET /api/orders/export.csv": "The orders matching status, q, from and to, in sort order, as a CSV file: one line per order item",
  "GET /api/orders/{id}/items": "An order's lines",
  "GET /api/orders/{id}/events": "An order's audit trail, oldest first",
  "PUT /api/orders/{id}": "Move an order on (processing → dispatched → completed), optionally with a carrier and tracking number",
  "DELETE /api/orders/{id}": "Delete an order that received no money",
  "POST /api/orders/{id}/accept-payment": "Accept a pending order's payment as it is (e.g. a short payment)",
  "POST /api/orders/{id}/cancel": "Cancel a pending order; its stock goes back on sale",
  "POST /api/orders/cleanup-expired": "Fail the unpaid orders past their deadline now",
  "POST /api/orders/{id}/notify-dispatch": "Tell the customer by Telegram that the order was dispatched, once the undo window (heldUntil) has passed",
  "POST /api/orders/bulk-dispatch": "Dispatch the given orders, or every order a filter matches; the others are skipped with the reason",
  "POST /api/orders/{id}/undo-dispatch": "Undo a dispatch while its customer's message is still held: the order is Ready to Dispatch again",
  "GET /api/messages": "Messages, newest first, filtered by q, telegramUserId, sender, unread, from and to; with limit one page (X-Total-Count, Link rel=next)",
  "GET /api/messages/conversations": "One row per customer, latest conversation first: last message, unread count; with limit one page (X-Total-Count, Link rel=next)",
  "POST /api/messages": "Reply to a customer through Telegram (stored once Telegram took it)",
  "GET /api/messages/user/{telegramUserId}": "One customer's conversation",
  "GET /api/messages/unread-count": "How many customer messages are unread",
  "PUT /api/messages/{id}/read": "Mark a message read",
  "GET /api/customers":
    "One row per Telegram customer (an order, a message or a block): orders, total spent, last order, unread messages; filtered by q, sorted by sort; with limit one page (X-Total-Count, Link rel=next)",
  "GET /api/customers/{telegramUserId}": "A customer's numbers, newest orders and latest messages",
  "POST /api/customers/{telegramUserId}/block": "Block a customer: the bot answers them only with a polite refusal (again: no change)",
  "POST /api/customers/{telegramUserId}/unblock": "Unblock a customer (again: no change)",
  "GET /api/customers/{telegramUserId}/notes": "The owner's note about a customer (\"\" when none), kept encrypted",
  "PUT /api/customers/{telegramUserId}/notes": "Replace the owner's note about a customer (at most 2000 characters; empty deletes it); the last save wins",
  "POST /api/broadcasts": "Queue a message to an audience of customers (202 with its id); sent in the background within Telegram's limits",
  "POST /api/broadcasts/reach": "How many customers a broadcast to an audience would reach now (opted-out and blocked customers left out, as the queue does)",
  "POST /api/broadcasts/test": "Send a broadcast's text and image to the owner's linked Telegram chat only (409 when none is linked)",
  "GET /api/broadcasts": "The latest broadcasts, newest first, with their progress",
  "GET /api/broadcasts/{id}": "A broadcast's progress: queued, sending or done, with sent, failed and skipped counts",
  "GET /api/privacy-settings": "How long shipping addresses and customer messages are kept",
  "PUT /api/privacy-settings": "Change how long shipping addresses and customer messages are kept (0 keeps them)",
  "POST /api/customers/{telegramUserId}/forget":
    "Erase a customer's addresses, messages and username (an address an order still needs goes once it is dispatched); amounts stay",
  "GET /api/audit-log": "What the admin did (writes, logins, failed logins), newest first, optionally for one targetType and targetId or one accountId; one page (X-Total-Count, Link rel=next)",
  "GET /api/dashboard/stats": "The dashboard's counts and revenues",
  "GET /api/dashboard/revenue": "The dashboard chart: revenue per day (?days=30, 90) or month (?months=12), best sellers and orders by status",
  "GET /api/events": "Live updates (Server-Sent Events): which lists changed, so the dashboard reloads them",
  "POST /api/objects/upload": "A one-time URL to PUT a product image to",
  "PUT /api/objects/upload/{token}": "Upload the image bytes to the one-time URL",
  "PUT /api/product-images": "Confirm an uploaded image; answers the path to use as a product's imageUrl",
  "GET /objects/{id}": "A stored product image (open to anyone: Telegram and <img> load it)",
  "POST /api/payments/webhook": "NOWPayments' payment notification (IPN), checked by its signature",
  "GET /api/payment-gateways": "The payment gateways: NOWPayments' keys, the BTCPay Server store and which gateway takes each coin (secrets masked)",
  "PUT /api/payment-gateways": "Saves the payment gateways; new BTCPay details are checked with the server first, and nothing is saved when it refuses them",
  "POST /api/payment-gateways/btcpay/webhook": "Registers the shop's webhook on the BTCPay store with a new secret, replacing the one it registered before (needs PUBLIC_URL)",
  "POST /api/payments/btcpay/webhook": "BTCPay Server's webhook, checked by its BTCPay-Sig signature; the invoice is then read from BTCPay",
  "POST /api/telegram/webhook": "Telegram's updates (secret token), or the admin's Bot Preview tester (session)",
  [`GET ${OPENAPI_PATH}`]: "This API's OpenAPI 3.1 document",
  "GET /api/storefront/catalogue":
    "The storefront (Telegram Mini App): categories, active products and variants with their stock state, postage, coins, and the owner's public key while private addresses are on; texts in the customer's language",
  "POST /api/storefront/quote": "The storefront: what these items cost with this postage and coupon, priced as the bot prices a cart (pass total back as quotedTotal)",
  "POST /api/storefront/orders":
    "The storefront: place an order of these items (not the bot's cart) and create its payment; 409 when the total is not quotedTotal or the customer already has 3 orders waiting for payment, nothing created",
  "GET /api/storefront/orders": "The storefront: the customer's own latest 20 orders, newest first, with the payment still awaited",
  "GET /api/storefront/orders/{id}": "The storefront: one of the customer's own orders (404 for anyone else's)",
  "GET /api/storefront/messages": "The storefront: the customer's conversation with the shop, oldest first (the last 100)",
  "POST /api/storefront/messages": "The storefront: a message to the shop, stored as one typed in the bot's Contact Support",
};

/**
 * Only the API and the stored images are documented: not the web app's catch-all, the reference's
 * own pages, or the browser tests' seed routes (/api/test/, e2e/support/seed-routes.ts).
 */
const isDocumented = (url: string) =>
  (url.startsWith("/api/") || url.startsWith("/objects/")) && !url.startsWith(DOCS_PREFIX) && !url.startsWith("/api/test/");

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & {
  route: { method: string | string[]; config?: { access?: string; permission?: Permission } };
};

/** What each answer means, for the reference's response list (instead of swagger's "Default Response"). */
const ANSWER_DESCRIPTIONS: Record<string, string> = {
  "200": "Done",
  "201": "Created",
  "401": "Not logged in",
  "4xx":
    "Refused; `error` says why (400 names the invalid field; 401 not logged in, 403 cross-site or a role without " +
    "the call's permission (x-permission), 404, 409 conflict, " +
    "413, 415, 429 with Retry-After)",
  "5xx": "Failed on the server's side (502: the payment gateway or Telegram did not answer); `error` says so",
};

function describeAnswers(response: unknown) {
  if (!response || typeof response !== "object") return response;
  return Object.fromEntries(
    Object.entries(response as Record<string, Record<string, unknown>>).map(([status, answer]) => {
      const description = ANSWER_DESCRIPTIONS[status];
      // swagger takes the schema's own description as the response's (a $ref's target is not looked up).
      return [status, description && !("content" in answer) && !answer.description ? { ...answer, description } : answer];
    }),
  );
}

function transform(input: TransformInput) {
  if (!isDocumented(input.url)) return { schema: { hide: true }, url: input.url };
  const { schema, url } = jsonSchemaTransform(input) as { schema: Record<string, unknown> | undefined; url: string };
  const access = input.route.config?.access ?? "admin";
  const open = access !== "admin";
  const tag = url.startsWith("/objects/") ? "objects" : url === OPENAPI_PATH ? "docs" : (url.split("/")[2] ?? "api");
  const methods = [input.route.method].flat();
  const summary = SUMMARIES[`${methods[0]} ${url.replace(/:([A-Za-z]+)/g, "{$1}")}`];
  return {
    url,
    schema: {
      ...(summary ? { summary } : {}),
      ...schema,
      response: describeAnswers(schema?.response),
      tags: (schema?.tags as string[] | undefined) ?? [tag],
      // Open routes (login, health, images, webhooks) need no session; everything else does, and a
      // role with its permission (contract/team.ts; "owner" when it names none: the owner's alone).
      // The storefront's need Telegram's init data instead.
      ...(access === "storefront" ? { security: [{ [STOREFRONT_SCHEME]: [] }] } : open ? { security: [] } : { "x-permission": input.route.config?.permission ?? "owner" }),
    },
  };
}

const transformObjectWithAllSchemas = createJsonSchemaTransformObject({});

/**
 * Components for the schemas the contract names (contract/ gives them ids), keeping only those
 * the operations refer to: the zod registry is global, so it also holds the input-side twin of
 * every answer schema, which no operation uses.
 */
type DocumentObject = ReturnType<typeof transformObjectWithAllSchemas>;

function transformObject(input: Parameters<typeof transformObjectWithAllSchemas>[0]): DocumentObject {
  // Always an OpenAPI 3 document here (registerOpenApi asks for 3.1), never Swagger 2.
  const document = transformObjectWithAllSchemas(input) as { components?: { schemas?: Record<string, unknown> } };
  const schemas: Record<string, unknown> = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== "object") return;
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/")) {
        const name = child.slice("#/components/schemas/".length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  const { components, ...rest } = document;
  visit(rest);
  return {
    ...document,
    components: { ...components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) },
  } as DocumentObject;
}

/** Collects the routes registered after it: call before any route. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Shop back office API",
        version: "1",
        description:
          "The calls the admin dashboard makes (docs/product.md §7) and the webhooks. Every error answers `{ \"error\": \"<sentence>\" }`. " +
          "Calls need a signed-in session cookie (POST /api/auth/login sets it) unless marked as open, and a role " +
          "with the call's permission (`x-permission`; contract/team.ts lists each role's); " +
          "writes from another site are refused (403). The storefront's calls (/api/storefront/) need Telegram's init data instead (telegramInitData).",
      },
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: { type: "apiKey", in: "cookie", name: "sid", description: "Set by POST /api/auth/login" },
          [STOREFRONT_SCHEME]: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description: "`tma <init data>`: the storefront's calls, as the Telegram user whose init data the shop's bot token signed (at most a day old)",
          },
        },
      },
      security: [{ [SESSION_SCHEME]: [] }],
    },
    transform,
    transformObject,
  });
}

const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ description: "This document (OpenAPI 3.1)" });

/** GET /api/openapi.json and the rendered reference at /api/docs; both need API_DOCS_PERMISSION. */
export const openApiRoutes: Routes = async (app) => {
  app.get(OPENAPI_PATH, { ...may(API_DOCS_PERMISSION), schema: { response: { 200: OpenApiDocumentSchema, ...ERROR_ANSWERS } } }, () =>
    app.swagger() as unknown as z.output<typeof OpenApiDocumentSchema>,
  );
  // swagger-ui adds its own routes (the page, its files, its copy of the document): its scope names their permission.
  await app.register(async (docs) => {
    mayInScope(docs, API_DOCS_PERMISSION);
    await docs.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { deepLinking: true } });
  });
};
