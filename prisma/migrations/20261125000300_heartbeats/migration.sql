-- AlterTable (integration-config): an integration may expect a request at least every N minutes
-- (a heartbeat, a dead man's switch); NULL: off.
ALTER TABLE "alert_integrations" ADD COLUMN "heartbeat_interval_minutes" INTEGER;
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_heartbeat_interval_range"
    CHECK ("heartbeat_interval_minutes" IS NULL OR "heartbeat_interval_minutes" BETWEEN 1 AND 1440);

-- CreateTable (alert-processor): per integration, the received time of the latest request the
-- gateway accepted, written in the batch transaction that stores it; and the last request whose
-- silence has raised a heartbeat alert (expired_for), so the checker raises it once per silence.
CREATE TABLE "integration_heartbeats" (
    "integration_id" BIGINT NOT NULL,
    "project_id" BIGINT NOT NULL,
    "last_request_at" TIMESTAMPTZ(3) NOT NULL,
    "expired_for" TIMESTAMPTZ(3),

    CONSTRAINT "integration_heartbeats_pkey" PRIMARY KEY ("integration_id")
);

-- CreateView: what integration-config reads of the processor's table (docs/architecture.md "Data ownership"):
-- the last request time only, read-only.
CREATE VIEW "integration_last_requests" AS
    SELECT "integration_id", "last_request_at" FROM "integration_heartbeats";
