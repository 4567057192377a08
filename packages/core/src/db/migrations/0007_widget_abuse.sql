ALTER TABLE "widgets" ALTER COLUMN "completed_transactions_enabled" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "pay_links" ADD COLUMN "via_widget" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_links" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "widgets" ADD COLUMN "completed_transactions_scope" text DEFAULT 'widget' NOT NULL;--> statement-breakpoint
ALTER TABLE "widgets" ADD COLUMN "sms_countries" jsonb DEFAULT '["US","CA"]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "pay_links_expiry_idx" ON "pay_links" USING btree ("expires_at") WHERE status = 'open' and expires_at is not null;--> statement-breakpoint
-- Expired widget links remove their pending sale: the per-day counts drop with it, so the list's
-- total stays the number of rows.
CREATE FUNCTION uncount_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_counts (merchant_id, day, shard, n)
  VALUES (OLD.merchant_id, (OLD.created_at AT TIME ZONE 'UTC')::date, floor(random() * 16)::smallint, -1)
  ON CONFLICT (merchant_id, day, shard) DO UPDATE SET n = transaction_counts.n - 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_uncount AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION uncount_transaction();
