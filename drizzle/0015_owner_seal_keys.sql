CREATE TABLE "owner_seal_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"wrapped_private_key" text NOT NULL,
	"salt" text NOT NULL,
	"iterations" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"passphrase_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "owner_seal_keys_iterations_range" CHECK ("owner_seal_keys"."iterations" between 600000 and 10000000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "owner_seal_keys_one_in_use_idx" ON "owner_seal_keys" USING btree (("retired_at" is null)) WHERE "owner_seal_keys"."retired_at" is null;