import { z } from "zod";
import { booleanFlag } from "./fields";
import { PAGE_LIMIT_MAX, PageLimitSchema, PageQuerySchema } from "./paging";

// The audit log (issue 13, item 6): every admin write, and every login or failed login, with when,
// what, to what, and a summary that never holds a secret. GET /api/audit-log answers it newest first.
// Depends on zod only; contract/index.ts re-exports it.

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
    /** The account that acted (issue 25); null for entries from before accounts and failed sign-ins under no account. */
    accountId: z.string().nullable(),
    /** Its username then: the entry still names it once the account is deleted. */
    accountUsername: z.string().nullable(),
  })
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The page size when the call gives none: the log only grows, so it is never answered whole. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = PAGE_LIMIT_MAX;

export const AuditLogQuerySchema = PageQuerySchema.extend({
  limit: PageLimitSchema.default(AUDIT_PAGE_DEFAULT).meta({
    description: `At most this many entries (1 to ${AUDIT_PAGE_MAX}, default ${AUDIT_PAGE_DEFAULT})`,
  }),
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
  accountId: z.uuid({ message: "must be a valid id" }).optional().meta({ description: "Only what this account did" }),
  /** The Activity screen leaves sign-ins out unless asked (issue 22 item 7): they would bury the changes. */
  signIns: booleanFlag.meta({ description: "false: leave out sign-ins, sign-outs and failed sign-ins (auth.*); true or absent: include them" }),
});
export type AuditLogQuery = z.output<typeof AuditLogQuerySchema>;
