CREATE TABLE "customer_notes" (
	"telegram_user_id" text PRIMARY KEY NOT NULL,
	"note" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The owner's notes about customers (issue 22 item 9) are live like the Customers screen: a note saved
-- on one dashboard reaches every other open one (server/shop/customers/live-events.ts, as drizzle/0007).
CREATE TRIGGER "customer_notes_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "customer_notes"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();
