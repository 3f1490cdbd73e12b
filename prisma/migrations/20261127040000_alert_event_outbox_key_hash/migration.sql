-- Alert events are published by one relay per shard, the shard of a row being key_hash modulo the
-- shard count (EVENT_RELAY_SHARDS). The hash is the first 32 bits of the key's MD5, unsigned: the
-- same for every row of one alert, computed by PostgreSQL for every writer (a generated column, so
-- rows already waiting get theirs with this migration), and stable across PostgreSQL versions.
ALTER TABLE "alert_event_outbox"
  ADD COLUMN "key_hash" BIGINT NOT NULL GENERATED ALWAYS AS ((('x' || left(md5("key"), 8))::bit(32)::bigint)) STORED;
