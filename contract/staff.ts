import { z } from "zod";
import { IdSchema } from "./fields";
import { PASSWORD_MAX_LENGTH, RoleSchema, StaffRoleSchema, UsernameSchema } from "./team";

// The owner's staff (issue 25): accounts, their one-time invite links, and the sessions each account
// has open. The rules live in server/shop/team/ (staff.ts, sessions.ts); the owner's Staff screen and
// the public invite page share these shapes. Depends on zod only; contract/index.ts re-exports it.

/** How long an invite link works: 48 hours, once. */
export const INVITE_LIFETIME_MS = 48 * 60 * 60 * 1000;
export const STAFF_NAME_MAX = 80;

/** invited: no password set yet; active: can sign in; disabled: cannot, whatever the password. */
export const STAFF_STATUSES = ["invited", "active", "disabled"] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const StaffMemberSchema = z
  .object({
    id: IdSchema,
    username: z.string(),
    name: z.string(),
    role: RoleSchema,
    status: z.enum(STAFF_STATUSES),
    totpEnabled: z.boolean(),
    /** The latest use of any of the account's sessions; null when it never signed in (or its sessions ended). */
    lastSeenAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "StaffMember" });
export type StaffMember = z.infer<typeof StaffMemberSchema>;
export const StaffListSchema = z.array(StaffMemberSchema);

/** A person's name as the screens show it: no control characters, 1 to 80 characters. */
const personName = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(STAFF_NAME_MAX, `Name can be at most ${STAFF_NAME_MAX} characters`)
  .refine((text) => !/\p{Cc}/u.test(text), "Name must not hold control characters");

export const StaffInviteInputSchema = z.object({
  username: UsernameSchema,
  name: personName,
  role: StaffRoleSchema,
});
export type StaffInviteInput = z.infer<typeof StaffInviteInputSchema>;

/** The new account and its one-time link: shown to the owner once, never stored (only its hash is). */
export const StaffInvitedSchema = z.object({ id: IdSchema, inviteUrl: z.url() }).meta({ id: "StaffInvited" });
export type StaffInvited = z.infer<typeof StaffInvitedSchema>;
export const InviteLinkSchema = z.object({ inviteUrl: z.url() }).meta({ id: "InviteLink" });
export type InviteLink = z.infer<typeof InviteLinkSchema>;

export const StaffPatchSchema = z
  .object({ role: StaffRoleSchema.optional(), disabled: z.boolean({ error: "Disabled must be true or false" }).optional() })
  .refine((patch) => patch.role !== undefined || patch.disabled !== undefined, "Give a role or disabled to change");
export type StaffPatch = z.infer<typeof StaffPatchSchema>;

/** An invite token as its link carries it (base64url of 32 random bytes); anything longer is no token. */
export const InviteTokenParamsSchema = z.object({ token: z.string().min(1).max(100) });

/** What the invite page greets the invitee with. */
export const InviteGreetingSchema = z.object({ username: z.string(), name: z.string(), role: StaffRoleSchema }).meta({ id: "InviteGreeting" });
export type InviteGreeting = z.infer<typeof InviteGreetingSchema>;

/** The password policy (at least PASSWORD_MIN_LENGTH, not a common password) is the server's, with its own sentences. */
export const AcceptInviteInputSchema = z.object({
  password: z.string({ error: "Password is required" }).max(PASSWORD_MAX_LENGTH, `Password can be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type AcceptInviteInput = z.infer<typeof AcceptInviteInputSchema>;

// --- Sessions ---

export const SessionSchema = z
  .object({
    id: IdSchema,
    accountId: IdSchema,
    /** The browser and system in words ("Chrome on Linux"), from its User-Agent at sign-in. */
    device: z.string(),
    /** The address it signed in from (after TRUST_PROXY). */
    ip: z.string().nullable(),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
    /** The session this very request came with. */
    current: z.boolean(),
  })
  .meta({ id: "Session" });
export type Session = z.infer<typeof SessionSchema>;
export const SessionListSchema = z.array(SessionSchema);

export const SessionListQuerySchema = z.object({
  accountId: z.uuid({ message: "must be a valid id" }).optional().meta({ description: "Another account's sessions (the owner only); this account's when absent" }),
});

export const EndedSessionsSchema = z.object({ ended: z.number().int().min(0) }).meta({ id: "EndedSessions" });
