import { z } from "zod";
import { TimestampSchema } from "./common";
import { datesInOrder, DATES_MESSAGE, fromDate, IdSchema, MoneyTextSchema, optionalText, searchText, toDate } from "./fields";
import { PageQuerySchema } from "./paging";

// Orders: their statuses, shipping, the admin's status changes, the order as answered, its audit
// trail and items, and the order list's query.

export const ORDER_STATUSES = ["pending", "processing", "dispatched", "completed", "failed"] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;
export const EXPIRED_ORDER_AGE_MS = 2 * 60 * 60 * 1000;

export const ShippingAddressSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(200),
  streetAddress: z.string().trim().min(1, "Street address is required").max(500),
  postcode: z.string().trim().min(1, "Postcode is required").max(20),
  contact: optionalText,
});
export type ShippingAddress = z.output<typeof ShippingAddressSchema>;

/**
 * Carriers whose tracking page the dispatch message links to (issue 13); the links themselves are
 * the shop's rule (server/shop/orders/carriers.ts). Any other carrier may be typed; it just gets no link.
 */
export const KNOWN_CARRIERS = ["Royal Mail", "DPD", "Evri", "UPS", "DHL"] as const;
export type KnownCarrier = (typeof KNOWN_CARRIERS)[number];
export const TRACKING_NUMBER_MAX_LENGTH = 100;
export const CARRIER_MAX_LENGTH = 50;

export const OrderStatusUpdateSchema = z.object({
  status: OrderStatusSchema,
  // Both optional, usually given with a dispatch; absent keeps the current one, empty or null clears it.
  // They reach the customer's Telegram message and a tracking link, so only what such values are made
  // of is accepted: no line breaks or other control characters, no markup.
  trackingNumber: z
    .string({ error: "Tracking number must be text" })
    .trim()
    .max(TRACKING_NUMBER_MAX_LENGTH, `Tracking number must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters`)
    .regex(/^[A-Za-z0-9 -]*$/, "Tracking number may contain only letters, digits, spaces and hyphens")
    .nullish(),
  carrier: z
    .string({ error: "Carrier must be text" })
    .trim()
    .max(CARRIER_MAX_LENGTH, `Carrier must be at most ${CARRIER_MAX_LENGTH} characters`)
    .regex(/^[\p{L}\p{N} .&'()-]*$/u, "Carrier may contain only letters, digits, spaces and . & ' ( ) -")
    .nullish(),
});
export type OrderStatusUpdate = z.input<typeof OrderStatusUpdateSchema>;

/**
 * Where an order was placed: the bot's chat (its lines came from the customer's cart) or the Mini App
 * storefront (issue 27; its lines came with the order, the bot's cart was never read). An order that
 * fails without a payment goes back to the bot's cart only when it came from there.
 */
export const ORDER_CHANNELS = ["bot", "storefront"] as const;
export const OrderChannelSchema = z.enum(ORDER_CHANNELS);
export type OrderChannel = z.infer<typeof OrderChannelSchema>;

export const ORDER_ADMIN_FLAGS = ["refund_due", "refunded_after_dispatch"] as const;
export const OrderAdminFlagSchema = z.enum(ORDER_ADMIN_FLAGS);
export type OrderAdminFlag = z.infer<typeof OrderAdminFlagSchema>;

export const DISPATCH_NOTE_MAX_LENGTH = 500;

/**
 * POST /api/orders/{id}/notify-dispatch's body, optional: a note from the owner, added to the
 * customer's dispatch message. Plain text; line breaks are kept, other control characters refused.
 */
export const NotifyDispatchSchema = z
  .object({
    note: z
      .string({ error: "Note must be text" })
      .trim()
      .max(DISPATCH_NOTE_MAX_LENGTH, `Note must be at most ${DISPATCH_NOTE_MAX_LENGTH} characters`)
      .regex(/^(?:[^\p{Cc}]|\n)*$/u, "Note may not contain control characters")
      .nullish(),
  })
  // No body at all (as docs/product.md §7 sends it) reaches the route as null.
  .nullish();
export type NotifyDispatch = z.input<typeof NotifyDispatchSchema>;

export const DISPATCH_NOTICE_STATES = ["held", "sending", "sent", "failed"] as const;
export const DispatchNoticeStateSchema = z.enum(DISPATCH_NOTICE_STATES);

/**
 * POST /api/orders/{id}/notify-dispatch's answer: the message is held until heldUntil, while the
 * dispatch can be undone (POST /api/orders/{id}/undo-dispatch); null when it was sent at once.
 */
export const DispatchNoticeHeldSchema = z
  .object({ success: z.literal(true), heldUntil: TimestampSchema.nullable() })
  .meta({ id: "DispatchNoticeHeld" });
export type DispatchNoticeHeld = { heldUntil: string | null };

/**
 * What was bought, for the lists (issue 22): the order's first line as its details list it first, and
 * how many lines it has, so a row can read "2 × Acceptance Tee and 2 more" without loading every
 * order's items. Null for an order without lines.
 */
export const OrderItemsSummarySchema = z
  .object({
    first: z.object({ productId: IdSchema, productName: z.string().nullable(), variantLabel: z.string().nullable(), quantity: z.int() }),
    lineCount: z.int(),
  })
  .meta({ id: "OrderItemsSummary" });
export type OrderItemsSummary = z.infer<typeof OrderItemsSummarySchema>;

export const OrderSchema = z
  .object({
    id: IdSchema,
    telegramUserId: z.string(),
    telegramUsername: z.string().nullable(),
    status: OrderStatusSchema,
    totalAmount: MoneyTextSchema,
    currency: z.string(),
    paymentMethod: z.string().nullable(),
    paymentStatus: z.string().nullable(),
    paymentId: z.string().nullable(),
    transactionHash: z.string().nullable(),
    shippingAddress: z
      .object({ name: z.string(), streetAddress: z.string(), postcode: z.string(), contact: z.string().nullable() })
      .nullable(),
    /**
     * The address sealed to the owner's key (private addresses, contract/owner-seal.ts): the server
     * cannot read it, the owner's browser opens it after unlocking. Then shippingAddress is null.
     */
    sealedShippingAddress: z.string().nullable(),
    /** When the shipping address was erased (retention, or the customer asked to be forgotten); null while kept. */
    addressErasedAt: TimestampSchema.nullable(),
    postageOptionId: IdSchema.nullable(),
    /** The postage as it was at checkout (name and price); null for orders without postage or older than snapshots. */
    postageName: z.string().nullable(),
    postagePrice: MoneyTextSchema.nullable(),
    /** The coupon applied at checkout (issue 23), in capitals; null when none was. */
    couponCode: z.string().nullable(),
    /** What the coupon took off the items ("0.00" without one); totalAmount is already net of it, postage never discounted. */
    discountAmount: MoneyTextSchema,
    trackingNumber: z.string().nullable(),
    /** Who carries the parcel, as given at dispatch; a known carrier is spelt as in KNOWN_CARRIERS. */
    carrier: z.string().nullable(),
    /** The carrier's tracking page for this parcel; null unless the carrier is known and a tracking number is set. */
    trackingUrl: z.string().nullable(),
    payAddress: z.string().nullable(),
    payAmount: z.string().nullable(),
    payCurrency: z.string().nullable(),
    paymentExpiresAt: TimestampSchema.nullable(),
    actuallyPaid: z.string().nullable(),
    /** What is still missing of payAmount after a short payment (crypto, decimal text); null when nothing is. */
    shortfall: z.string().nullable(),
    /** When the payment was confirmed in full or accepted by the owner; revenue counts by it. */
    paidAt: TimestampSchema.nullable(),
    /** Something the owner must act on. */
    adminFlag: OrderAdminFlagSchema.nullable(),
    /** An order of Bot Preview's test customer: paid by simulation, not revenue, deletable whatever its status. */
    isTest: z.boolean(),
    /** Where the customer placed it: the bot's chat or the Mini App storefront. */
    placedFrom: OrderChannelSchema,
    /**
     * The customer's dispatch message (issue 22): held until dueAt (the dispatch can still be undone),
     * then sending, sent or failed; null when none was asked for.
     */
    dispatchNotice: z.object({ state: DispatchNoticeStateSchema, dueAt: TimestampSchema.nullable() }).nullable(),
    itemsSummary: OrderItemsSummarySchema.nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: "Order" });
export type Order = z.infer<typeof OrderSchema>;

/** One line of an order's audit trail (GET /api/orders/{id}/events), oldest first. */
export const OrderEventSchema = z
  .object({
    id: IdSchema,
    orderId: IdSchema,
    actor: z.enum(["admin", "gateway", "system", "customer"]),
    action: z.string(),
    detail: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: "OrderEvent" });
export type OrderEvent = z.infer<typeof OrderEventSchema>;

export const OrderItemSchema = z
  .object({
    id: IdSchema,
    orderId: IdSchema,
    productId: IdSchema,
    productName: z.string().nullable(),
    /** The variant bought (issue 23): null on orders from before variants. */
    variantId: IdSchema.nullable(),
    /** The variant's label as bought ("M / Black"); null for a product without options. */
    variantLabel: z.string().nullable(),
    /** The variant's SKU as bought, if it had one. */
    sku: z.string().nullable(),
    quantity: z.int(),
    price: MoneyTextSchema,
    createdAt: TimestampSchema,
  })
  .meta({ id: "OrderItem" });
export type OrderItem = z.infer<typeof OrderItemSchema>;

/** POST /api/orders/cleanup-expired: the orders that failed by expiry just now. */
export const ExpiredOrdersSchema = z.object({ expiredOrderIds: z.array(IdSchema) }).meta({ id: "ExpiredOrders" });

// --- The order list's query (paged lists: contract/paging.ts) ---
export const ORDER_SORTS = ["newest", "oldest", "total-desc", "total-asc"] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const ORDER_STATUS_FILTERS = ["all", ...ORDER_STATUSES] as const;

export const OrderListQuerySchema = PageQuerySchema
  .extend({
    status: z
      .enum(ORDER_STATUS_FILTERS, { error: `must be one of ${ORDER_STATUS_FILTERS.join(", ")}` })
      .optional()
      .meta({ description: "Only orders in this status (all: every status)" }),
    q: searchText(
      "Case-insensitive; matches the start of the order id (# optional), the @username, the customer's name or the " +
        "postcode (spaces ignored; name and postcode only for roles with orders.addresses), or the whole Telegram user id",
    ),
    from: fromDate,
    to: toDate,
    sort: z
      .enum(ORDER_SORTS, { error: `must be one of ${ORDER_SORTS.join(", ")}` })
      .default("newest")
      .meta({ description: "newest (default), oldest, total-desc or total-asc; ties by id" }),
  })
  .refine(datesInOrder, DATES_MESSAGE);
export type OrderListQuery = z.output<typeof OrderListQuerySchema>;

/** How many orders one bulk dispatch may take (issue 22): a day's parcels, with room to spare. */
export const BULK_DISPATCH_MAX = 500;

/**
 * POST /api/orders/bulk-dispatch (issue 22): the ticked orders (`ids`), or every order the list's
 * filter matches (`filter`, "Select all N matching"), beyond the page shown. Each order Ready to
 * Dispatch is dispatched and its customer's message held for the undo window; any other is skipped.
 */
export const BulkDispatchSchema = z
  .object({
    ids: z.array(IdSchema).min(1, "Choose at least one order").max(BULK_DISPATCH_MAX, `At most ${BULK_DISPATCH_MAX} orders at once`).optional(),
    filter: z
      .object({
        status: z.enum(ORDER_STATUS_FILTERS).optional(),
        q: searchText("As the order list's q"),
        from: fromDate,
        to: toDate,
      })
      .refine(datesInOrder, DATES_MESSAGE)
      .optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.filter === undefined), "Give either ids or filter, not both");
export type BulkDispatch = z.input<typeof BulkDispatchSchema>;

export const BulkDispatchResultSchema = z
  .object({
    dispatched: z.array(IdSchema),
    /** The orders left as they were, each with the reason (not Ready to Dispatch, changed meanwhile). */
    skipped: z.array(z.object({ id: IdSchema, reason: z.string() })),
    /**
     * Dispatched (also in `dispatched`), but their customer's message was refused at once: only on a
     * server without an undo window, which sends in the request. With a window, a refusal comes later.
     */
    notNotified: z.array(z.object({ id: IdSchema, reason: z.string() })),
    /** When the first held message goes out: until then the dispatches can be undone; null when none were. */
    heldUntil: TimestampSchema.nullable(),
  })
  .meta({ id: "BulkDispatchResult" });
export type BulkDispatchResult = z.infer<typeof BulkDispatchResultSchema>;
