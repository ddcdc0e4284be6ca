DROP INDEX "orders_paid_at_idx";--> statement-breakpoint
CREATE INDEX "orders_status_counted_idx" ON "orders" USING btree ("status") WHERE not "orders"."is_test";--> statement-breakpoint
CREATE INDEX "orders_paid_at_revenue_idx" ON "orders" USING btree ("paid_at","status","payment_status","is_test","total_amount");