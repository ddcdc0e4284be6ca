import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { formatKeyId } from "../../contract/owner-seal";
import type { Db } from "../db/client";
import { accounts, categories, coupons, postageOptions, products } from "../db/schema";
import {
  type CatalogueSnapshot,
  type CatalogueSubject,
  describeBroadcast,
  isUuid,
  describeCatalogueWrite,
  describeCouponWrite,
  recordAudit,
  summariseChange,
} from "../shop/common";
import { describeNoteChange } from "../shop/customers";
import { describeForget } from "../shop/privacy";
import { describeInvite } from "../shop/team";
import { ROLE_LABELS, type StaffRole } from "../../contract/team";
import type { AppDeps } from "./deps";
import { SAFE_METHODS, signedInSession } from "./security";

// The audit log's one recording point (issue 13, item 6). Every admin write is recorded from its
// route: the action from the method and the route's pattern ("PUT /api/products/:id" is
// "product.update"), the target from the route's parameters (or, for a create, the id the answer
// gave), the summary from the body with its secrets hidden (shop/common/audit.ts). A route added later is
// recorded without anyone remembering to. Only writes that succeeded are kept, plus failed logins.

/** The name a target takes in the log, by the path segment after /api/. */
const TARGET_TYPES: Record<string, string> = {
  categories: "category",
  products: "product",
  "product-images": "image",
  "postage-options": "postage",
  coupons: "coupon",
  orders: "order",
  messages: "message",
  customers: "customer",
  "bot-settings": "settings",
  staff: "staff",
  sessions: "session",
};

const VERBS: Record<string, string> = { POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" };

/** The parsed JSON answer of the write (a create's new id, the orders a cleanup failed), when it has one. */
type Answer = Record<string, unknown> | null;

/** Where the generic rule would say less than it should. */
type Special = {
  action?: string;
  targetType?: string;
  target?: (request: FastifyRequest, answer: Answer) => string | null;
  summary?: (request: FastifyRequest, answer: Answer) => string;
};

const SPECIAL: Record<string, Special | "not recorded"> = {
  // Asking for an upload URL and sending the bytes change nothing yet: the image counts once a
  // product may use it (PUT /api/product-images), and its body's upload URL is a one-time secret.
  "POST /api/objects/upload": "not recorded",
  "PUT /api/objects/upload/:token": "not recorded",
  "PUT /api/product-images": {
    action: "image.upload",
    target: (_request, answer) => textField(answer, "objectPath"),
    summary: () => "",
  },
  // A reply belongs to the customer's story, found by their Telegram user id. Its text is not
  // repeated here: messages are kept encrypted (issue 15), the audit log is not.
  "POST /api/messages": {
    action: "message.reply",
    targetType: "customer",
    target: (request) => textField(request.body, "telegramUserId"),
    summary: (request) => replySummary(request.body),
  },
  "PUT /api/messages/:id/read": { action: "message.mark-read" },
  "POST /api/orders/cleanup-expired": {
    summary: (_request, answer) => {
      const failed = Array.isArray(answer?.expiredOrderIds) ? (answer.expiredOrderIds as unknown[]) : [];
      return `${failed.length} expired ${failed.length === 1 ? "order" : "orders"} failed${failed.length > 0 ? `: ${failed.join(", ")}` : ""}`;
    },
  },
  // What was erased, in words (the answer's counts); the customer's data never was in the request.
  "POST /api/customers/:telegramUserId/forget": {
    summary: (_request, answer) =>
      describeForget(
        {
          addressesErased: Number(answer?.addressesErased ?? 0),
          addressesKept: Number(answer?.addressesKept ?? 0),
          messagesErased: Number(answer?.messagesErased ?? 0),
        },
        "owner",
      ),
  },
  // The owner's note about a customer is personal data kept encrypted (docs/decisions/0029): the log
  // says whose note changed, never what it says.
  "PUT /api/customers/:telegramUserId/notes": {
    action: "customer.note-update",
    summary: (request, answer) => describeNoteChange(textField(request.params, "telegramUserId") ?? "", textField(answer, "note") === ""),
  },
  // Bot Preview's chat simulator (docs/decisions/0023): playing the test customer is no change of the
  // shop's own; paying a test order by simulation and resetting the test customer are.
  "POST /api/bot/simulator/messages": "not recorded",
  "POST /api/bot/simulator/presses": "not recorded",
  "POST /api/bot/simulator/payments": {
    action: "simulator.payment",
    targetType: "order",
    target: (request) => textField(request.body, "orderId"),
    summary: () => "test order paid by simulation",
  },
  "POST /api/bot/simulator/reset": { action: "simulator.reset", summary: () => "test customer reset" },
  // Private addresses (docs/decisions/0025): the key's fingerprint, never the keys themselves.
  "POST /api/private-addresses": {
    action: "private-addresses.turned-on",
    target: (_request, answer) => textField(answer, "activeKeyId"),
    summary: (_request, answer) => `New addresses are sealed to the owner's key ${formatKeyId(textField(answer, "activeKeyId") ?? "")}`,
  },
  "PUT /api/private-addresses/passphrase": {
    action: "private-addresses.passphrase-changed",
    target: (request) => textField(request.body, "keyId"),
    summary: (request) => `The passphrase of key ${formatKeyId(textField(request.body, "keyId") ?? "")} was changed`,
  },
  "DELETE /api/private-addresses": {
    action: "private-addresses.turned-off",
    summary: () => "New addresses are encrypted with the server's key; addresses sealed before stay sealed",
  },
  // Staff access to sealed addresses (docs/decisions/0037): fingerprints only, never the keys or the sealed grants.
  "PUT /api/private-addresses/my-key": {
    action: "private-addresses.staff-key-set",
    targetType: "account",
    target: (request) => request.signedIn?.account.id ?? null,
    summary: (_request, answer) => staffKeySummary(answer),
  },
  "PUT /api/private-addresses/grants/:accountId": {
    action: "private-addresses.access-granted",
    targetType: "account",
    target: (request) => textField(request.params, "accountId"),
    summary: (request, answer) => grantSummary(request.body, answer),
  },
  "DELETE /api/private-addresses/grants/:accountId": {
    action: "private-addresses.access-revoked",
    targetType: "account",
    target: (request) => textField(request.params, "accountId"),
    summary: (_request, answer) =>
      `${textField(answer, "name") ?? "A staff account"} (${textField(answer, "username") ?? "?"}) can no longer open sealed addresses; what their browser opened before, it may have kept`,
  },
  // No password, not even a wrong one, reaches the log (nor a two-factor code).
  "POST /api/auth/login": { summary: () => "" },
  // Two-factor (issue 25): what was done to whose sign-in; never a code, a secret or a recovery code.
  "POST /api/auth/totp/setup": { action: "two-factor.setup-started", targetType: "account", target: signedInId, summary: () => "" },
  "POST /api/auth/totp/verify": { action: "two-factor.turned-on", targetType: "account", target: signedInId, summary: () => "" },
  "POST /api/auth/totp/disable": { action: "two-factor.turned-off", targetType: "account", target: signedInId, summary: () => "" },
  "POST /api/auth/step-up": { action: "two-factor.step-up", targetType: "account", target: signedInId, summary: () => "" },
  // Staff (issue 25): who was invited, changed or deleted, by username and name. An invite's link is
  // a one-time secret: it is in the answer only, never in the log, and neither is a password.
  "POST /api/staff": {
    action: "staff.invite",
    summary: (request) => {
      const body = request.body as { username: string; name: string; role: StaffRole };
      return describeInvite(body);
    },
  },
  "POST /api/staff/:id/invite": {
    action: "staff.new-invite-link",
    summary: (request) => `A new invite link for ${staffWords(request)}; the earlier one no longer works`,
  },
  "PATCH /api/staff/:id": { summary: (request) => describeStaffChange(request) },
  "DELETE /api/staff/:id": { summary: (request) => `Deleted the account ${staffWords(request)}` },
  // Public: the invitee has no session; the route names the account in request.auditAccount.
  "POST /api/staff/invites/:token": {
    action: "staff.invite-accepted",
    targetType: "staff",
    target: (request) => request.auditAccount?.id ?? null,
    summary: (request) => `"${request.auditAccount?.username ?? ""}" set a password from the invite link`,
  },
  "DELETE /api/sessions/:id": { action: "session.end", summary: () => "" },
  "DELETE /api/sessions": {
    action: "session.end-others",
    summary: (_request, answer) => {
      const ended = Number(answer?.ended ?? 0);
      return `${ended} other ${ended === 1 ? "session" : "sessions"} ended`;
    },
  },
};

/** Public routes whose successful writes are recorded too: they act for an account without a session. */
const RECORDED_PUBLIC = new Set(["POST /api/staff/invites/:token"]);

/** The staff account a write is about, as read before it: `"sam" (Sam Smith)`; its id when it was not found. */
function staffWords(request: FastifyRequest): string {
  const staff = request.auditStaff;
  return staff ? `"${staff.username}" (${staff.name})` : String((request.params as { id?: unknown }).id ?? "");
}

/**
 * `"sam" (Sam Smith): role set to Support, access to sealed addresses revoked (2 grants)`: what a
 * PATCH asked for, in words, and what the new role took away with it.
 */
function describeStaffChange(request: FastifyRequest): string {
  const body = (request.body ?? {}) as { role?: StaffRole; disabled?: boolean };
  const revoked = request.auditAddressGrantsRevoked ?? 0;
  const changes = [
    ...(body.role ? [`role set to ${ROLE_LABELS[body.role]}`] : []),
    ...(body.disabled === true ? ["disabled"] : body.disabled === false ? ["enabled"] : []),
    ...(revoked > 0 ? [`access to sealed addresses revoked (${revoked} ${revoked === 1 ? "grant" : "grants"})`] : []),
  ];
  return `${staffWords(request)}: ${changes.join(", ")}`;
}

function signedInId(request: FastifyRequest): string | null {
  return request.signedIn?.account.id ?? null;
}

// The catalogue's writes say which product, category or postage option, by name, and what changed
// as before → after (shop/common/audit-words.ts): the row as it was is read before the write.
const CATALOGUE_TABLES = { product: products, category: categories, postage: postageOptions } as const;
const CATALOGUE_ROUTES: Record<string, CatalogueSubject> = {
  "/api/products": "product",
  "/api/products/:id": "product",
  "/api/categories": "category",
  "/api/categories/:id": "category",
  "/api/postage-options": "postage",
  "/api/postage-options/:id": "postage",
};

async function catalogueRowBefore(db: Db, subject: CatalogueSubject, id: string): Promise<CatalogueSnapshot | null> {
  const table = CATALOGUE_TABLES[subject];
  const [row] = await db.select().from(table).where(eq(table.id, id)).limit(1);
  return (row as CatalogueSnapshot | undefined) ?? null;
}

// A coupon's writes name it by its code and say what changed (issue 23).
const COUPON_ROUTES = new Set(["/api/coupons", "/api/coupons/:id"]);

async function couponBefore(db: Db, id: string): Promise<CatalogueSnapshot | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id)).limit(1);
  return (row as CatalogueSnapshot | undefined) ?? null;
}

async function productName(db: Db, id: string): Promise<string | null> {
  const [row] = await db.select({ name: products.name }).from(products).where(eq(products.id, id)).limit(1);
  return row?.name ?? null;
}

/** "A reply of 42 characters (order 1234abcd-...)": what was done, never what was said. */
export function replySummary(body: unknown): string {
  const text = textField(body, "message") ?? "";
  const orderId = textField(body, "orderId");
  return `A reply of ${text.length} ${text.length === 1 ? "character" : "characters"}${orderId ? ` about order ${orderId}` : ""}`;
}

/** "Key 1a2b ... set up (2 grants removed)": the staff key's fingerprint, from the answer. */
function staffKeySummary(answer: Answer): string {
  const key = answer?.key as Record<string, unknown> | undefined;
  const removed = Number(answer?.grantsRemoved ?? 0);
  const fingerprint = formatKeyId(textField(key, "keyId") ?? "");
  return `Their own key for sealed addresses is ${fingerprint}${removed > 0 ? `; a new key pair, so the ${removed} ${removed === 1 ? "grant" : "grants"} sealed to the old one were removed` : ""}`;
}

/** "Jane (jane) was given the owner's keys 1a2b ..., sealed to their key 3c4d ...": fingerprints only. */
function grantSummary(body: unknown, answer: Answer): string {
  const grants = Array.isArray((body as { grants?: unknown } | null)?.grants) ? ((body as { grants: unknown[] }).grants) : [];
  const ownerKeys = grants.map((grant) => formatKeyId(textField(grant, "ownerKeyId") ?? "?"));
  const staffKey = formatKeyId(textField(answer?.key, "keyId") ?? "?");
  return `${textField(answer, "name") ?? "A staff account"} (${textField(answer, "username") ?? "?"}) was given the owner's ${ownerKeys.length === 1 ? "key" : "keys"} ${ownerKeys.join(", ")}, sealed to their key ${staffKey}`;
}

function textField(value: unknown, field: string): string | null {
  if (!value || typeof value !== "object") return null;
  const text = (value as Record<string, unknown>)[field];
  return typeof text === "string" || typeof text === "number" ? String(text) : null;
}

/** What a write on this route is called: "product.update", "order.accept-payment", "auth.login". */
export function auditActionOf(method: string, url: string): { action: string; targetType: string | null } {
  const [resource = "", ...rest] = url.replace(/^\/api\//, "").split("/");
  const targetType = resource === "auth" ? null : (TARGET_TYPES[resource] ?? resource);
  const last = rest.at(-1);
  // A path ending in a word names what was done (/api/orders/:id/cancel); one ending in the
  // resource or its id is the method's plain create, update or delete.
  const verb = last !== undefined && !last.startsWith(":") ? last : (VERBS[method] ?? method.toLowerCase());
  return { action: `${targetType ?? resource}.${verb}`, targetType };
}

function parseAnswer(reply: FastifyReply, payload: unknown): Answer {
  if (typeof payload !== "string" || payload.length > 100_000) return null;
  if (!String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return null;
  try {
    const parsed: unknown = JSON.parse(payload);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The target's id: the route's own parameter (an upload token never), else the id a create answered. */
function targetIdOf(request: FastifyRequest, answer: Answer): string | null {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const name of ["id", "telegramUserId"]) {
    if (typeof params[name] === "string") return params[name];
  }
  return request.method === "POST" ? textField(answer, "id") : null;
}

const LOGIN = "POST /api/auth/login";
const LOGOUT = "POST /api/auth/logout";

declare module "fastify" {
  interface FastifyRequest {
    /** Set for a logout by a signed-in admin: only those are recorded (anyone may call logout). */
    auditHadSession?: boolean;
    /** Who a request acts as when no session says so yet: the login (routes/auth.ts) and the logout. */
    auditAccount?: { id: string | null; username: string };
    /** A catalogue row as it was before this write changed or deleted it (null: none was found). */
    auditBefore?: CatalogueSnapshot | null;
    /** A broadcast's product, by name, for its audience's words. */
    auditProductName?: string | null;
    /** The staff account a write on /api/staff/:id is about, as it was before the write. */
    auditStaff?: { username: string; name: string };
    /** How many sealed-address grants a staff account's new role revoked (routes/staff.ts). */
    auditAddressGrantsRevoked?: number;
  }
}

/** The summary of a write the log words itself; undefined for the generic summary of the body. */
function ownerSummary(request: FastifyRequest, answer: Answer): string | undefined {
  const url = request.routeOptions.url ?? "";
  const subject = CATALOGUE_ROUTES[url];
  if (subject) {
    const after = request.method === "DELETE" ? null : (answer as CatalogueSnapshot | null);
    return describeCatalogueWrite(subject, request.method === "POST" ? null : (request.auditBefore ?? null), after);
  }
  if (COUPON_ROUTES.has(url)) {
    return describeCouponWrite(request.method === "POST" ? null : (request.auditBefore ?? null), request.method === "DELETE" ? null : answer);
  }
  if (request.method === "POST" && url === "/api/broadcasts") {
    const body = (request.body ?? {}) as { text?: unknown; audience?: { kind: string; days?: number; productId?: string } };
    return describeBroadcast(body.text, body.audience ?? null, request.auditProductName);
  }
  return undefined;
}

/** Which requests are recorded: the admin's successful writes, logins either way, signed-in logouts. */
function shouldRecord(request: FastifyRequest, reply: FastifyReply, route: string): boolean {
  const status = reply.statusCode;
  if (route === LOGIN) return status < 400 || status === 401; // a 429 is the throttle refusing, already counted
  if (route === LOGOUT) return status < 400 && request.auditHadSession === true;
  if (RECORDED_PUBLIC.has(route)) return status < 400;
  if (SAFE_METHODS.has(request.method) || status >= 400) return false;
  // The browser tests' seed routes are not the admin's doing (e2e/support/seed-routes.ts).
  if (request.routeOptions.url?.startsWith("/api/test/")) return false;
  return (request.routeOptions.config.access ?? "admin") === "admin";
}

/** Records the admin's writes; call before the routes are registered. */
export function registerAuditLog(app: FastifyInstance, deps: Pick<AppDeps, "db" | "now">) {
  app.addHook("preHandler", async (request) => {
    if (`${request.method} ${request.routeOptions.url}` === LOGOUT) {
      const signedIn = await signedInSession(request, deps);
      request.auditHadSession = signedIn !== null;
      if (signedIn) request.auditAccount = { id: signedIn.account.id, username: signedIn.account.username };
    }
    if (SAFE_METHODS.has(request.method)) return;
    try {
      const subject = CATALOGUE_ROUTES[request.routeOptions.url ?? ""];
      const id = (request.params as Record<string, unknown> | undefined)?.id;
      if (subject && typeof id === "string") request.auditBefore = await catalogueRowBefore(deps.db, subject, id);
      if (COUPON_ROUTES.has(request.routeOptions.url ?? "") && typeof id === "string" && isUuid(id)) request.auditBefore = await couponBefore(deps.db, id);
      const audience = (request.body as { audience?: { kind?: unknown; productId?: unknown } } | undefined)?.audience;
      if (request.routeOptions.url === "/api/broadcasts" && audience?.kind === "product" && typeof audience.productId === "string") {
        request.auditProductName = await productName(deps.db, audience.productId);
      }
      if (request.routeOptions.url?.startsWith("/api/staff/:id") && typeof id === "string" && isUuid(id)) {
        const [staff] = await deps.db.select({ username: accounts.username, name: accounts.name }).from(accounts).where(eq(accounts.id, id)).limit(1);
        request.auditStaff = staff;
      }
    } catch (error) {
      // Only the log's words depend on it: the write goes ahead, its entry says less.
      request.log.warn({ err: error }, "audit log: the row before the write could not be read");
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    try {
      if (request.is404 || request.routeOptions.url === undefined) return payload;
      const route = `${request.method} ${request.routeOptions.url}`;
      const special = SPECIAL[route];
      if (special === "not recorded" || !shouldRecord(request, reply, route)) return payload;
      const answer = parseAnswer(reply, payload);
      const derived = auditActionOf(request.method, request.routeOptions.url);
      const failedLogin = route === LOGIN && reply.statusCode === 401;
      // The right password of an account with two-factor, sent without its code: not a failure of the owner's.
      const codeAsked = failedLogin && answer?.totpRequired === true;
      // Dated by the database (microseconds), not by deps.now(): a clock fixed in a test, or two writes
      // in one millisecond, would leave the log's order to chance.
      await recordAudit(deps.db, {
        action: codeAsked ? "auth.login-code-asked" : failedLogin ? "auth.login-failed" : (special?.action ?? derived.action),
        targetType: special?.targetType ?? derived.targetType,
        targetId: special?.target ? special.target(request, answer) : targetIdOf(request, answer),
        summary: special?.summary ? special.summary(request, answer) : (ownerSummary(request, answer) ?? summariseChange(request.body)),
        ip: request.ip,
        account: request.signedIn ? { id: request.signedIn.account.id, username: request.signedIn.account.username } : (request.auditAccount ?? null),
      });
    } catch (error) {
      // The write itself succeeded; a log that cannot be written must not turn it into an error.
      request.log.warn({ err: error }, "audit log: the entry could not be recorded");
    }
    return payload;
  });
}
