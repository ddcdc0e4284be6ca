CREATE TABLE "bot_customers" (
	"telegram_user_id" text PRIMARY KEY NOT NULL,
	"telegram_username" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opted_out_at" timestamp with time zone,
	"unreachable_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "broadcast_recipients" (
	"broadcast_id" uuid NOT NULL,
	"telegram_user_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "broadcast_recipients_broadcast_id_telegram_user_id_pk" PRIMARY KEY("broadcast_id","telegram_user_id")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text DEFAULT 'broadcast' NOT NULL,
	"text" text NOT NULL,
	"image_url" text,
	"audience" jsonb NOT NULL,
	"product_id" uuid,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "restock_waits" (
	"product_id" uuid NOT NULL,
	"telegram_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "restock_waits_product_id_telegram_user_id_pk" PRIMARY KEY("product_id","telegram_user_id")
);
--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_waits" ADD CONSTRAINT "restock_waits_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_recipients_pending_idx" ON "broadcast_recipients" USING btree ("not_before") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "broadcast_recipients_chat_claimed_idx" ON "broadcast_recipients" USING btree ("telegram_user_id","claimed_at");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_claimed_idx" ON "broadcast_recipients" USING btree ("claimed_at");--> statement-breakpoint
CREATE INDEX "broadcasts_kind_created_at_idx" ON "broadcasts" USING btree ("kind","created_at");