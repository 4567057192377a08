CREATE TABLE "ach_mandates" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"pay_link_id" text NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	"ip_address" text NOT NULL,
	"user_agent" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pay_challenges" ADD COLUMN "gateway_ref" text;