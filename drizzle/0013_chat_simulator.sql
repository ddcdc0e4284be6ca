CREATE TABLE "simulator_messages" (
	"message_id" integer PRIMARY KEY NOT NULL,
	"from_customer" boolean NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"photo" text,
	"keyboard" jsonb,
	"edited" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_is_test_is_the_test_customer" CHECK ("orders"."is_test" = ("orders"."telegram_user_id" = '9007199254740991'));--> statement-breakpoint
-- Test orders (Bot Preview's chat simulator, docs/decisions/0023-chat-simulator.md) are no revenue:
-- the running total (0005) leaves them out, whatever they go through. is_test follows the customer id
-- (the CHECK above), so a change of either is seen.
CREATE OR REPLACE FUNCTION "shop_totals_on_order_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
DECLARE
	delta numeric := 0;
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW."is_test" THEN
		delta := delta + "shop_paid_revenue"(NEW."status", NEW."payment_status", NEW."total_amount");
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD."is_test" THEN
		delta := delta - "shop_paid_revenue"(OLD."status", OLD."payment_status", OLD."total_amount");
	END IF;
	-- Orders that take no money in or out (most inserts: pending) leave the row alone, so checkouts
	-- running side by side never wait on each other for it.
	IF delta <> 0 THEN
		UPDATE "shop_totals" SET "paid_revenue" = "paid_revenue" + delta WHERE "id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER "orders_shop_totals" ON "orders";--> statement-breakpoint
CREATE TRIGGER "orders_shop_totals" AFTER INSERT OR DELETE OR UPDATE OF "status", "payment_status", "total_amount", "is_test" ON "orders"
	FOR EACH ROW EXECUTE FUNCTION "shop_totals_on_order_change"();--> statement-breakpoint
-- The owner is not alerted about the test customer: the owner is the one playing it, at the dashboard,
-- and an alert in a staff group could get a test order packed.
CREATE OR REPLACE FUNCTION "owner_alerts_on_order_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF NEW."is_test" THEN
		RETURN NULL;
	END IF;
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
CREATE OR REPLACE FUNCTION "owner_alerts_on_customer_message"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF NEW."is_from_customer" AND NEW."created_at" > now() - interval '1 hour'
		AND NEW."telegram_user_id" <> '9007199254740991' THEN
		INSERT INTO "owner_alerts" ("kind", "ref") VALUES ('customer_message', NEW."id"::text)
			ON CONFLICT ("kind", "ref") DO NOTHING;
	END IF;
	RETURN NULL;
END $$;
