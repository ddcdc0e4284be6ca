import { and, eq, getTableName, is, isNotNull, ne, or, sql, Table } from "drizzle-orm";
import { z } from "zod";
import { LanguageSchema, ORDER_ADMIN_FLAGS, ORDER_STATUSES } from "../../contract";
import { StaffRoleSchema, UsernameSchema } from "../../contract/team";
import { queryRows } from "../../server/db/rows";
import * as schema from "../../server/db/schema";
import type { Routes } from "../../server/http/deps";
import { protectNewAddress } from "../../server/shop/vaults";
import { addTestAccount } from "../../test-support/admin-password";
import { insertCustomerMessage, insertOrder } from "../../test-support/factories";

// Test-only routes, mounted by the e2e server script and never by the real server: they reset the
// shop between tests and insert what the API cannot create (orders come from the bot, customer
// messages from Telegram). Under /api, so they need the admin session like everything else.

/**
 * Tables the reset keeps: the accounts and sessions, so the owner stays signed in (issue 25: the
 * owner's password is an account's now; emptying accounts would empty sessions with it). The staff
 * accounts a test made are deleted instead, with their sessions and invites.
 * The owner is left with two-factor off, so every test signs in with the password alone.
 */
const KEPT_TABLES = new Set(["accounts", "sessions"]);

const dateOrNow = z
  .string()
  .datetime()
  .optional()
  .transform((value) => (value ? new Date(value) : undefined));

const SeedOrderSchema = z.object({
  telegramUserId: z.string().optional(),
  telegramUsername: z.string().nullable().optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  totalAmount: z.string().optional(),
  paymentMethod: z.string().nullable().optional(),
  paymentStatus: z.string().nullable().optional(),
  paymentId: z.string().nullable().optional(),
  postageOptionId: z.string().nullable().optional(),
  // The postage snapshot taken at checkout.
  postageName: z.string().nullable().optional(),
  postagePrice: z.string().nullable().optional(),
  // The coupon applied at checkout and what it took off (issue 23).
  couponCode: z.string().nullable().optional(),
  discountAmount: z.string().optional(),
  // What the gateway asked for and what arrived (crypto, decimal text), and its deadline.
  payAmount: z.string().nullable().optional(),
  actuallyPaid: z.string().nullable().optional(),
  payCurrency: z.string().nullable().optional(),
  paymentExpiresAt: z
    .string()
    .datetime()
    .nullable()
    .optional()
    .transform((value) => (value == null ? value : new Date(value))),
  adminFlag: z.enum(ORDER_ADMIN_FLAGS).nullable().optional(),
  /** Take the items' quantities off their products' stock, as a real checkout does. */
  reserveStock: z.boolean().optional(),
  shippingAddress: z
    .object({ name: z.string(), streetAddress: z.string(), postcode: z.string(), contact: z.string().nullable().optional() })
    .nullable()
    .optional(),
  createdAt: dateOrNow,
  items: z
    .array(
      z.object({
        productId: z.string(),
        productName: z.string(),
        price: z.string(),
        quantity: z.number().int().positive().optional(),
        // Issue 23: the variant bought, its label and SKU as the order keeps them.
        variantId: z.string().optional(),
        variantLabel: z.string().nullable().optional(),
        sku: z.string().nullable().optional(),
      }),
    )
    .optional(),
});

const SeedMessageSchema = z.object({
  telegramUserId: z.string().optional(),
  telegramUsername: z.string().nullable().optional(),
  message: z.string().optional(),
  isFromCustomer: z.boolean().optional(),
  isRead: z.boolean().optional(),
  orderId: z.string().nullable().optional(),
  createdAt: dateOrNow,
});

/** Someone who started the bot, and the language it speaks to them (issue 26; null: not known yet). */
const SeedBotCustomerSchema = z.object({
  telegramUserId: z.string(),
  telegramUsername: z.string().nullable().optional(),
  language: LanguageSchema.nullable().optional(),
});

/** A staff account with its password already set, as an accepted invite leaves it (issue 25). */
const SeedAccountSchema = z.object({
  username: UsernameSchema,
  role: StaffRoleSchema,
  password: z.string().min(1),
  name: z.string().optional(),
});

/** A coupon's uses as checkouts and payments would have left them (the Coupons screen's "3 of 10 used", "+1 held"). */
const SeedCouponUsesSchema = z.object({
  code: z.string(),
  timesUsed: z.number().int().min(0),
  timesHeld: z.number().int().min(0),
});

/** A staff account with its password set, as an accepted invite leaves it (issue 25). */
export const seedRoutes: Routes = (app, deps) => {
  app.post("/api/test/reset", async () => {
    const tables = (Object.values(schema) as unknown[])
      .filter((value): value is Table => is(value, Table))
      .map((table) => getTableName(table))
      .filter((name) => !KEPT_TABLES.has(name));
    // Only the tables holding rows are truncated: a TRUNCATE makes new files for each table (and its
    // indexes) whether it had rows or not, ~0.3-1.3 s for all ~30 tables on the e2e server's PGlite
    // against ~0.2 s for the few a test filled (docs/PERFORMANCE.md "Third round"). Which tables hold
    // rows is asked in the same transaction, under locks that keep a background job (a sender) from
    // filling one in between. An empty table has nothing to reset: the shop's tables have no sequence to
    // restart, and their truncate triggers (the revenue total, the change notices) would tell of no change.
    if (tables.length > 0) {
      const quoted = tables.map((t) => `"${t}"`);
      await deps.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`lock table ${quoted.join(", ")} in access exclusive mode`));
        const filled = await queryRows<{ name: string }>(
          tx,
          sql.raw(tables.map((t, i) => `select '${t}' as name where exists (select 1 from ${quoted[i]})`).join(" union all ")),
        );
        const names = filled.map((row) => `"${row.name}"`);
        if (names.length > 0) await tx.execute(sql.raw(`truncate table ${names.join(", ")} restart identity cascade`));
        await tx.delete(schema.accounts).where(sql`${schema.accounts.role} <> 'owner'`);
      });
    }
    // Every test starts with the owner alone, signed in by password only: staff go (their sessions
    // cascade), and the owner's two-factor, when a test turned it on, is off again.
    await deps.db.delete(schema.accounts).where(ne(schema.accounts.role, "owner"));
    await deps.db
      .update(schema.accounts)
      .set({ totpEnabled: false, totpSecret: null, totpLastStep: null })
      .where(and(eq(schema.accounts.role, "owner"), or(eq(schema.accounts.totpEnabled, true), isNotNull(schema.accounts.totpSecret))));
    return { reset: tables };
  });

  app.post("/api/test/orders", { schema: { body: SeedOrderSchema } }, async (request, reply) => {
    const { items = [], createdAt, ...fields } = request.body;
    // The address stored as a checkout stores it: sealed to the owner's key when private addresses are on.
    const id = crypto.randomUUID();
    const stored = fields.shippingAddress ? await protectNewAddress(deps.db, id, fields.shippingAddress) : {};
    const { order, items: rows } = await insertOrder(deps.db, {
      ...fields,
      id,
      ...stored,
      ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
      // A paid order was paid when it was placed (revenue counts by paidAt).
      ...(["processing", "dispatched", "completed"].includes(fields.status ?? "")
        ? { paidAt: createdAt ?? new Date() }
        : {}),
      items: items.map((item) => ({
        product: { id: item.productId, name: item.productName, price: item.price },
        quantity: item.quantity ?? 1,
        variantId: item.variantId,
        variantLabel: item.variantLabel,
        sku: item.sku,
      })),
    });
    return reply.code(201).send({ ...order, items: rows });
  });

  // Staff sign in through POST /api/auth/login with this username and password (e2e/roles.spec.ts).
  app.post("/api/test/accounts", { schema: { body: SeedAccountSchema } }, async (request, reply) => {
    const { username, role, password, name } = request.body;
    const id = await addTestAccount(deps.db, { username, role, password, name });
    return reply.code(201).send({ id, username, role });
  });

  // As if the five minutes after each session's last two-factor code had passed (server/http/security.ts,
  // STEP_UP_WINDOW_MS): the browser tests cannot move the server's clock. Turning two-factor on now
  // ends every other session (docs/SECURITY.md), so a signed-in session that never proved a code no
  // longer exists to test the step-up dialog with; this makes one.
  app.post("/api/test/step-up-expired", async () => {
    const sessions = await deps.db.update(schema.sessions).set({ totpAt: null }).returning({ id: schema.sessions.id });
    return { sessions: sessions.length };
  });

  app.post("/api/test/coupon-uses", { schema: { body: SeedCouponUsesSchema } }, async (request) => {
    const { code, timesUsed, timesHeld } = request.body;
    const updated = await deps.db
      .update(schema.coupons)
      .set({ timesUsed, timesHeld })
      .where(sql`${schema.coupons.code} = ${code}`)
      .returning({ id: schema.coupons.id });
    return { updated: updated.length };
  });

  app.post("/api/test/messages", { schema: { body: SeedMessageSchema } }, async (request, reply) => {
    const { createdAt, ...fields } = request.body;
    const row = await insertCustomerMessage(deps.db, { ...fields, ...(createdAt ? { createdAt } : {}) });
    return reply.code(201).send(row);
  });

  app.post("/api/test/bot-customers", { schema: { body: SeedBotCustomerSchema } }, async (request, reply) => {
    const { telegramUserId, telegramUsername = null, language = null } = request.body;
    const [row] = await deps.db
      .insert(schema.botCustomers)
      .values({ telegramUserId, telegramUsername, language })
      .onConflictDoUpdate({ target: schema.botCustomers.telegramUserId, set: { telegramUsername, language } })
      .returning();
    return reply.code(201).send(row);
  });
};
