CREATE TABLE "ach_mandates" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"pay_link_id" text NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	"ip_address" text NOT NULL,
	"user_agent" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processor_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"gateway_ref" text NOT NULL,
	"amount_cents" bigint,
	"reference" text,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "pay_challenges" ADD COLUMN "gateway_ref" text;--> statement-breakpoint
CREATE INDEX "processor_calls_unconfirmed_idx" ON "processor_calls" USING btree ("created_at") WHERE status = 'unconfirmed';--> statement-breakpoint
CREATE INDEX "transactions_processing_idx" ON "transactions" USING btree ("created_at") WHERE is_status = 7;--> statement-breakpoint
CREATE INDEX "transactions_ach_pending_idx" ON "transactions" USING btree ("updated_at") WHERE is_status = 0 and payment_method = 'ach' and gateway_ref is not null;