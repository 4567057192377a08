ALTER TABLE "merchants" ADD COLUMN "verification" jsonb;--> statement-breakpoint
CREATE TABLE "verification_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"return_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "verification_links_merchant_idx" ON "verification_links" USING btree ("merchant_id");
