-- Encryption at rest (issue 15; docs/decisions/0024-encryption-at-rest.md). data_keys: the data keys,
-- wrapped by the master key (shop/vault.ts). orders.address: the address as one encrypted envelope;
-- orders.address_search and customer_messages.search_tokens: blind index tokens behind GIN indexes.
CREATE TABLE "data_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"wrapped" text,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "orders_name_search_idx";--> statement-breakpoint
DROP INDEX "orders_postcode_search_idx";--> statement-breakpoint
DROP INDEX "orders_retention_idx";--> statement-breakpoint
ALTER TABLE "customer_messages" ADD COLUMN "search_tokens" text[];--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address_search" text[];--> statement-breakpoint
CREATE UNIQUE INDEX "data_keys_one_current_idx" ON "data_keys" USING btree ("state") WHERE "data_keys"."state" = 'current';--> statement-breakpoint
CREATE INDEX "customer_messages_search_tokens_idx" ON "customer_messages" USING gin ("search_tokens") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "orders_address_search_idx" ON "orders" USING gin ("address_search") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "orders_retention_idx" ON "orders" USING btree ("closed_at") WHERE "orders"."address" is not null;--> statement-breakpoint
-- SQL cannot encrypt: a shop that has addresses keeps its clear "shipping_address" column until the
-- server encrypts its rows into "address" at start (shop/encrypt-existing.ts: one transaction under an
-- advisory lock, idempotent), which then drops the column. Without any address, it goes now. Customer
-- messages written before (search_tokens null) are encrypted in place by the same pass.
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM "orders" WHERE "shipping_address" IS NOT NULL) THEN
		ALTER TABLE "orders" DROP COLUMN "shipping_address";
	END IF;
END $$;