ALTER TABLE "pay_links" ADD COLUMN "stripe_intent_id" text;--> statement-breakpoint
CREATE INDEX "pay_links_stripe_intent_idx" ON "pay_links" USING btree ("stripe_intent_id") WHERE stripe_intent_id is not null;--> statement-breakpoint
CREATE TABLE "processor_orphans" (
	"gateway_ref" text PRIMARY KEY NOT NULL,
	"pay_link_id" text,
	"amount_cents" bigint NOT NULL,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
