ALTER TABLE "telegram_updates" ADD COLUMN "chat_key" text;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
-- Updates recorded before the inbox were handled as they arrived: none of them is waiting.
UPDATE "telegram_updates" SET "handled_at" = "received_at";--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "telegram_updates_pending_idx" ON "telegram_updates" USING btree ("bot_id","chat_key","update_id") WHERE "telegram_updates"."handled_at" is null;