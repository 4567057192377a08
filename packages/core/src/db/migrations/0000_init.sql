CREATE TABLE "clients" (
	"id" text PRIMARY KEY NOT NULL,
	"env" text NOT NULL,
	"secret_hash" text NOT NULL,
	"webhook_url" text,
	"webhook_secret_enc" text,
	"webhook_disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text,
	"email" text,
	"phone_number" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"merchant_id" text,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"client_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"response_body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_client_id_key_pk" PRIMARY KEY("client_id","key")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"status" text NOT NULL,
	"businessname" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phonenumber" text NOT NULL,
	"website" text NOT NULL,
	"merchant_key_hash" text NOT NULL,
	"merchant_key_enc" text NOT NULL,
	"public_key" text NOT NULL,
	"business_info" jsonb NOT NULL,
	"owner_info" jsonb NOT NULL,
	"processing_info" jsonb NOT NULL,
	"bank_name" text NOT NULL,
	"routing_number" text NOT NULL,
	"account_number_enc" text NOT NULL,
	"account_last4" text NOT NULL,
	"ein_enc" text NOT NULL,
	"ssn_enc" text NOT NULL,
	"ach_provider_id" text,
	"card_fee_rate_e7" integer NOT NULL,
	"card_fee_fixed_cents" integer NOT NULL,
	"ach_fee_rate_e7" integer NOT NULL,
	"ach_fee_cap_cents" integer NOT NULL,
	"max_amount_cents" bigint NOT NULL,
	"clock_offset_ms" bigint DEFAULT 0 NOT NULL,
	"join_date" timestamp with time zone NOT NULL,
	"approved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body_text" text NOT NULL,
	"body_html" text,
	"pay_link_id" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"lease_id" text
);
--> statement-breakpoint
CREATE TABLE "pay_links" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"order_id" text NOT NULL,
	"invoice_number" text,
	"amount_cents" bigint NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"surcharge_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"allow_card" boolean NOT NULL,
	"allow_ach" boolean NOT NULL,
	"preauth" boolean DEFAULT false NOT NULL,
	"pass_fee" boolean DEFAULT false NOT NULL,
	"require_3ds" boolean DEFAULT false NOT NULL,
	"is_request_card" boolean DEFAULT false NOT NULL,
	"description" text,
	"customer_name" text,
	"email" text,
	"phone_number" text,
	"customer_id" integer,
	"sub_merchant_key" text,
	"sales_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"merchant_id" text NOT NULL,
	"type" text NOT NULL,
	"is_default" boolean NOT NULL,
	"brand" text,
	"last4" text NOT NULL,
	"exp_month" smallint,
	"exp_year" smallint,
	"number_enc" text NOT NULL,
	"routing_number" text,
	"account_type" text,
	"holder_name" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"type" text NOT NULL,
	"payment_method" text NOT NULL,
	"is_status" smallint NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"authorized_cents" bigint,
	"fee_cents" bigint NOT NULL,
	"fee_rate_e7" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"settled" boolean DEFAULT false NOT NULL,
	"settled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"linked_txn_id" text,
	"pay_link_id" text,
	"customer_id" integer,
	"payment_method_id" text,
	"order_id" text,
	"invoice_number" text,
	"order_createdfrom" text NOT NULL,
	"gateway_ref" text,
	"auth_code" text DEFAULT '' NOT NULL,
	"card_brand" text DEFAULT '' NOT NULL,
	"last_four" text DEFAULT '' NOT NULL,
	"decline_reason" text,
	"deposit_info" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"url" text NOT NULL,
	"status" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"lease_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_links" ADD CONSTRAINT "pay_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_merchant_idx" ON "customers" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "events_client_idx" ON "events" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("created_at") WHERE dispatched_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_key_hash_idx" ON "merchants" USING btree ("merchant_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_public_key_idx" ON "merchants" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "merchants_client_idx" ON "merchants" USING btree ("client_id","join_date");--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "pay_links_merchant_idx" ON "pay_links" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_links_request_order_idx" ON "pay_links" USING btree ("merchant_id","order_id") WHERE kind = 'request';--> statement-breakpoint
CREATE INDEX "payment_methods_customer_idx" ON "payment_methods" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "transactions_merchant_created_idx" ON "transactions" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_linked_idx" ON "transactions" USING btree ("linked_txn_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_client_idx" ON "webhook_deliveries" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status in ('pending', 'retrying');