import { z } from "zod";
import { CurrencySchema } from "./common";
import { IdSchema, MoneyTextSchema } from "./fields";
import { ORDER_STATUSES } from "./orders";

// The dashboard: its counts and the revenue chart.

export const DashboardStatsSchema = z
  .object({
    totalProducts: z.int(),
    pendingOrders: z.int(),
    processingOrders: z.int(),
    unreadMessages: z.int(),
    /** Paid orders since local midnight, over the last 7 days and over all time (docs/product.md rule 6). */
    dailyRevenue: MoneyTextSchema,
    weeklyRevenue: MoneyTextSchema,
    totalRevenue: MoneyTextSchema,
    /** Active products whose stock is at or below their lowStockThreshold. */
    lowStockProducts: z.int(),
  })
  .meta({ id: "DashboardStats" });
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

/** GET /api/dashboard/revenue: the chart's range, either `days` (daily points) or `months` (monthly points). */
export const RevenueQuerySchema = z
  .object({
    days: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(366, "must be at most 366")
      .optional()
      .meta({ description: "Daily points for the last N days including today (default 30 when months is not given)" }),
    months: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(36, "must be at most 36")
      .optional()
      .meta({ description: "Monthly points for the last N months including this one" }),
  })
  .refine((query) => query.days === undefined || query.months === undefined, { message: "Give either days or months, not both" });
export type RevenueQuery = z.output<typeof RevenueQuerySchema>;

export const RevenuePointSchema = z.object({
  /** YYYY-MM-DD for a day, YYYY-MM for a month, in the shop's time zone. */
  date: z.string(),
  /** Paid, non-refunded orders by the time the payment was confirmed (docs/product.md rule 6), GBP. */
  revenue: MoneyTextSchema,
  orders: z.int(),
});
export type RevenuePoint = z.infer<typeof RevenuePointSchema>;

export const RevenueReportSchema = z
  .object({
    unit: z.enum(["day", "month"]),
    /** Every day or month of the range, oldest first, empty ones included. */
    series: z.array(RevenuePointSchema),
    /**
     * What coupons took off the range's revenue orders (the same orders as `series`, by paidAt), GBP:
     * the revenue is already net of it (docs/decisions/0030).
     */
    discountsGiven: MoneyTextSchema,
    /**
     * Top 5 products (all their variants together) by units sold in the range's revenue orders; `revenue`
     * is their lines at the prices sold, before any coupon (a discount belongs to the order, not a line).
     */
    bestSellers: z.array(z.object({ productId: IdSchema, name: z.string(), quantity: z.int(), revenue: MoneyTextSchema })),
    /** Orders placed in the range, by status (every status, zeros included). */
    ordersByStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.int() })),
  })
  .meta({ id: "RevenueReport" });
export type RevenueReport = z.infer<typeof RevenueReportSchema>;

// --- The setup checklist of a new shop (issue 22, item 8) ---

/** The steps a new shop goes through before its first real order, in the order they are shown. */
export const SETUP_STEPS = ["bot-token", "payment-gateway", "category", "product", "postage", "test-order"] as const;
export type SetupStepId = (typeof SETUP_STEPS)[number];

/** GET /api/dashboard/setup: what the Dashboard's checklist and Payment Methods card show. */
export const SetupChecklistSchema = z
  .object({
    steps: z.array(z.object({ id: z.enum(SETUP_STEPS), done: z.boolean() })).meta({ description: "Every step, in SETUP_STEPS order" }),
    /** Every step is done: the Dashboard shows no checklist. */
    complete: z.boolean(),
    /** The payment gateway has its API key and IPN secret: customers can pay. */
    paymentGatewayConfigured: z.boolean(),
    /** The coins Bot Settings accept (all three before the settings are first saved, as the form's default). */
    acceptedCurrencies: z.array(CurrencySchema),
  })
  .meta({ id: "SetupChecklist" });
export type SetupChecklist = z.infer<typeof SetupChecklistSchema>;
