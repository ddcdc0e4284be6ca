CREATE TABLE "product_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"option_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"sku" text,
	"price" numeric(10, 2),
	"stock" integer DEFAULT 0 NOT NULL,
	"image_url" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_stock_nonnegative" CHECK ("product_variants"."stock" >= 0)
);
--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_variants_product_id_idx" ON "product_variants" USING btree ("product_id","position");--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Issue 23 (docs/decisions/0034-product-variants.md): every product gets its hidden default variant,
-- whose id is the product's own, holding the product's stock. Nothing else about a product changes.
INSERT INTO "product_variants" ("id", "product_id", "stock", "is_active", "created_at", "updated_at")
	SELECT "id", "id", "stock", true, "created_at", "updated_at" FROM "products";--> statement-breakpoint
-- products.stock is the sum over the product's active variants, whatever code path writes a variant.
-- The product row is locked first, so the sum is read after any other writer of its variants committed
-- (a plpgsql statement in READ COMMITTED reads a fresh snapshot).
CREATE FUNCTION "product_variants_stock"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
DECLARE
	target uuid;
BEGIN
	FOR target IN SELECT DISTINCT x FROM unnest(ARRAY[
		CASE WHEN TG_OP <> 'DELETE' THEN NEW."product_id" END,
		CASE WHEN TG_OP <> 'INSERT' THEN OLD."product_id" END]) AS x WHERE x IS NOT NULL
	LOOP
		PERFORM 1 FROM "products" WHERE "id" = target FOR UPDATE;
		UPDATE "products" SET "stock" = (
			SELECT coalesce(sum("stock"), 0) FROM "product_variants" WHERE "product_id" = target AND "is_active")
		WHERE "id" = target;
	END LOOP;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_variants_stock" AFTER INSERT OR DELETE OR UPDATE OF "stock", "is_active", "product_id" ON "product_variants"
	FOR EACH ROW EXECUTE FUNCTION "product_variants_stock"();--> statement-breakpoint
-- Rows written without a variant (a backup from before variants) mean the product's default variant.
CREATE FUNCTION "variant_id_from_product_id"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN
	IF NEW."variant_id" IS NULL THEN
		NEW."variant_id" := NEW."product_id";
	END IF;
	RETURN NEW;
END $$;--> statement-breakpoint
DROP INDEX "cart_items_user_product_idx";--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
UPDATE "cart_items" SET "variant_id" = "product_id";--> statement-breakpoint
ALTER TABLE "cart_items" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_user_variant_idx" ON "cart_items" USING btree ("telegram_user_id","variant_id");--> statement-breakpoint
CREATE TRIGGER "cart_items_variant_id" BEFORE INSERT ON "cart_items"
	FOR EACH ROW EXECUTE FUNCTION "variant_id_from_product_id"();--> statement-breakpoint
ALTER TABLE "restock_waits" DROP CONSTRAINT "restock_waits_product_id_telegram_user_id_pk";--> statement-breakpoint
ALTER TABLE "restock_waits" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
UPDATE "restock_waits" SET "variant_id" = "product_id";--> statement-breakpoint
ALTER TABLE "restock_waits" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "restock_waits" ADD CONSTRAINT "restock_waits_variant_id_telegram_user_id_pk" PRIMARY KEY("variant_id","telegram_user_id");--> statement-breakpoint
CREATE INDEX "restock_waits_product_id_idx" ON "restock_waits" USING btree ("product_id");--> statement-breakpoint
CREATE TRIGGER "restock_waits_variant_id" BEFORE INSERT ON "restock_waits"
	FOR EACH ROW EXECUTE FUNCTION "variant_id_from_product_id"();--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_label" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "sku" text;--> statement-breakpoint
-- Past lines were of the default variant: a pending order's stock goes back to it when it fails.
UPDATE "order_items" SET "variant_id" = "product_id";
--> statement-breakpoint
-- Low-stock alerts name what runs low: a product without options as before (its stock is its default
-- variant's), a product with options by the variant that fell to the product's threshold.
CREATE OR REPLACE FUNCTION "owner_alerts_on_stock_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF NEW."options" = '[]'::jsonb AND NEW."stock" < OLD."stock" AND NEW."stock" <= NEW."low_stock_threshold" AND OLD."stock" > OLD."low_stock_threshold" THEN
		INSERT INTO "owner_alerts" ("kind", "ref", "payload")
			VALUES ('low_stock', NEW."id"::text || ':' || txid_current()::text,
				jsonb_build_object('productId', NEW."id", 'name', NEW."name", 'stock', NEW."stock", 'threshold', NEW."low_stock_threshold"))
			ON CONFLICT ("kind", "ref") DO NOTHING;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "owner_alerts_on_variant_stock_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
DECLARE
	product record;
BEGIN
	IF NEW."label" <> '' AND NEW."is_active" AND NEW."stock" < OLD."stock" THEN
		SELECT "name", "low_stock_threshold" AS threshold INTO product FROM "products" WHERE "id" = NEW."product_id";
		IF FOUND AND NEW."stock" <= product.threshold AND OLD."stock" > product.threshold THEN
			INSERT INTO "owner_alerts" ("kind", "ref", "payload")
				VALUES ('low_stock', NEW."id"::text || ':' || txid_current()::text,
					jsonb_build_object('productId', NEW."product_id", 'variantId', NEW."id",
						'name', product."name" || ' (' || NEW."label" || ')', 'sku', NEW."sku",
						'stock', NEW."stock", 'threshold', product.threshold))
				ON CONFLICT ("kind", "ref") DO NOTHING;
		END IF;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_variants_owner_alerts" AFTER UPDATE OF "stock" ON "product_variants"
	FOR EACH ROW EXECUTE FUNCTION "owner_alerts_on_variant_stock_change"();
--> statement-breakpoint
-- A variant's change is a change of its product for the caches of what the bot reads (0006).
CREATE FUNCTION "product_variants_notify_change"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN PERFORM pg_notify('shop_changes', 'products'); RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER "product_variants_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_variants"
	FOR EACH STATEMENT EXECUTE FUNCTION "product_variants_notify_change"();
--> statement-breakpoint
-- Every product is born with its hidden default variant, whichever code inserts it; a restore
-- (shop.restoring) brings the variants from the backup instead (server/backup/restore.ts).
CREATE FUNCTION "products_default_variant"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN
	IF coalesce(current_setting('shop.restoring', true), '') <> 'on' AND NEW."options" = '[]'::jsonb THEN
		INSERT INTO "product_variants" ("id", "product_id", "stock", "created_at", "updated_at")
			VALUES (NEW."id", NEW."id", NEW."stock", NEW."created_at", NEW."updated_at")
			ON CONFLICT ("id") DO NOTHING;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_default_variant" AFTER INSERT ON "products"
	FOR EACH ROW EXECUTE FUNCTION "products_default_variant"();--> statement-breakpoint
-- A statement that sets a product's stock itself (not through its variants) sets its default
-- variant's; a product with options has no stock of its own to set.
CREATE FUNCTION "products_stock_to_default_variant"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN
	IF pg_trigger_depth() = 1 AND NEW."stock" IS DISTINCT FROM OLD."stock" THEN
		IF NEW."options" <> '[]'::jsonb THEN
			RAISE EXCEPTION 'the stock of a product with options is the sum of its variants'' stock'
				USING ERRCODE = 'check_violation', CONSTRAINT = 'products_stock_of_variants';
		END IF;
		UPDATE "product_variants" SET "stock" = NEW."stock", "updated_at" = now()
			WHERE "product_id" = NEW."id" AND "label" = '' AND "stock" <> NEW."stock";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_stock_to_default_variant" AFTER UPDATE OF "stock" ON "products"
	FOR EACH ROW EXECUTE FUNCTION "products_stock_to_default_variant"();
