CREATE TABLE "owner_alert_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"chat_id" text,
	"chat_title" text,
	"linked_at" timestamp with time zone,
	"paid_order" boolean DEFAULT true NOT NULL,
	"customer_message" boolean DEFAULT true NOT NULL,
	"underpaid" boolean DEFAULT true NOT NULL,
	"low_stock" boolean DEFAULT true NOT NULL,
	"link_code_hash" text,
	"link_code_expires_at" timestamp with time zone,
	"link_code_failures" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owner_alert_settings_one_row" CHECK ("owner_alert_settings"."id")
);
--> statement-breakpoint
-- Owner alerts (issue 14, item 5; docs/decisions/0020-owner-alerts-outbox.md). The outbox is filled by
-- the triggers below, so every way an order gets paid, a message arrives or stock falls counts (the
-- gateway's IPN, the owner accepting a payment, the bot, another server instance), in the same
-- transaction as the change: a change that rolls back raises no alert, one that commits is never
-- lost to a crash. One event is one row (unique kind and ref). Senders (server/telegram/
-- owner-alert-sender.ts) claim rows and mark them sent, skipped or failed.
-- Not a Drizzle table: backups leave it out (a restore must not send old alerts again, nor collide
-- with the rows its own inserts raise).
CREATE TABLE "owner_alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"kind" text NOT NULL CHECK ("kind" IN ('paid_order', 'customer_message', 'underpaid', 'low_stock')),
	"ref" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL CHECK ("state" IN ('pending', 'sent', 'skipped', 'failed')),
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "owner_alerts_kind_ref_idx" ON "owner_alerts" ("kind", "ref");--> statement-breakpoint
CREATE INDEX "owner_alerts_pending_idx" ON "owner_alerts" ("not_before", "id") WHERE "state" = 'pending';--> statement-breakpoint
CREATE INDEX "owner_alerts_done_at_idx" ON "owner_alerts" ("done_at") WHERE "done_at" IS NOT NULL;--> statement-breakpoint
-- A paid order (status to processing with paid_at set: the IPN paid in full, or the owner accepting the
-- money) and a short payment (payment_status becoming partially_paid, with what was paid and due then).
CREATE FUNCTION "owner_alerts_on_order_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF NEW."status" = 'processing' AND NEW."paid_at" IS NOT NULL
		AND (OLD."status" IS DISTINCT FROM 'processing' OR OLD."paid_at" IS NULL) THEN
		INSERT INTO "owner_alerts" ("kind", "ref") VALUES ('paid_order', NEW."id"::text)
			ON CONFLICT ("kind", "ref") DO NOTHING;
	END IF;
	IF NEW."payment_status" = 'partially_paid' AND OLD."payment_status" IS DISTINCT FROM 'partially_paid' THEN
		INSERT INTO "owner_alerts" ("kind", "ref", "payload")
			VALUES ('underpaid', NEW."id"::text,
				jsonb_build_object('paid', NEW."actually_paid", 'due', NEW."pay_amount", 'currency', NEW."pay_currency"))
			ON CONFLICT ("kind", "ref") DO NOTHING;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_owner_alerts" AFTER UPDATE OF "status", "paid_at", "payment_status" ON "orders"
	FOR EACH ROW EXECUTE FUNCTION "owner_alerts_on_order_change"();--> statement-breakpoint
-- A message from a customer (not the owner's reply). Only a recent one: a restore inserts every past
-- message again, and must not alert the owner about each of them.
CREATE FUNCTION "owner_alerts_on_customer_message"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF NEW."is_from_customer" AND NEW."created_at" > now() - interval '1 hour' THEN
		INSERT INTO "owner_alerts" ("kind", "ref") VALUES ('customer_message', NEW."id"::text)
			ON CONFLICT ("kind", "ref") DO NOTHING;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "customer_messages_owner_alerts" AFTER INSERT ON "customer_messages"
	FOR EACH ROW EXECUTE FUNCTION "owner_alerts_on_customer_message"();--> statement-breakpoint
-- Stock falling from above a product's low-stock threshold to at or below it. Each crossing is its own
-- event (the product may be restocked and fall again): the ref carries the writing transaction.
CREATE FUNCTION "owner_alerts_on_stock_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF NEW."stock" < OLD."stock" AND NEW."stock" <= NEW."low_stock_threshold" AND OLD."stock" > OLD."low_stock_threshold" THEN
		INSERT INTO "owner_alerts" ("kind", "ref", "payload")
			VALUES ('low_stock', NEW."id"::text || ':' || txid_current()::text,
				jsonb_build_object('productId', NEW."id", 'name', NEW."name", 'stock', NEW."stock", 'threshold', NEW."low_stock_threshold"))
			ON CONFLICT ("kind", "ref") DO NOTHING;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_owner_alerts" AFTER UPDATE OF "stock" ON "products"
	FOR EACH ROW EXECUTE FUNCTION "owner_alerts_on_stock_change"();--> statement-breakpoint
-- A notice on the change feed (0006) wakes the senders at once, on every instance, after the commit.
CREATE TRIGGER "owner_alerts_notify_change" AFTER INSERT ON "owner_alerts"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();
