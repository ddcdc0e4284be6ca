import { z } from "zod";
import { searchText } from "./fields";
import { LanguageSchema } from "./languages";
import { CustomerMessageSchema } from "./messages";
import { OrderSchema } from "./orders";
import { PageQuerySchema } from "./paging";

// The Customers screen (issue 13): one row per Telegram customer, a customer's page, blocking.

/** A Telegram user id as the shop stores it: digits only; Telegram's ids have at most 16 digits. */
const TELEGRAM_USER_ID_PATTERN = /^\d{1,20}$/;
const TELEGRAM_USER_ID_MESSAGE = "must be a Telegram user id (digits only, at most 20)";

export const CustomerParamsSchema = z.object({
  telegramUserId: z
    .string({ error: TELEGRAM_USER_ID_MESSAGE })
    .regex(TELEGRAM_USER_ID_PATTERN, TELEGRAM_USER_ID_MESSAGE)
    .meta({ description: "The customer's Telegram user id", examples: ["100042"] }),
});

export const CUSTOMER_SORTS = ["recent", "last-order", "total-spent"] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export const CustomerListQuerySchema = PageQuerySchema.extend({
  q: searchText(
    "Case-insensitive; matches the start of any @username or shipping name the customer used (names only for roles " +
      "with orders.addresses), or the whole Telegram user id",
  ),
  sort: z
    .enum(CUSTOMER_SORTS, { error: `must be one of ${CUSTOMER_SORTS.join(", ")}` })
    .default("recent")
    .meta({
      description: "recent (default: last order or message), last-order (customers without orders last) or total-spent; ties by user id",
    }),
  language: LanguageSchema.optional().meta({ description: "Only customers the bot speaks this language to (issue 26)" }),
});
export type CustomerListQuery = z.output<typeof CustomerListQuerySchema>;

const moment = z.iso.datetime();

/** One Telegram customer: anyone with an order, a message, or a block. */
export const CustomerSchema = z
  .object({
    telegramUserId: z.string(),
    /** The latest @username their orders or messages carry; null when none had one. */
    telegramUsername: z.string().nullable(),
    /** The shipping name on their latest order; null without orders. */
    name: z.string().nullable(),
    ordersCount: z.int(),
    /** Paid orders whose money was not refunded (the dashboard's revenue rule), in GBP. */
    totalSpent: z.string().meta({ description: 'A GBP amount with two decimals, e.g. "4.99"', examples: ["4.99"] }),
    lastOrderAt: moment.nullable(),
    messagesCount: z.int(),
    /** Messages they sent that the admin has not read. */
    unreadCount: z.int(),
    /** Their latest order or message (or block, for someone blocked who has neither). */
    lastActiveAt: moment,
    isBlocked: z.boolean(),
    blockedAt: moment.nullable(),
    /** The language the bot speaks to them (issue 26); null when not known yet (they get the shop's default). */
    language: LanguageSchema.nullable(),
  })
  .meta({ id: "Customer" });
export type Customer = z.infer<typeof CustomerSchema>;

/** How many of a customer's orders and messages their page shows (the newest). */
export const CUSTOMER_ORDERS_SHOWN = 50;
export const CUSTOMER_MESSAGES_SHOWN = 100;

/** GET /api/customers/{telegramUserId}: the summary, the latest orders (newest first), the latest messages (oldest first, as a chat reads). */
export const CustomerDetailSchema = z
  .object({
    customer: CustomerSchema,
    orders: z.array(OrderSchema).meta({ description: `The newest ${CUSTOMER_ORDERS_SHOWN} orders, newest first` }),
    messages: z.array(CustomerMessageSchema).meta({ description: `The latest ${CUSTOMER_MESSAGES_SHOWN} messages both ways, oldest first` }),
  })
  .meta({ id: "CustomerDetail" });
export type CustomerDetail = z.infer<typeof CustomerDetailSchema>;

/** POST /api/customers/{telegramUserId}/block and /unblock: whether the customer is blocked now. */
export const CustomerBlockStateSchema = z
  .object({ telegramUserId: z.string(), isBlocked: z.boolean(), blockedAt: moment.nullable() })
  .meta({ id: "CustomerBlockState" });
export type CustomerBlockState = z.infer<typeof CustomerBlockStateSchema>;

/** The longest note the owner can keep about one customer (issue 22 item 9). */
export const CUSTOMER_NOTE_MAX = 2000;

/** PUT /api/customers/{telegramUserId}/notes: the owner's note about the customer, whole; empty clears it. */
export const CustomerNoteInputSchema = z.object({
  note: z
    .string({ error: "Note must be text" })
    .trim()
    .max(CUSTOMER_NOTE_MAX, `Note can be at most ${CUSTOMER_NOTE_MAX} characters`)
    .meta({ description: `The note (at most ${CUSTOMER_NOTE_MAX} characters, ends trimmed); empty deletes it` }),
});
export type CustomerNoteInput = z.input<typeof CustomerNoteInputSchema>;

/**
 * GET and PUT /api/customers/{telegramUserId}/notes: the owner's own note about a customer, kept
 * encrypted; "" and updatedAt null when there is none. `unreadable`: a note is stored but does not
 * decrypt (its key was lost: `npm run secrets:forget`); saving replaces it.
 */
export const CustomerNoteSchema = z
  .object({
    telegramUserId: z.string(),
    note: z.string(),
    updatedAt: moment.nullable(),
    unreadable: z.boolean(),
  })
  .meta({ id: "CustomerNote" });
export type CustomerNote = z.infer<typeof CustomerNoteSchema>;
