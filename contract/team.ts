import { z } from "zod";

// A team, not one password (issue 25; docs/decisions/0036-staff-accounts-and-roles.md).
//
// Every signed-in request acts as one account. An account has one role; a role is a set of
// permissions; every route declares the one permission it needs (server/http/security.ts), and a
// route that declares none is the owner's alone. The dashboard reads the same table to hide what a
// role cannot do, so the server and the screens never disagree about a role.

export const ROLES = ["owner", "manager", "packer", "support"] as const;
export type Role = (typeof ROLES)[number];
/** The roles the owner can give a new or existing account: there is one owner. */
export const STAFF_ROLES = ["manager", "packer", "support"] as const satisfies readonly Role[];
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", manager: "Manager", packer: "Packer", support: "Support" };

/**
 * What a route or an action needs. Names read as "may …":
 * - account: their own sign-in, two-factor and sessions (every role);
 * - live: the live event stream that keeps screens fresh (every role);
 * - orders.read: order lists, details and status, without addresses;
 * - orders.addresses: shipping addresses (details, View Address, search by name or postcode);
 * - orders.dispatch: packing slips, dispatch and tracking;
 * - orders.manage: every other change to an order (cancel, settle, clean up expired);
 * - orders.export: the CSV export;
 * - catalogue: categories, products, variants, images, postage, coupons;
 * - messages: read and answer customers' messages;
 * - customers.read: the Customers screen;
 * - customers.manage: notes, erasing a customer, broadcasts;
 * - insights: dashboard figures, revenue, the activity log;
 * - bot: Bot Settings (but not its token or payment keys), bot status, preview, owner alerts;
 * - bot.token: the bot token;
 * - payments: payment gateways and their keys (NOWPayments keys in Bot Settings included);
 * - privacy: privacy settings and the private-address keys;
 * - staff: accounts, roles, invites, every account's sessions.
 */
export const PERMISSIONS = [
  "account",
  "live",
  "orders.read",
  "orders.addresses",
  "orders.dispatch",
  "orders.manage",
  "orders.export",
  "catalogue",
  "messages",
  "customers.read",
  "customers.manage",
  "insights",
  "bot",
  "bot.token",
  "payments",
  "privacy",
  "staff",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERY_ROLE: Permission[] = ["account", "live"];
const OWNER_ONLY: Permission[] = ["bot.token", "payments", "privacy", "staff"];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: PERMISSIONS.filter((permission) => !OWNER_ONLY.includes(permission)),
  packer: [...EVERY_ROLE, "orders.read", "orders.addresses", "orders.dispatch"],
  support: [...EVERY_ROLE, "messages", "customers.read", "orders.read"],
};

export function roleCan(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The sentence a refused call answers (403): it names the permission the account lacks. */
export function missingPermissionMessage(role: Role, permission: Permission): string {
  return `Your role (${ROLE_LABELS[role]}) does not have the "${permission}" permission.`;
}

export const RoleSchema = z.enum(ROLES);
export const StaffRoleSchema = z.enum(STAFF_ROLES);

/** The signed-in account, as GET /api/auth/status answers it. */
export const AccountSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    role: RoleSchema,
    totpEnabled: z.boolean(),
  })
  .meta({ id: "Account" });
export type Account = z.infer<typeof AccountSchema>;

/** Login names: lower-case letters, digits, dot, dash and underscore; compared without case. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{1,31}$/;
export const UsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(USERNAME_PATTERN, "Username must be 2 to 32 letters, digits, dots, dashes or underscores, starting with a letter or digit");

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
