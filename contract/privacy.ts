import { z } from "zod";

// Privacy (issue 15): how long the shop keeps addresses and messages, and forgetting a customer.
// contract/index.ts re-exports this file; it takes nothing from index.ts.

const RETENTION_DAYS_MAX = 3650;

const retentionDays = (what: string) =>
  z
    .int({ error: `${what} must be a whole number of days` })
    .min(0, `${what} must be at least 0`)
    .max(RETENTION_DAYS_MAX, `${what} must be at most ${RETENTION_DAYS_MAX} days`);

export const PrivacySettingsSchema = z
  .object({
    /** Days after an order is completed or failed before its shipping address is erased; 0 keeps it. */
    addressRetentionDays: retentionDays("Address retention").meta({
      description: "Days after an order is completed or failed before its shipping address is erased; 0 keeps addresses",
    }),
    /** Days after which customer messages (and replies) are erased; 0 keeps them. */
    messageRetentionDays: retentionDays("Message retention").meta({
      description: "Days after which customer messages and replies are erased; 0 keeps them",
    }),
  })
  .meta({ id: "PrivacySettings" });
export type PrivacySettings = z.infer<typeof PrivacySettingsSchema>;

export const ForgetResultSchema = z
  .object({
    addressesErased: z.int(),
    /** Addresses of orders still awaiting payment or dispatch: erased once dispatched or closed. */
    addressesKept: z.int(),
    messagesErased: z.int(),
  })
  .meta({ id: "ForgetResult" });
export type ForgetResult = z.infer<typeof ForgetResultSchema>;
