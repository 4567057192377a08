CREATE TABLE "pay_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"pay_link_id" text NOT NULL,
	"status" text NOT NULL,
	"card_enc" text NOT NULL,
	"brand" text NOT NULL,
	"last_four" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "widgets" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"button_text" text NOT NULL,
	"primary_color" text,
	"logo_url" text,
	"request_payment_enabled" boolean DEFAULT true NOT NULL,
	"completed_transactions_enabled" boolean DEFAULT true NOT NULL,
	"max_amount_cents" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pay_links" ADD COLUMN "embed_origin" text;--> statement-breakpoint
ALTER TABLE "pay_links" ADD COLUMN "payment_method_id" text;--> statement-breakpoint
ALTER TABLE "pay_links" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pay_challenges" ADD CONSTRAINT "pay_challenges_pay_link_id_pay_links_id_fk" FOREIGN KEY ("pay_link_id") REFERENCES "public"."pay_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pay_challenges_link_idx" ON "pay_challenges" USING btree ("pay_link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "widgets_merchant_idx" ON "widgets" USING btree ("merchant_id");