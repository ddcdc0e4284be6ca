import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { Language, NameTranslations, TextTranslations } from "../../contract/languages";
import type { OrderChannel } from "../../contract/orders";
import { TEST_CUSTOMER_ID } from "../../contract/simulator";

// Field names follow docs/product.md §3 (camelCase in code, snake_case in SQL).
const id = () => uuid("id").primaryKey().default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 10, scale: 2 });

export { TEST_CUSTOMER_ID };

export type BulkPricingTier = { minQuantity: number; price: number };
export type ShippingAddress = { name: string; streetAddress: string; postcode: string; contact?: string | null };

export const botSettings = pgTable("bot_settings", {
  id: id(),
  botName: text("bot_name").notNull(),
  // Secrets are stored encrypted (server/crypto.ts); the API returns them decrypted.
  botToken: text("bot_token").notNull(),
  acceptedCurrencies: jsonb("accepted_currencies").$type<string[]>().notNull(),
  welcomeMessage: text("welcome_message").notNull(),
  faqContent: text("faq_content").notNull(),
  nowpaymentsApiKey: text("nowpayments_api_key"),
  nowpaymentsIpnSecret: text("nowpayments_ipn_secret"),
  webhookUrl: text("webhook_url"),
  // A paid status with less than (100 - this)% of the amount due is a short payment (docs/product.md rule 3).
  underpaymentTolerancePercent: numeric("underpayment_tolerance_percent", { precision: 4, scale: 2 }).notNull().default("1"),
  /** The languages the shop offers its customers (issue 26; contract/languages.ts), the default first among equals. */
  languages: jsonb("languages").$type<Language[]>().notNull().default(sql`'["en"]'::jsonb`),
  /** What a customer whose Telegram language the shop does not offer gets, and what a missing translation falls back to. */
  defaultLanguage: text("default_language").$type<Language>().notNull().default("en"),
  welcomeMessageTranslations: jsonb("welcome_message_translations").$type<TextTranslations>().notNull().default(sql`'{}'::jsonb`),
  faqContentTranslations: jsonb("faq_content_translations").$type<TextTranslations>().notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The payment gateways beside Bot Settings' NOWPayments keys (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md):
 * the owner's BTCPay Server and which gateway takes each coin. One row (id "default"). The API key and
 * the webhook secret are stored encrypted (server/crypto.ts), as Bot Settings' secrets are.
 */
export const paymentGatewaySettings = pgTable(
  "payment_gateway_settings",
  {
    id: text("id").primaryKey().default("default"),
    btcpayServerUrl: text("btcpay_server_url"),
    btcpayStoreId: text("btcpay_store_id"),
    btcpayApiKey: text("btcpay_api_key"),
    /** The webhook the shop registered on the store: BTCPay's id, the address it posts to, its signing secret (encrypted). */
    btcpayWebhookId: text("btcpay_webhook_id"),
    btcpayWebhookUrl: text("btcpay_webhook_url"),
    btcpayWebhookSecret: text("btcpay_webhook_secret"),
    /** Coin ("BTC") to gateway ("nowpayments" | "btcpay"); a coin left out is NOWPayments'. */
    coinGateways: jsonb("coin_gateways").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("payment_gateway_settings_one_row", sql`${t.id} = 'default'`)],
);

export const categories = pgTable(
  "categories",
  {
    id: id(),
    name: text("name").notNull(),
    description: text("description"),
    icon: text("icon"),
    // Restrict: a category with subcategories is refused a delete (docs/product.md rule 5).
    parentId: uuid("parent_id").references((): AnyPgColumn => categories.id, { onDelete: "restrict" }),
    /** Name and description in other languages (issue 26): { "de": { "name": "…" } }; missing falls back to these. */
    translations: jsonb("translations").$type<NameTranslations>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("categories_parent_id_idx").on(t.parentId)],
);

export const products = pgTable(
  "products",
  {
    id: id(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    price: money("price").notNull(),
    stock: integer("stock").notNull().default(0),
    categoryId: uuid("category_id").references(() => categories.id, { onDelete: "set null" }),
    /** The main photo: always image_urls[1], or null without photos (kept for the first version's clients). */
    imageUrl: text("image_url"),
    /**
     * The photos in order (issue 23). A row inserted with image_url alone (a backup from before the list)
     * gets it as its only photo from the products_image_urls_from_image_url trigger (drizzle/0023).
     */
    imageUrls: text("image_urls").array().notNull().default(sql`'{}'::text[]`),
    bulkPricing: jsonb("bulk_pricing").$type<BulkPricingTier[] | null>(),
    isActive: boolean("is_active").notNull().default(true),
    /** At or below this stock the product counts as low on stock (issue 13): the dashboard's card and the Products filter. */
    lowStockThreshold: integer("low_stock_threshold").notNull().default(3),
    /** Its options in order (issue 23): [{ name: "Size", values: ["S", "M"] }]; [] for a product sold in one kind. */
    options: jsonb("options").$type<{ name: string; values: string[] }[]>().notNull().default(sql`'[]'::jsonb`),
    /** Name and description in other languages (issue 26): { "de": { "name": "…" } }; missing falls back to these. */
    translations: jsonb("translations").$type<NameTranslations>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("products_category_id_idx").on(t.categoryId),
    // The Products list's order with its id tie-break (server/shop/catalogue/product-list.ts).
    index("products_created_at_id_idx").on(t.createdAt, t.id),
    // docs/product.md rule 2: stock never goes below zero, whatever code path writes it.
    check("products_stock_nonnegative", sql`${t.stock} >= 0`),
    check("products_low_stock_threshold_nonnegative", sql`${t.lowStockThreshold} >= 0`),
    // Telegram's album holds 10 photos (contract MAX_PRODUCT_IMAGES).
    check("products_image_urls_at_most_ten", sql`cardinality(${t.imageUrls}) <= 10`),
  ],
);

/**
 * What is actually on the shelf (issue 23; docs/decisions/0034-product-variants.md): every product has
 * at least one variant; one without options has a hidden default variant whose id is the product's id.
 * Stock is reserved per variant; products.stock is the sum over its active variants, kept by the
 * product_variants_stock trigger (drizzle/0024) whatever code path writes a variant.
 */
export const productVariants = pgTable(
  "product_variants",
  {
    id: id(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** { "Size": "M", "Colour": "Black" }; {} for the default variant. */
    optionValues: jsonb("option_values").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** "M / Black" in the options' order; "" for the default variant. */
    label: text("label").notNull().default(""),
    sku: text("sku"),
    /** null: the product's price. */
    price: money("price"),
    stock: integer("stock").notNull().default(0),
    imageUrl: text("image_url"),
    isActive: boolean("is_active").notNull().default(true),
    /** The editor's order. */
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("product_variants_product_id_idx").on(t.productId, t.position),
    check("product_variants_stock_nonnegative", sql`${t.stock} >= 0`),
  ],
);

export const postageOptions = pgTable("postage_options", {
  id: id(),
  name: text("name").notNull(),
  price: money("price").notNull(),
  description: text("description"),
  estimatedDays: integer("estimated_days"),
  isActive: boolean("is_active").notNull().default(true),
  /** Name and description in other languages (issue 26). */
  translations: jsonb("translations").$type<NameTranslations>().notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
});

/**
 * Discount codes (issue 23; the rules in server/shop/ordering/). timesHeld counts uses held by orders
 * not yet paid, timesUsed the uses counted on payment; the check keeps both within usageLimit whatever
 * runs in parallel (the row update that holds a use is what a checkout races on).
 */
export const coupons = pgTable(
  "coupons",
  {
    id: id(),
    /** In capitals (contract/coupons.ts normaliseCouponCode): unique whatever the case the owner typed. */
    code: text("code").notNull(),
    kind: text("kind").$type<"percent" | "fixed">().notNull(),
    /** A percentage (0-100] for "percent", GBP for "fixed". */
    value: money("value").notNull(),
    minSubtotal: money("min_subtotal"),
    maxDiscount: money("max_discount"),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    usageLimit: integer("usage_limit"),
    perCustomerLimit: integer("per_customer_limit"),
    firstOrderOnly: boolean("first_order_only").notNull().default(false),
    productIds: uuid("product_ids").array().notNull().default(sql`'{}'::uuid[]`),
    categoryIds: uuid("category_ids").array().notNull().default(sql`'{}'::uuid[]`),
    isActive: boolean("is_active").notNull().default(true),
    timesUsed: integer("times_used").notNull().default(0),
    timesHeld: integer("times_held").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("coupons_code_idx").on(t.code),
    check("coupons_kind", sql`${t.kind} in ('percent', 'fixed')`),
    check("coupons_value_positive", sql`${t.value} > 0 and (${t.kind} <> 'percent' or ${t.value} <= 100)`),
    check("coupons_uses_nonnegative", sql`${t.timesUsed} >= 0 and ${t.timesHeld} >= 0`),
    check("coupons_uses_within_limit", sql`${t.usageLimit} is null or ${t.timesUsed} + ${t.timesHeld} <= ${t.usageLimit}`),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: id(),
    telegramUserId: text("telegram_user_id").notNull(),
    telegramUsername: text("telegram_username"),
    status: text("status").notNull().default("pending"),
    totalAmount: money("total_amount").notNull(),
    currency: text("currency").notNull(),
    paymentMethod: text("payment_method"),
    paymentStatus: text("payment_status").default("waiting"),
    paymentId: text("payment_id"),
    /** Which gateway made the payment (issue 24): "nowpayments" (also for orders from before, null) or "btcpay". */
    paymentGateway: text("payment_gateway"),
    /** The gateway's own page for paying it (BTCPay's invoice checkout link); null when it has none. */
    paymentCheckoutUrl: text("payment_checkout_url"),
    transactionHash: text("transaction_hash"),
    /**
     * The shipping address as one encrypted envelope (shop/vaults/address-vault.ts; issue 15): never in clear.
     * Null once erased (addressErasedAt) or for an order that never had one.
     */
    address: text("address"),
    /** Blind index tokens of the address (keyed HMACs of the postcode, its outward code, the name and its words): the owner's search. */
    addressSearch: text("address_search").array(),
    // No foreign key: deleting a postage option changes nothing on past orders (docs/product.md rule 5);
    // the name and price it had at checkout are kept below.
    postageOptionId: uuid("postage_option_id"),
    postageName: text("postage_name"),
    postagePrice: money("postage_price"),
    trackingNumber: text("tracking_number"),
    /** Who carries the parcel (issue 13): a known carrier's name gets a tracking link in the dispatch message. */
    carrier: text("carrier"),
    // What the customer must send, as the gateway answered it (beyond docs/product.md §3, for the bot).
    payAddress: text("pay_address"),
    payAmount: text("pay_amount"),
    payCurrency: text("pay_currency"),
    paymentExpiresAt: timestamp("payment_expires_at", { withTimezone: true }),
    // Crypto actually received so far (partially_paid shortfall is payAmount - actuallyPaid).
    actuallyPaid: text("actually_paid"),
    // Set once the reserved stock went back on the shelf, so it is released exactly once.
    stockReleasedAt: timestamp("stock_released_at", { withTimezone: true }),
    // When the payment was confirmed in full (or accepted by the owner): revenue counts by this.
    paidAt: timestamp("paid_at", { withTimezone: true }),
    // Something the owner must act on: "refund_due" (cancelled after money arrived) or
    // "refunded_after_dispatch" (the gateway refunded an order already sent).
    adminFlag: text("admin_flag"),
    /** When the order was completed or failed (set by a trigger, drizzle/0012): retention counts from it. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** When its shipping address was erased (retention or the customer's /forgetme, issue 15); null while kept. */
    addressErasedAt: timestamp("address_erased_at", { withTimezone: true }),
    /**
     * An order of Bot Preview's test customer (issue 14, item 1; docs/decisions/0023): paid by simulation,
     * never by the gateway, left out of revenue and the numbers, deletable whatever its status.
     */
    isTest: boolean("is_test").notNull().default(false),
    /**
     * Where the customer placed it (contract ORDER_CHANNELS): "bot" (its lines were the customer's cart) or
     * "storefront" (the Mini App sent its lines). Orders from before the storefront are the bot's.
     */
    placedFrom: text("placed_from").$type<OrderChannel>().notNull().default("bot"),
    /**
     * The customer's dispatch message (issue 22; docs/decisions/0027-dispatch-notice-held.md): "held" until
     * dispatchNoticeDueAt (the owner may still undo the dispatch), then "sending" (claimed by one sender),
     * then "sent" or "failed". Null: no message asked for.
     */
    dispatchNoticeState: text("dispatch_notice_state").$type<"held" | "sending" | "sent" | "failed">(),
    dispatchNoticeDueAt: timestamp("dispatch_notice_due_at", { withTimezone: true }),
    /** The owner's note added to the dispatch message (the dispatch dialog's "Note to the customer"); null: none. */
    dispatchNoticeNote: text("dispatch_notice_note"),
    /** The coupon applied at checkout (issue 23), as the customer typed it (normalised): kept whatever happens to the coupon later. */
    couponCode: text("coupon_code"),
    /** What the coupon took off the items (never the postage); totalAmount is already net of it. */
    discountAmount: money("discount_amount").notNull().default("0"),
    /**
     * The coupon whose use this order holds or counts (null: none, or the coupon was deleted since), and
     * where that use stands: "held" from checkout, "counted" once paid, "released" when the order failed
     * (shop/orders/coupon-uses.ts). The per-customer limit counts the held and counted ones.
     */
    couponId: uuid("coupon_id").references((): AnyPgColumn => coupons.id, { onDelete: "set null" }),
    couponUse: text("coupon_use").$type<"held" | "counted" | "released">(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The dispatch-notice sender's look for due messages reads only the held ones.
    index("orders_dispatch_notice_due_idx").on(t.dispatchNoticeDueAt).where(sql`dispatch_notice_state = 'held'`),
    // Exactly the test customer's orders are test orders: no real customer's order can be one, nor the other way round.
    check("orders_is_test_is_the_test_customer", sql`${t.isTest} = (${t.telegramUserId} = '${sql.raw(TEST_CUSTOMER_ID)}')`),
    // The Orders list (server/shop/orders/order-list.ts): each sort with its id tie-break, alone and after a
    // status, so a keyset page of any filter reads just its rows from an index.
    index("orders_status_created_at_id_idx").on(t.status, t.createdAt, t.id),
    index("orders_created_at_id_idx").on(t.createdAt, t.id),
    index("orders_status_total_id_idx").on(t.status, t.totalAmount, t.id),
    index("orders_total_id_idx").on(t.totalAmount, t.id),
    // A customer's uses of a coupon (the per-customer limit, "already used by you").
    index("orders_coupon_customer_idx").on(t.couponId, t.telegramUserId).where(sql`coupon_id is not null`),
    check("orders_placed_from", sql`${t.placedFrom} in ('bot', 'storefront')`),
    check("orders_coupon_use", sql`${t.couponUse} is null or ${t.couponUse} in ('held', 'counted', 'released')`),
    // The @username prefix search, spelled as order-list.ts spells it; text_pattern_ops lets LIKE 'abc%'
    // use it under any collation. Names and postcodes are found through the blind index (address_search).
    index("orders_username_search_idx").using("btree", sql`lower(${t.telegramUsername}) text_pattern_ops`),
    // fastupdate off: a search sees new rows in the index itself, and the planner costs it right (no pending list).
    index("orders_address_search_idx").using("gin", t.addressSearch).with({ fastupdate: false }),
    index("orders_telegram_user_id_idx").on(t.telegramUserId),
    // The dashboard's counts and revenue (shop/insights/stats.ts) and the revenue chart (shop/insights/revenue.ts) answer
    // from these alone (index-only scans): the counts leave test orders out, and the revenue rule reads
    // status, payment status, the test flag and the total, so neither visits the orders themselves.
    index("orders_status_counted_idx").on(t.status).where(sql`not ${t.isTest}`),
    index("orders_paid_at_revenue_idx").on(t.paidAt, t.status, t.paymentStatus, t.isTest, t.totalAmount),
    // The retention pass (shop/privacy/privacy.ts): closed orders that still hold an address, by when they closed.
    index("orders_retention_idx").on(t.closedAt).where(sql`${t.address} is not null`),
    uniqueIndex("orders_payment_id_idx").on(t.paymentId),
  ],
);

/** The audit trail of an order: who changed what, when (payments, the owner, expiry). */
export const orderEvents = pgTable(
  "order_events",
  {
    id: id(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** "admin", "gateway", "system" (expiry, sweeps) or "customer". */
    actor: text("actor").notNull(),
    /** A short machine name: "payment_accepted", "cancelled", "refunded", "expired", ... */
    action: text("action").notNull(),
    /** A sentence for the owner. */
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.createdAt)],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: id(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    // No foreign key: past orders keep the id of a product that was deleted (docs/product.md rule 5).
    productId: uuid("product_id").notNull(),
    productName: text("product_name"),
    /** The variant bought (no foreign key either: it may be deleted later); null on orders from before variants. */
    variantId: uuid("variant_id"),
    /** Its label and SKU as bought (issue 23): the order keeps them whatever happens to the product. */
    variantLabel: text("variant_label"),
    sku: text("sku"),
    /** The product's name as the customer saw it, when their language was not the shop's default (issue 26). */
    shownName: text("shown_name"),
    quantity: integer("quantity").notNull(),
    price: money("price").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("order_items_order_id_idx").on(t.orderId)],
);

export const customerMessages = pgTable(
  "customer_messages",
  {
    id: id(),
    telegramUserId: text("telegram_user_id").notNull(),
    telegramUsername: text("telegram_username"),
    /** The text as one encrypted envelope (shop/vaults/message-vault.ts; issue 15): never in clear. */
    message: text("message").notNull(),
    /** Blind index tokens of the text's words (keyed HMACs): the Messages search, without the text. */
    searchTokens: text("search_tokens").array(),
    isFromCustomer: boolean("is_from_customer").notNull().default(true),
    isRead: boolean("is_read").notNull().default(false),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // The Messages lists (server/shop/customers/message-list.ts): newest first with the id tie-break; one
    // customer's thread and the conversations' aggregate; the unread ones alone (few, often asked).
    index("customer_messages_created_at_id_idx").on(t.createdAt, t.id),
    index("customer_messages_user_idx").on(t.telegramUserId, t.createdAt, t.id),
    index("customer_messages_sender_created_at_id_idx").on(t.isFromCustomer, t.createdAt, t.id),
    index("customer_messages_unread_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.isFromCustomer} and not ${t.isRead}`),
    index("customer_messages_username_search_idx").using("btree", sql`lower(${t.telegramUsername}) text_pattern_ops`),
    index("customer_messages_search_tokens_idx").using("gin", t.searchTokens).with({ fastupdate: false }),
  ],
);

export const cartItems = pgTable(
  "cart_items",
  {
    id: id(),
    telegramUserId: text("telegram_user_id").notNull(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /**
     * The variant in the cart (issue 23). No foreign key, so a backup from before variants restores (a
     * trigger fills it with the product's id, its default variant's id, drizzle/0024); replacing a
     * product's variants takes the lines of the ones gone out of carts (shop/catalogue/variants.ts).
     */
    variantId: uuid("variant_id").notNull(),
    quantity: integer("quantity").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("cart_items_user_variant_idx").on(t.telegramUserId, t.variantId)],
);

// --- Beyond docs/product.md §3: what authentication, uploads, payments and the bot need ---

// Dashboard accounts (issue 25; docs/decisions/0036-staff-accounts-and-roles.md): one owner, and the
// staff the owner invites. Roles and what they may do: contract/team.ts.
export const accounts = pgTable(
  "accounts",
  {
    id: id(),
    /** Lower-case (contract/team.ts USERNAME_PATTERN); the owner's is "owner". */
    username: text("username").notNull(),
    name: text("name").notNull(),
    role: text("role").notNull(),
    /** scrypt (server/auth/passwords.ts); null until an invited account sets its password. */
    passwordHash: text("password_hash"),
    disabled: boolean("disabled").notNull().default(false),
    /** The TOTP secret, encrypted with the server's key (server/crypto.ts); set at enrolment, in use once `totpEnabled`. */
    totpSecret: text("totp_secret"),
    totpEnabled: boolean("totp_enabled").notNull().default(false),
    /** The time step of the last code accepted: a code is good once (RFC 6238 §5.2). */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("accounts_username_idx").on(t.username),
    // One owner: the shop's keys and staff have one holder.
    uniqueIndex("accounts_one_owner_idx").on(t.role).where(sql`role = 'owner'`),
    check("accounts_role_check", sql`${t.role} in ('owner', 'manager', 'packer', 'support')`),
    check("accounts_username_check", sql`${t.username} = lower(${t.username}) and length(${t.username}) between 2 and 32`),
  ],
);

/** One-time links that let an invited account set its password (48 hours; only the hash is kept). */
export const accountInvites = pgTable(
  "account_invites",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("account_invites_account_idx").on(t.accountId)],
);

/** Two-factor recovery codes, ten at enrolment, each good once (only the hash is kept). */
export const accountRecoveryCodes = pgTable(
  "account_recovery_codes",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("account_recovery_codes_account_idx").on(t.accountId)],
);

/** The team's rules; one row (id 1). */
export const teamSettings = pgTable(
  "team_settings",
  {
    id: integer("id").primaryKey(),
    /** Staff must turn two-factor on before they can do anything but that. */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check("team_settings_one_row", sql`${t.id} = 1`)],
);

export const sessions = pgTable(
  "sessions",
  {
    // sha256 of the cookie token: a leaked table does not leak live sessions.
    tokenHash: text("token_hash").primaryKey(),
    /** What GET/DELETE /api/sessions name a session by (the token never leaves the cookie). */
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    /** Null only in rows from before accounts (migration 0026 gives them to the owner); such a session opens nothing. */
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The browser's User-Agent and address at sign-in, shown in the session list. */
    userAgent: text("user_agent"),
    ip: text("ip"),
    /** When this session last proved a fresh two-factor code (sign-in or step-up). */
    totpAt: timestamp("totp_at", { withTimezone: true }),
  },
  (t) => [
    index("sessions_expires_at_idx").on(t.expiresAt),
    uniqueIndex("sessions_id_idx").on(t.id),
    index("sessions_account_idx").on(t.accountId),
  ],
);

export const uploadTokens = pgTable("upload_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  objectId: text("object_id").notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

export const paymentEvents = pgTable(
  "payment_events",
  {
    id: id(),
    orderId: uuid("order_id"),
    paymentId: text("payment_id").notNull(),
    paymentStatus: text("payment_status").notNull(),
    // The same (payment, status) is applied once, however often the gateway repeats it.
    dedupeKey: text("dedupe_key").notNull(),
    payload: jsonb("payload").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_events_dedupe_key_idx").on(t.dedupeKey), index("payment_events_order_idx").on(t.orderId)],
);

export const botConversations = pgTable("bot_conversations", {
  telegramUserId: text("telegram_user_id").primaryKey(),
  state: jsonb("state").$type<Record<string, unknown>>().notNull(),
  updatedAt: updatedAt(),
});

/**
 * Telegram updates already taken: a repeated update_id (Telegram's retry) acts once. Keyed by the
 * bot too (the number before ":" in its token): update ids are counted per bot, and the owner may
 * switch to another bot. Pruned after a day.
 */
export const telegramUpdates = pgTable(
  "telegram_updates",
  {
    botId: bigint("bot_id", { mode: "number" }).notNull(),
    updateId: bigint("update_id", { mode: "number" }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    /** Whose update it is (the Telegram user id): one customer's updates are handled in order. */
    chatKey: text("chat_key"),
    /** The update as Telegram sent it, until it is handled; then only its id is kept. */
    payload: jsonb("payload").$type<Record<string, unknown> | null>(),
    /** Set once handled (or given up on): the inbox's worker takes only unhandled ones. */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    /** A worker holds it until then (renewed while it works); a crashed worker's updates are taken again after. */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    /** How many times a worker took it: one that crashes the worker every time is given up on. */
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.updateId] }),
    index("telegram_updates_received_at_idx").on(t.receivedAt),
    // The inbox's queue: unhandled updates per chat, in order.
    index("telegram_updates_pending_idx").on(t.botId, t.chatKey, t.updateId).where(sql`${t.handledAt} is null`),
    // At most one update per customer in a worker's hands, whichever instance took it and however
    // (server/telegram/inbox.ts: taken as it is stored, or by the claim): the database itself refuses
    // a second, so two instances racing can never handle one customer's updates at once (decision 22).
    uniqueIndex("telegram_updates_held_idx")
      .on(t.botId, t.chatKey)
      .where(sql`${t.handledAt} is null and ${t.claimedUntil} is not null`),
  ],
);

/**
 * Failed-login counters (docs/product.md rule 9), in the database so every server instance on one
 * PostgreSQL shares them. One row per client key and one "global" row; a fixed window each.
 */
export const loginThrottle = pgTable(
  "login_throttle",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull(),
    windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("login_throttle_window_idx").on(t.windowStartedAt)],
);

export const telegramFileCache = pgTable("telegram_file_cache", {
  imagePath: text("image_path").primaryKey(),
  fileId: text("file_id").notNull(),
  createdAt: createdAt(),
});

/**
 * When each timed job last started, by any server instance: with several instances on one
 * PostgreSQL, a job runs once per interval in all, not once per instance (payments/jobs.ts).
 */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }).notNull(),
});

/**
 * Customers the owner blocked (issue 13): the bot answers them only with a polite refusal. One row
 * per blocked Telegram user; unblocking deletes it.
 */
export const blockedCustomers = pgTable("blocked_customers", {
  telegramUserId: text("telegram_user_id").primaryKey(),
  blockedAt: timestamp("blocked_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The owner's note about a customer (issue 22 item 9): one per Telegram user, shown beside their
 * conversation and on their page. Personal data, so `note` is one encrypted envelope bound to the
 * customer (shop/vaults/note-vault.ts); clearing the note deletes the row, and so does forgetting the
 * customer (docs/decisions/0029-customer-notes.md).
 */
export const customerNotes = pgTable("customer_notes", {
  telegramUserId: text("telegram_user_id").primaryKey(),
  note: text("note").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Every admin write, kept for "who changed what" (issue 13): when, what was done (e.g.
 * "product.update"), to what, and a summary of the change that never holds a secret.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    createdAt: createdAt(),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    summary: text("summary").notNull().default(""),
    /** The client's address as the server saw it (after TRUST_PROXY). */
    ip: text("ip"),
    /** The account that acted (issue 25), and its username then: the entry still names it once the account is gone. */
    accountId: uuid("account_id"),
    accountUsername: text("account_username"),
  },
  (t) => [
    index("audit_log_created_at_id_idx").on(t.createdAt, t.id),
    index("audit_log_target_idx").on(t.targetType, t.targetId, t.createdAt),
    index("audit_log_account_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

/**
 * Everyone who started the bot (issue 14): the audience "all customers" of a broadcast. /start
 * records them (and opts them back in); /stop opts them out; a 403 from Telegram (they blocked the
 * bot) marks them unreachable until they /start again.
 */
export const botCustomers = pgTable("bot_customers", {
  telegramUserId: text("telegram_user_id").primaryKey(),
  telegramUsername: text("telegram_username"),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  optedOutAt: timestamp("opted_out_at", { withTimezone: true }),
  unreachableAt: timestamp("unreachable_at", { withTimezone: true }),
  /**
   * The language the bot speaks to them (issue 26): their Telegram language_code when the shop offers
   * it, or what they chose with /language; null until first seen with one (the shop's default then).
   */
  language: text("language").$type<Language>(),
  /** They chose it themselves (/language): their Telegram language_code no longer changes it. */
  languageChosen: boolean("language_chosen").notNull().default(false),
});

/** Who a broadcast goes to (contract/broadcasts.ts); "restock" is a restock alert's waiting customers. */
export type BroadcastAudienceRow =
  | { kind: "all" }
  | { kind: "product"; productId: string }
  | { kind: "recent"; days: number }
  | { kind: "never-ordered" }
  | { kind: "restock"; productId: string; variantId?: string };

/**
 * A message to many customers (issue 14): a broadcast from the Broadcasts screen, or a restock alert.
 * Its recipients are the queue (broadcast_recipients); docs/decisions/0019-broadcast-queue.md.
 */
export const broadcasts = pgTable(
  "broadcasts",
  {
    id: id(),
    kind: text("kind").$type<"broadcast" | "restock">().notNull().default("broadcast"),
    text: text("text").notNull(),
    /** The text in other languages (issue 26): each customer gets theirs, else `text`. */
    textTranslations: jsonb("text_translations").$type<TextTranslations>().notNull().default(sql`'{}'::jsonb`),
    imageUrl: text("image_url"),
    audience: jsonb("audience").$type<BroadcastAudienceRow>().notNull(),
    /** A restock alert's product: its message carries a button that opens the product in the bot. */
    productId: uuid("product_id"),
    total: integer("total").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("broadcasts_kind_created_at_idx").on(t.kind, t.createdAt)],
);

/**
 * One row per recipient of a broadcast: the durable send queue. pending -> sending (claimed, the
 * call to Telegram in flight) -> sent | failed | skipped. A row left in "sending" by a crash is never
 * sent again (at most once): it becomes failed (docs/decisions/0019-broadcast-queue.md).
 */
export const broadcastRecipients = pgTable(
  "broadcast_recipients",
  {
    broadcastId: uuid("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    telegramUserId: text("telegram_user_id").notNull(),
    state: text("state").$type<"pending" | "sending" | "sent" | "failed" | "skipped">().notNull().default("pending"),
    /** Not to be claimed before this (Telegram's 429 retry_after). */
    notBefore: timestamp("not_before", { withTimezone: true }).notNull().defaultNow(),
    /** When the last call to Telegram for this row started: the rate limits count these. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    /** Why it failed or was skipped, for the owner. */
    error: text("error"),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.telegramUserId] }),
    index("broadcast_recipients_pending_idx").on(t.notBefore).where(sql`state = 'pending'`),
    index("broadcast_recipients_chat_claimed_idx").on(t.telegramUserId, t.claimedAt),
    index("broadcast_recipients_claimed_idx").on(t.claimedAt),
  ],
);

/** Customers who pressed "Notify me when back" on an out-of-stock product (issue 14, item 4). */
export const restockWaits = pgTable(
  "restock_waits",
  {
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The variant awaited (issue 23): a restock alert is per variant. No foreign key, as in cart_items. */
    variantId: uuid("variant_id").notNull(),
    telegramUserId: text("telegram_user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.variantId, t.telegramUserId] }), index("restock_waits_product_id_idx").on(t.productId)],
);

/**
 * Owner alerts (issue 14, item 5): where the owner's alerts go, which kinds they want, and the
 * one-time link code shown in Bot Settings. One row (id is always true); absent until first used.
 */
export const ownerAlertSettings = pgTable(
  "owner_alert_settings",
  {
    id: boolean("id").primaryKey().default(true),
    /** The linked Telegram chat (the owner's private chat with the bot, or a group); null: not linked. */
    chatId: text("chat_id"),
    /** The chat's name as Telegram gave it when linked, for the Bot Settings card. */
    chatTitle: text("chat_title"),
    linkedAt: timestamp("linked_at", { withTimezone: true }),
    paidOrder: boolean("paid_order").notNull().default(true),
    customerMessage: boolean("customer_message").notNull().default(true),
    underpaid: boolean("underpaid").notNull().default(true),
    lowStock: boolean("low_stock").notNull().default(true),
    /** sha256 of the current link code (never the code itself); null once used or replaced. */
    linkCodeHash: text("link_code_hash"),
    linkCodeExpiresAt: timestamp("link_code_expires_at", { withTimezone: true }),
    /** Wrong codes tried against the current one: past a few, it is dropped (6 digits are few to guess). */
    linkCodeFailures: integer("link_code_failures").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("owner_alert_settings_one_row", sql`${t.id}`)],
);

/**
 * How long the shop keeps what customers told it (issue 15): a shipping address this many days after
 * its order was completed or failed, customer messages this many days after they were written. 0 keeps
 * them. One row (id 1); absent, the defaults hold.
 */
export const privacySettings = pgTable(
  "privacy_settings",
  {
    id: integer("id").primaryKey().default(1),
    addressRetentionDays: integer("address_retention_days").notNull().default(30),
    messageRetentionDays: integer("message_retention_days").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("privacy_settings_single_row", sql`${t.id} = 1`),
    check("privacy_settings_address_days_range", sql`${t.addressRetentionDays} between 0 and 3650`),
    check("privacy_settings_message_days_range", sql`${t.messageRetentionDays} between 0 and 3650`),
  ],
);

/**
 * A customer asked to be forgotten (/forgetme or the owner for them) while an order of theirs still
 * needed its address (awaiting payment or dispatch): the address goes once that order is dispatched
 * or closed. Orders placed after the request are a new relationship and are not covered.
 */
export const erasureRequests = pgTable("erasure_requests", {
  telegramUserId: text("telegram_user_id").primaryKey(),
  requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
});

/**
 * Bot Preview's chat simulator (issue 14, item 1): the test customer's chat as the simulator shows it.
 * One row per message, numbered as Telegram numbers a chat's messages: the bot's edits change a row in
 * place, its deletions remove it. Emptied by "Reset test customer".
 */
export const simulatorMessages = pgTable("simulator_messages", {
  messageId: integer("message_id").primaryKey(),
  /** True for what the admin typed as the test customer; false for the bot's messages. */
  fromCustomer: boolean("from_customer").notNull(),
  /** The message's text, or a photo's caption. */
  text: text("text").notNull().default(""),
  /** A photo's address for the browser: a product image (/objects/...) or a data: URL (the payment QR code). */
  photo: text("photo"),
  /** The inline keyboard: rows of buttons ({ text, data } or { text, url }). */
  keyboard: jsonb("keyboard").$type<{ text: string; data?: string; url?: string }[][]>(),
  edited: boolean("edited").notNull().default(false),
  createdAt: createdAt(),
});

/**
 * The data keys that encrypt what customers typed (shop/vaults/vault.ts, docs/decisions/0024-encryption-at-rest.md),
 * each wrapped by the master key (SECRET_KEY or DATA_DIR/secret.key), which is never stored here. One is
 * "current" (new values); during `npm run keys:rotate` the one before is "retiring" (its values are being
 * re-encrypted); then "retired", its wrapped key deleted.
 */
export const dataKeys = pgTable(
  "data_keys",
  {
    id: text("id").primaryKey(),
    /** The key wrapped by the master key ("mk1:..."); null once retired. */
    wrapped: text("wrapped"),
    state: text("state").$type<"current" | "retiring" | "retired">().notNull(),
    createdAt: createdAt(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("data_keys_one_current_idx").on(t.state).where(sql`${t.state} = 'current'`)],
);

/**
 * The owner's keys for owner-only addresses (issue 15, item 2; docs/decisions/0025): the public key
 * new addresses are sealed to, and the private key wrapped by the owner's passphrase, which the
 * server cannot open. At most one key is in use (retired_at null); a retired key stays, so the
 * addresses sealed to it can still be opened by its passphrase.
 */
export const ownerSealKeys = pgTable(
  "owner_seal_keys",
  {
    /** The public key's fingerprint (contract/owner-seal.ts ownerKeyId). */
    keyId: text("key_id").primaryKey(),
    /** SubjectPublicKeyInfo of a P-256 point, base64. */
    publicKey: text("public_key").notNull(),
    /** The PKCS#8 private key under AES-256-GCM with the passphrase's key: base64 of nonce and ciphertext. */
    wrappedPrivateKey: text("wrapped_private_key").notNull(),
    salt: text("salt").notNull(),
    iterations: integer("iterations").notNull(),
    createdAt: createdAt(),
    /** When the passphrase was last set (the key pair stays the same). */
    passphraseChangedAt: timestamp("passphrase_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** When private addresses were turned off; new addresses are then encrypted with the server's key again. */
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("owner_seal_keys_one_in_use_idx").using("btree", sql`(${t.retiredAt} is null)`).where(sql`${t.retiredAt} is null`),
    check("owner_seal_keys_iterations_range", sql`${t.iterations} between 600000 and 10000000`),
  ],
);

/**
 * A staff account's own key for reading sealed addresses (docs/decisions/0037): made in its browser
 * like the owner's, its private half wrapped by the staff member's passphrase. One per account.
 */
export const accountSealKeys = pgTable(
  "account_seal_keys",
  {
    accountId: uuid("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** SubjectPublicKeyInfo of a P-256 point, base64. */
    publicKey: text("public_key").notNull(),
    /** The PKCS#8 private key under AES-256-GCM with the staff member's passphrase key: base64 of nonce and ciphertext. */
    wrappedPrivateKey: text("wrapped_private_key").notNull(),
    salt: text("salt").notNull(),
    iterations: integer("iterations").notNull(),
    /** The public key's fingerprint (contract/owner-seal.ts ownerKeyId), which the owner checks before granting. */
    keyId: text("key_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("account_seal_keys_key_id_idx").on(t.keyId),
    check("account_seal_keys_iterations_range", sql`${t.iterations} between 600000 and 10000000`),
  ],
);

/**
 * The owner's private keys, each sealed by the owner's browser to a staff account's key
 * (contract/owner-seal.ts, "Grants"): only that account's passphrase opens it. Revoking deletes
 * the rows; a new staff key deletes them too (they were sealed to the old one).
 */
export const privateAddressGrants = pgTable(
  "private_address_grants",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accountSealKeys.accountId, { onDelete: "cascade" }),
    ownerKeyId: text("owner_key_id")
      .notNull()
      .references(() => ownerSealKeys.keyId, { onDelete: "cascade" }),
    /** An owner-seal:v1 value sealed to the account's key, bound to grantBinding(accountId, ownerKeyId). */
    sealedPrivateKey: text("sealed_private_key").notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.ownerKeyId] }), index("private_address_grants_owner_key_idx").on(t.ownerKeyId)],
);

/**
 * Which master key (SECRET_KEY or DATA_DIR/secret.key) this shop's secrets and data keys are under
 * (shop/privacy/key-check.ts; docs/SECURITY.md "The secret key"): one row, an HMAC of a constant with the key,
 * written at the first start. A start with another key is refused instead of reading everything as
 * not set. It tells nothing of the key: checking a guess against it is no easier than against any
 * encrypted secret of the same row set.
 */
export const keyCheck = pgTable("key_check", {
  /** Always "master": one row. */
  id: text("id").primaryKey(),
  /** "kc1:" and the HMAC-SHA256 of a constant under the master key, base64url. */
  proof: text("proof").notNull(),
  createdAt: createdAt(),
});
