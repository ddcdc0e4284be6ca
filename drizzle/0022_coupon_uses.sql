ALTER TABLE "orders" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_use" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_coupon_customer_idx" ON "orders" USING btree ("coupon_id","telegram_user_id") WHERE coupon_id is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_use" CHECK ("orders"."coupon_use" is null or "orders"."coupon_use" in ('held', 'counted', 'released'));--> statement-breakpoint
-- The Coupons screen is live (issue 23): a coupon created, changed, deleted, or a use held, counted or
-- released by a checkout or a payment, tells the browsers to reload it (shop/customers/live-events.ts).
CREATE TRIGGER "coupons_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coupons"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();
