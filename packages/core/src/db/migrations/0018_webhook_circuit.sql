ALTER TABLE "clients" ADD COLUMN "webhook_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "webhook_slow_since" timestamp with time zone;
