ALTER TABLE "bot_customers" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "bot_customers" ADD COLUMN "language_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_settings" ADD COLUMN "languages" jsonb DEFAULT '["en"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_settings" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_settings" ADD COLUMN "welcome_message_translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_settings" ADD COLUMN "faq_content_translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "text_translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "shown_name" text;--> statement-breakpoint
ALTER TABLE "postage_options" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;