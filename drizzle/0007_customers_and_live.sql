CREATE TABLE "blocked_customers" (
	"telegram_user_id" text PRIMARY KEY NOT NULL,
	"blocked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Live dashboard (issue 13): the same change notices as drizzle/0006 for the tables the cockpit shows
-- live. GET /api/events (server/http/routes/events.ts) listens on every instance and tells the
-- browsers which lists changed: orders (new orders, statuses, payments), customer_messages, and
-- blocked_customers (the Customers screen).
CREATE TRIGGER "orders_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "orders"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();--> statement-breakpoint
CREATE TRIGGER "customer_messages_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "customer_messages"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();--> statement-breakpoint
CREATE TRIGGER "blocked_customers_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "blocked_customers"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();
