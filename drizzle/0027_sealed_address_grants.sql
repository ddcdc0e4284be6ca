CREATE TABLE "account_seal_keys" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"wrapped_private_key" text NOT NULL,
	"salt" text NOT NULL,
	"iterations" integer NOT NULL,
	"key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_seal_keys_iterations_range" CHECK ("account_seal_keys"."iterations" between 600000 and 10000000)
);
--> statement-breakpoint
CREATE TABLE "private_address_grants" (
	"account_id" uuid NOT NULL,
	"owner_key_id" text NOT NULL,
	"sealed_private_key" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "private_address_grants_account_id_owner_key_id_pk" PRIMARY KEY("account_id","owner_key_id")
);
--> statement-breakpoint
ALTER TABLE "account_seal_keys" ADD CONSTRAINT "account_seal_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_address_grants" ADD CONSTRAINT "private_address_grants_account_id_account_seal_keys_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account_seal_keys"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_address_grants" ADD CONSTRAINT "private_address_grants_owner_key_id_owner_seal_keys_key_id_fk" FOREIGN KEY ("owner_key_id") REFERENCES "public"."owner_seal_keys"("key_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_seal_keys_key_id_idx" ON "account_seal_keys" USING btree ("key_id");--> statement-breakpoint
CREATE INDEX "private_address_grants_owner_key_idx" ON "private_address_grants" USING btree ("owner_key_id");