CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_updates" (
	"bot_id" bigint NOT NULL,
	"update_id" bigint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_updates_bot_id_update_id_pk" PRIMARY KEY("bot_id","update_id")
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_postage_option_id_postage_options_id_fk";
--> statement-breakpoint
ALTER TABLE "bot_settings" ADD COLUMN "underpayment_tolerance_percent" numeric(4, 2) DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "postage_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "postage_price" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "admin_flag" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_throttle_window_idx" ON "login_throttle" USING btree ("window_started_at");--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "telegram_updates_received_at_idx" ON "telegram_updates" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_nonnegative" CHECK ("products"."stock" >= 0);--> statement-breakpoint
-- Orders placed before postage snapshots: keep what their option says now.
UPDATE "orders" SET "postage_name" = "postage_options"."name", "postage_price" = "postage_options"."price"
  FROM "postage_options" WHERE "orders"."postage_option_id" = "postage_options"."id";--> statement-breakpoint
-- Orders paid before paid_at existed: revenue used to count them by creation time.
UPDATE "orders" SET "paid_at" = "created_at" WHERE "status" IN ('processing', 'dispatched', 'completed');
