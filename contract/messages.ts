import { z } from "zod";
import { TimestampSchema } from "./common";
import { booleanFlag, datesInOrder, DATES_MESSAGE, fromDate, IdSchema, listSort, optionalText, searchText, toDate, uuidOrNull } from "./fields";
import { LanguageSchema } from "./languages";
import { PageQuerySchema } from "./paging";

// Customer messages: a reply, a message as answered, and the message and conversation lists' queries.

export const MESSAGE_MAX_LENGTH = 4096;

/** A message's text, from the owner (a reply) or a customer (the storefront's support chat): what Telegram can carry. */
export const MessageTextSchema = z
  .string()
  .trim()
  .min(1, "Message cannot be empty")
  .max(MESSAGE_MAX_LENGTH, `Message must be at most ${MESSAGE_MAX_LENGTH} characters`);

export const MessageInputSchema = z.object({
  telegramUserId: z.union([z.string(), z.number().transform(String)]).pipe(z.string().trim().min(1, "Customer is required")),
  telegramUsername: optionalText,
  message: MessageTextSchema,
  isFromCustomer: z.literal(false).default(false),
  orderId: uuidOrNull,
  isRead: z.boolean().optional(),
});
export type MessageInput = z.input<typeof MessageInputSchema>;
export const CustomerMessageSchema = z
  .object({
    id: IdSchema,
    telegramUserId: z.string(),
    telegramUsername: z.string().nullable(),
    message: z.string(),
    isFromCustomer: z.boolean(),
    isRead: z.boolean(),
    orderId: IdSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: "CustomerMessage" });
export type CustomerMessage = z.infer<typeof CustomerMessageSchema>;
export const UnreadCountSchema = z.object({ count: z.int() }).meta({ id: "UnreadCount" });

// --- The message lists' queries (paged lists: contract/paging.ts) ---
export const MESSAGE_SENDERS = ["customer", "admin"] as const;

export const MessageListQuerySchema = PageQuerySchema
  .extend({
    q: searchText("Case-insensitive; matches within the message text, or the start of the @username"),
    telegramUserId: z
      .string({ error: "must be a Telegram user id" })
      .trim()
      .min(1, "must be a Telegram user id")
      .max(64, "must be at most 64 characters")
      .optional()
      .meta({ description: "Only this customer's messages" }),
    sender: z
      .enum(MESSAGE_SENDERS, { error: `must be one of ${MESSAGE_SENDERS.join(", ")}` })
      .optional()
      .meta({ description: "Only messages the customers sent, or only the admin's replies" }),
    unread: booleanFlag.meta({ description: "true: only customer messages not read yet; false: only the others" }),
    from: fromDate,
    to: toDate,
    sort: listSort,
  })
  .refine(datesInOrder, DATES_MESSAGE);
export type MessageListQuery = z.output<typeof MessageListQuerySchema>;

export const ConversationListQuerySchema = PageQuerySchema.extend({
  unread: booleanFlag.meta({ description: "true: only customers with unread messages" }),
});
export type ConversationListQuery = z.output<typeof ConversationListQuerySchema>;

/** One customer's conversation, as the Messages screen lists it (GET /api/messages/conversations). */
export const ConversationSchema = z
  .object({
    telegramUserId: z.string(),
    /** The latest username the customer's messages carry; null when none has one. */
    telegramUsername: z.string().nullable(),
    lastMessage: z.string(),
    lastMessageAt: TimestampSchema,
    /** Whether the customer sent the last message (false: the admin's reply). */
    lastIsFromCustomer: z.boolean(),
    unreadCount: z.int(),
    totalMessages: z.int(),
    /** The language the bot speaks to the customer (issue 26); null when not known yet. */
    language: LanguageSchema.nullable(),
  })
  .meta({ id: "Conversation" });
export type Conversation = z.infer<typeof ConversationSchema>;
