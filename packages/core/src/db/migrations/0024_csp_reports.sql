-- Content-Security-Policy violations reported by merchants' pages (kept for the retention period).
CREATE TABLE "csp_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"blocked_uri" text NOT NULL,
	"directive" text NOT NULL,
	"document_uri" text NOT NULL,
	"disposition" text NOT NULL,
	"remit_resource" boolean NOT NULL,
	"notified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "csp_reports" ADD CONSTRAINT "csp_reports_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csp_reports_merchant_idx" ON "csp_reports" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "csp_reports_blocked_idx" ON "csp_reports" USING btree ("merchant_id","blocked_uri","created_at");--> statement-breakpoint
CREATE INDEX "csp_reports_created_idx" ON "csp_reports" USING btree ("created_at");
