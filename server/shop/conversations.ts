import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { CurrencySchema } from "../../contract";
import type { DbOrTx } from "../db/client";
import { botConversations } from "../db/schema";

// Where each customer is in a conversation with the bot. Kept in the database (not in memory)
// so a restart, or a second server instance, carries on at the same step.

export const CHECKOUT_STAGES = ["name", "street", "postcode", "contact", "postage", "coin", "confirm"] as const;
export type CheckoutStage = (typeof CHECKOUT_STAGES)[number];

const CheckoutDraftSchema = z.object({
  name: z.string().optional(),
  streetAddress: z.string().optional(),
  postcode: z.string().optional(),
  contact: z.string().nullable().optional(),
  postageOptionId: z.string().nullable().optional(),
  coin: CurrencySchema.optional(),
  /** The total of the summary last shown (pence): Confirm charges this or nothing (checkout's quotedTotalPence). */
  quotedTotalPence: z.number().int().nonnegative().optional(),
});
export type CheckoutDraft = z.infer<typeof CheckoutDraftSchema>;

export const ConversationStateSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("idle") }),
  z.object({ step: z.literal("support") }),
  z.object({ step: z.literal("checkout"), stage: z.enum(CHECKOUT_STAGES), draft: CheckoutDraftSchema }),
]);
export type ConversationState = z.infer<typeof ConversationStateSchema>;

export const IDLE: ConversationState = { step: "idle" };

/** The customer's current step; idle when none was stored or what was stored no longer parses. */
export async function getConversation(db: DbOrTx, telegramUserId: string): Promise<ConversationState> {
  const [row] = await db
    .select({ state: botConversations.state })
    .from(botConversations)
    .where(eq(botConversations.telegramUserId, telegramUserId));
  return parseConversation(row?.state ?? null);
}

/** A stored state as the bot uses it: idle when none was stored (null) or what was stored no longer parses. */
export function parseConversation(stored: unknown): ConversationState {
  if (stored === null || stored === undefined) return IDLE;
  const parsed = ConversationStateSchema.safeParse(stored);
  return parsed.success ? parsed.data : IDLE;
}

export async function saveConversation(db: DbOrTx, telegramUserId: string, state: ConversationState): Promise<void> {
  const now = new Date();
  await db
    .insert(botConversations)
    .values({ telegramUserId, state, updatedAt: now })
    .onConflictDoUpdate({ target: botConversations.telegramUserId, set: { state, updatedAt: now } });
}

/**
 * Moves from `expected` to `next` only if the stored state is still `expected`: of two presses of
 * the same button (or two server instances), exactly one wins. Answers whether this call won.
 */
export async function replaceConversation(
  db: DbOrTx,
  telegramUserId: string,
  expected: ConversationState,
  next: ConversationState,
): Promise<boolean> {
  const moved = await db
    .update(botConversations)
    .set({ state: next, updatedAt: new Date() })
    .where(
      and(
        eq(botConversations.telegramUserId, telegramUserId),
        sql`${botConversations.state} = ${JSON.stringify(expected)}::jsonb`,
      ),
    )
    .returning({ id: botConversations.telegramUserId });
  return moved.length === 1;
}
