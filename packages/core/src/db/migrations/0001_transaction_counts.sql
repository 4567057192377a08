CREATE TABLE "transaction_counts" (
	"merchant_id" text NOT NULL,
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "transaction_counts_merchant_id_day_shard_pk" PRIMARY KEY("merchant_id","day","shard")
);
