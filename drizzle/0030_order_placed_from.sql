-- Where an order was placed (contract/orders.ts ORDER_CHANNELS): the bot's chat or the Mini App storefront.
-- Orders from before are taken as the bot's: an order failed without a payment then goes back to the
-- bot's cart as before; the storefront's checkout sets "storefront" from now on.
ALTER TABLE "orders" ADD COLUMN "placed_from" text DEFAULT 'bot' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_placed_from" CHECK ("orders"."placed_from" in ('bot', 'storefront'));