CREATE TABLE "payment_gateway_settings" (
	"id" text PRIMARY KEY DEFAULT 'default' NOT NULL,
	"btcpay_server_url" text,
	"btcpay_store_id" text,
	"btcpay_api_key" text,
	"btcpay_webhook_id" text,
	"btcpay_webhook_url" text,
	"btcpay_webhook_secret" text,
	"coin_gateways" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_gateway_settings_one_row" CHECK ("payment_gateway_settings"."id" = 'default')
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_gateway" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_checkout_url" text;