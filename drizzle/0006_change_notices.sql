-- Change notices for the in-process caches of what the bot reads on every update (issue 12;
-- server/shop/read-cache.ts): after each statement that writes one of these tables, a notice on
-- the shop_changes channel names the table. PostgreSQL delivers it when the transaction commits, to
-- every listening connection: every server instance drops what it cached of that table.
CREATE FUNCTION "shop_notify_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN PERFORM pg_notify('shop_changes', TG_TABLE_NAME); RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER "bot_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "bot_settings"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();--> statement-breakpoint
CREATE TRIGGER "categories_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();--> statement-breakpoint
CREATE TRIGGER "products_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products"
	FOR EACH STATEMENT EXECUTE FUNCTION "shop_notify_change"();
