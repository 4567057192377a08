-- Which check-deposit provider holds the merchant's account (ach_provider_id): an account counts only
-- with that provider configured. Accounts from before were all made up at approval (the simulator's
-- kind), so they are the simulator's: a production server never takes them for a real vendor's.
ALTER TABLE "merchants" ADD COLUMN "check_deposit_provider" text;--> statement-breakpoint
UPDATE "merchants" SET "check_deposit_provider" = 'simulator' WHERE "ach_provider_id" IS NOT NULL;--> statement-breakpoint
-- Check images in the database: one place to back up, every server sees them.
CREATE TABLE "check_images" (
	"transaction_id" text NOT NULL,
	"side" text NOT NULL,
	"content_type" text NOT NULL,
	"data" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "check_images_transaction_id_side_pk" PRIMARY KEY("transaction_id","side"),
	CONSTRAINT "check_images_side" CHECK ("side" in ('front', 'back')),
	CONSTRAINT "check_images_size" CHECK (octet_length("data") <= 10485760)
);--> statement-breakpoint
ALTER TABLE "check_images" ADD CONSTRAINT "check_images_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;
