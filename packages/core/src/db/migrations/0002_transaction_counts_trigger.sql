-- Keeps transaction_counts in step with transactions (rows are never deleted, nor moved to another day).
CREATE FUNCTION count_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_counts (merchant_id, day, shard, n)
  VALUES (NEW.merchant_id, (NEW.created_at AT TIME ZONE 'UTC')::date, floor(random() * 16)::smallint, 1)
  ON CONFLICT (merchant_id, day, shard) DO UPDATE SET n = transaction_counts.n + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_count AFTER INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION count_transaction();
--> statement-breakpoint
INSERT INTO transaction_counts (merchant_id, day, shard, n)
SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, 0, count(*) FROM transactions GROUP BY 1, 2;
