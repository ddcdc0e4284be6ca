DROP INDEX "customer_messages_created_at_idx";--> statement-breakpoint
DROP INDEX "orders_status_created_at_idx";--> statement-breakpoint
DROP INDEX "orders_created_at_idx";--> statement-breakpoint
DROP INDEX "customer_messages_user_idx";--> statement-breakpoint
CREATE INDEX "customer_messages_created_at_id_idx" ON "customer_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "customer_messages_sender_created_at_id_idx" ON "customer_messages" USING btree ("is_from_customer","created_at","id");--> statement-breakpoint
CREATE INDEX "customer_messages_unread_idx" ON "customer_messages" USING btree ("created_at","id") WHERE "customer_messages"."is_from_customer" and not "customer_messages"."is_read";--> statement-breakpoint
CREATE INDEX "customer_messages_username_search_idx" ON "customer_messages" USING btree (lower("telegram_username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_status_created_at_id_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_created_at_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_total_id_idx" ON "orders" USING btree ("status","total_amount","id");--> statement-breakpoint
CREATE INDEX "orders_total_id_idx" ON "orders" USING btree ("total_amount","id");--> statement-breakpoint
CREATE INDEX "orders_username_search_idx" ON "orders" USING btree (lower("telegram_username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_name_search_idx" ON "orders" USING btree (lower("shipping_address" ->> 'name') text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_postcode_search_idx" ON "orders" USING btree (upper(replace("shipping_address" ->> 'postcode', ' ', '')) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "products_created_at_id_idx" ON "products" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "customer_messages_user_idx" ON "customer_messages" USING btree ("telegram_user_id","created_at","id");