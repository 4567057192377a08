ALTER TABLE "clients" ADD COLUMN "webhook_previous_secret_enc" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "webhook_previous_secret_until" timestamp with time zone;
