CREATE TABLE "erasure_requests" (
	"telegram_user_id" text PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"address_retention_days" integer DEFAULT 30 NOT NULL,
	"message_retention_days" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_settings_single_row" CHECK ("privacy_settings"."id" = 1),
	CONSTRAINT "privacy_settings_address_days_range" CHECK ("privacy_settings"."address_retention_days" between 0 and 3650),
	CONSTRAINT "privacy_settings_message_days_range" CHECK ("privacy_settings"."message_retention_days" between 0 and 3650)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address_erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_retention_idx" ON "orders" USING btree ("closed_at") WHERE "orders"."shipping_address" is not null;--> statement-breakpoint
-- When an order was completed or failed (issue 15): address retention counts from it. Kept by a
-- trigger so every way an order closes (the owner, the payment webhooks, the expiry job) stamps it;
-- set when the status becomes completed or failed, cleared when it leaves them.
CREATE FUNCTION "orders_stamp_closed_at"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN
	IF NEW.status IN ('completed', 'failed') THEN
		IF TG_OP = 'INSERT' THEN
			NEW.closed_at := coalesce(NEW.closed_at, now());
		ELSIF OLD.status IS DISTINCT FROM NEW.status THEN
			NEW.closed_at := now();
		END IF;
	ELSE
		NEW.closed_at := NULL;
	END IF;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_stamp_closed_at" BEFORE INSERT OR UPDATE OF "status", "closed_at" ON "orders"
	FOR EACH ROW EXECUTE FUNCTION "orders_stamp_closed_at"();--> statement-breakpoint
-- Orders closed before this migration: their last change is the best date there is.
UPDATE "orders" SET "closed_at" = "updated_at" WHERE "status" IN ('completed', 'failed');
