-- Every transactional outbox has the same columns, so one relay (libs/shared/outbox) publishes them
-- all: the Kafka key, the value as JSON text (NULL: a tombstone), and when it was written.

-- AlterTable: alert events keep their Kafka key (`<project_id>:<iid>`) instead of its parts.
ALTER TABLE "alert_event_outbox" ADD COLUMN "key" TEXT;
UPDATE "alert_event_outbox" SET "key" = "project_id"::text || ':' || "iid"::text;
ALTER TABLE "alert_event_outbox"
    ALTER COLUMN "key" SET NOT NULL,
    ALTER COLUMN "value" DROP NOT NULL,
    DROP COLUMN "project_id",
    DROP COLUMN "iid",
    DROP COLUMN "type";

-- CreateTable: integration snapshots written in the transaction of the change, published to the
-- compacted integrations.v1 topic (key: the integration id; NULL value: the integration was deleted).
CREATE TABLE "integration_snapshot_outbox" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSON,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integration_snapshot_outbox_pkey" PRIMARY KEY ("id")
);
