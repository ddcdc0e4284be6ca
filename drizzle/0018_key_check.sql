CREATE TABLE "key_check" (
	"id" text PRIMARY KEY NOT NULL,
	"proof" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
