-- Every outbox row keeps the Kafka headers it is published with, decided where the row is written:
-- on the public topics, its CloudEvents attributes (ce_id among them), so that a relay publishing
-- the row again after a fault publishes the same ce_id. A JSON object of strings; NULL: none (rows
-- written before this column, and the integration snapshots'). Nullable without a default: adding
-- it rewrites no table.
ALTER TABLE "alert_event_outbox" ADD COLUMN "headers" JSON;
ALTER TABLE "incident_event_outbox" ADD COLUMN "headers" JSON;
ALTER TABLE "oncall_event_outbox" ADD COLUMN "headers" JSON;
ALTER TABLE "integration_snapshot_outbox" ADD COLUMN "headers" JSON;
