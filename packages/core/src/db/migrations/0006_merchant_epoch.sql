CREATE TABLE "merchant_epoch" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "merchant_epoch_one_row" CHECK ("merchant_epoch"."id")
);
--> statement-breakpoint
INSERT INTO "merchant_epoch" ("id", "epoch") VALUES (true, 0);
--> statement-breakpoint
-- Raised in the transaction that changes merchants, so it commits (and becomes visible) with the
-- change itself: a reader that sees the new epoch sees the new rows. The row lock also orders the
-- writers, so every committed change gets its own epoch. Inserts are left out: a new merchant
-- has a new key, and a lookup that found nothing is never cached.
CREATE FUNCTION bump_merchant_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE merchant_epoch SET epoch = epoch + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER merchants_epoch AFTER UPDATE OR DELETE ON merchants FOR EACH STATEMENT EXECUTE FUNCTION bump_merchant_epoch();
--> statement-breakpoint
CREATE TRIGGER merchants_epoch_truncate AFTER TRUNCATE ON merchants FOR EACH STATEMENT EXECUTE FUNCTION bump_merchant_epoch();
