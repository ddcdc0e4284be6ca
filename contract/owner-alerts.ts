import { z } from "zod";

// Owner alerts (issue 14, item 5): the owner's own Telegram chat (or a group) gets a message when an
// order is paid, a customer writes, a payment falls short or a product runs low. Depends on zod only;
// contract/index.ts re-exports it.

/** How long a link code shown in Bot Settings may be sent to the bot. */
export const OWNER_LINK_CODE_MINUTES = 15;

export const OWNER_ALERT_KINDS = ["paidOrder", "customerMessage", "underpaid", "lowStock"] as const;
export type OwnerAlertKind = (typeof OWNER_ALERT_KINDS)[number];

/** Which kinds of alert the owner wants (all on until switched off). */
export const OwnerAlertKindsSchema = z.object({
  paidOrder: z.boolean(),
  customerMessage: z.boolean(),
  underpaid: z.boolean(),
  lowStock: z.boolean(),
});
export type OwnerAlertKinds = z.infer<typeof OwnerAlertKindsSchema>;

/** GET /api/owner-alerts (and the answer of every change to them). */
export const OwnerAlertsSchema = z
  .object({
    linked: z.boolean(),
    /** The linked chat's name as Telegram gave it (a person's name, or a group's title); null when not linked. */
    chatTitle: z.string().nullable(),
    kinds: OwnerAlertKindsSchema,
  })
  .meta({ id: "OwnerAlerts" });
export type OwnerAlerts = z.infer<typeof OwnerAlertsSchema>;

/** PUT /api/owner-alerts: the kinds to switch on or off; a kind left out stays as it is. */
export const OwnerAlertsInputSchema = z.object({
  kinds: z.object({
    paidOrder: z.boolean({ error: "must be true or false" }).optional(),
    customerMessage: z.boolean({ error: "must be true or false" }).optional(),
    underpaid: z.boolean({ error: "must be true or false" }).optional(),
    lowStock: z.boolean({ error: "must be true or false" }).optional(),
  }),
});
export type OwnerAlertsInput = z.infer<typeof OwnerAlertsInputSchema>;

/** POST /api/owner-alerts/link-code: a one-time code to send to the bot, valid OWNER_LINK_CODE_MINUTES. */
export const OwnerLinkCodeSchema = z
  .object({
    code: z.string().meta({ examples: ["123456"] }),
    expiresAt: z.iso.datetime(),
    /** What to send the bot, e.g. "/link 123456". */
    command: z.string().meta({ examples: ["/link 123456"] }),
    /** The bot's @username (without the @) when the bot is running; null otherwise. */
    botUsername: z.string().nullable(),
  })
  .meta({ id: "OwnerLinkCode" });
export type OwnerLinkCode = z.infer<typeof OwnerLinkCodeSchema>;
