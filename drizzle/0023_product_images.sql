ALTER TABLE "products" ADD COLUMN "image_urls" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Issue 23: every product that had an image gets it as its one photo (docs/decisions/0033-product-photos.md).
UPDATE "products" SET "image_urls" = ARRAY["image_url"] WHERE "image_url" IS NOT NULL;--> statement-breakpoint
-- A row inserted with image_url alone (a backup made before photos were a list, or code that knows one
-- image) gets it as its one photo, so image_url is always the first of image_urls.
CREATE FUNCTION "products_image_urls_from_image_url"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$ BEGIN
	IF NEW."image_url" IS NOT NULL AND cardinality(NEW."image_urls") = 0 THEN
		NEW."image_urls" := ARRAY[NEW."image_url"];
	END IF;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_image_urls_from_image_url" BEFORE INSERT ON "products"
	FOR EACH ROW EXECUTE FUNCTION "products_image_urls_from_image_url"();--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_image_urls_at_most_ten" CHECK (cardinality("products"."image_urls") <= 10);
