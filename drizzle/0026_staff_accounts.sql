CREATE TABLE "account_invites" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "account_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text,
	"disabled" boolean DEFAULT false NOT NULL,
	"totp_secret" text,
	"totp_enabled" boolean DEFAULT false NOT NULL,
	"totp_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_role_check" CHECK ("accounts"."role" in ('owner', 'manager', 'packer', 'support')),
	CONSTRAINT "accounts_username_check" CHECK ("accounts"."username" = lower("accounts"."username") and length("accounts"."username") between 2 and 32)
);
--> statement-breakpoint
CREATE TABLE "team_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"require_two_factor" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_settings_one_row" CHECK ("team_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "account_username" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "totp_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_invites" ADD CONSTRAINT "account_invites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_recovery_codes" ADD CONSTRAINT "account_recovery_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_invites_account_idx" ON "account_invites" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "account_recovery_codes_account_idx" ON "account_recovery_codes" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_username_idx" ON "accounts" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_one_owner_idx" ON "accounts" USING btree ("role") WHERE role = 'owner';--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_account_idx" ON "audit_log" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_id_idx" ON "sessions" USING btree ("id");--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id");--> statement-breakpoint
-- Issue 25: the one admin password becomes the owner's account, and the sessions open today stay
-- open as the owner's (they were signed in with that password). team_settings has no row until the
-- owner saves it: none means two-factor is not required (a restore needs an empty database).
INSERT INTO "accounts" ("username", "name", "role", "password_hash")
  SELECT 'owner', 'Owner', 'owner', "password_hash" FROM "admin_credentials" WHERE "id" = 1;--> statement-breakpoint
UPDATE "sessions" SET "account_id" = (SELECT "id" FROM "accounts" WHERE "role" = 'owner');--> statement-breakpoint
DROP TABLE "admin_credentials" CASCADE;
