-- data_keys: the wrapped data keys (shop/vault.ts). orders.address: the address as one encrypted
-- envelope; orders.address_search: its blind index tokens, searched through a GIN index.
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
ALTER TABLE "orders" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address_search" text[];--> statement-breakpoint
CREATE UNIQUE INDEX "data_keys_one_current_idx" ON "data_keys" USING btree ("state") WHERE "data_keys"."state" = 'current';--> statement-breakpoint
CREATE INDEX "orders_address_search_idx" ON "orders" USING gin ("address_search");--> statement-breakpoint
CREATE INDEX "orders_retention_idx" ON "orders" USING btree ("closed_at") WHERE "orders"."address" is not null;--> statement-breakpoint
-- Encryption at rest (issue 15; docs/decisions/0024-encryption-at-rest.md). SQL cannot encrypt, so the
-- clear "shipping_address" column is NOT dropped here: the server encrypts its rows into "address" at
-- start (shop/encrypt-existing.ts, under an advisory lock, idempotent) and then drops the column itself.
-- Existing customer messages are encrypted in place by the same pass.
SELECT 1;