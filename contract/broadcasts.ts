import { z } from "zod";
import { SavedTextTranslationsSchema, TextTranslationsSchema } from "./languages";

// Broadcasts (issue 14, item 3): a message to many customers at once, sent by a durable queue
// (docs/decisions/0019-broadcast-queue.md). Depends on zod only; contract/index.ts re-exports it
// (so nothing is imported from there: the re-export makes this module evaluate first).

/** Telegram's limits: a text message, and a photo's caption. */
export const BROADCAST_TEXT_MAX = 4096;
export const BROADCAST_CAPTION_MAX = 1024;
/** The longest "ordered in the last N days" the screen offers. */
export const BROADCAST_DAYS_MAX = 3650;

export const BROADCAST_AUDIENCE_KINDS = ["all", "product", "recent", "never-ordered"] as const;
export type BroadcastAudienceKind = (typeof BROADCAST_AUDIENCE_KINDS)[number];

/** The same rule as a product's image (contract/common.ts OBJECT_PATH_PATTERN): only an image this server stored. */
const OBJECT_PATH = /^\/objects\/[A-Za-z0-9_-]{1,100}$/;

export const BroadcastAudienceSchema = z
  .object({
    kind: z.enum(BROADCAST_AUDIENCE_KINDS, { error: `must be one of ${BROADCAST_AUDIENCE_KINDS.join(", ")}` }).meta({
      description:
        "all: everyone who started the bot; product: customers who paid for productId; recent: customers with an order " +
        "in the last `days` days; never-ordered: customers who started the bot and have no order",
    }),
    productId: z.uuid({ message: "must be a valid id" }).optional(),
    days: z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(BROADCAST_DAYS_MAX, `must be at most ${BROADCAST_DAYS_MAX}`)
      .optional(),
  })
  .superRefine((audience, ctx) => {
    if (audience.kind === "product" && !audience.productId) ctx.addIssue({ code: "custom", message: "Choose a product", path: ["productId"] });
    if (audience.kind === "recent" && audience.days === undefined) ctx.addIssue({ code: "custom", message: "is required", path: ["days"] });
  });
export type BroadcastAudience = z.infer<typeof BroadcastAudienceSchema>;

export const BroadcastInputSchema = z
  .object({
    text: z.string().trim().min(1, "Message text is required").max(BROADCAST_TEXT_MAX, `Message must be at most ${BROADCAST_TEXT_MAX} characters`),
    imageUrl: z
      .string()
      .nullish()
      .transform((value) => (value == null || value.trim() === "" ? null : value.trim()))
      .refine((value) => value === null || OBJECT_PATH.test(value), { message: "must be an /objects/ path from this server (upload the image first)" }),
    audience: BroadcastAudienceSchema,
    /** Issue 26: the text in other languages; each customer gets theirs, else `text` (the default language's). */
    textTranslations: TextTranslationsSchema.optional(),
  })
  .superRefine((input, ctx) => {
    // Telegram refuses a photo caption over 1024 characters.
    if (input.imageUrl && input.text.length > BROADCAST_CAPTION_MAX) {
      ctx.addIssue({ code: "custom", message: `With an image the message must be at most ${BROADCAST_CAPTION_MAX} characters`, path: ["text"] });
    }
    for (const [language, text] of Object.entries(input.textTranslations ?? {})) {
      if (input.imageUrl && text.length > BROADCAST_CAPTION_MAX) {
        ctx.addIssue({
          code: "custom",
          message: `With an image the message must be at most ${BROADCAST_CAPTION_MAX} characters`,
          path: ["textTranslations", language],
        });
      }
    }
  });
export type BroadcastInput = z.input<typeof BroadcastInputSchema>;

/** POST /api/broadcasts/reach: the audience to count, as a broadcast names it. */
export const BroadcastReachInputSchema = z.object({ audience: BroadcastAudienceSchema });
export type BroadcastReachInput = z.input<typeof BroadcastReachInputSchema>;

/**
 * How many customers a broadcast to an audience would reach now (issue 22, item 2): the audience,
 * less those the queue skips, by the queue's own rule. reach + the skipped counts = audience.
 */
export const BroadcastReachSchema = z
  .object({
    /** Everyone the audience names. */
    audience: z.int(),
    /** Those it would be sent to. */
    reach: z.int(),
    skipped: z.object({
      /** Sent /stop. */
      optedOut: z.int(),
      /** Blocked the bot (an earlier message got Telegram's 403). */
      unreachable: z.int(),
      /** Blocked by the owner. */
      blocked: z.int(),
    }),
  })
  .meta({ id: "BroadcastReach" });
export type BroadcastReach = z.infer<typeof BroadcastReachSchema>;

/**
 * POST /api/broadcasts/test: the message (text and optional image, by the same rules as a broadcast)
 * sent only to the owner's linked chat, to see it as customers will.
 */
export const BroadcastTestInputSchema = z
  .object({ text: BroadcastInputSchema.shape.text, imageUrl: BroadcastInputSchema.shape.imageUrl })
  .superRefine((input, ctx) => {
    if (input.imageUrl && input.text.length > BROADCAST_CAPTION_MAX) {
      ctx.addIssue({ code: "custom", message: `With an image the message must be at most ${BROADCAST_CAPTION_MAX} characters`, path: ["text"] });
    }
  });
export type BroadcastTestInput = z.input<typeof BroadcastTestInputSchema>;

/** The test went out; `sentTo` names the owner's chat (as Bot Settings shows it). */
export const BroadcastTestSentSchema = z.object({ sentTo: z.string() }).meta({ id: "BroadcastTestSent" });

export const BroadcastCreatedSchema = z.object({ id: z.guid() }).meta({ id: "BroadcastCreated" });

export const BROADCAST_STATUSES = ["queued", "sending", "done"] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** GET /api/broadcasts/{id}: where the queue is. total = sent + failed + skipped + those still to go. */
export const BroadcastProgressSchema = z
  .object({
    id: z.guid(),
    /** queued: nothing sent yet; sending: under way; done: every recipient sent, failed or skipped. */
    status: z.enum(BROADCAST_STATUSES),
    total: z.int(),
    sent: z.int(),
    /** Telegram refused, or the outcome is unknown (a server stopped mid-send: never sent twice). */
    failed: z.int(),
    /** Opted out (/stop), blocked the bot, or blocked by the owner. */
    skipped: z.int(),
  })
  .meta({ id: "BroadcastProgress" });
export type BroadcastProgress = z.infer<typeof BroadcastProgressSchema>;

/** One broadcast in the list of past ones (GET /api/broadcasts, newest first). */
export const BroadcastSummarySchema = z
  .object({
    id: z.guid(),
    status: z.enum(BROADCAST_STATUSES),
    total: z.int(),
    sent: z.int(),
    failed: z.int(),
    skipped: z.int(),
    text: z.string(),
    /** The text in other languages (issue 26); {} when it has only the default language's. */
    textTranslations: SavedTextTranslationsSchema,
    imageUrl: z.string().nullable(),
    audience: z.object({
      kind: z.enum(BROADCAST_AUDIENCE_KINDS),
      productId: z.string().optional(),
      days: z.int().optional(),
    }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "BroadcastSummary" });
export type BroadcastSummary = z.infer<typeof BroadcastSummarySchema>;

/** How many past broadcasts the list answers (the newest). */
export const BROADCASTS_LISTED = 50;
