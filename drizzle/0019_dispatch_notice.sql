ALTER TABLE "orders" ADD COLUMN "dispatch_notice_state" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispatch_notice_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispatch_notice_note" text;--> statement-breakpoint
CREATE INDEX "orders_dispatch_notice_due_idx" ON "orders" USING btree ("dispatch_notice_due_at") WHERE dispatch_notice_state = 'held';