CREATE TABLE "key_fingerprint" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "key_fingerprint_one_row" CHECK ("key_fingerprint"."id")
);
