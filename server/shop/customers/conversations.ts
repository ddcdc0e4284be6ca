import { isDeepStrictEqual } from "node:util";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { CurrencySchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { botConversations } from "../../db/schema";
import { open, seal, VaultError } from "../vaults";

// Where each customer is in a conversation with the bot. Kept in the database (not in memory)
// so a restart, or a second server instance, carries on at the same step.

/** "coupon": the customer was asked to type a coupon code from the summary ("🏷 Add a coupon"). */
export const CHECKOUT_STAGES = ["name", "street", "postcode", "contact", "postage", "coin", "confirm", "coupon"] as const;
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
  /** The coupon the summary applies (issue 23), as the shop stores its code; checked again at every quote and at Confirm. */
  couponCode: z.string().max(64).optional(),
});
export type CheckoutDraft = z.infer<typeof CheckoutDraftSchema>;

export const ConversationStateSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("idle") }),
  z.object({ step: z.literal("support") }),
  z.object({ step: z.literal("checkout"), stage: z.enum(CHECKOUT_STAGES), draft: CheckoutDraftSchema }),
]);
export type ConversationState = z.infer<typeof ConversationStateSchema>;

export const IDLE: ConversationState = { step: "idle" };

// A checkout's draft holds the address the customer is typing: it is stored encrypted (issue 15), as
// { step: "checkout", stage, sealedDraft: "sk1:..." }, bound to the customer (shop/vaults/vault.ts). The
// other steps hold nothing the customer typed and are stored as they are.

const draftBinding = (telegramUserId: string) => `bot_conversations.state:${telegramUserId}`;

/** A state as stored: the checkout's draft encrypted. */
async function storedForm(db: DbOrTx, telegramUserId: string, state: ConversationState): Promise<Record<string, unknown>> {
  if (state.step !== "checkout") return state;
  return { step: state.step, stage: state.stage, sealedDraft: await seal(db, JSON.stringify(state.draft), draftBinding(telegramUserId)) };
}

/** The customer's current step; idle when none was stored or what was stored no longer parses. */
export async function getConversation(db: DbOrTx, telegramUserId: string): Promise<ConversationState> {
  const [row] = await db
    .select({ state: botConversations.state })
    .from(botConversations)
    .where(eq(botConversations.telegramUserId, telegramUserId));
  return openConversation(db, telegramUserId, row?.state ?? null);
}

/**
 * A stored state as the bot uses it, its draft decrypted: idle when none was stored (null) or what was
 * stored no longer parses or decrypts (the customer starts the checkout again).
 */
export async function openConversation(db: DbOrTx, telegramUserId: string, stored: unknown): Promise<ConversationState> {
  if (stored === null || stored === undefined || typeof stored !== "object") return IDLE;
  const { sealedDraft, ...rest } = stored as Record<string, unknown>;
  let candidate: unknown = rest;
  if (typeof sealedDraft === "string") {
    try {
      candidate = { ...rest, draft: JSON.parse(await open(db, sealedDraft, draftBinding(telegramUserId))) as unknown };
    } catch (error) {
      if (error instanceof VaultError || error instanceof SyntaxError) return IDLE;
      throw error;
    }
  } else if (rest.step === "checkout") {
    // A draft in clear (stored before encryption, or written by hand) is not taken.
    return IDLE;
  }
  const parsed = ConversationStateSchema.safeParse(candidate);
  return parsed.success ? parsed.data : IDLE;
}

export async function saveConversation(db: DbOrTx, telegramUserId: string, state: ConversationState): Promise<void> {
  const now = new Date();
  const stored = await storedForm(db, telegramUserId, state);
  await db
    .insert(botConversations)
    .values({ telegramUserId, state: stored, updatedAt: now })
    .onConflictDoUpdate({ target: botConversations.telegramUserId, set: { state: stored, updatedAt: now } });
}

/** Back to idle as a customer with no stored step: the row goes, with any checkout draft in it. */
export async function clearConversation(db: DbOrTx, telegramUserId: string): Promise<void> {
  await db.delete(botConversations).where(eq(botConversations.telegramUserId, telegramUserId));
}

/** Equal as stored (JSON: a field set to undefined is one left out), whatever the order of the fields. */
const sameState = (a: ConversationState, b: ConversationState) =>
  isDeepStrictEqual(JSON.parse(JSON.stringify(a)) as unknown, JSON.parse(JSON.stringify(b)) as unknown);

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
  // The stored draft is encrypted (a fresh nonce each time), so the row is locked, decrypted and
  // compared here rather than matched in SQL: a second press waits for the lock, then finds the step moved.
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ state: botConversations.state })
      .from(botConversations)
      .where(eq(botConversations.telegramUserId, telegramUserId))
      .for("update");
    if (!row) return false;
    const current = await openConversation(tx, telegramUserId, row.state);
    if (!sameState(current, expected)) return false;
    await tx
      .update(botConversations)
      .set({ state: await storedForm(tx, telegramUserId, next), updatedAt: new Date() })
      .where(eq(botConversations.telegramUserId, telegramUserId));
    return true;
  });
}
