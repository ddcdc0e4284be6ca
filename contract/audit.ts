import { z } from "zod";

// The audit log (issue 13, item 6): every admin write, and every login or failed login, with when,
// what, to what, and a summary that never holds a secret. GET /api/audit-log answers it newest first.
// Depends on zod only; contract/index.ts re-exports it (and this file cannot import from there: the
// re-export makes this module evaluate first).

/** What the log's targets are called, e.g. "order" with the order's id as targetId. */
export const AuditEntrySchema = z
  .object({
    id: z.guid(),
    createdAt: z.iso.datetime(),
    /** "<target>.<verb>", e.g. "product.update", "order.accept-payment", "auth.login-failed". */
    action: z.string(),
    /** What was changed: "product", "order", "settings", "customer", ...; null for logins. */
    targetType: z.string().nullable(),
    /** Its id (an order's uuid, a customer's Telegram user id); null when the write had none. */
    targetId: z.string().nullable(),
    /** The change in short ("status: \"dispatched\", trackingNumber: \"AB123\""), secrets hidden. */
    summary: z.string(),
    /** The client's address as the server saw it (after TRUST_PROXY). */
    ip: z.string().nullable(),
  })
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The page size when the call gives none: the log only grows, so it is never answered whole. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
const LIMIT_MESSAGE = `must be a whole number from 1 to ${AUDIT_PAGE_MAX}`;

export const AuditLogQuerySchema = z.object({
  limit: z
    .string({ error: LIMIT_MESSAGE })
    .regex(/^\d{1,4}$/, LIMIT_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= AUDIT_PAGE_MAX, LIMIT_MESSAGE)
    .default(AUDIT_PAGE_DEFAULT)
    .meta({ description: `At most this many entries (1 to ${AUDIT_PAGE_MAX}, default ${AUDIT_PAGE_DEFAULT})` }),
  cursor: z
    .string({ error: "must be the cursor of a Link header" })
    .max(1000, "must be the cursor of a Link header")
    .optional()
    .meta({ description: "The next page's cursor, from the previous page's Link header (opaque)" }),
  targetType: z
    .string({ error: "must be text" })
    .trim()
    .min(1, "must not be empty")
    .max(50, "must be at most 50 characters")
    .optional()
    .meta({ description: 'Only entries about this kind of target, e.g. "order"' }),
  targetId: z
    .string({ error: "must be text" })
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .optional()
    .meta({ description: "Only entries about this target (with targetType: that one order, product, customer...)" }),
});
export type AuditLogQuery = z.output<typeof AuditLogQuerySchema>;
