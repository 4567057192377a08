ALTER TABLE "messages" ADD COLUMN "provider_id" text;--> statement-breakpoint
CREATE INDEX "messages_provider_id_idx" ON "messages" USING btree ("provider_id");