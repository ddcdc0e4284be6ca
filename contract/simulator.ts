import { z } from "zod";

// Bot Preview's chat simulator (issue 14, item 1; docs/decisions/0023-chat-simulator.md).
// Depends on zod only (contract/index.ts re-exports this file).

/**
 * The test customer's Telegram user id: 2^53 - 1. Telegram's user ids have at most 52 significant
 * bits, so no real customer can ever have it, and it is still a number JavaScript holds exactly.
 */
export const TEST_CUSTOMER_ID = "9007199254740991";
/** How the test customer is named in the bot's chat (Telegram's first_name). */
export const TEST_CUSTOMER_NAME = "Test customer";

export const SimulatorButtonSchema = z.object({
  text: z.string(),
  /** Callback data: pressing it runs the bot. */
  data: z.string().optional(),
  /** A link button. */
  url: z.string().optional(),
});
export type SimulatorButton = z.infer<typeof SimulatorButtonSchema>;

/** One message of the simulator's chat, as it stands now (edits applied). */
export const SimulatorMessageSchema = z
  .object({
    messageId: z.int(),
    fromCustomer: z.boolean(),
    text: z.string(),
    /** Where the browser loads the photo from (a product image, or the payment QR code as a data: URL); null: text only. */
    photo: z.string().nullable(),
    keyboard: z.array(z.array(SimulatorButtonSchema)).nullable(),
    edited: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "SimulatorMessage" });
export type SimulatorMessage = z.infer<typeof SimulatorMessageSchema>;

/** What the bot did in one turn, in order: the captured Bot API calls, as chat events. */
export const SimulatorEventSchema = z
  .object({
    type: z.enum(["message", "photo", "edit", "delete", "notice"]),
    messageId: z.int().nullable(),
    text: z.string().nullable(),
    /** A notice shown as an alert box (show_alert) rather than a passing toast. */
    alert: z.boolean(),
  })
  .meta({ id: "SimulatorEvent" });
export type SimulatorEvent = z.infer<typeof SimulatorEventSchema>;

/** The test customer's order waiting for its simulated payment. */
export const SimulatorPaymentSchema = z
  .object({ orderId: z.uuid(), totalAmount: z.string(), payAmount: z.string().nullable(), payCurrency: z.string().nullable() })
  .meta({ id: "SimulatorPayment" });

/** GET /api/bot/simulator and every simulator action: the chat as it stands, and what this turn did. */
export const SimulatorStateSchema = z
  .object({
    customer: z.object({ telegramUserId: z.string(), name: z.string() }),
    messages: z.array(SimulatorMessageSchema),
    /** What the bot did in answer to this request (empty for a plain read). */
    events: z.array(SimulatorEventSchema),
    pendingPayment: SimulatorPaymentSchema.nullable(),
  })
  .meta({ id: "SimulatorState" });
export type SimulatorState = z.infer<typeof SimulatorStateSchema>;

/** POST /api/bot/simulator/messages: what the admin types as the test customer. */
export const SimulatorTextInputSchema = z.object({
  text: z
    .string({ error: "must be text" })
    .trim()
    .min(1, "Type a message first")
    .max(4096, "must be at most 4096 characters"),
});

/** POST /api/bot/simulator/presses: an inline button pressed on one of the bot's messages. */
export const SimulatorPressInputSchema = z.object({
  messageId: z.int({ error: "must be a whole number" }).min(1, "must be at least 1").max(2_147_483_647, "is too large"),
  data: z.string({ error: "must be text" }).min(1, "is required").max(64, "must be at most 64 characters"),
});

/** POST /api/bot/simulator/payments: the test order to mark paid. */
export const SimulatorPaymentInputSchema = z.object({ orderId: z.uuid({ message: "must be a valid id" }) });
