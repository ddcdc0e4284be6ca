-- The dashboard's all-time revenue, kept up to date as orders change (issue 12) instead of summed
-- over every order at each request. A trigger keeps it, so every write path counts (payments,
-- refunds, the owner's actions, expiry, restore), and server/shop/stats.ts reads one row.
-- Not a Drizzle table: backups leave it out, and a restore rebuilds it through this trigger.
-- The rule is DESIGN decision 6 (shop/stats.ts PAID_ORDER_STATUSES): paid, and not refunded.
CREATE TABLE "shop_totals" (
	"id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
	"paid_revenue" numeric(14, 2) NOT NULL DEFAULT 0
);--> statement-breakpoint
CREATE FUNCTION "shop_paid_revenue"("status" text, "payment_status" text, "total" numeric) RETURNS numeric
	LANGUAGE sql IMMUTABLE
	AS $$ SELECT CASE WHEN "status" IN ('processing', 'dispatched', 'completed') AND "payment_status" IS DISTINCT FROM 'refunded' THEN "total" ELSE 0 END $$;--> statement-breakpoint
INSERT INTO "shop_totals" ("id", "paid_revenue")
	SELECT true, coalesce(sum("shop_paid_revenue"("status", "payment_status", "total_amount")), 0) FROM "orders";--> statement-breakpoint
CREATE FUNCTION "shop_totals_on_order_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
DECLARE
	delta numeric := 0;
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		delta := delta + "shop_paid_revenue"(NEW."status", NEW."payment_status", NEW."total_amount");
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		delta := delta - "shop_paid_revenue"(OLD."status", OLD."payment_status", OLD."total_amount");
	END IF;
	-- Orders that take no money in or out (most inserts: pending) leave the row alone, so checkouts
	-- running side by side never wait on each other for it.
	IF delta <> 0 THEN
		UPDATE "shop_totals" SET "paid_revenue" = "paid_revenue" + delta WHERE "id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_shop_totals" AFTER INSERT OR DELETE OR UPDATE OF "status", "payment_status", "total_amount" ON "orders"
	FOR EACH ROW EXECUTE FUNCTION "shop_totals_on_order_change"();--> statement-breakpoint
CREATE FUNCTION "shop_totals_on_orders_truncate"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN UPDATE "shop_totals" SET "paid_revenue" = 0 WHERE "id"; RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER "orders_shop_totals_truncate" AFTER TRUNCATE ON "orders"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_totals_on_orders_truncate"();
