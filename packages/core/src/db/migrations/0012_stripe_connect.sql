ALTER TABLE "merchants" ADD COLUMN "stripe_account_id" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "agreement_token_hash" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "agreement_signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "agreement_ip" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "agreement_user_agent" text;--> statement-breakpoint
ALTER TABLE "processor_calls" ADD COLUMN "application_fee_cents" bigint;--> statement-breakpoint
ALTER TABLE "processor_calls" ADD COLUMN "return_fee" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "dispute_id" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "dispute_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_stripe_account_idx" ON "merchants" USING btree ("stripe_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_agreement_token_idx" ON "merchants" USING btree ("agreement_token_hash");