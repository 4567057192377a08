ALTER TABLE "key_fingerprint" DROP CONSTRAINT "key_fingerprint_one_row";--> statement-breakpoint
ALTER TABLE "key_fingerprint" DROP CONSTRAINT "key_fingerprint_pkey";--> statement-breakpoint
ALTER TABLE "key_fingerprint" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "key_fingerprint" ADD PRIMARY KEY ("fingerprint");--> statement-breakpoint
ALTER TABLE "key_fingerprint" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "key_fingerprint" ADD COLUMN "mac_key_enc" text;
